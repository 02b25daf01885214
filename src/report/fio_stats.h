#ifndef IORATE_REPORT_FIO_STATS_H
#define IORATE_REPORT_FIO_STATS_H
#include <stdbool.h>
#include <stdint.h>

#include "result/result_set.h"

/*
 * The entries of fio 3.33's reports (its thread_stats), shared by the fio formats (fio_json.c,
 * fio_terse.c): one per job, except that consecutive jobs of one reporting group that all have
 * group_reporting make one, merged as fio's sum_thread_stats() merges them.
 */

/* fio's histogram (stat.h): 64 buckets per power of two above 128 ns, 29 groups. */
#define FIO_PLAT_BITS 6
#define FIO_PLAT_VAL (1u << FIO_PLAT_BITS)
#define FIO_PLAT_NR (29u * FIO_PLAT_VAL)

/* The bucket of fio's histogram a latency of v ns falls in (fio's plat_val_to_idx). */
unsigned fio_plat_index(uint64_t v);
/* The value fio prints for bucket idx (json+'s bin keys, fio's plat_idx_to_val). */
uint64_t fio_plat_value(unsigned idx);
/*
 * h's counts in fio's buckets, into out[FIO_PLAT_NR]. Each bucket of iorate's histogram lies
 * inside one of fio's (iorate's are at most half as wide and aligned the same), so nothing is
 * split or guessed.
 */
void fio_plat_from_hist(const struct hist *h, uint64_t *out);

/* min, max, mean and deviation of bandwidth (KiB/s) or IOPS samples, as fio's io_stat. */
struct fio_samples {
	uint64_t min, max, n;
	double mean, dev;
	double s;                        /* the sum of squared deviations (fio's S) */
};

/* The latency ranges fio prints (latency_ns, _us, _ms): counts per slot. */
#define FIO_LAT_SLOTS 12

struct fio_entry {
	unsigned first, last;            /* the jobs it covers, by index */
	unsigned members;
	unsigned groupid;                /* fio's groupid */
	struct dir_stats dir[3];         /* read, write, trim of its jobs merged */
	uint64_t runtime_ms[3];          /* the longest of its jobs', per direction */
	struct fio_samples bw[3], iops[3]; /* fio adds its jobs' samples up (min, max, mean) */
	double usr_cpu, sys_cpu;         /* percent, over job_runtime_ms */
	uint64_t job_runtime_ms;         /* its jobs' runtimes added */
	int error;                       /* the first of its jobs' failures, positive */
	uint64_t lat[3][FIO_LAT_SLOTS];  /* ns, us, ms ranges: I/Os in each */
	uint64_t lat_total;              /* every I/O of its directions */
};

struct fio_stats {
	struct fio_entry *e;
	unsigned n;
	uint64_t (*agg)[3];              /* per groupid: bytes per second each way (fio's agg) */
	unsigned ngroups;
};

/* s's entries, in fio's order. 0 or -ENOMEM (st then holds nothing to release). */
int fio_stats_build(struct fio_stats *st, const struct result_set *s);
void fio_stats_release(struct fio_stats *st);

/* fio's groupid of job i: its reporting group for fio's jobs, else its run group's index. */
unsigned fio_groupid(const struct result_set *s, unsigned i);

/* bw_agg: mean bandwidth samples as a percentage of the group's aggregate (convert_agg). */
double fio_agg_pct(const struct fio_samples *bw, uint64_t agg);

#endif
