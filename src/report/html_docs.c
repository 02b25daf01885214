/*
 * The sections of an HTML page (report/html.h) about several runs together: the comparison of
 * unrelated runs, a sweep's figures against the value it swept with its load-latency curve,
 * and a mark's tests side by side.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/html_int.h"
#include "util/parse.h"

/* One run's line of the comparison table (of several jobs, their total); v gets its IOPS,
 * throughput and read and write p99. */
static void comparison_row(struct page *pg, size_t i, double v[4])
{
	const struct result_set *set = &pg->in->runs[i].run;
	const struct result *r = &set->jobs[0];
	struct dir_summary s[REPORT_NDIR];
	char date[64], sz[32], num[32];
	FILE *f = pg->f;

	if (html_run_summary(set, s))
		memset(s, 0, sizeof(s));
	v[0] = s[REPORT_TOTAL].iops;
	v[1] = page_rate(pg, &s[REPORT_TOTAL]);
	v[2] = html_lat(&s[REPORT_READ], s[REPORT_READ].p99);
	v[3] = html_lat(&s[REPORT_WRITE], s[REPORT_WRITE].p99);
	html_date_at(result_set_start_ms(set), date, sizeof(date));
	fprintf(f, "<tr><td class=\"l\">%s</td><td class=\"l\"><a href=\"#run-%zu\">",
		html_run_number(pg->in, i, num, sizeof(num)), i + 1);
	xml_esc(f, pg->names[i]);
	fprintf(f, "</a></td><td class=\"l\">%s</td><td class=\"l\">", date);
	xml_esc(f, r->host.hostname);
	if (set->njobs > 1)
		fprintf(f, "</td><td class=\"l\">%u jobs in %u group%s</td>", set->njobs,
			set->ngroups, set->ngroups == 1 ? "" : "s");
	else
		fprintf(f, "</td><td class=\"l\">%s %s, %u%% writes, T%u Q%u</td>",
			fmt_size(r->job.bs, sz, sizeof(sz)),
			r->job.pattern == PATTERN_SEQUENTIAL ? "seq" : "random", r->job.write_pct,
			r->job.threads, r->job.depth);
	html_cell(f, "%.1f", v[0]);
	html_cell(f, "%.2f", v[1]);
	html_cell_us(f, html_lat(&s[REPORT_TOTAL], s[REPORT_TOTAL].lat_mean));
	html_cell_us(f, html_lat(&s[REPORT_TOTAL], s[REPORT_TOTAL].p99));
	fputs("</tr>\n", f);
}

static void comparison_charts(struct page *pg, double *v, size_t n)
{
	const char *const *cats = (const char *const *)pg->names;
	char title[64];
	struct chart_series ser[2] = {{.name = "total", .color = "total", .y = v}};
	struct chart c = {.title = "IOPS by run", .ytitle = "IOPS", .kind = CHART_BARS, .n = n,
			  .cats = cats, .s = ser, .ns = 1};

	fputs("<div class=\"charts\">\n", pg->f);
	page_chart(pg, &c, "comparison-iops-by-run");
	snprintf(title, sizeof(title), "Throughput by run, %s", page_unit(pg));
	c.title = title, c.ytitle = page_unit(pg), ser[0].y = v + n;
	page_chart(pg, &c, "comparison-throughput-by-run");
	ser[0] = (struct chart_series){.name = "read", .color = "read", .y = v + 2 * n};
	ser[1] = (struct chart_series){.name = "write", .color = "write", .y = v + 3 * n};
	c.title = "p99 latency by run", c.ytitle = "p99 latency, \xc2\xb5s", c.ns = 2;
	page_chart(pg, &c, "comparison-p99-by-run");
	fputs("</div>\n", pg->f);
}

