/*
 * SVG charts (report/chart.h): axes fitted to the values, series drawn as lines, steps or bars,
 * every text placed from its estimated box (chart_text.c) so that no two overlap.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/chart_int.h"

#define PH 170.0                /* the plot's height, px */
#define MARGIN 10.0
#define LH 14.0
#define GAP 4.0
/* Fewer points than this are drawn as steps over their intervals rather than a line. */
#define STEPS_BELOW 10

/* Each colour class: light (the attributes) and dark (chart_css). */
static const struct {
	const char *name, *light, *dark;
} palette[] = {
	{.name = "total", .light = "#444444", .dark = "#d0d0d0"},
	{.name = "read", .light = "#1f77b4", .dark = "#6cb2eb"},
	{.name = "write", .light = "#d62728", .dark = "#ff7b7b"},
	{.name = "p99", .light = "#9467bd", .dark = "#c3a3ef"},
	{.name = "knee", .light = "#b8860b", .dark = "#ffd166"},
	{.name = "c0", .light = "#1f77b4", .dark = "#6cb2eb"},
	{.name = "c1", .light = "#ff7f0e", .dark = "#ffa94d"},
	{.name = "c2", .light = "#2ca02c", .dark = "#6fd36f"},
	{.name = "c3", .light = "#d62728", .dark = "#ff7b7b"},
	{.name = "c4", .light = "#9467bd", .dark = "#c3a3ef"},
	{.name = "c5", .light = "#8c564b", .dark = "#c99a8c"},
};
#define NPAL (sizeof(palette) / sizeof(palette[0]))

static const char *light(const char *name)
{
	for (size_t i = 0; i < NPAL; i++)
		if (!strcmp(palette[i].name, name))
			return palette[i].light;
	return palette[0].light;
}

