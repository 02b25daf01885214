/*
 * The bottom of the HTML report's family (html_int.h): cells, latencies, the run's summary and
 * the chart and rate helpers that html.c, html_docs.c and html_devices.c share.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/chart.h"
#include "report/html.h"
#include "report/html_int.h"
#include "report/text.h"
#include "util/parse.h"

const char *page_unit(const struct page *pg)
{
	return pg->o->si ? "MB/s" : "MiB/s";
}

double page_rate(const struct page *pg, const struct dir_summary *s)
{
	return pg->o->si ? s->mbps : s->mibps;
}

/* The chart in the page; as a standalone document to o->chart, whose first failure stops it. */
void page_chart(struct page *pg, const struct chart *c, const char *name)
{
	char *buf = NULL;
	size_t len = 0;
	struct chart named = *c;
	char title[1024];
	FILE *m;
	int rc;

	named.id = name;
	/* A chart of a run says which, in the page and as a PNG alone: its number and command. */
	if (pg->run) {
		snprintf(title, sizeof(title), "%s \xe2\x80\x94 %s", c->title, pg->run);
		named.title = title;
	}
	if ((rc = chart_svg(pg->f, &named, false, NULL)) && !pg->err)
		pg->err = rc;
	if (!pg->o->chart || pg->err)
		return;
	if (!(m = open_memstream(&buf, &len))) {
		pg->err = -ENOMEM;
		return;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", m);
	rc = chart_svg(m, &named, true, NULL);
	if (fclose(m) || rc)
		pg->err = rc ? rc : -ENOMEM;
	else if (len > 60)
		pg->err = pg->o->chart(pg->o->arg, name, buf, len);
	free(buf);
}

/* A figure in a table cell: "-" when unknown. */
void html_cell(FILE *f, const char *fmt, double v)
{
	fputs("<td>", f);
	if (isfinite(v))
		fprintf(f, fmt, v);
	else
		fputs("-", f);
	fputs("</td>", f);
}

void html_cell_us(FILE *f, double v)
{
	char b[32];

	fprintf(f, "<td>%s</td>", report_fmt_us(v, b, sizeof(b)));
}

void html_date_at(uint64_t ms, char *buf, size_t len)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M:%S %Z", &tm))
		snprintf(buf, len, "-");
}

double html_lat(const struct dir_summary *s, double v)
{
	return s->has_lat ? v : NAN;
}

int html_run_summary(const struct result_set *set, struct dir_summary s[REPORT_NDIR])
{
	const struct result *r = &set->jobs[0];
	const struct result_sum *t = &set->total;

	if (!set->njobs)
		return -EINVAL;
	return set->njobs == 1 ? report_summarize(&r->read, &r->write, &r->trim, r->seconds, s)
			       : report_summarize(&t->read, &t->write, &t->trim, t->seconds, s);
}
