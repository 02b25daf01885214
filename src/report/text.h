#ifndef IORATE_REPORT_TEXT_H
#define IORATE_REPORT_TEXT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/report.h"
#include "result/result_set.h"

/*
 * The pieces of the text report that one run (text.c) and a run of several jobs (text_jobs.c)
 * both print; not part of the report API. Strings that come from outside are escaped.
 */
#define RULE_WIDTH 100

/* A line of n c's. */
void text_rule(FILE *f, char c, int n);
/* Nanoseconds as seconds ("2.5 s"); sizes are util/parse.h's fmt_size_human(). */
const char *text_seconds(char *buf, size_t len, uint64_t ns);
/* What a cache mode means, in words. */
const char *text_cache(enum job_cache c);
/* The "engine:" line; a "disk cap:" or "VM cap:" line (nothing when there is no cap). */
void text_engine(FILE *f, const struct result *r);
/* A cap in the report's unit: MB/s (si) or MiB/s; caps are kept in MB/s. */
double text_cap_rate(double mbps, bool si);
void text_caps(FILE *f, const char *label, const struct job_caps *c, bool si);
/* "System information:" of the run's host and start. */
void text_system(FILE *f, const struct result *r);
void text_cpu(FILE *f, const struct cpu_usage *c);
/* A latency cell of width, "N/A" when has is false. */
void text_lat_cell(FILE *f, bool has, double v, int width);
/* bytes | I/Os | MiB/s or MB/s | IOPS | mean | stdev, after label, without a line end. */
void text_dir_row(FILE *f, const char *label, const struct dir_summary *s, bool si);
/* The percentile table of read, write and total; a direction without latency has no column. */
void text_percentiles(FILE *f, const struct dir_summary s[3]);
/* The same with a column of trims (trim NULL: none). */
void text_percentiles_trim(FILE *f, const struct dir_summary s[3], const struct dir_summary *trim);
/* --cmdprio: the I/Os that carried a priority, and their percentiles beside the others'
 * (text_prio.c). */
void text_prio(FILE *f, const struct result *r);
/* --latency-target: the depth found and the final windows' figures (text_prio.c). */
void text_lat_target(FILE *f, const struct result *r, bool si);
/* The per-second series table (--series). */
void text_series(FILE *f, const struct result *r, bool si);
/* "read: K B by the kernel, I B by iorate: equal" (or the difference). */
void text_byte_check(FILE *f, const char *what, uint64_t kernel, uint64_t ours);
/* A run's or a job's notes, "INTERRUPTED" and "ERROR" lines; whether it printed any. */
bool text_notes(FILE *f, const struct result *r);

/* The devices under the targets: of one run, and of each group and the whole run of several
 * jobs (text_devices.c). */
void text_devices(FILE *f, const struct result *r);
void text_devices_set(FILE *f, const struct result_set *s);

/*
 * The headline (text_headline.c): one line, "read 20,178 IOPS, 78.8 MiB/s, p99 81.7 us on 1
 * target, direct, 4 KiB random QD1" (MB/s with --units si), then the caps, the emulated
 * profile and the open loop, and how the run ended when it did not complete. A group or the
 * total of several jobs gives its label ("group 1 (2 jobs): "), and its jobs' workload only
 * when they share it.
 */
struct text_headline {
	const char *label;                     /* NULL or "group 1 (2 jobs): " */
	const struct dir_stats *read, *write;
	const struct dir_stats *trim;          /* NULL or the trims */
	double seconds;
	const struct job *job;                 /* the workload, NULL when the jobs differ */
	unsigned ntargets;
	bool started, interrupted, failed;
};
int text_headline(FILE *f, const struct text_headline *h, const struct report_opts *o);
/* Whether two jobs have one workload as a headline describes it. */
bool text_same_workload(const struct job *a, const struct job *b);

/* report_text's writer of a run of several jobs (text_jobs.c). */
int text_write_set(FILE *f, const struct result_set *s, const struct report_opts *o);

#endif