void chart_css(FILE *f)
{
	fputs(".chart{max-width:100%;height:auto;border:1px solid #ddd}\n"
	      "@media screen and (prefers-color-scheme:dark){.chart{border-color:#444}"
	      ".chart .bg{fill:#1c1c1c}.chart .ct{fill:#eee}.chart .al{fill:#bbb}"
	      ".chart .g{stroke:#333}.chart .ax{stroke:#888}\n", f);
	for (size_t i = 0; i < NPAL; i++)
		fprintf(f, ".chart .ln.c-%s{stroke:%s}.chart .mk.c-%s{fill:%s}\n", palette[i].name,
			palette[i].dark, palette[i].name, palette[i].dark);
	fputs("}\n@media print{.chart .bg{fill:none}.chart{border-color:#999}}\n", f);
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

struct axis {
	double lo, hi;          /* log: of log10 (y) or log2 (x) */
	bool log;
	double base;            /* 10 or 2 */
};

static double ax_t(const struct axis *a, double v)
{
	if (a->log)
		v = log(v) / log(a->base);
	return a->hi > a->lo ? (v - a->lo) / (a->hi - a->lo) : 0.5;
}

static bool usable(double v, bool log)
{
	return isfinite(v) && (!log || v > 0);
}

/* The range of the values of every series (y, or with xs their x). */
static bool range(const struct chart *c, bool xs, bool log, double *mn, double *mx)
{
	*mn = INFINITY, *mx = -INFINITY;
	for (size_t l = 0; l < c->ns; l++) {
		const double *v = xs ? (c->s[l].x ? c->s[l].x : c->x) : c->s[l].y;

		for (size_t i = 0; v && i < c->n; i++)
			if (usable(v[i], log) && usable(c->s[l].y[i], c->ylog) &&
			    (!xs || usable(v[i], c->xlog))) {
				*mn = fmin(*mn, v[i]);
				*mx = fmax(*mx, v[i]);
			}
	}
	return isfinite(*mx);
}

/* A y axis from 0 (or whole decades) to a round value above the highest. */
static bool fit_y(const struct chart *c, struct axis *a)
{
	double mn, mx;

	if (!range(c, false, c->ylog, &mn, &mx))
		return false;
	*a = (struct axis){.log = c->ylog, .base = 10};
	if (c->ylog) {
		a->lo = floor(log10(mn));
		a->hi = fmax(ceil(log10(mx)), a->lo + 1);
	} else {
		double step = nice(mx > 0 ? mx / 5 : 1);

		a->hi = mx > 0 ? ceil(mx / step) * step : step;
	}
	return true;
}

/* The y ticks: linear steps of a round size, or decades (every other one past 7). */
static size_t y_ticks(const struct axis *a, double *v, size_t max)
{
	size_t n = 0;

	if (a->log) {
		double step = a->hi - a->lo > 7 ? 2 : 1;

		for (double e = a->lo; e <= a->hi + 1e-9 && n < max; e += step)
			v[n++] = pow(10, e);
	} else {
		double step = nice(a->hi / 5);

		for (double x = 0; x <= a->hi + step / 100 && n < max; x += step)
			v[n++] = x;
	}
	return n;
}

#define MAXTICKS 24

/* Where everything goes: computed before anything is written. */
struct frame {
	double w, h;
	double pl, pr, pt, pb;          /* the plot: left, right, top, and the x axis's y */
	struct axis ax, ay;
	double yv[MAXTICKS];
	size_t ny;
	unsigned legend_rows;           /* 0: on the title's line (or no legend) */
	struct chart_cats cats;         /* BARS, CURVE */
	double slot;                    /* BARS, CURVE: each category's width */
};

static double px_x(const struct frame *fr, double v)
{
	return fr->pl + ax_t(&fr->ax, v) * (fr->pr - fr->pl);
}

static double px_y(const struct frame *fr, double v)
{
	return fr->pb - ax_t(&fr->ay, v) * (fr->pb - fr->pt);
}

static double legend_entry(const struct chart *c, size_t i)
{
	return 14 + chart_text_width(c->s[i].name, CHART_FS) + 12;
}

/* The legend on the title's line when both fit, else on lines of its own below. */
static unsigned legend_rows(const struct chart *c)
{
	double total = 0, x = MARGIN;
	unsigned rows = 1;

	if (c->ns < 2)
		return 0;
	for (size_t i = 0; i < c->ns; i++)
		total += legend_entry(c, i);
	if (MARGIN + chart_text_width(c->title, CHART_TFS) + 16 + total <= CHART_W - MARGIN)
		return 0;
	for (size_t i = 0; i < c->ns; i++) {
		double e = fmin(legend_entry(c, i), CHART_W - 2 * MARGIN);

		if (x + e > CHART_W - MARGIN && x > MARGIN)
			rows++, x = MARGIN;
		x += e;
	}
	return rows;
}

/* The x axis: seconds from 0, a sweep's values (log2 when they span 8 times), or from 0. */
static void fit_x(const struct chart *c, struct frame *fr)
{
	double mn = 0, mx = 1;

	fr->ax = (struct axis){.lo = 0, .hi = 1, .base = 10};
	if (c->kind == CHART_TIME) {
		mx = 0;
		for (size_t i = 0; i < c->n; i++)
			mx = isfinite(c->x[i]) ? fmax(mx, c->x[i]) : mx;
		fr->ax.hi = mx > 0 ? mx : 1;
		return;
	}
	if (c->kind != CHART_XY || !range(c, true, c->xlog, &mn, &mx))
		return;
	if (c->ticks_at_points) {
		fr->ax.log = c->xlog && mn > 0;
		fr->ax.base = 2;
		fr->ax.lo = fr->ax.log ? log2(mn) : mn;
		fr->ax.hi = fr->ax.log ? log2(mx) : mx;
		double pad = fr->ax.hi > fr->ax.lo ? (fr->ax.hi - fr->ax.lo) * 0.05 : 1;

		fr->ax.lo -= pad, fr->ax.hi += pad;
	} else {
		double step = nice(mx > 0 ? mx / 5 : 1);

		fr->ax.hi = mx > 0 ? ceil(mx / step) * step : step;
	}
}

static int layout(const struct chart *c, struct frame *fr)
{
	double maxw = 0, bottom;
	char b[32];

	memset(fr, 0, sizeof(*fr));
	fr->w = CHART_W;
	if (!fit_y(c, &fr->ay))
		return -1;
	fr->ny = y_ticks(&fr->ay, fr->yv, MAXTICKS);
	for (size_t i = 0; i < fr->ny; i++)
		maxw = fmax(maxw, chart_text_width(short_num(fr->yv[i], b, sizeof(b)), CHART_FS));
	/* The y title, turned, takes the first 17 px; tick labels end 6 px left of the plot. */
	fr->pl = 27 + maxw + 6;
	fr->pr = CHART_W - 18;
	fr->legend_rows = legend_rows(c);
	fr->pt = 18 + 16 * fr->legend_rows + 16;
	fr->pb = fr->pt + PH;
	fit_x(c, fr);
	bottom = LH + 4;
	if (c->kind == CHART_BARS || c->kind == CHART_CURVE) {
		fr->slot = (fr->pr - fr->pl) / (double)(c->n ? c->n : 1);
		chart_cats_plan(c->cats, c->n, fr->slot, &fr->cats);
		bottom = fr->cats.height + fr->cats.key_h;
	}
	if (c->xtitle)
		bottom += LH + 4;
	fr->h = ceil(fr->pb + bottom + 8);
	return 0;
}

static void svg_open(struct chart_ctx *g, const struct chart *c, const struct frame *fr,
		     bool standalone)
{
	fprintf(g->f, "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		      "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" font-family=\"%s\" "
		      "font-size=\"%d\" aria-label=\"", fr->w, fr->h, fr->w, fr->h,
		CHART_FONT, CHART_FS);
	xml_esc(g->f, c->title);
	if (c->id) {
		fputs("\" id=\"", g->f);
		xml_esc(g->f, c->id);
	}
	fputs("\">", g->f);
	if (standalone)
		fputs("<title>", g->f), xml_esc(g->f, c->title), fputs("</title>", g->f);
	fprintf(g->f, "<rect class=\"bg\" width=\"%.0f\" height=\"%.0f\" fill=\"#fff\"/>", fr->w,
		fr->h);
}

static void title_legend(struct chart_ctx *g, const struct chart *c, const struct frame *fr)
{
	char fit[512];
	double x, y = 18, total = 0;

	chart_text(g, MARGIN, y, CHART_START, false, CHART_TFS, "ct",
		   chart_fit(c->title, CHART_W - 2 * MARGIN, CHART_TFS, fit, sizeof(fit)));
	if (c->ns < 2)
		return;
	for (size_t i = 0; i < c->ns; i++)
		total += legend_entry(c, i);
	x = fr->legend_rows ? MARGIN : CHART_W - MARGIN - total + 12;
	if (fr->legend_rows)
		y += 16;
	for (size_t i = 0; i < c->ns; i++) {
		double e = fmin(legend_entry(c, i), CHART_W - 2 * MARGIN);

		if (fr->legend_rows && x + e > CHART_W - MARGIN && x > MARGIN)
			x = MARGIN, y += 16;
		fprintf(g->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" class=\"mk "
			      "c-%s\" fill=\"%s\"/>", x, y - 9, c->s[i].color,
			light(c->s[i].color));
		chart_text(g, x + 14, y, CHART_START, false, CHART_FS, "al",
			   chart_fit(c->s[i].name, e - 26, CHART_FS, fit, sizeof(fit)));
		x += e;
	}
}

static void y_axis(struct chart_ctx *g, const struct chart *c, const struct frame *fr)
{
	char b[32];

	for (size_t i = 0; i < fr->ny; i++) {
		double y = px_y(fr, fr->yv[i]);

		fprintf(g->f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" class=\"g\" "
			      "stroke=\"#e5e5e5\"/>", fr->pl, fr->pr, y, y);
		chart_text(g, fr->pl - 6, y + 4, CHART_END, false, CHART_FS, "al",
			   short_num(fr->yv[i], b, sizeof(b)));
	}
	if (c->ytitle) {
		char fit[256];

		/* Centred on the plot, and never longer than it. */
		chart_text(g, 4 + 0.93 * CHART_FS, (fr->pt + fr->pb) / 2, CHART_MIDDLE, true,
			   CHART_FS, "al", chart_fit(c->ytitle, fr->pb - fr->pt, CHART_FS, fit,
						      sizeof(fit)));
	}
	fprintf(g->f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" class=\"ax\" "
		      "stroke=\"#999\"/>", fr->pl, fr->pr, fr->pb, fr->pb);
}

/* A tick label under the axis at x, written only where it is clear of every other text. */
static void x_label(struct chart_ctx *g, const struct frame *fr, double x, const char *s)
{
	struct chart_box b = chart_text_box(x, fr->pb + LH, CHART_MIDDLE, false, CHART_FS, s);

	if (chart_clear(g, &b, fr->w, fr->h))
		chart_text(g, x, fr->pb + LH, CHART_MIDDLE, false, CHART_FS, "al", s);
}

/* Round ticks: a step of 1, 2 or 5 times a power of ten, widened until labels are apart. */
static void x_round_ticks(struct chart_ctx *g, const struct frame *fr)
{
	char b[32];
	double step;

	if (fr->ax.log) {
		for (double e = ceil(fr->ax.lo); e <= fr->ax.hi + 1e-9; e++)
			x_label(g, fr, px_x(fr, pow(fr->ax.base, e)),
				short_num(pow(fr->ax.base, e), b, sizeof(b)));
		return;
	}
	step = nice((fr->ax.hi - fr->ax.lo) / 6);
	for (int k = 0; k < 8; k++) {
		double wide = chart_text_width(short_num(fr->ax.hi, b, sizeof(b)), CHART_FS) +
			      3 * GAP;

		if (step / (fr->ax.hi - fr->ax.lo) * (fr->pr - fr->pl) >= wide)
			break;
		step = nice(step * 1.5);
	}
	for (double v = fr->ax.lo; v <= fr->ax.hi + step / 100; v += step)
		x_label(g, fr, px_x(fr, v), short_num(v, b, sizeof(b)));
}

static void x_axis(struct chart_ctx *g, const struct chart *c, const struct frame *fr)
{
	double below = fr->pb + LH + 4;

	if (c->kind == CHART_BARS || c->kind == CHART_CURVE) {
		chart_cats_write(g, c->cats, c->n, fr->pl, fr->slot, fr->pb, &fr->cats,
				 fr->pb + fr->cats.height + (c->xtitle ? LH + 4 : 0));
		below = fr->pb + fr->cats.height;
	} else if (c->kind == CHART_XY && c->ticks_at_points && c->cats) {
		for (size_t i = 0; i < c->n; i++)
			if (usable(c->x[i], fr->ax.log))
				x_label(g, fr, px_x(fr, c->x[i]), c->cats[i]);
	} else {
		x_round_ticks(g, fr);
	}
	if (c->xtitle) {
		char fit[256];

		chart_text(g, (fr->pl + fr->pr) / 2, below + LH, CHART_MIDDLE, false, CHART_FS,
			   "al", chart_fit(c->xtitle, fr->w - 2 * MARGIN, CHART_FS, fit,
					   sizeof(fit)));
	}
}

/* The x of point i of series l. */
static double point_x(const struct chart *c, const struct frame *fr, size_t l, size_t i)
{
	const double *x = c->s[l].x ? c->s[l].x : c->x;

	switch (c->kind) {
	case CHART_TIME:
		return px_x(fr, c->x[i] - c->dx[i] / 2);
	case CHART_XY:
		return px_x(fr, x[i]);
	default:
		return fr->pl + fr->slot * ((double)i + 0.5);
	}
}

static bool point_known(const struct chart *c, const struct frame *fr, size_t l, size_t i)
{
	const double *x = c->s[l].x ? c->s[l].x : c->x;

	return usable(c->s[l].y[i], fr->ay.log) &&
	       (c->kind != CHART_XY || usable(x[i], fr->ax.log)) &&
	       (c->kind != CHART_TIME || (isfinite(c->x[i]) && isfinite(c->dx[i])));
}

/* A point's tooltip: "name: value". */
static void tip(FILE *f, const struct chart *c, size_t l, size_t i)
{
	char b[32];

	fputs("<title>", f);
	if (c->cats && c->cats[i])
		xml_esc(f, c->cats[i]), fputs(", ", f);
	xml_esc(f, c->s[l].name);
	fprintf(f, ": %s</title>", short_num(c->s[l].y[i], b, sizeof(b)));
}

/*
 * Few intervals are drawn as steps, each at its value over the whole interval it covers, so a
 * run of one or two points shows what was measured instead of a dot; more as a line.
 */
static void draw_line(struct chart_ctx *g, const struct chart *c, const struct frame *fr,
		      size_t l)
{
	bool pen = false, steps = c->kind == CHART_TIME && c->n < STEPS_BELOW;
	const char *col = c->s[l].color;

	fprintf(g->f, "<path class=\"ln c-%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" "
		      "d=\"", col, light(col), steps ? "2.5" : "1.8");
	for (size_t i = 0; i < c->n; i++) {
		if (!point_known(c, fr, l, i)) {
			/* A sweep's series skips the points of the others without a break. */
			pen = pen && c->kind == CHART_XY;
			continue;
		}
		double y = px_y(fr, c->s[l].y[i]);

		if (steps)
			fprintf(g->f, "%c%.1f %.1fH%.1f ", pen ? 'L' : 'M',
				px_x(fr, c->x[i] - c->dx[i]), y, px_x(fr, c->x[i]));
		else
			fprintf(g->f, "%c%.1f %.1f ", pen ? 'L' : 'M', point_x(c, fr, l, i), y);
		pen = true;
	}
	fputs("\"/>", g->f);
	for (size_t i = 0; i < c->n; i++)
		if (point_known(c, fr, l, i) && (c->kind != CHART_TIME || steps)) {
			fprintf(g->f, "<circle class=\"mk c-%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
				      "fill=\"%s\">", col, point_x(c, fr, l, i),
				px_y(fr, c->s[l].y[i]), light(col));
			tip(g->f, c, l, i);
			fputs("</circle>", g->f);
		}
}

static void draw_bars(struct chart_ctx *g, const struct chart *c, const struct frame *fr)
{
	double bw = fr->slot * 0.7 / (double)c->ns;

	for (size_t i = 0; i < c->n; i++)
		for (size_t l = 0; l < c->ns; l++) {
			double v = c->s[l].y[i], y;

			if (!usable(v, fr->ay.log))
				continue;
			y = px_y(fr, v);
			fprintf(g->f, "<rect class=\"mk c-%s\" x=\"%.1f\" y=\"%.1f\" "
				      "width=\"%.1f\" height=\"%.1f\" fill=\"%s\">", c->s[l].color,
				fr->pl + fr->slot * ((double)i + 0.15) + bw * (double)l, y, bw,
				fr->pb - y, light(c->s[l].color));
			tip(g->f, c, l, i);
			fputs("</rect>", g->f);
		}
}

/* A text beside (x, y): the first of the places around it that is clear of every text. */
static bool place_near(struct chart_ctx *g, const struct frame *fr, double x, double y,
		       double d, const char *s)
{
	static const struct {
		double dx, dy;
		enum chart_anchor a;
	} at[] = {
		{.dx = 0, .dy = -1, .a = CHART_MIDDLE}, {.dx = 1, .dy = -0.5, .a = CHART_START},
		{.dx = -1, .dy = -0.5, .a = CHART_END}, {.dx = 1, .dy = 1.2, .a = CHART_START},
		{.dx = -1, .dy = 1.2, .a = CHART_END}, {.dx = 0, .dy = 1.8, .a = CHART_MIDDLE},
	};

	for (size_t k = 0; k < sizeof(at) / sizeof(at[0]); k++) {
		double tx = x + at[k].dx * d, ty = y + at[k].dy * d;
		struct chart_box b = chart_text_box(tx, ty, at[k].a, false, CHART_FS, s);

		if (b.y + b.h <= fr->pb && b.y >= fr->pt - 2 && chart_clear(g, &b, fr->w, fr->h)) {
			chart_text(g, tx, ty, at[k].a, false, CHART_FS, "al", s);
			return true;
		}
	}
	return false;
}

/* The knee of each series (a ring and its name), then the points' names where they fit. */
static void xy_marks(struct chart_ctx *g, const struct chart *c, const struct frame *fr)
{
	for (size_t l = 0; l < c->ns; l++) {
		size_t k = c->s[l].knee;

		if (k == CHART_NO_KNEE || k >= c->n || !point_known(c, fr, l, k))
			continue;
		double x = point_x(c, fr, l, k), y = px_y(fr, c->s[l].y[k]);

		fprintf(g->f, "<circle class=\"ln c-knee\" cx=\"%.1f\" cy=\"%.1f\" r=\"8\" "
			      "fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>", x, y,
			light("knee"));
		place_near(g, fr, x, y, 14, "knee");
	}
	if (!c->cats || c->ticks_at_points)
		return;
	for (size_t l = 0; l < c->ns; l++)
		for (size_t i = 0; i < c->n; i++)
			if (point_known(c, fr, l, i) && c->cats[i])
				place_near(g, fr, point_x(c, fr, l, i), px_y(fr, c->s[l].y[i]), 8,
					   c->cats[i]);
}

int chart_svg(FILE *f, const struct chart *c, bool standalone, struct chart_layout *lay)
{
	struct chart_ctx g = {.f = f};
	struct frame fr;

	if (!c->n || !c->ns || layout(c, &fr))
		return 0;
	svg_open(&g, c, &fr, standalone);
	title_legend(&g, c, &fr);
	y_axis(&g, c, &fr);
	x_axis(&g, c, &fr);
	if (c->kind == CHART_BARS)
		draw_bars(&g, c, &fr);
	else
		for (size_t l = 0; l < c->ns; l++)
			draw_line(&g, c, &fr, l);
	if (c->kind == CHART_XY)
		xy_marks(&g, c, &fr);
	fputs("</svg>\n", f);
	if (lay) {
		free(lay->boxes);
		*lay = (struct chart_layout){.boxes = g.boxes, .n = g.nboxes, .cap = g.capboxes,
					     .w = fr.w, .h = fr.h, .label_mode = fr.cats.mode,
					     .oom = g.oom};
		g.boxes = NULL;
	}
	free(g.boxes);
	return g.oom ? -ENOMEM : 0;
}

size_t chart_knee(const double *thr, const double *p99, size_t n)
{
	size_t prev = CHART_NO_KNEE;

	for (size_t i = 0; i < n; i++) {
		if (!(isfinite(thr[i]) && thr[i] > 0 && isfinite(p99[i]) && p99[i] > 0))
			continue;
		if (prev != CHART_NO_KNEE && p99[i] / p99[prev] > thr[i] / thr[prev])
			return prev;
		prev = i;
	}
	return CHART_NO_KNEE;
}
