#ifndef IORATE_REPORT_SUMMARY_H
#define IORATE_REPORT_SUMMARY_H
#include "core/result.h"

/*
 * Helpers shared by the report formats (not part of the report API). Every format prints read,
 * write and total side by side, so they are summarized together, in this order.
 */
enum report_dir { REPORT_READ, REPORT_WRITE, REPORT_TOTAL, REPORT_NDIR };

extern const char *const report_dir_names[REPORT_NDIR]; /* "read", "write", "total" */

/* s[REPORT_READ..REPORT_TOTAL] of rd, wr and their sum over `seconds`. 0 or -ENOMEM. */
int report_summarize(const struct dir_stats *rd, const struct dir_stats *wr, double seconds,
		     struct dir_summary s[REPORT_NDIR]);

/* Percentile i (0..STATS_NPCT-1) of a summary, in microseconds. */
double report_pct(const struct dir_summary *s, unsigned i);

/* The run's failure as one line, or NULL when it did not fail. */
const char *report_error(const struct result *r);

#endif
