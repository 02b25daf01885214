#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"

const double stats_pcts[STATS_NPCT] = { 50.0, 90.0, 99.0, 99.9, 99.99, 99.999 };
const char *const stats_pct_names[STATS_NPCT] = {
	"p50", "p90", "p99", "p99_9", "p99_99", "p99_999",
};

/*
 * The inverse of hist_index(): below HIST_SUB each value has its own bucket; above, the bucket
 * number holds which power of two (shift) and which of its HIST_HALF slices.
 */
uint64_t hist_bucket_low(unsigned idx)
{
	if (idx < HIST_SUB)
		return idx;
	if (idx >= HIST_BUCKETS)
		idx = HIST_BUCKETS - 1;
	unsigned k = idx - HIST_SUB;
	unsigned shift = k / HIST_HALF + 1;
	uint64_t slice = HIST_HALF + k % HIST_HALF;
	return slice << shift;
}

uint64_t hist_bucket_width(unsigned idx)
{
	if (idx < HIST_SUB)
		return 1;
	if (idx >= HIST_BUCKETS)
		idx = HIST_BUCKETS - 1;
	return 1ull << ((idx - HIST_SUB) / HIST_HALF + 1);
}

void hist_reset(struct hist *h)
{
	memset(h->counts, 0, sizeof(h->counts));
}

/* Only the buckets src has are written: a fresh dst's pages that no latency fell in are never
 * touched, so they take no memory. */
void hist_merge(struct hist *dst, const struct hist *src)
{
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		uint64_t c = __atomic_load_n(&src->counts[i], __ATOMIC_RELAXED);
		if (c)
			dst->counts[i] += c;
	}
}

/*
 * Snapshots are taken bucket by bucket while workers run, so a later snapshot can in principle
 * hold a bucket read before an earlier one finished; clamp rather than wrap around. Each bucket
 * is read before it is written, so dst may be a or b (the runner diffs into its last snapshot).
 */
void hist_diff(struct hist *dst, const struct hist *a, const struct hist *b)
{
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		uint64_t x = a->counts[i], y = b->counts[i];

		dst->counts[i] = x > y ? x - y : 0;
	}
}

uint64_t hist_count(const struct hist *h)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		n += __atomic_load_n(&h->counts[i], __ATOMIC_RELAXED);
	return n;
}

/*
 * Nearest rank: the smallest value with at least pct% of the values at or below it. The rank
 * is computed with a relative tolerance so that 99.9% of 1000 is rank 999, not 1000 because
 * 99.9 / 100 * 1000 rounds to 999.0000000000001.
 */
uint64_t hist_rank(double pct, uint64_t n)
{
	double x = pct / 100.0 * (double)n;
	double r = ceil(x - x * 1e-12);

	if (r < 1.0)
		return 1;
	if (r >= (double)n)
		return n;
	return (uint64_t)r;
}

double hist_mean(const struct hist *h)
{
	double sum = 0, n = 0;

	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		uint64_t c = __atomic_load_n(&h->counts[i], __ATOMIC_RELAXED);
		if (!c)
			continue;
		sum += (double)c * ((double)hist_bucket_low(i) + (double)hist_bucket_width(i) / 2);
		n += (double)c;
	}
	return n > 0 ? sum / n : 0;
}

uint64_t hist_percentile(const struct hist *h, double pct, uint64_t min, uint64_t max)
{
	uint64_t n = hist_count(h);

	if (n == 0)
		return 0;
	uint64_t rank = hist_rank(pct, n);
	uint64_t cum = 0;
	unsigned i;

	/* Counts only grow while a worker adds to them, so the walk reaches the rank. */
	for (i = 0; i < HIST_BUCKETS - 1; i++) {
		cum += __atomic_load_n(&h->counts[i], __ATOMIC_RELAXED);
		if (cum >= rank)
			break;
	}
	/* The largest value is known exactly; do not replace it by its bucket's midpoint. */
	if (rank == n && max != UINT64_MAX)
		return max;
	uint64_t v = hist_bucket_low(i) + hist_bucket_width(i) / 2;

	if (v < min)
		v = min;
	if (v > max)
		v = max;
	return v;
}

