#ifndef IORATE_REPORT_CHART_H
#define IORATE_REPORT_CHART_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * SVG charts for the HTML report and its PNG files (report/html.c, report/png.c). Every text of
 * a chart is laid out before it is written, from a width that is known in advance: the charts
 * use a monospace font stack (CHART_FONT) whose fonts all advance 0.60 em or less per character
 * cell, and a text is taken as CHART_EM em per cell (East Asian wide characters two cells), so
 * a label that is placed clear of the others stays clear in a browser and in librsvg alike.
 */

/* Writes s with the five characters HTML and XML give a meaning escaped (text and attributes). */
void xml_esc(FILE *f, const char *s);

#define CHART_FONT "'DejaVu Sans Mono','Liberation Mono',Menlo,Consolas,monospace"
#define CHART_EM 0.62           /* estimated advance per cell, em: 0.602 in DejaVu Sans Mono */
#define CHART_FS 11             /* labels, legend, axes, px */
#define CHART_TFS 13            /* the title, px */
#define CHART_W 540             /* every chart is this wide, px; its height follows its labels */

/* Character cells of UTF-8 text: 2 for East Asian wide characters, 0 for combining marks. */
size_t chart_cells(const char *s);
/* The estimated width of s at px pixels: cells x CHART_EM x px. */
double chart_text_width(const char *s, double px);

/* A text's box in the chart's coordinates (y down), as the layout estimated it. */
struct chart_box {
	double x, y, w, h;
};

/* Whether two boxes overlap (share more than an edge). */
bool chart_boxes_overlap(const struct chart_box *a, const struct chart_box *b);

/* Every text a chart wrote, for tests; the caller frees boxes. */
struct chart_layout {
	struct chart_box *boxes;
	size_t n, cap;
	double w, h;            /* the chart's size */
	unsigned label_mode;    /* CHART_LABELS_* the category labels took */
	bool oom;               /* a box could not be recorded */
};

/* How the category labels under bars were set: the first that fits. */
enum {
	CHART_LABELS_NONE,
	CHART_LABELS_FLAT,      /* one line each */
	CHART_LABELS_WRAPPED,   /* up to three lines each, broken at spaces */
	CHART_LABELS_VERTICAL,  /* turned a quarter, reading upwards */
	CHART_LABELS_KEY,       /* numbers, named in a key under the chart */
};

enum chart_kind {
	CHART_TIME,     /* over the run: point i covers (x[i] - dx[i], x[i]], seconds */
	CHART_CURVE,    /* over categories cats[], evenly spaced (latency percentiles) */
	CHART_BARS,     /* a group of bars per category cats[], one bar per series */
	CHART_XY,       /* y against a numeric x: a sweep's figures, the load-latency curve */
};

#define CHART_NO_KNEE SIZE_MAX

/*
 * A series. color names a class of chart_css(): "total", "read", "write", "p99", "c0".."c5"
 * (in that order the palette for series that have no meaning of their own).
 */
struct chart_series {
	const char *name;       /* in the legend */
	const char *color;
	const double *y;        /* n values; NaN when unknown */
	const double *x;        /* CHART_XY: this series' own x (NULL: the chart's x) */
	size_t knee;            /* CHART_XY: the point marked as the knee, or CHART_NO_KNEE */
};

struct chart {
	const char *id;                 /* the <svg>'s id, or NULL */
	const char *title;
	const char *xtitle, *ytitle;    /* the axes' titles with their units: "MiB/s" */
	enum chart_kind kind;
	size_t n;                       /* points, or categories */
	const double *x, *dx;           /* TIME: interval ends and lengths; XY: x (or per series) */
	/* CURVE, BARS: the categories. XY: each point's name, written beside it (may be NULL). */
	const char *const *cats;
	bool ticks_at_points;           /* XY: x ticks at the points, named by cats (a sweep) */
	bool xlog, ylog;
	const struct chart_series *s;
	size_t ns;
};

/*
 * Writes the chart as an <svg> element: inline in a page, or with standalone an SVG document of
 * its own (the PNG's source). Its colours are presentation attributes, the light style, each
 * with a class that chart_css() restyles for a dark page. Writes nothing (returns 0) when no
 * value is known. lay, when not NULL, gets every text's box. 0, or -ENOMEM.
 */
int chart_svg(FILE *f, const struct chart *c, bool standalone, struct chart_layout *lay);

/* The stylesheet rules of charts in a page: dark colours under prefers-color-scheme: dark. */
void chart_css(FILE *f);

/*
 * The knee of a load-latency curve (docs/report.md): with the points in the order they were
 * measured (rising load), the first step i -> i+1 whose p99 grows by a larger factor than its
 * throughput, p99[i+1] / p99[i] > thr[i+1] / thr[i], names point i: the last point before
 * latency rises faster than throughput. Points with an unknown or non-positive figure are
 * skipped. CHART_NO_KNEE when no step does so.
 */
size_t chart_knee(const double *thr, const double *p99, size_t n);

#endif
