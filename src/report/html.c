#include "report/html.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/parse.h"

#ifndef IORATE_VERSION
#define IORATE_VERSION "unknown"
#endif

#define C_READ "#1f77b4"
#define C_WRITE "#d62728"
#define C_TOTAL "#444444"

static const char *const dirs[3] = {"read", "write", "total"};
static const char *const dir_colors[3] = {C_READ, C_WRITE, C_TOTAL};

/* Text and attribute values alike: the five characters HTML gives a meaning. */
static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f);
		}
	}
}

/* A member by a dotted path ("total.read.lat_us.p99"), or NULL. */
static json_t *jget(json_t *o, const char *path)
{
	char key[64];

	while (o && *path) {
		size_t n = strcspn(path, ".");

		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		o = json_object_get(o, key);
		path += n + (path[n] == '.');
	}
	return o;
}

static double jnum(json_t *o, const char *path)
{
	json_t *v = jget(o, path);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *jstr(json_t *o, const char *path)
{
	return json_string_value(jget(o, path));
}

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
	cell(f, v < 10 ? "%.3f" : "%.1f", v);
}

/* Axis labels: 950, 1.2k, 34M. */
static const char *short_num(double v, char *buf, size_t len)
{
	static const char sfx[] = " kMGT";
	int i = 0;

	while (fabs(v) >= 1000 && i < 4) {
		v /= 1000;
		i++;
	}
	if (i)
		snprintf(buf, len, "%g%c", round(v * 100) / 100, sfx[i]);
	else
		snprintf(buf, len, "%g", fabs(v) < 1e-9 ? 0 : round(v * 1000) / 1000);
	return buf;
}

/* 1, 2 or 5 times a power of ten, at least x. */
static double nice(double x)
{
	double p = pow(10, floor(log10(x))), m = x / p;

	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/* Chart geometry: the plot area inside the SVG's margins. */
#define CW 540
#define CH 250
#define PL 62
#define PR 14
#define PT 34
#define PB 40

struct axis {
	double lo, hi;
	bool log;
};

static double ax_pos(const struct axis *a, double v, double from, double to)
{
	double t;

	if (a->log)
		t = (log10(v) - a->lo) / (a->hi - a->lo);
	else
		t = (v - a->lo) / (a->hi - a->lo);
	return from + t * (to - from);
}

/* Fits an axis to the finite values (positive ones when log); false when there are none. */
static bool ax_fit(struct axis *a, const double *const *ys, size_t nl, size_t n, bool log)
{
	double mx = -INFINITY, mn = INFINITY;

	for (size_t l = 0; l < nl; l++)
		for (size_t i = 0; i < n; i++)
			if (isfinite(ys[l][i]) && (!log || ys[l][i] > 0)) {
				mx = fmax(mx, ys[l][i]);
				mn = fmin(mn, ys[l][i]);
			}
	if (!isfinite(mx))
		return false;
	a->log = log;
	if (log) {
		a->lo = floor(log10(mn));
		a->hi = ceil(log10(mx));
		if (a->hi <= a->lo)
			a->hi = a->lo + 1;
	} else {
		double step = nice(mx > 0 ? mx / 5 : 1);

		a->lo = 0;
		a->hi = ceil(mx / step) * step;
		if (a->hi <= 0)
			a->hi = step;
	}
	return true;
}

static void svg_open(FILE *f, const char *title, const char *unit)
{
	fprintf(f, "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		   "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"",
		CW, CH, CW, CH);
	esc(f, title);
	fprintf(f, "\"><rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>"
		   "<text x=\"%d\" y=\"16\" class=\"ct\">", CW, CH, PL);
	esc(f, title);
	fprintf(f, "</text><text x=\"12\" y=\"%d\" class=\"al\" transform=\"rotate(-90 12 %d)\" "
		   "text-anchor=\"middle\">", PT + (CH - PT - PB) / 2, PT + (CH - PT - PB) / 2);
	esc(f, unit);
	fputs("</text>", f);
}

/* Horizontal grid lines with their labels for a y axis. */
static void y_grid(FILE *f, const struct axis *a)
{
	char buf[32];
	double step = a->log ? 1 : nice((a->hi - a->lo) / 5);

	for (double v = a->lo; v <= a->hi + step / 2; v += step) {
		double real = a->log ? pow(10, v) : v;
		double y = ax_pos(a, real, CH - PB, PT);

		fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" class=\"g\"/>"
			   "<text x=\"%d\" y=\"%.1f\" class=\"al\" text-anchor=\"end\">%s</text>",
			PL, CW - PR, y, y, PL - 5, y + 4, short_num(real, buf, sizeof(buf)));
	}
}

