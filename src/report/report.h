#ifndef IORATE_REPORT_REPORT_H
#define IORATE_REPORT_REPORT_H
#include <stdbool.h>
#include <stdio.h>

#include "core/result.h"

/*
 * Report formats: each turns a struct result into one output format on a stream. All the
 * formatting of run results lives here; the core only returns numbers.
 */
struct report_opts {
	enum job_units units;   /* text/csv throughput: MiB/s (IEC) or MB/s (SI) */
	bool series;            /* text: also print the per-second series table */
};

struct report_ops {
	const char *name;       /* "text", "json", "csv" */
	int (*write)(FILE *f, const struct result *r, const struct report_opts *o);
};

extern const struct report_ops report_text;
extern const struct report_ops report_json;
extern const struct report_ops report_csv;

/* NULL when the name is unknown. */
const struct report_ops *report_find(const char *name);

#endif
