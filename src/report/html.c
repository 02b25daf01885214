/*
 * The HTML report (report/html.h) from each run's struct result: tables and inline SVG charts;
 * the sections of sweeps and marks are html_docs.c's.
 */
#include "report/html.h"
#include "report/text.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/chart.h"
#include "report/html_int.h"
#include "util/parse.h"

#ifndef IORATE_VERSION
#define IORATE_VERSION "unknown"
#endif

static const char *const dir_colors[REPORT_NDIR] = {"read", "write", "total"};

static void kv(FILE *f, const char *key, const char *val)
{
	fprintf(f, "<tr><th>%s</th><td>", key);
	xml_esc(f, val ? val : "-");
	fputs("</td></tr>\n", f);
}

/* A cap in the page's unit: kept in MB/s, --vm-cap-mibps 285 shows as 285 MiB/s. */
static void caps_line(char *buf, size_t len, const struct job_caps *c, bool si)
{
	const char *u = si ? "MB/s" : "MiB/s";
	int n = 0;

	buf[0] = '\0';
	if (c->iops > 0)
		n += snprintf(buf + n, len - (size_t)n, "%g IOPS ", c->iops);
	if (c->mbps > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "%g %s ", text_cap_rate(c->mbps, si), u);
	if (c->burst_iops > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "burst %g IOPS ", c->burst_iops);
	if (c->burst_mbps > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "burst %g %s ",
			      text_cap_rate(c->burst_mbps, si), u);
	if (c->burst_seconds > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "for %g s", c->burst_seconds);
}

static const char *engine_of(const struct result *r)
{
	return r->engine[0] ? r->engine : r->job.engine;
}

static void params_table(FILE *f, const struct result *r, bool si)
{
	const struct job *j = &r->job;
	const struct cpu_usage *c = &r->cpu;
	char buf[512], sz[32];

	fputs("<table class=\"kv\">\n", f);
	html_date_at(r->start_unix_ms, buf, sizeof(buf));
	kv(f, "started", buf);
	snprintf(buf, sizeof(buf), "%s (%s; %s, %u CPUs)", r->host.hostname, r->host.kernel,
		 r->host.cpu, r->host.ncpus);
	kv(f, "host", buf);
	kv(f, "command", j->command_line);
	snprintf(buf, sizeof(buf), "%s %s, %u%% writes, %u thread(s) \xc3\x97 depth %u "
		 "per target, cache %s", fmt_size(j->bs, sz, sizeof(sz)),
		 job_pattern_name(j->pattern), j->write_pct, j->threads, j->depth,
		 job_cache_name(j->cache));
	kv(f, "workload", buf);
	snprintf(buf, sizeof(buf), "%s (%s)", engine_of(r), r->engine_why);
	kv(f, "engine", buf);
	snprintf(buf, sizeof(buf), "%.2f s measured (asked %g s, warm-up %g s, cool-down %g s)",
		 r->seconds, (double)j->time_ns / 1e9, (double)j->warmup_ns / 1e9,
		 (double)j->cooldown_ns / 1e9);
	kv(f, "duration", buf);
	if (j->rate_iops > 0) {
		snprintf(buf, sizeof(buf), "open loop, %g IOPS per target", j->rate_iops);
		kv(f, "arrival", buf);
	}
	caps_line(buf, sizeof(buf), &j->cap, si);
	if (buf[0])
		kv(f, "disk cap", buf);
	caps_line(buf, sizeof(buf), &j->vm_cap, si);
	if (buf[0])
		kv(f, "VM cap", buf);
	snprintf(buf, sizeof(buf), "user %.1f%%, system %.1f%%, iowait %.1f%%, idle %.1f%%; "
		 "iorate %.1f%% user, %.1f%% system (of one CPU)", c->user, c->system, c->iowait,
		 c->idle, c->proc_user, c->proc_system);
	kv(f, "CPU", buf);
	fputs("</table>\n", f);
}