static void legend(FILE *f, const char *const *names, const char *const *colors, size_t n)
{
	int x = CW - PR;

	for (size_t i = n; i-- > 0;) {
		x -= 14 + 7 * (int)strlen(names[i]);
		fprintf(f, "<rect x=\"%d\" y=\"8\" width=\"10\" height=\"10\" fill=\"%s\"/>"
			   "<text x=\"%d\" y=\"17\" class=\"al\">", x, colors[i], x + 13);
		esc(f, names[i]);
		fputs("</text>", f);
	}
}

/* Where category i of n sits on a categorical x axis. */
static double cat_x(size_t i, size_t n)
{
	return n > 1 ? PL + 10 + (double)i * (CW - PL - PR - 20) / (double)(n - 1) : PL + 10;
}

/*
 * A line chart of nl series over n points. x holds the points' x values (numeric axis from 0),
 * or xcat their category names (evenly spaced, as for percentiles). Unknown values (NaN) break
 * the line; a point with no neighbour is drawn as a dot.
 */
static void chart_lines(FILE *f, const char *title, const char *unit, const double *x,
			const char *const *xcat, size_t n, const double *const *ys,
			const char *const *names, const char *const *colors, size_t nl, bool log)
{
	struct axis ay, ax = {0, 1, false};
	char buf[32];

	if (!n || !ax_fit(&ay, ys, nl, n, log))
		return;
	svg_open(f, title, unit);
	y_grid(f, &ay);
	if (x) {
		ax.hi = x[n - 1] > 0 ? x[n - 1] : 1;
		double step = nice(ax.hi / 6);

		for (double v = 0; v <= ax.hi + step / 100; v += step)
			fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"al\" text-anchor=\"middle\">"
				   "%s</text>", ax_pos(&ax, v, PL, CW - PR), CH - PB + 16,
				short_num(v, buf, sizeof(buf)));
		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"al\" text-anchor=\"middle\">seconds"
			   "</text>", PL + (CW - PL - PR) / 2, CH - 6);
	} else {
		for (size_t i = 0; i < n; i++) {
			fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"al\" text-anchor=\"middle\">",
				cat_x(i, n), CH - PB + 16);
			esc(f, xcat[i]);
			fputs("</text>", f);
		}
	}
	fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" class=\"ax\"/>", PL, CW - PR,
		CH - PB, CH - PB);
	for (size_t l = 0; l < nl; l++) {
		bool pen = false;

		fprintf(f, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" d=\"",
			colors[l]);
		for (size_t i = 0; i < n; i++) {
			double v = ys[l][i];

			if (!isfinite(v) || (log && v <= 0)) {
				pen = false;
				continue;
			}
			double px = x ? ax_pos(&ax, x[i], PL, CW - PR) : cat_x(i, n);

			fprintf(f, "%c%.1f %.1f ", pen ? 'L' : 'M', px,
				ax_pos(&ay, v, CH - PB, PT));
			pen = true;
		}
		fputs("\"/>", f);
		for (size_t i = 0; i < n && (!x || n == 1); i++)
			if (isfinite(ys[l][i]) && (!log || ys[l][i] > 0))
				fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>",
					x ? ax_pos(&ax, x[i], PL, CW - PR) : cat_x(i, n),
					ax_pos(&ay, ys[l][i], CH - PB, PT), colors[l]);
	}
	legend(f, names, colors, nl);
	fputs("</svg>\n", f);
}

