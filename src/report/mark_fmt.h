#ifndef IORATE_REPORT_MARK_FMT_H
#define IORATE_REPORT_MARK_FMT_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "core/job.h"
#include "core/result_json.h"
#include "core/result.h"
#include "core/stats.h"

#define MARK_MAX_TESTS 4
#define MARK_MAX_RUNS 100

/* One of CrystalDiskMark's tests: "SEQ1M Q8T1" is sequential 1 MiB, depth 8, one thread. */
struct mark_test {
	const char *name;
	bool seq;
	uint64_t bs;
	unsigned depth, threads;
};

/* The three passes over a profile's tests, in the order they run. */
enum mark_dir { MARK_READ, MARK_WRITE, MARK_MIX, MARK_NDIRS };
extern const char *const mark_dir_names[MARK_NDIRS]; /* "read", "write", "mix" */

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

/* The runs of a test in one direction, and the run of highest throughput kept whole. */
struct mark_cell {
	bool done;
	struct result best;          /* for --json: every detail of that run */
	unsigned best_run;           /* its index in runs */
	struct mark_run runs[MARK_MAX_RUNS];
	unsigned nruns;
};

/* What `iorate mark` measured, as the formats read it. */
struct mark_table {
	const char *profile, *title;      /* "peak", "Peak Performance" */
	const char *preset, *preset_title; /* "nvme", "NVMe SSD"; the title NULL for standard */
	const struct mark_test *const *tests; /* MARK_MAX_TESTS entries, NULL after the last */
	const struct mark_cell (*cell)[MARK_NDIRS]; /* [test][direction] */
	bool read_only;                   /* writes (and the Mix) were skipped on purpose */
	bool mix;                         /* the Mix tests were asked for */
	unsigned mix_read_pct;            /* their share of reads */
	bool prepare;                     /* each test began with a discarded run */
	enum mark_score score;
	enum mark_units units;            /* of the text table */
	const struct job *base;           /* size, cache, command line */
	const char *path;                 /* the file or device measured */
	const char *fs_use;               /* "[/mnt/data: 12% (12/100GiB)]" */
	const char *engine, *kernel;
	unsigned runs;
	uint64_t measure_ns, pause_ns;    /* each run; between tests */
	time_t date;
};

/* The document's keys, MARK_DOC_*, are core/result_json.h's: its readers share them. */

/* The formats of the table (src/report/format.c); each returns 0 or -errno (-EIO, -ENOMEM). */
/* CrystalDiskMark's text table: the score in the units asked, IOPS, mean latency in us. */
int mark_fmt_text(FILE *f, const struct mark_table *t);
/* One CSV line per test and direction that ran, the score in every unit. */
int mark_fmt_csv(FILE *f, const struct mark_table *t);
/* {schema, origin "mark", profile, ..., tests: [{name, ..., read, write, mix}]}: docs/compat.md. */
int mark_fmt_json(FILE *f, const struct mark_table *t);

#endif
