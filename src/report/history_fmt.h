#ifndef IORATE_REPORT_HISTORY_FMT_H
#define IORATE_REPORT_HISTORY_FMT_H
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "report/format.h"
#include "result/result_set.h"

/*
 * How 'iorate history' prints stored runs (src/cmd/cmd_history.c): list (text table, CSV, JSON)
 * and compare (text or JSON), from each run's struct result_set: a run of one job by its
 * result, a run of several by its total (and its jobs' parameters). ('show' prints the run's
 * own report: report_text or report_json.) JSON objects are new references owned by the caller.
 */

/* A stored run as the history prints it: the command takes these from the store. */
struct history_row {
	int64_t id;
	const char *label;                  /* NULL when none */
	const struct result_set *run;       /* at least one job */
};

/* The schema number of 'history list --json' and 'history compare --json' (docs/history.md). */
#define REPORT_HISTORY_SCHEMA 1

/* One run as 'history list --json' lists it (and 'compare --json' names a and b). */
json_t *report_history_run_json(const struct history_row *e);

/* The text table: its heading, then one line a run, the LIMITS column 16 characters wide. */
void report_history_list_head(FILE *f);
void report_history_list_row(FILE *f, const struct history_row *e);
/* The same with the LIMITS column `limits` characters wide: the heading; a row is its columns
 * before LIMITS (pre), LIMITS (the text, "-" for none, "*" when the jobs differ) padded to the
 * width and a space, and the rest (post: targets, status, label, newline). */
void report_history_list_head_w(FILE *f, int limits);
void report_history_list_row_pre(FILE *f, const struct history_row *e);
const char *report_history_list_limits(const struct history_row *e, char *buf, size_t len);
void report_history_list_row_post(FILE *f, const struct history_row *e);
/* CSV: one line of column names, then one line a run; targets are quoted and space-separated. */
void report_history_csv_head(FILE *f);
void report_history_csv_row(FILE *f, const struct history_row *e);

/*
 * a and b side by side: each figure, the ratio b/a and whether the change is beyond run-to-run
 * noise; every parameter that differs, named by the option that sets it; the status.
 */
void report_history_compare_text(FILE *f, const struct history_row *a,
				 const struct history_row *b);
json_t *report_history_compare_json(const struct history_row *a,
				    const struct history_row *b);

/* Two runs to compare, as history_compare_formats print them. */
struct history_compare {
	const struct history_row *a, *b;
};
/* The text above, or the JSON indented; 0, or -errno (-ENOMEM, -EIO). */
int history_compare_fmt_text(FILE *f, const struct history_compare *c);
int history_compare_fmt_json(FILE *f, const struct history_compare *c);

/* The noise test of a comparison (docs/history.md) is stats_noise() (stats/noise.h). */


/*
 * Where the differences of two runs are worded: a line per item into text ("job 2 (logs): --bs:
 * 4KiB -> 8KiB", "target 3: only in run ID") and {job, key, option, a, b} into changes. A key
 * is named by the option of 'iorate run' that sets it, else by its JSON path.
 */
struct report_diff {
	json_t *text, *changes;
	int64_t ida, idb;            /* the runs' ids, for "only in run ID" */
};

/* The items stats_run_diff() or stats_json_diff() found (stats/diff.h): 0 or -ENOMEM. */
struct stats_diff;
int report_history_diff_words(struct report_diff *d, const struct stats_diff *s);

/*
 * The option of 'iorate run' that sets the field at a JSON path of a run ("params.cap.iops":
 * "cap-iops"), or NULL (the host, or a field no table row names); *label (may be NULL) gets how
 * a comparison names it when that is not "--" and the option ("--random/--sequential", "host").
 */
const char *report_history_option(const char *key, const char **label);

/* The formats of 'iorate history compare'. */
struct history_compare_format {
	struct report_format f;
	int (*write)(FILE *f, const struct history_compare *c);
};
extern const struct report_formats history_compare_formats;

#endif
