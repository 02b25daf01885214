#ifndef IORATE_REPORT_JPATH_H
#define IORATE_REPORT_JPATH_H
#include <jansson.h>

/*
 * Members of the JSON that 'iorate run --json' prints, read by a dotted path
 * ("total.read.lat_us.p99"): by the HTML report, the history store and 'iorate explain'.
 */

/* The member, or NULL when a step is missing, not an object, or longer than 63 bytes. */
json_t *jpath(json_t *o, const char *path);
/* Its number, or NaN when it is missing or not a number. */
double jpath_num(json_t *o, const char *path);
/* Its string, or NULL when it is missing or not a string. */
const char *jpath_str(json_t *o, const char *path);

#endif
