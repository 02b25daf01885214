#ifndef IORATE_STATS_MARK_H
#define IORATE_STATS_MARK_H
#include <stdint.h>

/*
 * `iorate mark`'s figures (docs/compat.md): a run's throughput in each tool's unit, and a test's
 * score over its runs, best (CrystalDiskMark) or mean (KDiskMark's Default profile). The
 * formats print what these return.
 */

/*
 * Which figure of a test's runs the table shows: the best (highest MB/s and IOPS, lowest mean
 * latency, each over all runs: CrystalDiskMark) or the mean of each (KDiskMark's Default).
 */
enum mark_score { MARK_SCORE_BEST, MARK_SCORE_MEAN };
extern const char *const mark_score_names[]; /* "best", "mean" */

/*
 * What the table's throughput is counted in: MB/s of 10^6 bytes (CrystalDiskMark), MiB/s of 2^20
 * bytes, or KDiskMark's "MB/s": fio's bandwidth in whole KiB/s divided by 1000, so a unit of
 * 1,024,000 bytes/s.
 */
enum mark_units { MARK_UNITS_SI, MARK_UNITS_IEC, MARK_UNITS_KDISKMARK, MARK_NUNITS };
extern const char *const mark_units_names[MARK_NUNITS]; /* "si", "iec", "kdiskmark" */

/*
 * One run of a test as counted: every figure of the table is computed from these, so the JSON,
 * which holds them, lets either score be recomputed in any unit. [0] reads, [1] writes.
 */
struct mark_run {
	double seconds;             /* the measured window */
	uint64_t ios[2], bytes[2];
	uint64_t lat_n[2], lat_sum_ns[2]; /* I/Os timed and their latencies' sum */
};

/* Figures of a run or of a test, reads and writes together. */
struct mark_figures {
	double mbps, mibps, kdiskmark_mbps; /* the throughput in each unit */
	double iops;
	double lat_mean_us;                 /* NAN when no I/O was timed */
};

/* A run's figures: the sum of both directions over its window (a Mix counts both). */
void mark_run_figures(const struct mark_run *r, struct mark_figures *f);

/*
 * The score of n runs: with MARK_SCORE_BEST each figure is the best any run reached (the
 * latency the lowest of the runs' means), with MARK_SCORE_MEAN the mean of the runs' figures
 * (the latency over the runs that timed I/O). All 0 (latency NAN) when n is 0.
 */
void mark_score_runs(const struct mark_run *runs, unsigned n, enum mark_score score,
		     struct mark_figures *f);

/* The index of the run of highest throughput (the first of equals); 0 when n is 0. */
unsigned mark_best_run(const struct mark_run *runs, unsigned n);

/* A figure's throughput in units. */
double mark_rate(const struct mark_figures *f, enum mark_units units);

#endif