static void dir_row(struct page *pg, const struct dir_summary *s, const char *name,
		    const char *dev, const char *dir, bool first, unsigned span)
{
	FILE *f = pg->f;

	fputs("<tr>", f);
	if (first) {
		fprintf(f, "<td rowspan=\"%u\" class=\"l\">", span);
		xml_esc(f, name);
		fprintf(f, "</td><td rowspan=\"%u\" class=\"l\">", span);
		xml_esc(f, dev ? dev : "-");
		fputs("</td>", f);
	}
	fprintf(f, "<td class=\"l\">%s</td>", dir);
	html_cell(f, "%.0f", (double)s->ios);
	html_cell(f, "%.0f", (double)s->bytes);
	html_cell(f, "%.0f", (double)s->errors);
	html_cell(f, "%.1f", s->iops);
	html_cell(f, "%.2f", page_rate(pg, s));
	html_cell_us(f, html_lat(s, s->lat_mean));
	html_cell_us(f, html_lat(s, s->p99));
	html_cell_us(f, html_lat(s, s->p99_9));
	fputs("</tr>\n", f);
}

/* One target's (or the whole run's) rows: the directions that did I/O, then total. */
static void target_rows(struct page *pg, const struct dir_stats *rd, const struct dir_stats *wr,
			const struct dir_stats *tr, double seconds, const char *name,
			const char *dev)
{
	struct dir_summary s[REPORT_NDIR], ts;
	bool has[REPORT_NDIR] = {rd->ios > 0, wr->ios > 0, true}, trims = dir_stats_any(tr);
	unsigned span = (unsigned)has[0] + has[1] + trims + 1, k = 0;

	if (report_summarize(rd, wr, tr, seconds, s))
		return;
	for (int d = 0; d < REPORT_NDIR; d++) {
		if (d == REPORT_TOTAL && trims) {
			dir_stats_summarize(tr, seconds, &ts);
			dir_row(pg, &ts, name, dev, "trim", k++ == 0, span);
		}
		if (has[d])
			dir_row(pg, &s[d], name, dev, report_dir_names[d], k++ == 0, span);
	}
}

/* The headings inside a run: h3, or h4 inside a job of a run of several. */
static void targets_table(struct page *pg, const struct result *r, int h)
{
	fprintf(pg->f, "<h%d>Targets</h%d>\n", h, h);
	fprintf(pg->f, "<table><tr><th>target</th><th>device</th><th>direction</th>"
		       "<th>I/Os</th><th>bytes</th><th>errors</th><th>IOPS</th><th>%s</th>"
		       "<th>mean &#181;s</th><th>p99 &#181;s</th><th>p99.9 &#181;s</th></tr>\n",
		page_unit(pg));
	for (unsigned i = 0; i < r->ntargets; i++) {
		const struct target_result *t = &r->targets[i];

		target_rows(pg, &t->read, &t->write, &t->trim, r->seconds, t->path,
			    t->device[0] ? t->device : NULL);
	}
	if (r->ntargets > 1)
		target_rows(pg, &r->read, &r->write, &r->trim, r->seconds, "all targets",
			    NULL);
	fputs("</table>\n", pg->f);
}

