#ifndef IORATE_REPORT_HISTORY_LIST_H
#define IORATE_REPORT_HISTORY_LIST_H
#include <stdio.h>

#include "report/history_fmt.h"
#include "report/format.h"

/*
 * 'iorate history list' in each format of history_list_formats, row by row as the
 * store hands the runs over, so a long history is never held in memory: text (nothing when
 * there is no run: the command says so on stderr), CSV, and JSON {schema, database, runs}.
 * begin() may set *state for the others; each returns 0 or -errno.
 */
struct report_history_list_ops {
	int (*begin)(FILE *f, const char *database, void **state);
	int (*row)(FILE *f, const struct history_row *r, void *state);
	int (*end)(FILE *f, void *state);
	bool names_database;    /* the output says which database it lists, empty or not */
};

extern const struct report_history_list_ops history_list_text, history_list_csv,
	history_list_json;

/* The formats of 'iorate history list'. */
struct history_list_format {
	struct report_format f;
	const struct report_history_list_ops *ops;
};
extern const struct report_formats history_list_formats;

#endif
