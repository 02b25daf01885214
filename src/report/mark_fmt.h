#ifndef IORATE_REPORT_MARK_FMT_H
#define IORATE_REPORT_MARK_FMT_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "core/job.h"
#include "core/result.h"
#include "core/stats.h"
#include "result/result_json.h"
#include "stats/mark.h"
#include "report/format.h"

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

/*
 * One row of the text table, "  SEQ    1MiB (Q=  8, T= 1):    66.587 MB/s [ ... IOPS] <... us>",
 * and the legend line of a unit: the model's predicted table (model --mark) prints the same.
 */
void mark_fmt_row(FILE *f, const struct mark_test *t, const struct mark_figures *s,
		  enum mark_units u);
const char *mark_fmt_legend(enum mark_units u);

/* The document's keys, MARK_DOC_*, are result/result_json.h's: its readers share them. */

/* The writers of mark_formats (below); each returns 0 or -errno (-EIO, -ENOMEM). */
/* CrystalDiskMark's text table: the score in the units asked, IOPS, mean latency in us. */
int mark_fmt_text(FILE *f, const struct mark_table *t);
/* One CSV line per test and direction that ran, the score in every unit. */
int mark_fmt_csv(FILE *f, const struct mark_table *t);
/* {schema, origin "mark", profile, ..., tests: [{name, ..., read, write, mix}]}: docs/compat.md. */
int mark_fmt_json(FILE *f, const struct mark_table *t);

/* The formats of 'iorate mark'. */
struct mark_format {
	struct report_format f;
	int (*write)(FILE *f, const struct mark_table *t);
};
extern const struct report_formats mark_formats;

#endif