void html_comparison(struct page *pg)
{
	size_t n = pg->in->n;
	double *v = calloc(4 * n, sizeof(double)), row[4];

	if (!v) {
		pg->err = -ENOMEM;
		return;
	}
	fprintf(pg->f, "<section><h2>Comparison</h2>\n<table><tr><th>#</th><th>run</th><th>"
		       "started</th><th>host</th><th>workload</th><th>IOPS</th><th>%s</th>"
		       "<th>mean &#181;s</th><th>p99 &#181;s</th></tr>\n", page_unit(pg));
	for (size_t i = 0; i < n; i++) {
		comparison_row(pg, i, row);
		for (int k = 0; k < 4; k++)
			v[(size_t)k * n + i] = row[k];
	}
	fputs("</table>\n", pg->f);
	comparison_charts(pg, v, n);
	fputs("</section>\n", pg->f);
	free(v);
}

/* Several runs are compared unless they are all of one sweep or mark, which has its own. */
bool html_one_document(const struct html_input *in)
{
	for (size_t i = 0; i < in->n; i++)
		if (in->runs[i].doc == HTML_NO_DOC || in->runs[i].doc != in->runs[0].doc)
			return false;
	return true;
}

/* Each run's figures as one; zeros (latency unknown) for a run that could not be summed. */
static void summaries(const struct page *pg, size_t first, size_t n, struct dir_summary *t)
{
	for (size_t i = 0; i < n; i++) {
		struct dir_summary s[REPORT_NDIR];

		if (html_run_summary(&pg->in->runs[first + i].run, s))
			memset(s, 0, sizeof(s));
		t[i] = s[REPORT_TOTAL];
	}
}

/* The axis title of a sweep's parameter. */
static const char *param_title(const char *param)
{
	static const struct {
		const char *param, *title;
	} t[] = {
		{.param = "depth", .title = "depth: I/Os in flight per thread"},
		{.param = "threads", .title = "threads per target"},
		{.param = "targets", .title = "targets"}, {.param = "bs", .title = "block size"},
		{.param = "write", .title = "writes, %"},
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(param, t[i].param))
			return t[i].title;
	return param;
}

#define MAX_SERIES 6
enum { Y_IOPS, Y_RATE, Y_P99, Y_THR, Y_N };

/*
 * A sweep's figures: per run its value, and per series (one per block size, the first six)
 * its IOPS, throughput, p99 and load (IOPS, or throughput when the block size was swept), NaN
 * at the runs of the other series.
 */
struct sweep_data {
	const struct html_doc *d;
	size_t n;
	bool bs_swept;
	double *x;
	char (*vals)[32];                       /* each run's value as the tables print it */
	const char **cats;
	uint64_t bs[MAX_SERIES];
	char bsname[MAX_SERIES][32];
	size_t nbs;
	double *y[MAX_SERIES][Y_N];
	struct dir_summary *t;                  /* each run's figures */
	double *all;
};

static void sweep_free(struct sweep_data *sd)
{
	free(sd->x);
	free(sd->vals);
	free(sd->cats);
	free(sd->t);
	free(sd->all);
}

static size_t series_of(struct sweep_data *sd, uint64_t bs)
{
	for (size_t k = 0; k < sd->nbs; k++)
		if (sd->bs[k] == bs)
			return k;
	if (sd->nbs == MAX_SERIES)
		return MAX_SERIES;
	sd->bs[sd->nbs] = bs;
	fmt_size(bs, sd->bsname[sd->nbs], sizeof(sd->bsname[0]));
	return sd->nbs++;
}

