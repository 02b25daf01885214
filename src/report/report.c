#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/summary.h"
#include "util/escape.h"
#include "util/jsonout.h"

const char *const report_dir_names[REPORT_NDIR] = { "read", "write", "total" };

int report_write_set(const struct report_ops *ops, FILE *f, const struct result_set *s,
		     const struct report_opts *o)
{
	return s->njobs == 1 ? ops->write(f, &s->jobs[0], o) : ops->write_set(f, s, o);
}

int report_summarize(const struct dir_stats *rd, const struct dir_stats *wr,
		     const struct dir_stats *tr, double seconds, struct dir_summary s[REPORT_NDIR])
{
	return result_summarize(rd, wr, tr, seconds, s);
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
	/*
	 * Control characters print escaped (ESC as \x1b), as in the text reports: a CSV shown on
	 * a terminal cannot move the cursor or clear the screen. Out of memory, "?" stands in.
	 */
	char *e = s ? escape_dup(s) : NULL;
	const char *t = e ? e : "?";

	if (!s)
		return;
	if (!t[strcspn(t, ",\"")]) {
		fputs(t, f);
	} else {
		fputc('"', f);
		for (; *t; t++) {
			if (*t == '"')
				fputc('"', f);
			fputc(*t, f);
		}
		fputc('"', f);
	}
	free(e);
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

const char *report_fmt_interval(uint64_t ns, char *buf, size_t len)
{
	if (ns && ns % 1000000000ull == 0)
		snprintf(buf, len, "%llu s", (unsigned long long)(ns / 1000000000ull));
	else if (ns % 1000000ull == 0)
		snprintf(buf, len, "%llu ms", (unsigned long long)(ns / 1000000ull));
	else
		snprintf(buf, len, "%.3f ms", (double)ns / 1e6);
	return buf;
}

int report_json_dump(FILE *f, const json_t *v)
{
	int r;

	if (!v)
		return -ENOMEM;
	if ((r = jsonout_dumpf(v, f, JSON_INDENT(2))))
		return r;
	return fputc('\n', f) == EOF || fflush(f) ? -EIO : 0;
}
