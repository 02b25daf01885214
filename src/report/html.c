#include "report/html.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/chart.h"
#include "report/jpath.h"
#include "report/summary.h"
#include "util/parse.h"

#ifndef IORATE_VERSION
#define IORATE_VERSION "unknown"
#endif

#define C_READ "#1f77b4"
#define C_WRITE "#d62728"
#define C_TOTAL "#444444"

static const char *const dir_colors[REPORT_NDIR] = {C_READ, C_WRITE, C_TOTAL};

/* A figure in a table cell: "-" when unknown. */
static void cell(FILE *f, const char *fmt, double v)
{
	fputs("<td>", f);
	if (isfinite(v))
		fprintf(f, fmt, v);
	else
		fputs("-", f);
	fputs("</td>", f);
}

static void cell_us(FILE *f, double v)
{
	char b[32];

	fprintf(f, "<td>%s</td>", report_fmt_us(v, b, sizeof(b)));
}

static void date_of(json_t *run, char *buf, size_t len)
{
	double ms = jpath_num(run, "start_unix_ms");
	time_t t = (time_t)(isfinite(ms) ? ms / 1000 : 0);
	struct tm tm;

	if (!isfinite(ms) || !localtime_r(&t, &tm) ||
	    !strftime(buf, len, "%Y-%m-%d %H:%M:%S %Z", &tm))
		snprintf(buf, len, "-");
}

static void kv(FILE *f, const char *key, const char *val)
{
	fprintf(f, "<tr><th>%s</th><td>", key);
	xml_esc(f, val ? val : "-");
	fputs("</td></tr>\n", f);
}

static void caps_line(char *buf, size_t len, json_t *c)
{
	int n = 0;

	buf[0] = '\0';
	if (jpath_num(c, "iops") > 0)
		n += snprintf(buf + n, len - (size_t)n, "%g IOPS ", jpath_num(c, "iops"));
	if (jpath_num(c, "mbps") > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "%g MB/s ", jpath_num(c, "mbps"));
	if (jpath_num(c, "burst_iops") > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "burst %g IOPS ", jpath_num(c, "burst_iops"));
	if (jpath_num(c, "burst_mbps") > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "burst %g MB/s ", jpath_num(c, "burst_mbps"));
	if (jpath_num(c, "burst_seconds") > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "for %g s", jpath_num(c, "burst_seconds"));
}

static void params_table(FILE *f, json_t *run)
{
	json_t *p = json_object_get(run, "params");
	char buf[512], sz[32];

	fputs("<table class=\"kv\">\n", f);
	date_of(run, buf, sizeof(buf));
	kv(f, "started", buf);
	snprintf(buf, sizeof(buf), "%s (%s; %s, %.0f CPUs)", jpath_str(run, "host.hostname") ?: "-",
		 jpath_str(run, "host.kernel") ?: "-", jpath_str(run, "host.cpu") ?: "-",
		 jpath_num(run, "host.ncpus"));
	kv(f, "host", buf);
	kv(f, "command", jpath_str(run, "command_line"));
	snprintf(buf, sizeof(buf), "%s %s, %.0f%% writes, %.0f thread(s) \xc3\x97 depth %.0f "
		 "per target, cache %s", fmt_size((uint64_t)jpath_num(p, "bs"), sz, sizeof(sz)),
		 jpath_str(p, "pattern") ?: "-", jpath_num(p, "write"), jpath_num(p, "threads"),
		 jpath_num(p, "depth"), jpath_str(p, "cache") ?: "-");
	kv(f, "workload", buf);
	snprintf(buf, sizeof(buf), "%s (%s)", jpath_str(p, "engine") ?: "-",
		 jpath_str(p, "engine_why") ?: "-");
	kv(f, "engine", buf);
	snprintf(buf, sizeof(buf), "%.2f s measured (asked %g s, warm-up %g s, cool-down %g s)",
		 jpath_num(run, "seconds"), jpath_num(p, "time"), jpath_num(p, "warmup"),
		 jpath_num(p, "cooldown"));
	kv(f, "duration", buf);
	if (jpath_num(p, "rate_iops") > 0) {
		snprintf(buf, sizeof(buf), "open loop, %g IOPS per target", jpath_num(p, "rate_iops"));
		kv(f, "arrival", buf);
	}
	caps_line(buf, sizeof(buf), json_object_get(p, "cap"));
	if (buf[0])
		kv(f, "disk cap", buf);
	caps_line(buf, sizeof(buf), json_object_get(p, "vm_cap"));
	if (buf[0])
		kv(f, "VM cap", buf);
	snprintf(buf, sizeof(buf), "user %.1f%%, system %.1f%%, iowait %.1f%%, idle %.1f%%; "
		 "iorate %.1f%% user, %.1f%% system (of one CPU)", jpath_num(run, "cpu.user"),
		 jpath_num(run, "cpu.system"), jpath_num(run, "cpu.iowait"), jpath_num(run, "cpu.idle"),
		 jpath_num(run, "cpu.iorate_user"), jpath_num(run, "cpu.iorate_system"));
	kv(f, "CPU", buf);
	fputs("</table>\n", f);
}