static int sweep_data(struct page *pg, const struct html_doc *d, struct sweep_data *sd)
{
	size_t n = d->n;

	*sd = (struct sweep_data){.d = d, .n = n, .bs_swept = !strcmp(d->param, "bs")};
	sd->x = calloc(n, sizeof(double));
	sd->vals = calloc(n, sizeof(*sd->vals));
	sd->cats = calloc(n, sizeof(char *));
	sd->t = calloc(n, sizeof(*sd->t));
	sd->all = malloc(n * MAX_SERIES * Y_N * sizeof(double));
	if (!sd->x || !sd->vals || !sd->cats || !sd->t || !sd->all)
		return -ENOMEM;
	for (size_t i = 0; i < n * MAX_SERIES * Y_N; i++)
		sd->all[i] = NAN;
	for (size_t k = 0; k < MAX_SERIES; k++)
		for (int m = 0; m < Y_N; m++)
			sd->y[k][m] = sd->all + (k * Y_N + (size_t)m) * n;
	summaries(pg, d->first, n, sd->t);
	for (size_t i = 0; i < n; i++) {
		const struct html_run *r = &pg->in->runs[d->first + i];
		const struct dir_summary *t = &sd->t[i];
		size_t k = series_of(sd, sd->bs_swept ? 0 : r->bs);

		sd->x[i] = (double)r->value;
		sd->cats[i] = html_sweep_value(d, r->value, sd->vals[i], sizeof(sd->vals[0]));
		if (k == MAX_SERIES)
			continue;
		sd->y[k][Y_IOPS][i] = t->iops;
		sd->y[k][Y_RATE][i] = page_rate(pg, t);
		sd->y[k][Y_P99][i] = html_lat(t, t->p99);
		sd->y[k][Y_THR][i] = sd->bs_swept ? sd->y[k][Y_RATE][i] : t->iops;
	}
	return 0;
}

