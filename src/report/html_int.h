#ifndef IORATE_REPORT_HTML_INT_H
#define IORATE_REPORT_HTML_INT_H
/* Shared by the files of the HTML page (html.c, html_docs.c, html_input.c); not an API. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "report/chart.h"
#include "report/html.h"
#include "report/summary.h"

/* The page being written. */
struct page {
	FILE *f;
	const struct html_input *in;
	const struct html_opts *o;
	char **names;                /* each run's name (html_names()) */
	int err;                     /* the first failure of o->chart, or -ENOMEM */
	const char *run;             /* in a run's section: which run, for its charts' titles */
};

/* Writes c inline (its <svg> has the id name) and, with o->chart, hands it over as a file
 * called name. */
void page_chart(struct page *pg, const struct chart *c, const char *name);

/* The throughput's unit as the page counts it, "MiB/s" or "MB/s", and a summary's figure. */
const char *page_unit(const struct page *pg);
double page_rate(const struct page *pg, const struct dir_summary *s);

/* A figure in a table cell ("-" when unknown); microseconds as report_fmt_us(). */
void html_cell(FILE *f, const char *fmt, double v);
void html_cell_us(FILE *f, double v);
/* A latency figure, unknown (NaN) when the direction recorded none. */
double html_lat(const struct dir_summary *s, double v);
/* A run as one: its job's figures, or its jobs' total. 0 or -ENOMEM. */
int html_run_summary(const struct result_set *set, struct dir_summary s[REPORT_NDIR]);

/*
 * Each run's name: its label; a sweep's value ("depth=4"); a mark's test and direction
 * ("SEQ1M Q8T1 read"); else the words of its command that the page's other runs named so do
 * not share. Repeated names get " (2)", " (3)". NULL when out of memory; free with
 * html_names_free().
 */
char **html_names(const struct html_input *in);
void html_names_free(char **names, size_t n);
/* s as a part of a file name: lower-case letters, digits and single '-', at most 40 bytes. */
const char *html_slug(const char *s, char *buf, size_t len);
/* A sweep's value as its tables print it: a size for bs ("64KiB"), else the number. */
const char *html_sweep_value(const struct html_doc *d, uint64_t v, char *buf, size_t len);

/* A time in the page's words: "2026-12-01 02:15:54 UTC"; "-" when unknown. */
void html_date_at(uint64_t ms, char *buf, size_t len);

/* Whether every run of the page is of one sweep or one mark (which has its own section). */
bool html_one_document(const struct html_input *in);
/* Several runs side by side: a table and bars of IOPS, throughput and p99 by run. */
void html_comparison(struct page *pg);

/*
 * The block devices under the targets and what the kernel counted for each (html_devices.c):
 * of a run of one job, or per group and for the whole run of several (a run saved before the
 * devices were kept: the kernel's bytes per group and block target). Headed <hN>.
 */
void html_devices_table(FILE *f, const struct result_set *set, int h);

/* The sections of a sweep (figures against the value swept, the load-latency curve and its
 * knee) and of a mark (its tests side by side). */
void html_sweep_section(struct page *pg, size_t doc);
void html_mark_section(struct page *pg, size_t doc);

#endif