/* Grouped bars: for each of n categories (runs), one bar per series. */
static void chart_bars(FILE *f, const char *title, const char *unit, const char *const *cats,
		       size_t n, const double *const *ys, const char *const *names,
		       const char *const *colors, size_t nl)
{
	struct axis ay;
	double slot = (double)(CW - PL - PR) / (double)(n ? n : 1), bw = slot * 0.7 / (double)nl;
	char buf[32];

	if (!n || !ax_fit(&ay, ys, nl, n, false))
		return;
	svg_open(f, title, unit);
	y_grid(f, &ay);
	for (size_t i = 0; i < n; i++) {
		double x0 = PL + slot * (double)i + slot * 0.15;

		for (size_t l = 0; l < nl; l++) {
			double v = ys[l][i], y;

			if (!isfinite(v))
				continue;
			y = ax_pos(&ay, v, CH - PB, PT);
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				   "fill=\"%s\"><title>", x0 + bw * (double)l, y, bw,
				CH - PB - y, colors[l]);
			esc(f, names[l]);
			fprintf(f, ": %s</title></rect>", short_num(v, buf, sizeof(buf)));
		}
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"al\" text-anchor=\"middle\">",
			PL + slot * ((double)i + 0.5), CH - PB + 16);
		esc(f, cats[i]);
		fputs("</text>", f);
	}
	fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" class=\"ax\"/>", PL, CW - PR,
		CH - PB, CH - PB);
	legend(f, names, colors, nl);
	fputs("</svg>\n", f);
}

static void date_of(json_t *run, char *buf, size_t len)
{
	double ms = jnum(run, "start_unix_ms");
	time_t t = (time_t)(isfinite(ms) ? ms / 1000 : 0);
	struct tm tm;

	if (!isfinite(ms) || !localtime_r(&t, &tm) ||
	    !strftime(buf, len, "%Y-%m-%d %H:%M:%S %Z", &tm))
		snprintf(buf, len, "-");
}

static void kv(FILE *f, const char *key, const char *val)
{
	fprintf(f, "<tr><th>%s</th><td>", key);
	esc(f, val ? val : "-");
	fputs("</td></tr>\n", f);
}

static void caps_line(char *buf, size_t len, json_t *c)
{
	int n = 0;

	buf[0] = '\0';
	if (jnum(c, "iops") > 0)
		n += snprintf(buf + n, len - (size_t)n, "%g IOPS ", jnum(c, "iops"));
	if (jnum(c, "mbps") > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "%g MB/s ", jnum(c, "mbps"));
	if (jnum(c, "burst_iops") > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "burst %g IOPS ", jnum(c, "burst_iops"));
	if (jnum(c, "burst_mbps") > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "burst %g MB/s ", jnum(c, "burst_mbps"));
	if (jnum(c, "burst_seconds") > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "for %g s", jnum(c, "burst_seconds"));
}

