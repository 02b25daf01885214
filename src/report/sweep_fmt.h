#ifndef IORATE_REPORT_SWEEP_FMT_H
#define IORATE_REPORT_SWEEP_FMT_H
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "core/job.h"
#include "core/stats.h"
#include "report/format.h"
#include "result/result_json.h"

/* One run of a sweep: value i of the swept parameter with block size k. */
struct sweep_cell {
	bool done;                /* it ran: to its end, or until stopped (interrupted) */
	bool interrupted;         /* a signal stopped it: the figures cover the seconds that ran */
	double seconds;
	struct dir_summary tot;   /* read and write together */
	json_t *run;              /* report_json_result(), kept for --json only */
};

/* What `iorate sweep` measured, as the formats read it. Cells are nvals x nbs, row-major. */
struct sweep_table {
	const char *param;        /* "targets", "threads", "depth", "bs", "write" */
	const char *label;        /* column heading: "Disks", ... */
	bool sizes;               /* the values are sizes (bs=) */
	bool bs_swept;            /* the block size is the swept parameter */
	const uint64_t *vals;
	size_t nvals;
	const uint64_t *bs;       /* the --bs values (one when none or one was given) */
	size_t nbs;
	const struct sweep_cell *cells;
	const char *command_line;
	enum job_units units;
	char *const *notes;       /* the runs' notes, each once */
	unsigned nnotes;
};

/*
 * A format of the sweep table, printed as the runs finish so that a long sweep shows its rows
 * (and Ctrl-C keeps them): begin before the first run, row once value i is done, end last.
 */
struct report_sweep_ops {
	void (*begin)(FILE *f, const struct sweep_table *t);
	void (*row)(FILE *f, const struct sweep_table *t, size_t i);
	int (*end)(FILE *f, const struct sweep_table *t, bool interrupted);
	bool runs;                /* the cells must keep each run's JSON (sweep_cell.run) */
};

/* The writers of sweep_formats (below). */
extern const struct report_sweep_ops report_sweep_text, report_sweep_csv, report_sweep_json;

/* The document's keys, SWEEP_DOC_*, are result/result_json.h's: its readers share them. */

/* A value of the swept parameter as the tables print it ("64KiB", "8"). */
const char *sweep_fmt_value(const struct sweep_table *t, uint64_t v, char *buf, size_t len);
/*
 * Text: a header, a row per value as it finishes (with several --bs, a stripe table's layout:
 * Disks | 64K IOPS | 64K MiB/s | 8K IOPS | 8K MiB/s), then the notes. CSV: a header, then one
 * line per block size of each value. JSON, at the end: {schema, version, command_line, param,
 * values, bs, interrupted, rows: [{..., interrupted, run}]}. A cell not done prints "-" in text and
 * nothing in CSV and JSON; the cell a signal stopped is printed, marked in text and JSON.
 */

/* The formats of 'iorate sweep'. */
struct sweep_format {
	struct report_format f;
	const struct report_sweep_ops *ops;
};
extern const struct report_formats sweep_formats;

#endif
