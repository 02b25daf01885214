#ifndef IORATE_TESTS_FUZZ_COMPAT_H
#define IORATE_TESTS_FUZZ_COMPAT_H
/* What the DiskSpd and SQLIO fuzz targets check of a translation, the same for both. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_compat.h"
#include "compat/compat.h"
#include "core/job.h"

/* What the option table of 'iorate run' lets through, which every setting goes through. */
static inline bool fuzz_within_table(const struct job *j)
{
	return j->bs >= 1 && j->bs <= 1ull << 30 && j->threads >= 1 &&
	       j->threads <= JOB_MAX_THREADS && j->depth >= 1 && j->depth <= JOB_MAX_DEPTH &&
	       j->write_pct <= 100 &&
	       (j->time_ns >= 1 || j->io_bytes || j->ios_per_thread || j->until_full) &&
	       j->ntargets >= 1;
}

/*
 * Translates argv with parse through the option table: a job it makes holds only what the table
 * allows, and a refusal says why and blames the input (a word holds no space, so no value can
 * read ": internal: ").
 */
static inline void fuzz_translate(compat_translator parse, int argc, char **argv, FILE *ex)
{
	char err[512], equiv[2048];
	struct job j;

	job_init(&j);
	if (compat_cli_translate(parse, argc, argv, &j, ex, err, sizeof(err)) == 0) {
		compat_run_equivalent(&j, equiv, sizeof(equiv));
		if (!fuzz_within_table(&j))
			abort();
	} else if (!err[0] || strstr(err, ": internal: ")) {
		abort();
	}
	job_release(&j);
}

/*
 * The same for a translator of several jobs (DiskSpd): every job it makes holds only what the
 * table allows, is named when there are several, and the groups never go back. in_values:
 * the input may put spaces in a value (an XML profile), so a refusal may quote ": internal: ".
 */
static inline void fuzz_translate_jobs(compat_jobs_translator parse, int argc, char **argv,
				       FILE *ex, bool in_values)
{
	char err[4096], equiv[2048];
	struct job_list jobs;

	job_list_init(&jobs);
	if (compat_cli_translate_jobs(parse, argc, argv, &jobs, ex, err, sizeof(err)) == 0) {
		if (!jobs.n)
			abort();
		for (unsigned i = 0; i < jobs.n; i++) {
			const struct job *j = &jobs.jobs[i];
			compat_run_equivalent(j, equiv, sizeof(equiv));
			if (!fuzz_within_table(j) || (jobs.n > 1 && !j->name) ||
			    (i && j->group < jobs.jobs[i - 1].group))
				abort();
		}
	} else if (!err[0] || (!in_values && strstr(err, ": internal: "))) {
		abort();
	}
	job_list_release(&jobs);
}

#endif
