/* SVG charts for the HTML report (report/html.c): inline, no script, every label escaped. */
#include "report/chart.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

/* Text and attribute values alike: the five characters HTML gives a meaning. */
void xml_esc(FILE *f, const char *s)
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
	xml_esc(f, title);
	fprintf(f, "\"><rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>"
		   "<text x=\"%d\" y=\"16\" class=\"ct\">", CW, CH, PL);
	xml_esc(f, title);
	fprintf(f, "</text><text x=\"12\" y=\"%d\" class=\"al\" transform=\"rotate(-90 12 %d)\" "
		   "text-anchor=\"middle\">", PT + (CH - PT - PB) / 2, PT + (CH - PT - PB) / 2);
	xml_esc(f, unit);
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
		xml_esc(f, names[i]);
		fputs("</text>", f);
	}
}

/* Where category i of n sits on a categorical x axis. */
static double cat_x(size_t i, size_t n)
{
	return n > 1 ? PL + 10 + (double)i * (CW - PL - PR - 20) / (double)(n - 1) : PL + 10;
}

/* A line chart: see chart.h. */
void chart_lines(FILE *f, const char *title, const char *unit, const double *x,
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
			xml_esc(f, xcat[i]);
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

/* Grouped bars: see chart.h. */
void chart_bars(FILE *f, const char *title, const char *unit, const char *const *cats,
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
			xml_esc(f, names[l]);
			fprintf(f, ": %s</title></rect>", short_num(v, buf, sizeof(buf)));
		}
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"al\" text-anchor=\"middle\">",
			PL + slot * ((double)i + 0.5), CH - PB + 16);
		xml_esc(f, cats[i]);
		fputs("</text>", f);
	}
	fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" class=\"ax\"/>", PL, CW - PR,
		CH - PB, CH - PB);
	legend(f, names, colors, nl);
	fputs("</svg>\n", f);
}
