#ifndef IORATE_REPORT_SUMMARY_H
#define IORATE_REPORT_SUMMARY_H
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "core/result.h"

/*
 * Helpers shared by the report formats (not part of the report API). Every format prints read,
 * write and total side by side, so they are summarized together, in this order.
 */
enum report_dir { REPORT_READ, REPORT_WRITE, REPORT_TOTAL, REPORT_NDIR };

extern const char *const report_dir_names[REPORT_NDIR]; /* "read", "write", "total" */

/*
 * s[REPORT_READ..REPORT_TOTAL] of rd, wr and the sum of all three over `seconds` (tr, the
 * trims, may be NULL; reports add a trim row of their own where dir_stats_any(tr)).
 * 0 or -ENOMEM.
 */
int report_summarize(const struct dir_stats *rd, const struct dir_stats *wr,
		     const struct dir_stats *tr, double seconds, struct dir_summary s[REPORT_NDIR]);

/* Percentile i (0..STATS_NPCT-1) of a summary, in microseconds. */
double report_pct(const struct dir_summary *s, unsigned i);

/* Percentile i's label in headings: "p50", "p99.9", ... (the names use '_': "p99_9"). */
const char *report_pct_label(unsigned i, char *buf, size_t len);

/* The run's failure as one line, or NULL when it did not fail. */
const char *report_error(const struct result *r);

/*
 * One CSV field with RFC 4180 quoting: a field holding a comma or a quote is quoted, quotes
 * doubled. Control characters (a line break too) are escaped as util/escape.h says (\x1b, \n),
 * never written raw. NULL writes an empty field.
 */
void report_csv_field(FILE *f, const char *s);

/*
 * Microseconds with enough digits for both a RAM disk and a spinning one: three decimals below
 * 10 us, one above. "-" when v is not finite (unknown).
 */
const char *report_fmt_us(double v, char *buf, size_t len);

/*
 * A series point's counts as rates. A point of zero length has rates of 0 rather than a
 * division by zero, in every format alike.
 */
struct report_rates {
	double iops, read_iops, write_iops, mibps, mbps;
};
void report_point_rates(const struct series_point *p, struct report_rates *r);

/* A series' interval in words: "100 ms", "1 s", "1500 ms" (whole seconds as seconds). */
const char *report_fmt_interval(uint64_t ns, char *buf, size_t len);

/* v as indented JSON and a newline, flushed: 0, -ENOMEM when v is NULL, or -EIO. */
int report_json_dump(FILE *f, const json_t *v);

#endif
