#ifndef IORATE_REPORT_JSON_H
#define IORATE_REPORT_JSON_H
#include <stdio.h>

#include <jansson.h>

#include "result/result_json.h"

/* The schema number of the run JSON (result/result_json.h); docs/json.md describes it. */
#define REPORT_JSON_SCHEMA RESULT_JSON_SCHEMA

/*
 * A run's result as `iorate run --json` prints it: result_to_json(), indented, reals in their
 * shortest exact form, histogram pairs on one line. 0, -ENOMEM or -EIO.
 */
int report_json_print(FILE *f, const struct result *r);
/* A run of one job or several the same way: result_set_to_json(). */
int report_json_print_set(FILE *f, const struct result_set *s);
/* A job as `iorate run --dry-run --json` shows it: the `params` object its run's JSON would
 * have (every parameter, named as docs/json.md names them). 0, -ENOMEM or -EIO. */
int report_json_print_params(FILE *f, const struct job *j);
/* That `params` object itself: a new reference, NULL when out of memory. */
json_t *report_json_params(const struct job *j);

/*
 * For commands (sweep, mark) that embed run results in their own JSON: result_to_json() and its
 * pieces under the report's names. Each returns a new reference, or NULL when out of memory.
 */
json_t *report_json_result(const struct result *r);
/* A figure, or null when it is not finite: JSON has no NaN or infinity. */
json_t *report_json_real(double v);
/* A string, null for NULL; bytes that are not UTF-8 (paths are bytes) become '?'. */
json_t *report_json_str(const char *s);
/* A `lat_us` object (docs/json.md): min, mean, stdev, max, every percentile; or null. */
json_t *report_json_lat(const struct dir_summary *s);

#endif
