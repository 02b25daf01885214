#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/summary.h"

static const struct report_ops *const reports[] = {
	&report_text,
	&report_json,
	&report_csv,
};

const struct report_ops *report_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < sizeof(reports) / sizeof(reports[0]); i++)
		if (strcmp(reports[i]->name, name) == 0)
			return reports[i];
	return NULL;
}

const char *const report_dir_names[REPORT_NDIR] = { "read", "write", "total" };

/* The total's histogram is 35 KB; it lives on the heap so reports stay light on the stack. */
int report_summarize(const struct dir_stats *rd, const struct dir_stats *wr, double seconds,
		     struct dir_summary s[REPORT_NDIR])
{
	struct dir_stats *t = malloc(sizeof(*t));

	if (!t)
		return -ENOMEM;
	result_dir_total(rd, wr, t);
	dir_stats_summarize(rd, seconds, &s[REPORT_READ]);
	dir_stats_summarize(wr, seconds, &s[REPORT_WRITE]);
	dir_stats_summarize(t, seconds, &s[REPORT_TOTAL]);
	free(t);
	return 0;
}

double report_pct(const struct dir_summary *s, unsigned i)
{
	const double v[STATS_NPCT] = { s->p50, s->p90, s->p99, s->p99_9, s->p99_99, s->p99_999 };

	return i < STATS_NPCT ? v[i] : 0;
}

const char *report_error(const struct result *r)
{
	if (r->errmsg[0])
		return r->errmsg;
	if (r->error)
		return strerror(r->error < 0 ? -r->error : r->error);
	return NULL;
}