static void pct_table(FILE *f, const struct dir_summary s[REPORT_NDIR], int h)
{
	char b[16];

	fprintf(f, "<h%d>Latency percentiles, &#181;s</h%d>\n", h, h);
	fputs("<table><tr><th>direction</th>"
	      "<th>min</th><th>mean</th><th>stdev</th>", f);
	for (unsigned k = 0; k < STATS_NPCT; k++)
		fprintf(f, "<th>%s</th>", report_pct_label(k, b, sizeof(b)));
	fputs("<th>max</th></tr>\n", f);
	for (int d = 0; d < REPORT_NDIR; d++) {
		const struct dir_summary *x = &s[d];

		if (d < REPORT_TOTAL && !x->ios)
			continue;
		fprintf(f, "<tr><td class=\"l\">%s</td>", report_dir_names[d]);
		html_cell_us(f, html_lat(x, x->lat_min));
		html_cell_us(f, html_lat(x, x->lat_mean));
		html_cell_us(f, html_lat(x, x->lat_stdev));
		for (unsigned k = 0; k < STATS_NPCT; k++)
			html_cell_us(f, html_lat(x, report_pct(x, k)));
		html_cell_us(f, html_lat(x, x->lat_max));
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* A chart's file name: the run's part ("run-2-depth-4"), then what it shows. */
static const char *chart_name(const char *part, const char *what, char *buf, size_t len)
{
	snprintf(buf, len, "%s-%s", part, what);
	return buf;
}

/* The percentile curves: read and write where done, else total. */
static void pct_chart(struct page *pg, const struct dir_summary s[REPORT_NDIR],
		      const char *part)
{
	char labels[STATS_NPCT][16], name[160];
	const char *nines[STATS_NPCT];
	double curve[REPORT_NDIR][STATS_NPCT];
	struct chart_series ser[REPORT_NDIR];
	size_t nl = 0;

	for (unsigned k = 0; k < STATS_NPCT; k++)
		nines[k] = report_pct_label(k, labels[k], sizeof(labels[k]));
	for (int d = 0; d < REPORT_NDIR; d++) {
		if (!s[d].ios || (d == REPORT_TOTAL && nl))
			continue;
		for (unsigned k = 0; k < STATS_NPCT; k++)
			curve[nl][k] = html_lat(&s[d], report_pct(&s[d], k));
		ser[nl] = (struct chart_series){.name = report_dir_names[d], .color = dir_colors[d],
						.y = curve[nl]};
		nl++;
	}
	page_chart(pg, &(struct chart){.title = "Latency percentiles (log scale)",
				       .xtitle = "percentile", .ytitle = "latency, \xc2\xb5s",
				       .kind = CHART_CURVE, .n = STATS_NPCT, .cats = nines,
				       .ylog = true, .s = ser, .ns = nl},
		   chart_name(part, "latency-percentiles", name, sizeof(name)));
}

/* Seven series of n points: time, length, IOPS (total, read, write), throughput, p99. */
enum { S_T, S_DT, S_IOPS, S_RD, S_WR, S_RATE, S_P99, S_N };

static void time_charts(struct page *pg, const struct result *r, bool mixed, double *v[S_N],
			const char *part)
{
	char title[96], xt[96], name[160];
	struct chart_series ser[3] = {
		{.name = "total", .color = "total", .y = v[S_IOPS]},
		{.name = "read", .color = "read", .y = v[S_RD]},
		{.name = "write", .color = "write", .y = v[S_WR]},
	};
	struct chart c = {.xtitle = xt, .kind = CHART_TIME, .n = r->nseries, .x = v[S_T],
			  .dx = v[S_DT], .s = ser, .ns = mixed ? 3 : 1, .title = title};

	char iv[32];

	/* The recorded interval: the points' own lengths vary by the sampler's wake-ups. */
	report_fmt_interval(r->interval_ns, iv, sizeof(iv));
	if (r->nseries == 1)
		snprintf(xt, sizeof(xt), "seconds into the measured window (one interval)");
	else
		snprintf(xt, sizeof(xt), "seconds into the measured window (a point per %s)", iv);
	snprintf(title, sizeof(title), "IOPS over the run");
	c.ytitle = "IOPS";
	page_chart(pg, &c, chart_name(part, "iops-over-time", name, sizeof(name)));
	snprintf(title, sizeof(title), "Throughput over the run, %s", page_unit(pg));
	ser[0].y = v[S_RATE];
	c.ns = 1;
	c.ytitle = page_unit(pg);
	page_chart(pg, &c, chart_name(part, "throughput-over-time", name, sizeof(name)));
	snprintf(title, sizeof(title), "p99 latency over the run");
	ser[0] = (struct chart_series){.name = "p99", .color = "p99", .y = v[S_P99]};
	c.ytitle = "p99 latency, \xc2\xb5s";
	page_chart(pg, &c, chart_name(part, "p99-over-time", name, sizeof(name)));
}

static void run_charts(struct page *pg, const struct result *r,
		       const struct dir_summary s[REPORT_NDIR], const char *part)
{
	size_t n = r->nseries;
	double *all = calloc(S_N * (n ? n : 1), sizeof(double)), *v[S_N];

	if (!all) {
		pg->err = -ENOMEM;
		return;
	}
	for (int k = 0; k < S_N; k++)
		v[k] = all + (size_t)k * n;
	for (size_t i = 0; i < n; i++) {
		const struct series_point *p = &r->series[i];
		struct report_rates k;

		report_point_rates(p, &k);
		v[S_T][i] = p->t, v[S_DT][i] = p->seconds, v[S_IOPS][i] = k.iops;
		v[S_RD][i] = k.read_iops, v[S_WR][i] = k.write_iops;
		v[S_RATE][i] = pg->o->si ? k.mbps : k.mibps;
		v[S_P99][i] = p->p99_ns ? (double)p->p99_ns / 1e3 : NAN;
	}
	fputs("<div class=\"charts\">\n", pg->f);
	time_charts(pg, r, s[REPORT_READ].ios > 0 && s[REPORT_WRITE].ios > 0, v, part);
	pct_chart(pg, s, part);
	fputs("</div>\n", pg->f);
	free(all);
}

/* A run's warnings: stopped early, failed, notes. */
static void run_notes(FILE *f, const struct result *r)
{
	if (r->interrupted)
		fputs("<p class=\"warn\">Interrupted: the figures cover what ran.</p>\n", f);
	if (result_error(r)) {
		fputs("<p class=\"warn\">Error: ", f);
		xml_esc(f, result_error(r));
		fputs("</p>\n", f);
	}
	for (unsigned k = 0; k < r->nnotes; k++) {
		fputs("<p class=\"note\">Note: ", f);
		xml_esc(f, r->notes[k]);
		fputs("</p>\n", f);
	}
}

/* One job's parameters, tables and charts; h is the level of its inner headings. */
static void run_body(struct page *pg, const struct result *r, int h, const char *part)
{
	struct dir_summary s[REPORT_NDIR];

	run_notes(pg->f, r);
	params_table(pg->f, r, pg->o->si);
	targets_table(pg, r, h);
	if (!report_summarize(&r->read, &r->write, &r->trim, r->seconds, s)) {
		pct_table(pg->f, s, h);
		run_charts(pg, r, s, part);
	}
}

/* A group's (or with label, the total's) line: its window, counts, rates, mean and p99. */
static void group_row(struct page *pg, const struct result_sum *m, const char *label)
{
	struct dir_summary s[REPORT_NDIR];
	const struct dir_summary *t = &s[REPORT_TOTAL];
	FILE *f = pg->f;

	if (report_summarize(&m->read, &m->write, &m->trim, m->seconds, s))
		return;
	if (label)
		fprintf(f, "<tr><td class=\"l\">%s</td><td>%u</td>", label, m->njobs);
	else
		fprintf(f, "<tr><td class=\"l\">group %u</td><td>%u</td>", m->group, m->njobs);
	html_cell(f, "%.3f", m->seconds);
	html_cell(f, "%.0f", (double)t->ios);
	html_cell(f, "%.0f", (double)t->bytes);
	html_cell(f, "%.1f", t->iops);
	html_cell(f, "%.2f", page_rate(pg, t));
	html_cell_us(f, html_lat(t, t->lat_mean));
	html_cell_us(f, html_lat(t, t->p99));
	html_cell_us(f, html_lat(t, t->p99_9));
	fputs("</tr>\n", f);
}

static void job_section(struct page *pg, const struct result *r, size_t run, unsigned i,
			const char *part)
{
	char jpart[160];

	fprintf(pg->f, "<div class=\"job\" id=\"run-%zu-job-%u\">\n<h3>Job %u: ", run + 1, i + 1,
		i + 1);
	xml_esc(pg->f, r->job.name ? r->job.name : "(unnamed)");
	fprintf(pg->f, " (group %u)%s</h3>\n", r->job.group, r->started ? "" : ", did not run");
	snprintf(jpart, sizeof(jpart), "%s-job-%u", part, i + 1);
	if (r->started) {
		run_body(pg, r, 4, jpart);
	} else {
		run_notes(pg->f, r);
		params_table(pg->f, r, pg->o->si);
	}
	fputs("</div>\n", pg->f);
}

/* A run of several jobs: its groups and total, then each job with its own charts. */
static void html_jobs(struct page *pg, const struct result_set *set, size_t run,
		      const char *part)
{
	struct dir_summary s[REPORT_NDIR];
	const struct result_sum *t = &set->total;
	FILE *f = pg->f;

	fprintf(f, "<p>%u jobs in %u group%s: the jobs of a group ran together, the groups one "
		"after another. Figures are over each group's window; the total's over the "
		"groups' windows added; percentiles come from the jobs' merged histograms.</p>\n",
		set->njobs, set->ngroups, set->ngroups == 1 ? "" : "s");
	fprintf(f, "<h3>Groups</h3>\n<table><tr><th>group</th><th>jobs</th><th>seconds</th>"
		   "<th>I/Os</th><th>bytes</th><th>IOPS</th><th>%s</th><th>mean &#181;s</th>"
		   "<th>p99 &#181;s</th><th>p99.9 &#181;s</th></tr>\n", page_unit(pg));
	for (unsigned g = 0; g < set->ngroups; g++)
		group_row(pg, &set->groups[g], NULL);
	group_row(pg, t, "total");
	fputs("</table>\n", f);
	if (!report_summarize(&t->read, &t->write, &t->trim, t->seconds, s))
		pct_table(f, s, 3);
	html_devices_table(f, set, 3);
	for (unsigned i = 0; i < set->njobs; i++)
		job_section(pg, &set->jobs[i], run, i, part);
}

static void run_section(struct page *pg, size_t i)
{
	const struct html_run *hr = &pg->in->runs[i];
	const struct result_set *set = &hr->run;
	const char *cmd = set->njobs ? set->jobs[0].job.command_line : NULL;
	char part[96], slug[48], num[32], run[512];
	bool clash = false;

	html_run_number(pg->in, i, num, sizeof(num));
	fprintf(pg->f, "<section id=\"run-%zu\">\n<h2>%s. ", i + 1, num);
	xml_esc(pg->f, pg->names[i]);
	fputs("</h2>\n<p class=\"meta\">From ", pg->f);
	xml_esc(pg->f, hr->source ? hr->source : "-");
	fputs("</p>\n", pg->f);
	/* Files are named by the history id, or by the place of a run read from a file (which
	 * a history id of the page may share: then it says so). */
	for (size_t k = 0; !hr->id && k < pg->in->n; k++)
		clash |= pg->in->runs[k].id == (long long)(i + 1);
	snprintf(part, sizeof(part), "run-%lld%s%s%s", hr->id ? hr->id : (long long)(i + 1),
		 clash ? "-file" : "", html_slug(pg->names[i], slug, sizeof(slug))[0] ? "-" : "",
		 slug);
	snprintf(run, sizeof(run), "run %s: %s", num, cmd ? cmd : "(command not recorded)");
	pg->run = run;
	if (set->njobs == 1) {
		run_body(pg, &set->jobs[0], 3, part);
		html_devices_table(pg->f, set, 3);
	} else
		html_jobs(pg, set, i, part);
	pg->run = NULL;
	fputs("</section>\n", pg->f);
}

static void page_head(struct page *pg, const char *title)
{
	FILE *f = pg->f;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"generator\" content=\"iorate " IORATE_VERSION "\">\n"
	      "<meta name=\"color-scheme\" content=\"light dark\">\n<title>", f);
	xml_esc(f, title);
	fputs("</title>\n<style>\n"
	      "body{font:14px/1.4 system-ui,sans-serif;margin:24px auto;max-width:1140px;"
	      "color:#222;background:#fff;padding:0 12px}\n"
	      "h1{font-size:22px}h2{font-size:18px;border-bottom:1px solid #ccc;margin-top:32px}"
	      "h3{font-size:15px;margin:18px 0 6px}\n"
	      "table{border-collapse:collapse;margin:6px 0}td,th{border:1px solid #ddd;"
	      "padding:3px 8px;text-align:right;vertical-align:top}th{background:#f4f4f4}\n"
	      "td.l,table.kv td{text-align:left}table.kv th{text-align:left;width:90px}\n"
	      ".meta{color:#666}.warn{color:#a00;font-weight:600}.note{color:#555}\n"
	      ".job{border-left:3px solid #ddd;padding-left:12px;margin:18px 0}"
	      "h4{font-size:14px;margin:12px 0 4px}\n"
	      ".charts{display:flex;flex-wrap:wrap;gap:12px;margin-top:12px}\n"
	      "@media screen and (prefers-color-scheme:dark){body{color:#ddd;background:#121212}"
	      "a{color:#8ab4f8}h2{border-color:#444}td,th{border-color:#3a3a3a}th{background:#222}"
	      ".meta,.note{color:#aaa}.warn{color:#ff8a80}.job{border-color:#3a3a3a}}\n"
	      "@media print{body{color:#000;background:none;margin:0;max-width:none}th{background:"
	      "none}a{color:inherit;text-decoration:none}.chart,tr{break-inside:avoid}"
	      "h2,h3{break-after:avoid}}\n", f);
	chart_css(f);
	fputs("</style></head><body>\n<h1>", f);
	xml_esc(f, title);
}

int report_html_write(FILE *f, const struct html_input *in, const struct html_opts *o)
{
	struct page pg = {.f = f, .in = in, .o = o, .names = html_names(in)};
	const char *title = o->title ? o->title : "iorate report";
	char now[64];
	time_t t = o->now ? o->now : time(NULL);
	struct tm tm;

	if (!pg.names)
		return -ENOMEM;
	if (!(o->utc ? gmtime_r(&t, &tm) : localtime_r(&t, &tm)) ||
	    !strftime(now, sizeof(now), o->utc ? "%Y-%m-%d %H:%M:%S UTC" : "%Y-%m-%d %H:%M:%S %Z",
		      &tm))
		now[0] = '\0';
	page_head(&pg, title);
	fprintf(f, "</h1>\n<p class=\"meta\">%zu run%s; generated %s by iorate %s. Latencies are "
		   "in microseconds (&#181;s), throughput in %s.</p>\n", in->n,
		in->n == 1 ? "" : "s", now, IORATE_VERSION,
		o->si ? "MB/s (10<sup>6</sup> bytes per second)"
		      : "MiB/s (2<sup>20</sup> bytes per second)");
	if (in->n > 1 && !html_one_document(in))
		html_comparison(&pg);
	for (size_t d = 0; d < in->ndocs; d++)
		if (in->docs[d].mark)
			html_mark_section(&pg, d);
		else
			html_sweep_section(&pg, d);
	for (size_t i = 0; i < in->n; i++)
		run_section(&pg, i);
	fputs("</body></html>\n", f);
	html_names_free(pg.names, in->n);
	return pg.err ? pg.err : ferror(f) ? -EIO : 0;
}
