#ifndef IORATE_REPORT_DRY_RUN_FMT_H
#define IORATE_REPORT_DRY_RUN_FMT_H
#include <stdio.h>

#include "core/job.h"
#include "report/format.h"

/*
 * What a dry run would do, as dry_run_formats print it.
 * One job (iorate run): its params as its run's JSON would record them, and in text its
 * 'iorate run' line. A job file (run --job, iorate fio): its translation, job by job, which the
 * command lends from the translator's records (pointers only: nothing here is owned).
 */

/* One option of a job file: where, the option as fio read it, what it became and why. */
struct dry_run_item {
	const char *where;         /* "job.fio:7", "command line", or "default" */
	const char *option;        /* "iodepth=64", "norandommap" */
	const char *became;        /* "--depth 64", "(no effect)", ... */
	const char *note;          /* why or how; NULL or "" for none */
};

/* One job of the file (each clone of numjobs is one); its run group is job->group. */
struct dry_run_job {
	const char *name;          /* the section's name (the clones share it) */
	const char *where;         /* "job.fio:4" of its section, or "command line" */
	unsigned clone, clones;    /* clone k of numjobs */
	const struct dry_run_item *items;
	unsigned nitems;
	const char *equivalent;    /* the options of 'iorate run' it became, then its targets */
	const struct job *job;     /* the job it became: its group, and its params in JSON */
};

struct dry_run_report {
	const struct job *job;          /* the one job; NULL for a job file */
	const char *equivalent;         /* the one job's line: "iorate run ..." */
	const struct dry_run_job *jobs; /* a job file's translation (job NULL) */
	unsigned njobs;
	const char *then;               /* a command line whose options apply over every job,
					 * added to the text; or NULL */
};

/* Each returns 0, or -errno when the output could not be written (-ENOMEM, -EIO). */
int dry_run_fmt_text(FILE *f, const struct dry_run_report *d);
int dry_run_fmt_json(FILE *f, const struct dry_run_report *d);

/* The formats of a dry run: 'iorate run --dry-run', and the same for 'iorate fio --dry-run'. */
struct dry_run_format {
	struct report_format f;
	int (*write)(FILE *f, const struct dry_run_report *d);
};
extern const struct report_formats dry_run_formats, fio_dry_run_formats;

#endif
