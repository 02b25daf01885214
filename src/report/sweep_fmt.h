#ifndef IORATE_REPORT_SWEEP_FMT_H
#define IORATE_REPORT_SWEEP_FMT_H
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "core/job.h"
#include "core/stats.h"

/* One run of a sweep: value i of the swept parameter with block size k. */
struct sweep_cell {
	bool done;
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
};

/* A value of the swept parameter as the tables print it ("64KiB", "8"). */
const char *sweep_fmt_value(const struct sweep_table *t, uint64_t v, char *buf, size_t len);
/* Text: a header, then a row per value as it finishes (seed 000's layout with several --bs). */
void sweep_fmt_text_header(FILE *f, const struct sweep_table *t);
void sweep_fmt_text_row(FILE *f, const struct sweep_table *t, size_t i);
/* CSV: a header, then one line per block size of value i. */
void sweep_fmt_csv_header(FILE *f, const struct sweep_table *t);
void sweep_fmt_csv_rows(FILE *f, const struct sweep_table *t, size_t i);
/* {schema, version, command_line, param, values, bs, interrupted, rows: [{..., run}]}. */
int sweep_fmt_json(FILE *f, const struct sweep_table *t, bool interrupted);

#endif