static void sweep_table(struct page *pg, const struct sweep_data *sd)
{
	FILE *f = pg->f;

	fputs("<table><tr><th>", f);
	xml_esc(f, sd->d->param);
	fprintf(f, "</th>%s<th>IOPS</th><th>%s</th><th>mean &#181;s</th><th>p99 &#181;s</th>"
		   "</tr>\n", sd->nbs > 1 ? "<th>block size</th>" : "", page_unit(pg));
	for (size_t i = 0; i < sd->n; i++) {
		const struct dir_summary *t = &sd->t[i];
		char bs[32];

		fprintf(f, "<tr><td><a href=\"#run-%zu\">", sd->d->first + i + 1);
		xml_esc(f, sd->cats[i]);
		fputs("</a></td>", f);
		if (sd->nbs > 1)
			fprintf(f, "<td>%s</td>", fmt_size(pg->in->runs[sd->d->first + i].bs, bs,
							   sizeof(bs)));
		html_cell(f, "%.1f", t->iops);
		html_cell(f, "%.2f", page_rate(pg, t));
		html_cell_us(f, html_lat(t, t->lat_mean));
		html_cell_us(f, html_lat(t, t->p99));
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* Whether positive values span 8 times or more: they are then spaced by their logarithm. */
static bool spans(const double *v, size_t n)
{
	double mn = INFINITY, mx = 0;

	for (size_t i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			continue;
		if (v[i] <= 0)
			return false;
		mn = fmin(mn, v[i]), mx = fmax(mx, v[i]);
	}
	return isfinite(mn) && mx >= 8 * mn;
}

static const char *const palette[MAX_SERIES] = {"c0", "c1", "c2", "c3", "c4", "c5"};

/* IOPS, throughput and p99 against the value swept, a line per block size. */
static void sweep_charts(struct page *pg, const struct sweep_data *sd, size_t di)
{
	struct chart_series ser[MAX_SERIES];
	char title[3][128], xt[96], name[3][96], pslug[48];
	static const char *const what[3] = {"iops", "throughput", "p99"};
	const char *yt[3] = {"IOPS", page_unit(pg), "p99 latency, \xc2\xb5s"};
	bool xlog = spans(sd->x, sd->n);

	html_slug(sd->d->param, pslug, sizeof(pslug));
	snprintf(title[0], sizeof(title[0]), "IOPS by %s", sd->d->param);
	snprintf(title[1], sizeof(title[1]), "Throughput by %s, %s", sd->d->param, page_unit(pg));
	snprintf(title[2], sizeof(title[2]), "p99 latency by %s", sd->d->param);
	snprintf(xt, sizeof(xt), "%s%s", param_title(sd->d->param), xlog ? " (log scale)" : "");
	for (int m = 0; m < 3; m++) {
		for (size_t k = 0; k < sd->nbs; k++)
			ser[k] = (struct chart_series){
				.name = sd->nbs > 1 ? sd->bsname[k] : "total",
				.color = sd->nbs > 1 ? palette[k] : "total", .y = sd->y[k][m],
				.knee = CHART_NO_KNEE};
		snprintf(name[m], sizeof(name[m]), "sweep-%zu-%s-by-%s", di + 1, what[m], pslug);
		page_chart(pg, &(struct chart){.title = title[m], .xtitle = xt, .ytitle = yt[m],
					       .kind = CHART_XY, .n = sd->n, .x = sd->x,
					       .cats = sd->cats, .ticks_at_points = true,
					       .xlog = xlog, .s = ser, .ns = sd->nbs},
			   name[m]);
	}
}

/* The knee of series k in words, under the load-latency chart. */
static void knee_note(struct page *pg, const struct sweep_data *sd, size_t k, size_t knee,
		      const char *load)
{
	FILE *f = pg->f;
	char us[32];

	fputs("<p class=\"knee\">", f);
	if (sd->nbs > 1)
		fprintf(f, "%s: ", sd->bsname[k]);
	if (knee == CHART_NO_KNEE) {
		fprintf(f, "No knee: between no two points did p99 latency rise by a larger factor "
			   "than %s.</p>\n", load);
		return;
	}
	fputs("Knee at ", f);
	xml_esc(f, sd->d->param);
	fputc('=', f);
	xml_esc(f, sd->cats[knee]);
	fprintf(f, " (%.1f %s, p99 %s &#181;s): the last point before p99 latency rose by a "
		   "larger factor than %s.</p>\n", sd->y[k][Y_THR][knee],
		sd->bs_swept ? page_unit(pg) : "IOPS",
		report_fmt_us(sd->y[k][Y_P99][knee], us, sizeof(us)), load);
}

/* p99 against the load, each point named by its value, the knee marked. */
static void load_latency(struct page *pg, const struct sweep_data *sd, size_t di)
{
	struct chart_series ser[MAX_SERIES];
	size_t knee[MAX_SERIES];
	const char *load = sd->bs_swept ? "throughput" : "IOPS";
	char title[96], xt[64], name[64];
	double p99[2] = {INFINITY, 0};

	for (size_t k = 0; k < sd->nbs; k++) {
		knee[k] = chart_knee(sd->y[k][Y_THR], sd->y[k][Y_P99], sd->n);
		ser[k] = (struct chart_series){.name = sd->nbs > 1 ? sd->bsname[k] : "p99",
					       .color = sd->nbs > 1 ? palette[k] : "p99",
					       .y = sd->y[k][Y_P99], .x = sd->y[k][Y_THR],
					       .knee = knee[k]};
		for (size_t i = 0; i < sd->n; i++)
			if (isfinite(sd->y[k][Y_P99][i]) && sd->y[k][Y_P99][i] > 0)
				p99[0] = fmin(p99[0], sd->y[k][Y_P99][i]),
				p99[1] = fmax(p99[1], sd->y[k][Y_P99][i]);
	}
	snprintf(title, sizeof(title), "Load and latency: p99 against %s", load);
	snprintf(xt, sizeof(xt), "%s", sd->bs_swept ? page_unit(pg) : "IOPS");
	snprintf(name, sizeof(name), "sweep-%zu-p99-against-%s", di + 1,
		 sd->bs_swept ? "throughput" : "iops");
	page_chart(pg, &(struct chart){.title = title, .xtitle = xt,
				       .ytitle = "p99 latency, \xc2\xb5s", .kind = CHART_XY,
				       .n = sd->n, .cats = sd->cats, .s = ser, .ns = sd->nbs,
				       .ylog = p99[1] >= 100 * p99[0]},
		   name);
	fputs("</div>\n", pg->f);
	for (size_t k = 0; k < sd->nbs; k++)
		knee_note(pg, sd, k, knee[k], load);
}

void html_sweep_section(struct page *pg, size_t di)
{
	const struct html_doc *d = &pg->in->docs[di];
	const char *cmd = d->n ? pg->in->runs[d->first].run.jobs[0].job.command_line : NULL;
	struct sweep_data sd;

	if (sweep_data(pg, d, &sd)) {
		pg->err = -ENOMEM;
		sweep_free(&sd);
		return;
	}
	fprintf(pg->f, "<section id=\"sweep-%zu\">\n<h2>Sweep of ", di + 1);
	xml_esc(pg->f, d->param);
	fputs("</h2>\n<p class=\"meta\">From ", pg->f);
	xml_esc(pg->f, d->source ? d->source : "-");
	if (cmd) {
		fputs(": <code>", pg->f);
		xml_esc(pg->f, cmd);
		fputs("</code>", pg->f);
	}
	fputs("</p>\n", pg->f);
	sweep_table(pg, &sd);
	fputs("<div class=\"charts\">\n", pg->f);
	sweep_charts(pg, &sd, di);
	load_latency(pg, &sd, di);
	fputs("</section>\n", pg->f);
	sweep_free(&sd);
}

/* A mark's tests in the order they ran, each once, and their read and write runs. */
struct mark_data {
	const char *tests[16];
	double v[2][2][16];             /* [figure: rate, IOPS][read, write][test] */
	size_t ntests;
};

static void mark_data(const struct page *pg, const struct html_doc *d, struct mark_data *md)
{
	md->ntests = 0;
	for (size_t f = 0; f < 2; f++)
		for (size_t w = 0; w < 2; w++)
			for (size_t t = 0; t < 16; t++)
				md->v[f][w][t] = NAN;
	for (size_t i = d->first; i < d->first + d->n; i++) {
		const struct html_run *r = &pg->in->runs[i];
		struct dir_summary s[REPORT_NDIR];
		size_t t = 0, w = strcmp(r->dir, "read") != 0;

		while (t < md->ntests && strcmp(md->tests[t], r->test))
			t++;
		if (t == md->ntests) {
			if (t == 16)
				continue;
			md->tests[md->ntests++] = r->test;
		}
		if (html_run_summary(&r->run, s))
			continue;
		md->v[0][w][t] = page_rate(pg, &s[REPORT_TOTAL]);
		md->v[1][w][t] = s[REPORT_TOTAL].iops;
	}
}

static void mark_table(struct page *pg, const struct mark_data *md)
{
	FILE *f = pg->f;

	fprintf(f, "<table><tr><th>test</th><th>read %s</th><th>read IOPS</th><th>write %s</th>"
		   "<th>write IOPS</th></tr>\n", page_unit(pg), page_unit(pg));
	for (size_t t = 0; t < md->ntests; t++) {
		fputs("<tr><td class=\"l\">", f);
		xml_esc(f, md->tests[t]);
		fputs("</td>", f);
		for (int w = 0; w < 2; w++) {
			html_cell(f, "%.2f", md->v[0][w][t]);
			html_cell(f, "%.1f", md->v[1][w][t]);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

void html_mark_section(struct page *pg, size_t di)
{
	const struct html_doc *d = &pg->in->docs[di];
	struct mark_data md;
	char title[64], name[64];
	struct chart_series ser[2] = {
		{.name = "read", .color = "read", .y = md.v[0][0]},
		{.name = "write", .color = "write", .y = md.v[0][1]},
	};
	struct chart c = {.title = title, .ytitle = page_unit(pg), .kind = CHART_BARS,
			  .cats = md.tests, .s = ser, .ns = 2};

	mark_data(pg, d, &md);
	c.n = md.ntests;
	fprintf(pg->f, "<section id=\"mark-%zu\">\n<h2>Mark</h2>\n<p class=\"meta\">From ", di + 1);
	xml_esc(pg->f, d->source ? d->source : "-");
	fprintf(pg->f, "; each test's run of highest throughput, in %s.</p>\n", page_unit(pg));
	mark_table(pg, &md);
	fputs("<div class=\"charts\">\n", pg->f);
	snprintf(title, sizeof(title), "Throughput by test, %s", page_unit(pg));
	snprintf(name, sizeof(name), "mark-%zu-throughput-by-test", di + 1);
	page_chart(pg, &c, name);
	ser[0].y = md.v[1][0], ser[1].y = md.v[1][1];
	c.ytitle = "IOPS";
	snprintf(title, sizeof(title), "IOPS by test");
	snprintf(name, sizeof(name), "mark-%zu-iops-by-test", di + 1);
	page_chart(pg, &c, name);
	fputs("</div>\n</section>\n", pg->f);
}
