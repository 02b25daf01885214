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
 * What the history's listing (history_fmt.c) and its comparison (history_cmp.c: the figures;
 * history_noise.c: whether they moved beyond noise; history_diff.c: the parameters) share; not
 * part of the report API.
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

/* The figures a comparison sets side by side, in this order. */
enum history_metric { METRIC_IOPS, METRIC_MIBPS, METRIC_MEAN, METRIC_P99, METRIC_N };

/*
 * The values of a figure of a run, one per iv ns of its series (history_noise.c): their number;
 * *v is malloc'd. history_interval(): the coarsest series' interval of its jobs, in ns.
 */
size_t history_samples(const struct result_set *run, uint64_t iv, enum report_dir d,
		       enum history_metric m, double **v);
uint64_t history_interval(const struct result_set *run);

/* Whether a figure moved beyond run-to-run noise from a to b: Welch's t-test, or why not. */
struct history_noise {
	bool tested, beyond;         /* beyond: tested and p < REPORT_NOISE_ALPHA */
	double p;                    /* NaN when not tested */
	size_t na, nb;               /* the values (one per interval) of each run */
	uint64_t interval_ns;        /* the interval of a value: the coarser of the runs' series */
	const char *why;             /* why it was not tested, or NULL */
};
#define HISTORY_NO_SAMPLES "no values per interval"
void history_noise(const struct result_set *a, const struct result_set *b, enum report_dir d,
		   enum history_metric m, struct history_noise *out);

/*
 * The parameters of a and b that differ (history_diff.c), into d: the host and iorate version,
 * how many jobs, then each job's workload (of several jobs, prefixed "job K (NAME): "). 0 or
 * -ENOMEM.
 */
int history_differences(const struct result_set *a, const struct result_set *b,
			struct report_diff *d);

#endif
