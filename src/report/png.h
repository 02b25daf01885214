#ifndef IORATE_REPORT_PNG_H
#define IORATE_REPORT_PNG_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* PNG files of the charts, rendered by librsvg from the SVG the page has inline. */

/* Pixels per SVG pixel: charts are 540 px wide, their PNG files 1080. */
#define REPORT_PNG_SCALE 2

/* Whether this build renders PNG (librsvg was found when it was built). */
bool report_png_available(void);

/*
 * Renders the standalone SVG document svg (len bytes, chart_svg()) at REPORT_PNG_SCALE times
 * its size and writes it to f as PNG. 0; -EINVAL with librsvg's reason in err when it refused
 * the SVG; -ENOTSUP when built without librsvg; -ENOMEM; -EIO when writing failed.
 */
int report_png_write(FILE *f, const char *svg, size_t len, char *err, size_t errlen);

#endif
