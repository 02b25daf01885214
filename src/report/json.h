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

#endif
