#ifndef IORATE_REPORT_HISTORY_INT_H
#define IORATE_REPORT_HISTORY_INT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "report/history_fmt.h"
#include "report/summary.h"
#include "result/result_set.h"

/*
 * What the history's listing (history_fmt.c) and its comparison (history_cmp.c: the figures,
 * and whether they moved beyond noise by src/stats/noise.c; history_diff.c: the parameters)
 * share; not part of the report API.
 */

/* What a listing shows of one direction. */
struct history_fig {
	uint64_t ios;
	double iops, mibps;
	bool has_lat;
	double mean_us, p99_us;
};

/* The run's figures for read, write and total (of several jobs, their total); unknown (NaN)
 * when out of memory. */
void history_figs(const struct result_set *run, struct history_fig f[REPORT_NDIR]);
/* The engine used (else the one asked for). */
const char *history_engine(const struct result *r);
/* A run's measured time (of several jobs, the groups' windows added) and how it ended:
 * "failed", "interrupted" or "". */
double history_seconds(const struct result_set *run);
const char *history_status(const struct result_set *run);
/* "2024-05-01 14:30", local time. */
const char *history_date(int64_t ms, char *buf, size_t len);

/*
 * The parameters of a and b that differ (history_diff.c), into d: the host and iorate version,
 * how many jobs, then each job's workload (of several jobs, prefixed "job K (NAME): "). 0 or
 * -ENOMEM.
 */
int history_differences(const struct result_set *a, const struct result_set *b,
			struct report_diff *d);

#endif
