#ifndef IORATE_STATS_NOISE_H
#define IORATE_STATS_NOISE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/run.h"

/*
 * Whether a figure moved beyond run-to-run noise between two stored runs ('iorate history
 * compare', docs/history.md): Welch's t-test, two-sided, of the two runs' values per interval of
 * their series (the coarser of the two: the finer one's points are added up to it; a value at
 * least STATS_NOISE_MIN_FRACTION of the interval long); a change with p below STATS_NOISE_ALPHA
 * is beyond noise; a run with fewer than STATS_NOISE_MIN_SAMPLES values is not tested.
 */
#define STATS_NOISE_ALPHA 0.01
#define STATS_NOISE_MIN_SAMPLES 3
#define STATS_NOISE_MIN_FRACTION 0.5

/* The direction of a figure, in report/summary.h's order (read, write, total). */
enum stats_dir { STATS_READ, STATS_WRITE, STATS_TOTAL };

/* The figures a comparison sets side by side, in this order. */
enum stats_metric { STATS_IOPS, STATS_MIBPS, STATS_MEAN, STATS_P99, STATS_NMETRICS };

/* Why a figure was not tested (STATS_TESTED: it was). */
enum stats_untested {
	STATS_TESTED,
	STATS_NO_SAMPLES,           /* no values per interval (a direction's latency) */
	STATS_SEVERAL_JOBS,         /* p99 per interval does not add up over jobs */
	STATS_INTERVALS_DIFFER,     /* nor over intervals of different lengths */
	STATS_TOO_FEW,              /* too few intervals */
};

struct stats_noise {
	bool tested, beyond;         /* beyond: tested and p < STATS_NOISE_ALPHA */
	double p;                    /* NaN when not tested */
	size_t na, nb;               /* the values (one per interval) of each run */
	uint64_t interval_ns;        /* the interval of a value: the coarser of the runs' series */
	enum stats_untested why;
};

void stats_noise(const struct stats_run *a, const struct stats_run *b, enum stats_dir d,
		 enum stats_metric m, struct stats_noise *out);

/*
 * The values of a figure of a run, one per iv ns of its series: their number; *v is malloc'd.
 * stats_interval(): the coarsest series' interval of its jobs, in ns (1 s when none).
 */
size_t stats_samples(const struct stats_run *run, uint64_t iv, enum stats_dir d,
		     enum stats_metric m, double **v);
uint64_t stats_interval(const struct stats_run *run);

#endif
