#ifndef IORATE_REPORT_REPORT_H
#define IORATE_REPORT_REPORT_H
#include <stdbool.h>
#include <stdio.h>

#include "report/format.h"
#include "result/result_set.h"

/*
 * Report formats of a run's result: each turns a struct result into one output format on a
 * stream. All the formatting of run results lives here; the core only returns numbers. Formats
 * are chosen by name in result_formats (below, report/format.h), never by comparing these
 * pointers.
 */
struct report_opts {
	enum job_units units;   /* text/csv throughput: MiB/s (IEC) or MB/s (SI) */
	bool series;            /* text: also print the per-second series table */
	bool brief;             /* text: only the headline (a line per group and the total) */
};

struct report_ops {
	const char *name;       /* "text", "json", "csv", "fio-json" */
	int (*write)(FILE *f, const struct result *r, const struct report_opts *o);
	/* A run of several jobs (s->njobs >= 2): each job, each group, the total. */
	int (*write_set)(FILE *f, const struct result_set *s, const struct report_opts *o);
};

extern const struct report_ops report_text;
extern const struct report_ops report_json;
extern const struct report_ops report_csv;
extern const struct report_ops report_fio_json;
extern const struct report_ops report_fio_json_plus;
extern const struct report_ops report_fio_terse;

/*
 * A run of one job or several in ops' format: one job as write() prints it, several as
 * write_set() does. 0, or -errno when the output could not be written.
 */
int report_write_set(const struct report_ops *ops, FILE *f, const struct result_set *s,
		     const struct report_opts *o);

/* The formats of runs: 'iorate run', diskspd, sqlio, fio and 'history show' (result_fmt.c). */
struct result_format {
	struct report_format f;
	const struct report_ops *ops;
};
extern const struct report_formats result_formats;

#endif
