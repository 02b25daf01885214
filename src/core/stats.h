#ifndef IORATE_CORE_STATS_H
#define IORATE_CORE_STATS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Log-linear latency histogram in nanoseconds. Values below 256 ns have a bucket each; above,
 * every power of two is split into 128 equal buckets, so a bucket is at most 1/128 of its lower
 * bound wide and its midpoint is within 0.4% of any value in it.
 * Values at or above 2^40 ns (about 18 minutes) share the last bucket; min and max stay exact.
 *
 * Each histogram has one writer (its worker). Counts are stored with relaxed atomic stores so
 * the main thread may read them for the per-second series while the worker runs; on x86-64
 * and arm64 that compiles to a plain add.
 */
#define HIST_SUB_BITS 8
#define HIST_SUB (1u << HIST_SUB_BITS)       /* 256 */
#define HIST_HALF (HIST_SUB / 2)              /* 128 */
#define HIST_MAX_BITS 40
#define HIST_BUCKETS (HIST_SUB + (HIST_MAX_BITS - HIST_SUB_BITS) * HIST_HALF)

struct hist {
	uint64_t counts[HIST_BUCKETS];
};

static inline unsigned hist_index(uint64_t v)
{
	if (v < HIST_SUB)
		return (unsigned)v;
	if (v >= (1ull << HIST_MAX_BITS))
		return HIST_BUCKETS - 1;
	unsigned msb = 63u - (unsigned)__builtin_clzll(v);
	unsigned shift = msb - (HIST_SUB_BITS - 1);
	return HIST_SUB + (shift - 1) * HIST_HALF + (unsigned)((v >> shift) - HIST_HALF);
}

static inline void hist_add(struct hist *h, uint64_t v)
{
	uint64_t *c = &h->counts[hist_index(v)];
	__atomic_store_n(c, *c + 1, __ATOMIC_RELAXED);
}

/* Lowest value that falls in bucket idx, and the bucket's width. */
uint64_t hist_bucket_low(unsigned idx);
uint64_t hist_bucket_width(unsigned idx);
void hist_reset(struct hist *h);
/* A copy on the heap (NULL for NULL, or when out of memory). */
struct hist *hist_dup(const struct hist *h);
/* dst += src (src may be written concurrently: counts are read atomically). */
void hist_merge(struct hist *dst, const struct hist *src);
/* dst = a - b, for interval histograms from two cumulative snapshots. */
void hist_diff(struct hist *dst, const struct hist *a, const struct hist *b);
uint64_t hist_count(const struct hist *h);
/*
 * The value at percentile pct (0 < pct <= 100) by nearest rank, as a bucket midpoint, clamped
 * to [min, max] when those are known (pass 0 and UINT64_MAX otherwise). 0 for an empty histogram.
 */
uint64_t hist_percentile(const struct hist *h, double pct, uint64_t min, uint64_t max);
/* The mean of the values, each at its bucket's midpoint (within 0.4%); 0 when empty. */
double hist_mean(const struct hist *h);
/* The rank (1..n) hist_percentile() looks for: pct% of n values, rounded up. */
uint64_t hist_rank(double pct, uint64_t n);

/*
 * Counters of one direction (read or write) of one worker, target or run. Latency sums are
 * exact integers for the mean; the sum of squares is a double (relative error 1e-16) for stdev.
 * The histogram (34 KiB) is on the heap, and absent where no latency is kept: the targets of a
 * job whose threads serve thousands of them keep counts only.
 */
struct dir_stats {
	uint64_t ios;
	uint64_t bytes;
	uint64_t errors;
	uint64_t lat_n;          /* I/Os whose latency was recorded (0 with --no-latency) */
	uint64_t lat_sum;        /* ns */
	double lat_sumsq;        /* ns^2 */
	uint64_t lat_min, lat_max;
	struct hist *hist;       /* NULL: none yet (percentiles 0) */
};

/* Empty, without a histogram (a merge that brings one makes it). */
void dir_stats_init(struct dir_stats *d);
/* Empty, with an empty histogram, as a worker needs before its first I/O. 0 or -ENOMEM. */
int dir_stats_init_hist(struct dir_stats *d);
void dir_stats_release(struct dir_stats *d);
/* dst += src, histogram included (dst gets one when src has one). 0 or -ENOMEM (the counts
 * are merged even then; the percentiles would be missing). */
int dir_stats_merge(struct dir_stats *dst, const struct dir_stats *src);
/* The same, but where dst has no histogram it takes src's instead of a copy (src is left
 * without one): a target's only thread hands its histograms over. */
int dir_stats_merge_take(struct dir_stats *dst, struct dir_stats *src);
/* Only the I/O counts (ios, bytes, errors): what a target served by shared threads keeps. */
void dir_stats_merge_counts(struct dir_stats *dst, uint64_t ios, uint64_t bytes,
			    uint64_t errors);

/* ios and bytes are stored atomically (relaxed) because the series tick reads them live. */
static inline void dir_stats_count(struct dir_stats *d, uint64_t bytes)
{
	__atomic_store_n(&d->ios, d->ios + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&d->bytes, d->bytes + bytes, __ATOMIC_RELAXED);
}

/* Whether d did (or failed) any I/O: reports show a trim direction only where it did. */
static inline bool dir_stats_any(const struct dir_stats *d)
{
	return d->ios || d->errors;
}

/* Makes d's histogram where it has none yet (a worker's, at its first latency). */
bool dir_stats_need_hist(struct dir_stats *d);

/* A worker's histogram is made by its first latency: a direction it never does costs nothing.
 * Out of memory, the I/O is still counted (the latencies then miss it: merge_results() says). */
static inline void dir_stats_add(struct dir_stats *d, uint64_t bytes, uint64_t lat_ns)
{
	dir_stats_count(d, bytes);
	if (__builtin_expect(!d->hist, 0) && !dir_stats_need_hist(d))
		return;
	d->lat_n++;
	d->lat_sum += lat_ns;
	d->lat_sumsq += (double)lat_ns * (double)lat_ns;
	if (lat_ns < d->lat_min)
		d->lat_min = lat_ns;
	if (lat_ns > d->lat_max)
		d->lat_max = lat_ns;
	hist_add(d->hist, lat_ns);
}

/* Derived figures of a dir_stats over `seconds`. Latencies in microseconds. */
struct dir_summary {
	uint64_t ios, bytes, errors;
	double iops, mibps, mbps;
	bool has_lat;
	double lat_min, lat_mean, lat_stdev, lat_max;
	double p50, p90, p99, p99_9, p99_99, p99_999;
};

void dir_stats_summarize(const struct dir_stats *d, double seconds, struct dir_summary *s);

/* The percentiles every report prints, in this order, with their names. */
#define STATS_NPCT 6
extern const double stats_pcts[STATS_NPCT];
extern const char *const stats_pct_names[STATS_NPCT]; /* "p50", "p90", ..., "p99_999" */

#endif