static void dir_row(FILE *f, json_t *t, const char *name, const char *dev, const char *dir,
		    bool first, unsigned span)
{
	json_t *d = json_object_get(t, dir);

	fputs("<tr>", f);
	if (first) {
		fprintf(f, "<td rowspan=\"%u\" class=\"l\">", span);
		xml_esc(f, name);
		fprintf(f, "</td><td rowspan=\"%u\" class=\"l\">", span);
		xml_esc(f, dev ? dev : "-");
		fputs("</td>", f);
	}
	fprintf(f, "<td class=\"l\">%s</td>", dir);
	cell(f, "%.0f", jpath_num(d, "ios"));
	cell(f, "%.0f", jpath_num(d, "bytes"));
	cell(f, "%.0f", jpath_num(d, "errors"));
	cell(f, "%.1f", jpath_num(d, "iops"));
	cell(f, "%.2f", jpath_num(d, "mibps"));
	cell_us(f, jpath_num(d, "lat_us.mean"));
	cell_us(f, jpath_num(d, "lat_us.p99"));
	cell_us(f, jpath_num(d, "lat_us.p99_9"));
	fputs("</tr>\n", f);
}

/* One target's (or the whole run's) rows: the directions that did I/O, then total. */
static void target_rows(FILE *f, json_t *t, const char *name, const char *dev)
{
	bool has[REPORT_NDIR] = {jpath_num(t, "read.ios") > 0, jpath_num(t, "write.ios") > 0, true};
	unsigned span = (unsigned)has[0] + has[1] + 1, k = 0;

	for (int d = 0; d < REPORT_NDIR; d++)
		if (has[d])
			dir_row(f, t, name, dev, report_dir_names[d], k++ == 0, span);
}

static void targets_table(FILE *f, json_t *run)
{
	json_t *t;
	size_t i;

	fputs("<h3>Targets</h3>\n<table><tr><th>target</th><th>device</th><th>direction</th>"
	      "<th>I/Os</th><th>bytes</th><th>errors</th><th>IOPS</th><th>MiB/s</th>"
	      "<th>mean &#181;s</th><th>p99 &#181;s</th><th>p99.9 &#181;s</th></tr>\n", f);
	json_array_foreach(json_object_get(run, "targets"), i, t)
		target_rows(f, t, jpath_str(t, "path"), jpath_str(t, "device"));
	if (json_array_size(json_object_get(run, "targets")) > 1)
		target_rows(f, json_object_get(run, "total"), "all targets", NULL);
	fputs("</table>\n", f);
}

/* The exact figures of lat_us around its percentiles, which are stats_pct_names[]. */
static const char *const lat_head[] = {"min", "mean", "stdev"};
#define NHEAD (sizeof(lat_head) / sizeof(lat_head[0]))

