#ifndef IORATE_REPORT_JSON_H
#define IORATE_REPORT_JSON_H
#include <jansson.h>

#include "core/result.h"

/* The schema number of report_json_result()'s object; docs/json.md describes it. */
#define REPORT_JSON_SCHEMA 1

/*
 * A run's result as the JSON object `iorate run --json` prints, for commands (sweep, mark) that
 * embed run results in their own JSON. The caller owns the reference; NULL when out of memory.
 */
json_t *report_json_result(const struct result *r);

/*
 * The pieces report_json_result() is built of, for the other formats that print the same
 * figures. Each returns a new reference, or NULL when out of memory.
 */
/* A figure, or null when it is not finite: JSON has no NaN or infinity. */
json_t *report_json_real(double v);
/* A string, null for NULL; bytes that are not UTF-8 (paths are bytes) become '?'. */
json_t *report_json_str(const char *s);
/* A `lat_us` object (docs/json.md): min, mean, stdev, max, every percentile; or null. */
json_t *report_json_lat(const struct dir_summary *s);

#endif
