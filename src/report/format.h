#ifndef IORATE_REPORT_FORMAT_H
#define IORATE_REPORT_FORMAT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Each kind of output (a run's result, a sweep, a prediction, a catalog listing...) has a table
 * of its own formats, declared by its own header (report.h, sweep_fmt.h, model_fmt.h, ...): each
 * entry a struct report_format, the format's name, followed by that kind's writers. A command
 * looks the format the user named up in its table, and either prints it or refuses it by name,
 * never falling back to another. The lookup, the lists of names and the refusal are here, one
 * for every table.
 */

/* The head of every entry of a table. */
struct report_format {
	const char *name;       /* as --format takes it: "text", "json", "csv" */
	bool for_programs;      /* read by programs: standard output is its alone, no progress */
};

#define REPORT_TEXT {.name = "text"}
#define REPORT_JSON {.name = "json", .for_programs = true}
#define REPORT_CSV {.name = "csv", .for_programs = true}

/* A kind's table: entries of `size` bytes, each starting with its struct report_format. */
struct report_formats {
	const char *command;    /* what prints them, for messages: "iorate cost upload" */
	const void *entries;
	size_t n, size;
};

#define REPORT_FORMATS(cmd, array)                                                            \
	{.command = (cmd), .entries = (array), .n = sizeof(array) / sizeof((array)[0]),        \
	 .size = sizeof((array)[0])}

/* An entry found by report_format_find(), as its table's type: REPORT_WRITER(struct x, f). */
#define REPORT_WRITER(type, f) ((const type *)(const void *)(f))

/* The entry of t called name; NULL for an unknown name or one t does not print. */
const struct report_format *report_format_find(const struct report_formats *t, const char *name);

/* Whether a format is called name, whatever prints it. */
bool report_format_known(const char *name);

/*
 * The names of t's formats (every format's when t is NULL), joined by sep, the last two by last
 * when it is not NULL: "text, json or csv" or "text json csv".
 */
const char *report_format_names(const struct report_formats *t, const char *sep,
				const char *last, char *buf, size_t len);

/* Why a name is no format, after the name: "is not an output format (text, json, csv)". */
const char *report_format_unknown(char *buf, size_t len);

/*
 * Why the format given (as typed: "--format csv", "--json") is refused by t, in one line for
 * the caller to print: "--format csv: 'iorate model' prints text or json".
 */
const char *report_format_refusal(const struct report_formats *t, const char *given, char *buf,
				  size_t len);

#endif