static void pct_table(FILE *f, json_t *run)
{
	char b[16];

	fputs("<h3>Latency percentiles, &#181;s</h3>\n<table><tr><th>direction</th>", f);
	for (size_t k = 0; k < NHEAD; k++)
		fprintf(f, "<th>%s</th>", lat_head[k]);
	for (unsigned k = 0; k < STATS_NPCT; k++)
		fprintf(f, "<th>%s</th>", report_pct_label(k, b, sizeof(b)));
	fputs("<th>max</th></tr>\n", f);
	for (int d = 0; d < REPORT_NDIR; d++) {
		json_t *lat = jpath(json_object_get(run, "total"), report_dir_names[d]);

		if (d < REPORT_TOTAL && !(jpath_num(lat, "ios") > 0))
			continue;
		lat = json_object_get(lat, "lat_us");
		fprintf(f, "<tr><td class=\"l\">%s</td>", report_dir_names[d]);
		for (size_t k = 0; k < NHEAD; k++)
			cell_us(f, jpath_num(lat, lat_head[k]));
		for (unsigned k = 0; k < STATS_NPCT; k++)
			cell_us(f, jpath_num(lat, stats_pct_names[k]));
		cell_us(f, jpath_num(lat, "max"));
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void run_charts(FILE *f, json_t *run)
{
	char labels[STATS_NPCT][16];
	const char *nines[STATS_NPCT];
	json_t *series = json_object_get(run, "series"), *pt;
	size_t n = json_array_size(series), i, nl = 0;
	/* Six series of n points, then a percentile curve per direction. */
	double *v = calloc(6 * (n ? n : 1) + REPORT_NDIR * STATS_NPCT, sizeof(double));
	double *t = v, *iops = v + n, *rd = v + 2 * n, *wr = v + 3 * n, *mib = v + 4 * n;
	double *p99 = v + 5 * n, *curve = v + 6 * n;
	const double *ys[3];
	const char *names[3], *colors[3];
	bool mixed = jpath_num(run, "total.read.ios") > 0 && jpath_num(run, "total.write.ios") > 0;

	if (!v)
		return;
	for (unsigned k = 0; k < STATS_NPCT; k++)
		nines[k] = report_pct_label(k, labels[k], sizeof(labels[k]));
	json_array_foreach(series, i, pt) {
		t[i] = jpath_num(pt, "t");
		iops[i] = jpath_num(pt, "iops");
		rd[i] = jpath_num(pt, "read_iops");
		wr[i] = jpath_num(pt, "write_iops");
		mib[i] = jpath_num(pt, "mibps");
		p99[i] = jpath_num(pt, "p99_us");
	}
	fputs("<div class=\"charts\">\n", f);
	ys[0] = iops, names[0] = "total", colors[0] = C_TOTAL;
	if (mixed)
		ys[1] = rd, names[1] = "read", colors[1] = C_READ, ys[2] = wr, names[2] = "write",
		colors[2] = C_WRITE;
	chart_lines(f, "IOPS per second", "IOPS", t, NULL, n, ys, names, colors, mixed ? 3 : 1,
		    false);
	ys[0] = mib;
	chart_lines(f, "MiB/s per second", "MiB/s", t, NULL, n, ys, names, colors, 1, false);
	ys[0] = p99, names[0] = "p99";
	chart_lines(f, "p99 latency per second", "\xc2\xb5s", t, NULL, n, ys, names, colors, 1,
		    false);
	for (int d = 0; d < REPORT_NDIR; d++) {
		json_t *lat = jpath(json_object_get(run, "total"), report_dir_names[d]);

		if (!(jpath_num(lat, "ios") > 0) || (d == REPORT_TOTAL && nl))
			continue;
		for (unsigned k = 0; k < STATS_NPCT; k++)
			curve[STATS_NPCT * nl + k] = jpath_num(json_object_get(lat, "lat_us"),
							       stats_pct_names[k]);
		ys[nl] = curve + STATS_NPCT * nl, names[nl] = report_dir_names[d];
		colors[nl] = dir_colors[d];
		nl++;
	}
	chart_lines(f, "Latency percentiles (log scale)", "\xc2\xb5s", NULL, nines, STATS_NPCT, ys,
		    names, colors, nl, true);
	fputs("</div>\n", f);
	free(v);
}

static void run_section(FILE *f, const struct html_run *r, size_t i)
{
	json_t *run = r->run, *v;
	size_t k;

	fprintf(f, "<section id=\"run-%zu\">\n<h2>", i + 1);
	xml_esc(f, r->label);
	fputs("</h2>\n", f);
	if (json_is_true(json_object_get(run, "interrupted")))
		fputs("<p class=\"warn\">Interrupted: the figures cover what ran.</p>\n", f);
	if (jpath_str(run, "error")) {
		fputs("<p class=\"warn\">Error: ", f);
		xml_esc(f, jpath_str(run, "error"));
		fputs("</p>\n", f);
	}
	json_array_foreach(json_object_get(run, "notes"), k, v) {
		fputs("<p class=\"note\">Note: ", f);
		xml_esc(f, json_string_value(v));
		fputs("</p>\n", f);
	}
	params_table(f, run);
	targets_table(f, run);
	pct_table(f, run);
	run_charts(f, run);
	fputs("</section>\n", f);
}

static void comparison(FILE *f, const struct html_run *runs, size_t n)
{
	double *v = calloc(3 * n, sizeof(double));
	const char **cats = calloc(n, sizeof(char *));
	const double *ys[2];
	const char *names[2] = {"read", "write"}, *colors[2] = {C_READ, C_WRITE};
	char date[64], sz[32];

	if (!v || !cats)
		goto out;
	fputs("<section><h2>Comparison</h2>\n<table><tr><th>run</th><th>started</th><th>host"
	      "</th><th>workload</th><th>IOPS</th><th>MiB/s</th><th>mean &#181;s</th>"
	      "<th>p99 &#181;s</th></tr>\n", f);
	for (size_t i = 0; i < n; i++) {
		json_t *run = runs[i].run, *p = json_object_get(run, "params");

		cats[i] = runs[i].label;
		v[i] = jpath_num(run, "total.total.iops");
		v[n + i] = jpath_num(run, "total.read.lat_us.p99");
		v[2 * n + i] = jpath_num(run, "total.write.lat_us.p99");
		date_of(run, date, sizeof(date));
		fprintf(f, "<tr><td class=\"l\"><a href=\"#run-%zu\">", i + 1);
		xml_esc(f, runs[i].label);
		fprintf(f, "</a></td><td class=\"l\">%s</td><td class=\"l\">", date);
		xml_esc(f, jpath_str(run, "host.hostname"));
		fprintf(f, "</td><td class=\"l\">%s %s, %.0f%% writes, T%.0f Q%.0f</td>",
			fmt_size((uint64_t)jpath_num(p, "bs"), sz, sizeof(sz)),
			jpath_str(p, "pattern") && !strcmp(jpath_str(p, "pattern"), "sequential") ? "seq"
											 : "random",
			jpath_num(p, "write"), jpath_num(p, "threads"), jpath_num(p, "depth"));
		cell(f, "%.1f", v[i]);
		cell(f, "%.2f", jpath_num(run, "total.total.mibps"));
		cell_us(f, jpath_num(run, "total.total.lat_us.mean"));
		cell_us(f, jpath_num(run, "total.total.lat_us.p99"));
		fputs("</tr>\n", f);
	}
	fputs("</table>\n<div class=\"charts\">\n", f);
	ys[0] = v;
	chart_bars(f, "IOPS by run", "IOPS", cats, n, ys, (const char *const[]){"total"},
		   (const char *const[]){C_TOTAL}, 1);
	ys[0] = v + n, ys[1] = v + 2 * n;
	chart_bars(f, "p99 latency by run", "\xc2\xb5s", cats, n, ys, names, colors, 2);
	fputs("</div></section>\n", f);
out:
	free(v);
	free(cats);
}

int report_html_write(FILE *f, const char *title, const struct html_run *runs, size_t n)
{
	char now[64];
	time_t t = time(NULL);
	struct tm tm;

	if (!title)
		title = "iorate report";
	if (!localtime_r(&t, &tm) || !strftime(now, sizeof(now), "%Y-%m-%d %H:%M:%S %Z", &tm))
		now[0] = '\0';
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"generator\" content=\"iorate " IORATE_VERSION "\">\n<title>", f);
	xml_esc(f, title);
	fputs("</title>\n<style>\n"
	      "body{font:14px/1.4 system-ui,sans-serif;margin:24px auto;max-width:1140px;"
	      "color:#222;padding:0 12px}\n"
	      "h1{font-size:22px}h2{font-size:18px;border-bottom:1px solid #ccc;margin-top:32px}"
	      "h3{font-size:15px;margin:18px 0 6px}\n"
	      "table{border-collapse:collapse;margin:6px 0}td,th{border:1px solid #ddd;"
	      "padding:3px 8px;text-align:right;vertical-align:top}th{background:#f4f4f4}\n"
	      "td.l,table.kv td{text-align:left}table.kv th{text-align:left;width:90px}\n"
	      ".meta{color:#666}.warn{color:#a00;font-weight:600}.note{color:#555}\n"
	      ".charts{display:flex;flex-wrap:wrap;gap:12px;margin-top:12px}\n"
	      ".chart{border:1px solid #ddd}.chart .ct{font:600 13px system-ui,sans-serif}\n"
	      ".chart .al{font:11px system-ui,sans-serif;fill:#555}\n"
	      ".chart .g{stroke:#eee}.chart .ax{stroke:#999}\n"
	      "</style></head><body>\n<h1>", f);
	xml_esc(f, title);
	fprintf(f, "</h1>\n<p class=\"meta\">%zu run%s; generated %s by iorate %s. Latencies are "
		   "in microseconds (&#181;s), throughput in MiB/s (2<sup>20</sup> bytes per "
		   "second).</p>\n", n, n == 1 ? "" : "s", now, IORATE_VERSION);
	if (n > 1)
		comparison(f, runs, n);
	for (size_t i = 0; i < n; i++)
		run_section(f, &runs[i], i);
	fputs("</body></html>\n", f);
	return ferror(f) ? -EIO : 0;
}
