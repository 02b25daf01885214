#ifndef IORATE_REPORT_CHART_INT_H
#define IORATE_REPORT_CHART_INT_H
#include "report/chart.h"

/* Internal to chart.c and chart_text.c: recording texts and laying out category labels. */
struct chart_ctx {
	FILE *f;
	struct chart_layout *lay;
	struct chart_box *boxes;        /* every text so far, to place point labels clear of */
	size_t nboxes, capboxes;
	bool oom;
};

enum chart_anchor { CHART_START, CHART_MIDDLE, CHART_END };

/* Writes one line of text at (x, y) (baseline; vertical: turned to read upwards) and keeps
 * its box. */
void chart_text(struct chart_ctx *g, double x, double y, enum chart_anchor a, bool vertical,
		double px, const char *cls, const char *s);
/* The box a text would take, without writing it. */
struct chart_box chart_text_box(double x, double y, enum chart_anchor a, bool vertical,
				double px, const char *s);
/* Whether b is clear of every text written so far, and inside w x h. */
bool chart_clear(const struct chart_ctx *g, const struct chart_box *b, double w, double h);
/* s cut to at most w pixels at px, ending with an ellipsis when cut; into buf. */
const char *chart_fit(const char *s, double w, double px, char *buf, size_t len);

/* How n category labels fit under slots of width slot (x of slot i: x0 + slot * i). */
struct chart_cats {
	unsigned mode;                  /* CHART_LABELS_* */
	unsigned every;                 /* label every k-th category (many, narrow slots) */
	double height;                  /* the labels' below the axis, px */
	double key_h;                   /* the key's, px (0: none) */
	bool turned;                    /* KEY: the numbers are turned */
	unsigned key_cols, key_rows;
	double key_colw;
};
void chart_cats_plan(const char *const *cats, size_t n, double slot, struct chart_cats *p);
/* Writes the labels planned, under the axis at y; the key (if any) starts at key_y. */
void chart_cats_write(struct chart_ctx *g, const char *const *cats, size_t n, double x0,
		      double slot, double y, const struct chart_cats *p, double key_y);

#endif
