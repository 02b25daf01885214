#ifndef IORATE_REPORT_FORMAT_H
#define IORATE_REPORT_FORMAT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * The output formats, in one table (src/report/format.c): for each format, the writer of every
 * kind of output it prints, NULL for a kind it does not print. A command asks for its kind and
 * the format the user named, and gets the format or NULL, so that a format a command cannot
 * print is refused by name instead of falling back to another. Adding a format is one entry.
 */
enum report_kind {
	REPORT_RESULT,          /* iorate run, diskspd, sqlio, iorate-mpi run */
	REPORT_SWEEP,           /* iorate sweep */
	REPORT_MARK,            /* iorate mark */
	REPORT_MODEL,           /* iorate model: a prediction */
	REPORT_PLAN,            /* iorate plan */
	REPORT_EXPLAIN,         /* iorate explain */
	REPORT_COST_UPLOAD,     /* iorate cost upload */
	REPORT_COST_CONFIG,     /* iorate cost config */
	REPORT_CATALOG_LIST,    /* iorate catalog list */
	REPORT_CATALOG_SHOW,    /* iorate catalog show */
	REPORT_CATALOG_IMPORT,  /* iorate catalog import */
	REPORT_CATALOG_PRICES,  /* iorate catalog prices */
	REPORT_HISTORY_LIST,    /* iorate history list */
	REPORT_HISTORY_COMPARE, /* iorate history compare */
	REPORT_DRY_RUN,         /* iorate run --dry-run: a job, or a job file's translation */
	REPORT_FIO_DRY_RUN,     /* iorate fio --dry-run: the translation (the same writer) */
	REPORT_VERIFY,          /* iorate verify */
	REPORT_NKINDS
};

struct result;
struct report_ops;
struct report_sweep_ops;
struct mark_table;
struct model_report;
struct model_mark_report;
struct plan_report;
struct explain_report;
struct cost_upload_report;
struct cost_breakdown;
struct catalog_list_report;
struct catalog_show_report;
struct import;
struct catalog_prices_report;
struct report_history_list_ops;
struct history_compare;
struct dry_run_report;
struct verify_report;

/* The writers return 0, or -errno when the output could not be written (-ENOMEM, -EIO). */
struct report_format {
	const char *name;       /* as --format takes it: "text", "json", "csv" */
	bool for_programs;      /* read by programs: standard output is its alone, no progress */
	const struct report_ops *result;        /* report.h */
	const struct report_sweep_ops *sweep;   /* sweep_fmt.h: row by row */
	int (*mark)(FILE *f, const struct mark_table *t);       /* mark_fmt.h */
	int (*model)(FILE *f, const struct model_report *m);    /* model_fmt.h: model to cost */
	int (*model_mark)(FILE *f, const struct model_mark_report *m); /* model --mark */
	int (*plan)(FILE *f, const struct plan_report *p);
	int (*explain)(FILE *f, const struct explain_report *e);
	int (*cost_upload)(FILE *f, const struct cost_upload_report *u);
	int (*cost_config)(FILE *f, const struct cost_breakdown *b);
	int (*catalog_list)(FILE *f, const struct catalog_list_report *l); /* catalog_fmt.h */
	int (*catalog_show)(FILE *f, const struct catalog_show_report *s);
	int (*catalog_import)(FILE *f, const struct import *im);
	int (*catalog_prices)(FILE *f, const struct catalog_prices_report *p);
	const struct report_history_list_ops *history_list;         /* history_list.h */
	int (*history_compare)(FILE *f, const struct history_compare *c); /* history_fmt.h */
	int (*dry_run)(FILE *f, const struct dry_run_report *d);   /* dry_run_fmt.h: both kinds */
	int (*verify)(FILE *f, const struct verify_report *v);     /* verify_fmt.h */
};

/* The format called name when it prints kind; NULL for an unknown name or another kind. */
const struct report_format *report_format(enum report_kind kind, const char *name);

/* Whether a format is called name, whatever it prints. */
bool report_format_known(const char *name);

/* Whether f prints kind. */
bool report_format_has(const struct report_format *f, enum report_kind kind);

/*
 * The names of the formats that print kind (every format for REPORT_NKINDS), joined by sep,
 * the last two by last when it is not NULL: "text, json or csv" or "text json csv".
 */
const char *report_format_names(enum report_kind kind, const char *sep, const char *last,
				char *buf, size_t len);

/* Why a name is no format, after the name: "is not an output format (text, json, csv)". */
const char *report_format_unknown(char *buf, size_t len);

/* The command that prints kind, for messages: "iorate cost upload". */
const char *report_kind_command(enum report_kind kind);

/*
 * Why the format given (as typed: "--format csv", "--json") is refused for kind, in one line
 * for the caller to print: "--format csv: 'iorate model' prints text or json".
 */
const char *report_format_refusal(enum report_kind kind, const char *given, char *buf,
				  size_t len);

#endif
