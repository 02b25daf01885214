#ifndef IORATE_REPORT_CHART_H
#define IORATE_REPORT_CHART_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Writes s with the five characters HTML and XML give a meaning escaped (text and attributes). */
void xml_esc(FILE *f, const char *s);

/*
 * A line chart (inline SVG) of nl series ys[0..nl) over n points, each series named and coloured
 * by names[] and colors[]. x holds the points' x values (a numeric axis in seconds from 0), or,
 * when x is NULL, xcat their category names, evenly spaced (as for percentiles). Unknown values
 * (NaN) break a line; a point with no neighbour is drawn as a dot; log uses a log10 y axis.
 * Writes nothing when no value is known.
 */
void chart_lines(FILE *f, const char *title, const char *unit, const double *x,
		 const char *const *xcat, size_t n, const double *const *ys,
		 const char *const *names, const char *const *colors, size_t nl, bool log);

/* Grouped bars: for each of n categories cats[] (runs), one bar per series of ys[0..nl). */
void chart_bars(FILE *f, const char *title, const char *unit, const char *const *cats,
		size_t n, const double *const *ys, const char *const *names,
		const char *const *colors, size_t nl);

#endif
