#ifndef IORATE_REPORT_MARK_FMT_H
#define IORATE_REPORT_MARK_FMT_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "core/job.h"
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

/* The best of a test's runs in one direction (kept whole for --json), and every run's MB/s. */
struct mark_cell {
	bool done;
	struct result best;
	struct dir_summary sum;
	double run_mbps[MARK_MAX_RUNS];
	unsigned nruns, best_run;
};

/* What `iorate mark` measured, as the formats read it. */
struct mark_table {
	const char *profile, *title;      /* "nvme", "NVMe SSD" */
	const struct mark_test *const *tests; /* MARK_MAX_TESTS entries, NULL after the last */
	const struct mark_cell (*cell)[2];    /* [test][0 read, 1 write] */
	bool read_only;                   /* writes were skipped on purpose */
	const struct job *base;           /* size, cache, command line */
	const char *path;                 /* the file or device measured */
	const char *fs_use;               /* "[/mnt/data: 12% (12/100GiB)]" */
	const char *engine, *kernel;
	unsigned runs;
	uint64_t measure_ns, interval_ns;
	time_t date;
};

/* CrystalDiskMark's text table (MB/s = 10^6 B/s, IOPS, mean latency in us). */
void mark_fmt_text(FILE *f, const struct mark_table *t);
/* One CSV line per test and direction that ran. */
void mark_fmt_csv(FILE *f, const struct mark_table *t);
/* {schema, origin "mark", profile, target, ..., tests: [{name, ..., read, write}]}. */
int mark_fmt_json(FILE *f, const struct mark_table *t);

#endif
