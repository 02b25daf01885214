#ifndef IORATE_REPORT_HTML_H
#define IORATE_REPORT_HTML_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <jansson.h>

#include "result/result_set.h"

/*
 * The HTML report: one self-contained page (inline CSS and SVG, no script, no external asset)
 * for one or more runs, drawn from their struct result (read back from the history or from
 * JSON files by result/result_json.h). Figures that are unknown are shown as "-". Every string
 * from the runs is escaped.
 */

#define HTML_NO_DOC SIZE_MAX

/* A run of the page, and what is known of where it came from. */
struct html_run {
	struct result_set run;       /* one job, or several */
	char *label;                 /* the name it was saved under, or NULL */
	char *source;                /* where it was read: "r.json", "history run 12" */
	long long id;                /* its history id, or 0 when read from a file */
	size_t doc;                  /* the sweep or mark it is part of (html_input.docs), or
				      * HTML_NO_DOC */
	uint64_t value, bs;          /* a sweep's: the value swept and the block size */
	char *test;                  /* a mark's: the test ("SEQ1M Q8T1") */
	const char *dir;             /* a mark's: "read" or "write" */
};

/* A sweep's or a mark's document: runs[first, first + n) of the page are its runs. */
struct html_doc {
	bool mark;                   /* else a sweep */
	char *source;
	char *param;                 /* a sweep's parameter: "depth", "bs", ... */
	bool si;                     /* a mark's table counted MB/s (10^6 bytes) */
	size_t first, n;
};

/* The runs of a page, gathered from files and the history; it owns them. */
struct html_input {
	struct html_run *runs;
	size_t n, cap;
	struct html_doc *docs;
	size_t ndocs, capdocs;
};

void html_input_init(struct html_input *in);
void html_input_release(struct html_input *in);
/* Adds a run (moved into the page: r is left empty), its label and source copied; label may
 * be NULL. 0 or -ENOMEM. */
int html_input_add(struct html_input *in, struct result_set *r, const char *label,
		   const char *source);
/*
 * Adds the runs of a JSON document (result/result_json.h's result_json_sets()): a run, or every
 * run of a sweep's or a mark's document, each named by its value or test. 0; -EINVAL with why
 * in err; -ENODATA when it holds no run; -ENOMEM.
 */
int html_input_add_doc(struct html_input *in, const json_t *doc, const char *source, char *err,
		       size_t errlen);
/* Whether every run of the page is of a mark whose table counted MB/s. */
bool html_input_mark_si(const struct html_input *in);
/* How the page numbers run i: by its history id ("#12"), else by its place ("3"). */
const char *html_run_number(const struct html_input *in, size_t i, char *buf, size_t len);

/*
 * A chart as a file: name says what it shows ("run-2-depth-4-iops-over-time", made of
 * [a-z0-9-]), svg is a standalone SVG document of len bytes. 0, or a -errno that stops the
 * page (report_html_write() returns it).
 */
typedef int (*html_chart_fn)(void *arg, const char *name, const char *svg, size_t len);

struct html_opts {
	const char *title;           /* NULL: "iorate report" */
	bool si;                     /* throughput in MB/s (10^6 bytes/s), else MiB/s (2^20) */
	html_chart_fn chart;         /* when not NULL, each chart is also handed here */
	void *arg;
	time_t now;                  /* "generated": 0 is the current time, in local time */
	bool utc;                    /* now is SOURCE_DATE_EPOCH's: printed in UTC */
};

/*
 * Writes the page: for each run its parameters, a per-target table, a percentile table, and
 * charts of IOPS, throughput and p99 over the run and of the latency percentiles; for a run of
 * several jobs, first its groups and total (percentiles from the merged histograms) and the
 * kernel's counts per device, then each job so, with its own charts. A sweep gets its figures
 * against the value swept and its load-latency curve with the knee (chart_knee()), a mark its
 * tests side by side; several runs that are not one sweep or mark, a comparison table and
 * charts by run. Runs are named by their label, their sweep value or mark test, or the words
 * of their command that tell them apart. 0, -EIO when writing failed, -ENOMEM, or the error
 * of o->chart.
 */
int report_html_write(FILE *f, const struct html_input *in, const struct html_opts *o);

#endif