static void params_table(FILE *f, json_t *run)
{
	json_t *p = json_object_get(run, "params");
	char buf[512], sz[32];

	fputs("<table class=\"kv\">\n", f);
	date_of(run, buf, sizeof(buf));
	kv(f, "started", buf);
	snprintf(buf, sizeof(buf), "%s (%s; %s, %.0f CPUs)", jstr(run, "host.hostname") ?: "-",
		 jstr(run, "host.kernel") ?: "-", jstr(run, "host.cpu") ?: "-",
		 jnum(run, "host.ncpus"));
	kv(f, "host", buf);
	kv(f, "command", jstr(run, "command_line"));
	snprintf(buf, sizeof(buf), "%s %s, %.0f%% writes, %.0f thread(s) \xc3\x97 depth %.0f "
		 "per target, cache %s", fmt_size((uint64_t)jnum(p, "bs"), sz, sizeof(sz)),
		 jstr(p, "pattern") ?: "-", jnum(p, "write"), jnum(p, "threads"),
		 jnum(p, "depth"), jstr(p, "cache") ?: "-");
	kv(f, "workload", buf);
	snprintf(buf, sizeof(buf), "%s (%s)", jstr(p, "engine") ?: "-",
		 jstr(p, "engine_why") ?: "-");
	kv(f, "engine", buf);
	snprintf(buf, sizeof(buf), "%.2f s measured (asked %g s, warm-up %g s, cool-down %g s)",
		 jnum(run, "seconds"), jnum(p, "time"), jnum(p, "warmup"), jnum(p, "cooldown"));
	kv(f, "duration", buf);
	if (jnum(p, "rate_iops") > 0) {
		snprintf(buf, sizeof(buf), "open loop, %g IOPS per target", jnum(p, "rate_iops"));
		kv(f, "arrival", buf);
	}
	caps_line(buf, sizeof(buf), json_object_get(p, "cap"));
	if (buf[0])
		kv(f, "disk cap", buf);
	caps_line(buf, sizeof(buf), json_object_get(p, "vm_cap"));
	if (buf[0])
		kv(f, "VM cap", buf);
	snprintf(buf, sizeof(buf), "user %.1f%%, system %.1f%%, iowait %.1f%%, idle %.1f%%; "
		 "iorate %.1f%% user, %.1f%% system (of one CPU)", jnum(run, "cpu.user"),
		 jnum(run, "cpu.system"), jnum(run, "cpu.iowait"), jnum(run, "cpu.idle"),
		 jnum(run, "cpu.iorate_user"), jnum(run, "cpu.iorate_system"));
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
		esc(f, name);
		fprintf(f, "</td><td rowspan=\"%u\" class=\"l\">", span);
		esc(f, dev ? dev : "-");
		fputs("</td>", f);
	}
	fprintf(f, "<td class=\"l\">%s</td>", dir);
	cell(f, "%.0f", jnum(d, "ios"));
	cell(f, "%.0f", jnum(d, "bytes"));
	cell(f, "%.0f", jnum(d, "errors"));
	cell(f, "%.1f", jnum(d, "iops"));
	cell(f, "%.2f", jnum(d, "mibps"));
	cell_us(f, jnum(d, "lat_us.mean"));
	cell_us(f, jnum(d, "lat_us.p99"));
	cell_us(f, jnum(d, "lat_us.p99_9"));
	fputs("</tr>\n", f);
}

/* One target's (or the whole run's) rows: the directions that did I/O, then total. */
static void target_rows(FILE *f, json_t *t, const char *name, const char *dev)
{
	bool has[3] = {jnum(t, "read.ios") > 0, jnum(t, "write.ios") > 0, true};
	unsigned span = (unsigned)has[0] + has[1] + 1, k = 0;

	for (int d = 0; d < 3; d++)
		if (has[d])
			dir_row(f, t, name, dev, dirs[d], k++ == 0, span);
}

static void targets_table(FILE *f, json_t *run)
{
	json_t *t;
	size_t i;

	fputs("<h3>Targets</h3>\n<table><tr><th>target</th><th>device</th><th>direction</th>"
	      "<th>I/Os</th><th>bytes</th><th>errors</th><th>IOPS</th><th>MiB/s</th>"
	      "<th>mean &#181;s</th><th>p99 &#181;s</th><th>p99.9 &#181;s</th></tr>\n", f);
	json_array_foreach(json_object_get(run, "targets"), i, t)
		target_rows(f, t, jstr(t, "path"), jstr(t, "device"));
	if (json_array_size(json_object_get(run, "targets")) > 1)
		target_rows(f, json_object_get(run, "total"), "all targets", NULL);
	fputs("</table>\n", f);
}

static const char *const pct_keys[] = {"min", "mean", "stdev", "p50", "p90", "p99", "p99_9",
				       "p99_99", "p99_999", "max"};
static const char *const pct_heads[] = {"min", "mean", "stdev", "p50", "p90", "p99", "p99.9",
					"p99.99", "p99.999", "max"};
#define NPCT (sizeof(pct_keys) / sizeof(pct_keys[0]))

