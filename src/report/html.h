#ifndef IORATE_REPORT_HTML_H
#define IORATE_REPORT_HTML_H
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/*
 * The HTML report: one self-contained page (inline CSS and SVG, no script, no external asset)
 * for one or more runs. It reads runs as the JSON objects `iorate run --json` prints (schema 1,
 * docs/json.md), since that is what the history keeps and what users save; figures missing from
 * an object are shown as "-". Every string from the runs is escaped.
 */
struct html_run {
	json_t *run;            /* an `iorate run --json` object */
	const char *label;      /* how the page names it: "run 12", "day2.json"; escaped */
};

/*
 * Writes the page: for each run its parameters, a per-target table, a percentile table, and
 * charts of IOPS, MiB/s and p99 per second and of the latency percentiles; with several runs,
 * first a comparison table and charts of IOPS and p99 by run. 0, or -EIO when writing failed.
 */
int report_html_write(FILE *f, const char *title, const struct html_run *runs, size_t n);

#endif
