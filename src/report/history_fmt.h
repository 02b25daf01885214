#ifndef IORATE_REPORT_HISTORY_FMT_H
#define IORATE_REPORT_HISTORY_FMT_H
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "store/history.h"

/*
 * How 'iorate history' prints stored runs: list (text table, CSV), show (a summary of the saved
 * 'iorate run --json' object; the full text report needs histograms the history does not keep)
 * and compare (text or JSON). JSON objects are new references owned by the caller.
 */

/* One run's columns as the JSON of 'history list --json' and 'compare --json'. */
json_t *report_history_run_json(const struct history_run *r);

void report_history_list_text(FILE *f, const struct history_run *runs, size_t n);
/* One line of column names, then one line a run; targets are quoted and space-separated. */
void report_history_list_csv(FILE *f, const struct history_run *runs, size_t n);

/* run is the saved JSON; label may be NULL. */
void report_history_show_text(FILE *f, int64_t id, const char *label, json_t *run);

/* a and b side by side: each figure, the ratio b/a, the parameters that differ, the status. */
void report_history_compare_text(FILE *f, const struct history_run *a,
				 const struct history_run *b);
json_t *report_history_compare_json(const struct history_run *a, const struct history_run *b);

#endif