static void pct_table(FILE *f, json_t *run)
{
	fputs("<h3>Latency percentiles, &#181;s</h3>\n<table><tr><th>direction</th>", f);
	for (size_t k = 0; k < NPCT; k++)
		fprintf(f, "<th>%s</th>", pct_heads[k]);
	fputs("</tr>\n", f);
	for (int d = 0; d < 3; d++) {
		json_t *lat = jget(json_object_get(run, "total"), dirs[d]);

		if (d < 2 && !(jnum(lat, "ios") > 0))
			continue;
		lat = json_object_get(lat, "lat_us");
		fprintf(f, "<tr><td class=\"l\">%s</td>", dirs[d]);
		for (size_t k = 0; k < NPCT; k++)
			cell_us(f, jnum(lat, pct_keys[k]));
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void run_charts(FILE *f, json_t *run)
{
	static const char *const nines[] = {"p50", "p90", "p99", "p99.9", "p99.99", "p99.999"};
	json_t *series = json_object_get(run, "series"), *pt;
	size_t n = json_array_size(series), i, nl = 0;
	double *v = calloc(6 * (n ? n : 1) + 3 * 6, sizeof(double));
	double *t = v, *iops = v + n, *rd = v + 2 * n, *wr = v + 3 * n, *mib = v + 4 * n;
	double *p99 = v + 5 * n, *curve = v + 6 * n;
	const double *ys[3];
	const char *names[3], *colors[3];
	bool mixed = jnum(run, "total.read.ios") > 0 && jnum(run, "total.write.ios") > 0;

	if (!v)
		return;
	json_array_foreach(series, i, pt) {
		t[i] = jnum(pt, "t");
		iops[i] = jnum(pt, "iops");
		rd[i] = jnum(pt, "read_iops");
		wr[i] = jnum(pt, "write_iops");
		mib[i] = jnum(pt, "mibps");
		p99[i] = jnum(pt, "p99_us");
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
	for (int d = 0; d < 3; d++) {
		json_t *lat = jget(json_object_get(run, "total"), dirs[d]);

		if (!(jnum(lat, "ios") > 0) || (d == 2 && nl))
			continue;
		for (int k = 0; k < 6; k++)
			curve[6 * nl + (size_t)k] = jnum(json_object_get(lat, "lat_us"),
							 pct_keys[3 + k]);
		ys[nl] = curve + 6 * nl, names[nl] = dirs[d], colors[nl] = dir_colors[d];
		nl++;
	}
	chart_lines(f, "Latency percentiles (log scale)", "\xc2\xb5s", NULL, nines, 6, ys, names,
		    colors, nl, true);
	fputs("</div>\n", f);
	free(v);
}

static void run_section(FILE *f, const struct html_run *r, size_t i)
{
	json_t *run = r->run, *v;
	size_t k;

	fprintf(f, "<section id=\"run-%zu\">\n<h2>", i + 1);
	esc(f, r->label);
	fputs("</h2>\n", f);
	if (json_is_true(json_object_get(run, "interrupted")))
		fputs("<p class=\"warn\">Interrupted: the figures cover what ran.</p>\n", f);
	if (jstr(run, "error")) {
		fputs("<p class=\"warn\">Error: ", f);
		esc(f, jstr(run, "error"));
		fputs("</p>\n", f);
	}
	json_array_foreach(json_object_get(run, "notes"), k, v) {
		fputs("<p class=\"note\">Note: ", f);
		esc(f, json_string_value(v));
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
		v[i] = jnum(run, "total.total.iops");
		v[n + i] = jnum(run, "total.read.lat_us.p99");
		v[2 * n + i] = jnum(run, "total.write.lat_us.p99");
		date_of(run, date, sizeof(date));
		fprintf(f, "<tr><td class=\"l\"><a href=\"#run-%zu\">", i + 1);
		esc(f, runs[i].label);
		fprintf(f, "</a></td><td class=\"l\">%s</td><td class=\"l\">", date);
		esc(f, jstr(run, "host.hostname"));
		fprintf(f, "</td><td class=\"l\">%s %s, %.0f%% writes, T%.0f Q%.0f</td>",
			fmt_size((uint64_t)jnum(p, "bs"), sz, sizeof(sz)),
			jstr(p, "pattern") && !strcmp(jstr(p, "pattern"), "sequential") ? "seq"
											 : "random",
			jnum(p, "write"), jnum(p, "threads"), jnum(p, "depth"));
		cell(f, "%.1f", v[i]);
		cell(f, "%.2f", jnum(run, "total.total.mibps"));
		cell_us(f, jnum(run, "total.total.lat_us.mean"));
		cell_us(f, jnum(run, "total.total.lat_us.p99"));
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
	esc(f, title);
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
	esc(f, title);
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
