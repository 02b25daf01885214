#ifndef IORATE_REPORT_FIO_JSON_H
#define IORATE_REPORT_FIO_JSON_H
#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "result/result_set.h"

/*
 * The format "fio-json" (report_fio_json in report.h): fio 3.33's JSON layout of a run's jobs.
 * Shared by fio_json.c (the figures) and fio_opts.c (the job options); docs/fio-json.md maps
 * every field.
 */

/* "fio version": the layout written, which tools reading fio's JSON check. */
#define FIO_JSON_VERSION "fio-3.33"

/*
 * The whole document of a run of one job or several (plus: json+, with the histograms' bins):
 * a new reference, NULL out of memory.
 */
json_t *fio_json_doc(const struct result_set *s, bool plus);

/* disk_util: the devices under the run's targets, as fio prints them (a new reference). */
json_t *fio_disk_util(const struct result_set *s);

/* Job i's jobname: its name, else "job<i+1>" in buf. */
const char *fio_job_name(const struct result *r, unsigned i, char *buf, size_t len);

/* The job's settings as fio's options ("job options": every option the job has). */
json_t *fio_job_options(const struct result *r, const char *jobname);

/* "global options": the options every job of the run has with the same value. */
json_t *fio_global_options(const struct result_set *s);

#endif
