/* libFuzzer target: the value parsers never crash, and what they accept round-trips sanely. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/job.h"
#include "util/parse.h"
#include "util/suggest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	uint64_t v, *list;
	unsigned u;
	double d;
	size_t n;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	parse_size(s, &v);
	parse_duration(s, &v);
	parse_percent(s, &u);
	parse_double(s, 0, 1e18, &d);
	/* Counts and rates with k/M/G: within the bounds asked, and a rate is a finite number. */
	if (parse_count(s, 10, 1000000, &v) == 0 && (v < 10 || v > 1000000))
		abort();
	if (parse_amount(s, 0, 1e12, &d) == 0 && !(d >= 0 && d <= 1e12))
		abort();
	/* The closest word never overruns its buffer and names a candidate or nothing. */
	struct suggest sg;
	char near[16];
	suggest_init(&sg, s);
	suggest_add_words(&sg, "depth bs threads randread io_uring libaio northeurope GBP");
	suggest_add(&sg, s, "x");
	if (strlen(suggest_tail(&sg, "--", near, sizeof(near))) >= sizeof(near))
		abort();
	if (parse_list(s, size & 1, &list, &n) == 0) {
		if (n == 0 || n > 4096)
			abort();
		free(list);
	}
	/* The job's written shapes: what they accept stays within the job's bounds. */
	struct job j;
	const char *why;
	job_init(&j);
	if (job_parse_bssplit(&j, s, &why) == 0 &&
	    (j.nbs_read > JOB_MAX_BS || j.nbs_write > JOB_MAX_BS || (!j.nbs_read && !j.nbs_write)))
		abort();
	if (job_parse_dist(&j, s, &why) == 0 && j.nzones > JOB_MAX_ZONES)
		abort();
	char err[256];
	(void)job_validate(&j, err, sizeof(err));
	job_release(&j);
	free(s);
	return 0;
}
