#ifndef IORATE_REPORT_DRY_RUN_FMT_H
#define IORATE_REPORT_DRY_RUN_FMT_H
#include <stdio.h>

#include <jansson.h>

#include "core/job.h"

/*
 * What a dry run would do, as the formats of REPORT_DRY_RUN print it (src/report/format.c).
 * One job (iorate run): its params as its run's JSON would record them, and in text its
 * 'iorate run' line. A job file (run --job, iorate fio): its translation, which the command
 * makes in both forms (what each fio option became is the translator's, outside this layer).
 */
struct dry_run_report {
	const struct job *job;     /* the one job; NULL for a job file */
	const char *text;          /* the text: the job's command line, or the translation */
	json_t *translation;       /* a job file's translation as JSON (job NULL) */
};

/* Each returns 0, or -errno when the output could not be written (-ENOMEM, -EIO). */
int dry_run_fmt_text(FILE *f, const struct dry_run_report *d);
int dry_run_fmt_json(FILE *f, const struct dry_run_report *d);

#endif