struct hist *hist_dup(const struct hist *h)
{
	struct hist *c = h ? malloc(sizeof(*c)) : NULL;

	if (c)
		memcpy(c, h, sizeof(*c));
	return c;
}

void dir_stats_init(struct dir_stats *d)
{
	memset(d, 0, sizeof(*d));
	d->lat_min = UINT64_MAX;
}

int dir_stats_init_hist(struct dir_stats *d)
{
	dir_stats_init(d);
	return (d->hist = calloc(1, sizeof(*d->hist))) ? 0 : -ENOMEM;
}

/* Published with a release store: the series snapshot reads a worker's pointer while it runs. */
__attribute__((cold, noinline)) bool dir_stats_need_hist(struct dir_stats *d)
{
	struct hist *h = calloc(1, sizeof(*h));

	__atomic_store_n(&d->hist, h, __ATOMIC_RELEASE);
	return h != NULL;
}

void dir_stats_release(struct dir_stats *d)
{
	if (!d)
		return;
	free(d->hist);
	d->hist = NULL;
}

void dir_stats_merge_counts(struct dir_stats *dst, uint64_t ios, uint64_t bytes,
			    uint64_t errors)
{
	dst->ios += ios;
	dst->bytes += bytes;
	dst->errors += errors;
}

int dir_stats_merge_take(struct dir_stats *dst, struct dir_stats *src)
{
	struct hist *h = src->hist;

	if (dst->hist || !h)
		return dir_stats_merge(dst, src);
	src->hist = NULL;
	(void)dir_stats_merge(dst, src);
	dst->hist = h;
	return 0;
}

int dir_stats_merge(struct dir_stats *dst, const struct dir_stats *src)
{
	dst->ios += __atomic_load_n(&src->ios, __ATOMIC_RELAXED);
	dst->bytes += __atomic_load_n(&src->bytes, __ATOMIC_RELAXED);
	dst->errors += src->errors;
	dst->lat_n += src->lat_n;
	dst->lat_sum += src->lat_sum;
	dst->lat_sumsq += src->lat_sumsq;
	if (src->lat_min < dst->lat_min)
		dst->lat_min = src->lat_min;
	if (src->lat_max > dst->lat_max)
		dst->lat_max = src->lat_max;
	if (!src->hist)
		return 0;
	if (!dst->hist && !(dst->hist = calloc(1, sizeof(*dst->hist))))
		return -ENOMEM;
	hist_merge(dst->hist, src->hist);
	return 0;
}

void dir_stats_summarize(const struct dir_stats *d, double seconds, struct dir_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->ios = d->ios;
	s->bytes = d->bytes;
	s->errors = d->errors;
	if (seconds > 0) {
		s->iops = (double)d->ios / seconds;
		s->mibps = (double)d->bytes / 1048576.0 / seconds;
		s->mbps = (double)d->bytes / 1e6 / seconds;
	}
	s->has_lat = d->lat_n > 0;
	if (!s->has_lat)
		return;

	double n = (double)d->lat_n;
	double mean = (double)d->lat_sum / n;
	/* E[x^2] - E[x]^2 can come out slightly negative by rounding when all values are equal. */
	double var = d->lat_sumsq / n - mean * mean;

	if (!(var > 0))
		var = 0;
	s->lat_min = (double)d->lat_min / 1e3;
	s->lat_max = (double)d->lat_max / 1e3;
	s->lat_mean = mean / 1e3;
	s->lat_stdev = sqrt(var) / 1e3;

	double *pct[STATS_NPCT] = { &s->p50, &s->p90, &s->p99, &s->p99_9, &s->p99_99, &s->p99_999 };

	for (unsigned i = 0; d->hist && i < STATS_NPCT; i++)
		*pct[i] = (double)hist_percentile(d->hist, stats_pcts[i], d->lat_min,
						  d->lat_max) / 1e3;
}
