#include <errno.h>
#include <math.h>
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

const char *report_pct_label(unsigned i, char *buf, size_t len)
{
	snprintf(buf, len, "p%g", i < STATS_NPCT ? stats_pcts[i] : 0.0);
	return buf;
}

const char *report_error(const struct result *r)
{
	if (r->errmsg[0])
		return r->errmsg;
	if (r->error)
		return strerror(r->error < 0 ? -r->error : r->error);
	return NULL;
}

void report_csv_field(FILE *f, const char *s)
{
	if (!s)
		return;
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

const char *report_fmt_us(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, v < 10 ? "%.3f" : "%.1f", v);
	return buf;
}

static double per_second(double v, double seconds)
{
	return seconds > 0 ? v / seconds : 0;
}

void report_point_rates(const struct series_point *p, struct report_rates *r)
{
	double bytes = (double)(p->read_bytes + p->write_bytes);

	r->iops = per_second((double)(p->read_ios + p->write_ios), p->seconds);
	r->read_iops = per_second((double)p->read_ios, p->seconds);
	r->write_iops = per_second((double)p->write_ios, p->seconds);
	r->mibps = per_second(bytes / 1048576.0, p->seconds);
	r->mbps = per_second(bytes / 1e6, p->seconds);
}
