#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/stats.h"
#include "core/workload.h"

#define N_VALUES 200000

/* cmocka 1.1.5 (Debian 12) has no assert_double_equal. */
#define assert_near(a, b, eps) near_at((a), (b), (eps), #a, __FILE__, __LINE__)

static void near_at(double a, double b, double eps, const char *expr, const char *file, int line)
{
	if (!(fabs(a - b) <= eps))
		fail_msg("%s:%d: %s = %.17g, expected %.17g within %g", file, line, expr, a, b,
			 eps);
}

/* splitmix64 (src/core/workload.c): a fixed, seeded generator so every run checks the same data. */
static uint64_t rng_state;

static uint64_t rng_next(void)
{
	return splitmix64(&rng_state);
}

static double rng_unit(void)
{
	return (double)(rng_next() >> 11) / 9007199254740992.0; /* [0, 1) */
}

static double rng_normal(void)
{
	double u = rng_unit(), v = rng_unit();

	return sqrt(-2.0 * log(1.0 - u)) * cos(2.0 * M_PI * v);
}

static uint64_t clamp_ns(double x)
{
	if (x < 1)
		return 1;
	if (x > 1e11)
		return 100000000000ull;
	return (uint64_t)x;
}

enum dist { UNIFORM, LOG_UNIFORM, LOGNORMAL, BIMODAL, CONSTANT, NDIST };
static const char *const dist_names[NDIST] = {
	"uniform", "log-uniform", "lognormal", "bimodal", "constant",
};

static uint64_t draw(enum dist d)
{
	switch (d) {
	case UNIFORM:
		return 1 + rng_next() % 1000000;
	case LOG_UNIFORM: /* 1 ns to 10^11 ns */
		return clamp_ns(exp(rng_unit() * log(1e11)));
	case LOGNORMAL:
		return clamp_ns(exp(log(100000.0) + 1.0 * rng_normal()));
	case BIMODAL: /* 90% near 50 us, 10% near 10 ms */
		if (rng_unit() < 0.9)
			return clamp_ns(50000.0 + 5000.0 * rng_normal());
		return clamp_ns(1e7 + 1e6 * rng_normal());
	case CONSTANT:
	default:
		return 123457;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank, computed independently of stats.c with exact integer arithmetic where possible. */
static uint64_t exact_percentile(const uint64_t *sorted, size_t n, double pct)
{
	long double x = (long double)pct / 100.0L * (long double)n;
	uint64_t rank = (uint64_t)ceill(x - x * 1e-12L);

	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

static void check_pct(const struct dir_stats *d, const uint64_t *sorted, size_t n, double pct,
		      const char *dist)
{
	uint64_t want = exact_percentile(sorted, n, pct);
	uint64_t got = hist_percentile(d->hist, pct, d->lat_min, d->lat_max);
	double rel = fabs((double)got - (double)want) / (double)want;

	/* docs/measure.md and docs/json.md promise percentiles within 0.4% of the exact value. */
	if (rel > 0.004)
		fail_msg("%s: p%g = %llu, exact %llu (relative error %g)", dist, pct,
			 (unsigned long long)got, (unsigned long long)want, rel);
}

static void test_percentiles_vs_exact(void **state)
{
	static const double extra[] = { 0.0001, 0.1, 1, 5, 10, 25, 33.3, 75, 95, 99.5, 99.95, 100 };
	uint64_t *v = malloc(N_VALUES * sizeof(*v));
	struct dir_stats *d = calloc(1, sizeof(*d));

	assert_non_null(v);
	assert_non_null(d);
	for (unsigned k = 0; k < NDIST; k++) {
		rng_state = 42 + k;
		dir_stats_release(d);
		dir_stats_init(d);
		for (size_t i = 0; i < N_VALUES; i++) {
			v[i] = draw(k);
			dir_stats_add(d, 4096, v[i]);
		}
		qsort(v, N_VALUES, sizeof(*v), cmp_u64);
		assert_int_equal(hist_count(d->hist), N_VALUES);
		assert_int_equal(d->lat_min, v[0]);
		assert_int_equal(d->lat_max, v[N_VALUES - 1]);
		for (unsigned i = 0; i < STATS_NPCT; i++)
			check_pct(d, v, N_VALUES, stats_pcts[i], dist_names[k]);
		for (unsigned i = 0; i < sizeof(extra) / sizeof(extra[0]); i++)
			check_pct(d, v, N_VALUES, extra[i], dist_names[k]);
		for (unsigned p = 1; p <= 1000; p++)
			check_pct(d, v, N_VALUES, p / 10.0, dist_names[k]);
		assert_int_equal(hist_percentile(d->hist, 100, d->lat_min, d->lat_max),
				 v[N_VALUES - 1]);
	}
	dir_stats_release(d);
	free(d);
	free(v);
}

/*
 * Nearest rank in floating point: 99.9 / 100 * 1000 is 999.0000000000001, which must still be
 * rank 999. Values below 256 ns have exact buckets, so the answers are exact.
 */
static void test_percentile_ranks(void **state)
{
	struct hist *h = calloc(1, sizeof(*h));

	assert_non_null(h);
	for (unsigned i = 0; i < 999; i++)
		hist_add(h, 10);
	hist_add(h, 200);
	assert_int_equal(hist_percentile(h, 99.9, 10, 200), 10);
	assert_int_equal(hist_percentile(h, 99.91, 10, 200), 200);
	assert_int_equal(hist_percentile(h, 100, 10, 200), 200);
	assert_int_equal(hist_percentile(h, 0.0001, 10, 200), 10);
	hist_reset(h);
	for (uint64_t i = 1; i <= 200; i++)
		hist_add(h, i);
	assert_int_equal(hist_percentile(h, 50, 1, 200), 100);
	assert_int_equal(hist_percentile(h, 99.5, 1, 200), 199);
	/* Unknown bounds: the midpoint of the top bucket (exact here). */
	assert_int_equal(hist_percentile(h, 100, 0, UINT64_MAX), 200);
	/* Clamping: a midpoint above the known max is cut down to it. */
	hist_reset(h);
	hist_add(h, 1000); /* bucket [1000, 1004) */
	assert_int_equal(hist_percentile(h, 50, 0, UINT64_MAX), 1002);
	assert_int_equal(hist_percentile(h, 50, 1000, 1000), 1000);
	/* Below the top rank too: 1000 and 1001 share that bucket, whose midpoint passes max. */
	hist_add(h, 1001);
	assert_int_equal(hist_percentile(h, 50, 0, UINT64_MAX), 1002);
	assert_int_equal(hist_percentile(h, 50, 1000, 1001), 1001);
	free(h);
}

static void check_value(uint64_t v)
{
	unsigned i = hist_index(v);
	uint64_t low = hist_bucket_low(i), w = hist_bucket_width(i);

	assert_true(i < HIST_BUCKETS);
	if (v >= (1ull << HIST_MAX_BITS)) {
		assert_int_equal(i, HIST_BUCKETS - 1);
		return;
	}
	if (!(low <= v && v < low + w))
		fail_msg("%llu maps to bucket %u = [%llu, %llu)", (unsigned long long)v, i,
			 (unsigned long long)low, (unsigned long long)(low + w));
	assert_true(hist_index(v + 1) >= i);
	assert_true(hist_index(v + 1) <= i + 1);
}

static void test_buckets(void **state)
{
	assert_int_equal(hist_bucket_low(0), 0);
	for (unsigned i = 0; i + 1 < HIST_BUCKETS; i++) {
		/* Contiguous: each bucket starts where the previous one ends. */
		assert_int_equal(hist_bucket_low(i + 1), hist_bucket_low(i) + hist_bucket_width(i));
		/* Narrow: at most 1/128 of its lower bound above the exact range. */
		if (i >= HIST_SUB)
			assert_true(hist_bucket_width(i) * HIST_HALF <= hist_bucket_low(i));
		assert_int_equal(hist_index(hist_bucket_low(i)), i);
	}
	for (uint64_t v = 0; v < 4096; v++)
		check_value(v);
	for (unsigned b = 1; b < 63; b++) {
		uint64_t p = 1ull << b;

		for (int d = -3; d <= 3; d++)
			check_value(p + (uint64_t)(int64_t)d);
	}
	check_value(UINT64_MAX - 1);
	rng_state = 7;
	for (unsigned k = 0; k < 100000; k++)
		check_value(rng_next() >> (rng_next() % 64));
}

static void test_merge_diff(void **state)
{
	struct dir_stats *a = calloc(1, sizeof(*a)), *b = malloc(sizeof(*b)), *m = malloc(sizeof(*m));
	struct hist *d = malloc(sizeof(*d));

	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(m);
	assert_non_null(d);
	dir_stats_init(a);
	dir_stats_init(b);
	rng_state = 3;
	for (unsigned i = 0; i < 10000; i++)
		dir_stats_add(a, 4096, draw(LOGNORMAL));
	for (unsigned i = 0; i < 5000; i++)
		dir_stats_add(b, 8192, draw(BIMODAL));
	b->errors = 2;

	dir_stats_init(m);
	dir_stats_merge(m, a);
	dir_stats_merge(m, b);
	assert_int_equal(m->ios, 15000);
	assert_int_equal(m->bytes, 10000 * 4096ull + 5000 * 8192ull);
	assert_int_equal(m->errors, 2);
	assert_int_equal(m->lat_n, 15000);
	assert_int_equal(m->lat_sum, a->lat_sum + b->lat_sum);
	assert_true(m->lat_sumsq == a->lat_sumsq + b->lat_sumsq);
	assert_int_equal(m->lat_min, a->lat_min < b->lat_min ? a->lat_min : b->lat_min);
	assert_int_equal(m->lat_max, a->lat_max > b->lat_max ? a->lat_max : b->lat_max);
	assert_int_equal(hist_count(m->hist), 15000);
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		assert_int_equal(m->hist->counts[i], a->hist->counts[i] + b->hist->counts[i]);

	hist_diff(d, m->hist, a->hist);
	assert_memory_equal(d->counts, b->hist->counts, sizeof(d->counts));
	/* The runner diffs into its previous snapshot: dst may alias an operand. */
	memcpy(d, a->hist, sizeof(*d));
	hist_diff(d, m->hist, d);
	assert_memory_equal(d->counts, b->hist->counts, sizeof(d->counts));
	/* A snapshot that went backwards clamps to zero rather than wrapping. */
	hist_diff(d, a->hist, m->hist);
	assert_int_equal(hist_count(d), 0);

	/* Merging an empty dir_stats changes nothing, min included. */
	dir_stats_release(a);
	dir_stats_init(a);
	dir_stats_merge(a, b);
	dir_stats_release(b);
	dir_stats_init(b);
	dir_stats_merge(a, b);
	assert_int_equal(a->ios, 5000);
	assert_true(a->lat_min < UINT64_MAX);

	hist_reset(m->hist);
	assert_int_equal(hist_count(m->hist), 0);
	dir_stats_release(a);
	free(a);
	dir_stats_release(b);
	free(b);
	dir_stats_release(m);
	free(m);
	free(d);
}

static void test_summary_known(void **state)
{
	struct dir_stats *d = calloc(1, sizeof(*d));
	struct dir_summary s;

	assert_non_null(d);
	dir_stats_init(d);
	dir_stats_add(d, 4096, 1000);
	dir_stats_add(d, 4096, 2000);
	dir_stats_add(d, 4096, 3000);
	dir_stats_add(d, 4096, 4000);
	d->errors = 1;
	dir_stats_summarize(d, 2.0, &s);
	assert_int_equal(s.ios, 4);
	assert_int_equal(s.bytes, 16384);
	assert_int_equal(s.errors, 1);
	assert_true(s.has_lat);
	assert_near(s.iops, 2.0, 1e-12);
	assert_near(s.mibps, 16384.0 / 1048576.0 / 2.0, 1e-15);
	assert_near(s.mbps, 16384.0 / 1e6 / 2.0, 1e-15);
	assert_near(s.lat_min, 1.0, 1e-12);
	assert_near(s.lat_max, 4.0, 1e-12);
	assert_near(s.lat_mean, 2.5, 1e-12);
	assert_near(s.lat_stdev, sqrt(1.25), 1e-9);
	assert_near(s.p50, 2.0, 0.02);
	assert_near(s.p99_999, 4.0, 1e-12);
	dir_stats_release(d);
	free(d);
}

static void test_summary_random(void **state)
{
	struct dir_stats *d = calloc(1, sizeof(*d));
	uint64_t *v = malloc(N_VALUES * sizeof(*v));
	struct dir_summary s;

	assert_non_null(d);
	assert_non_null(v);
	for (unsigned k = 0; k < NDIST; k++) {
		long double sum = 0, sq = 0;

		rng_state = 100 + k;
		dir_stats_release(d);
		dir_stats_init(d);
		for (size_t i = 0; i < N_VALUES; i++) {
			v[i] = draw(k);
			dir_stats_add(d, 512, v[i]);
			sum += v[i];
		}
		long double mean = sum / N_VALUES;

		for (size_t i = 0; i < N_VALUES; i++)
			sq += ((long double)v[i] - mean) * ((long double)v[i] - mean);
		double stdev = (double)sqrtl(sq / N_VALUES);

		dir_stats_summarize(d, 10.0, &s);
		assert_near(s.lat_mean, (double)mean / 1e3, (double)mean / 1e3 * 1e-12);
		/* One-pass variance loses digits to cancellation; it must still be close. */
		assert_near(s.lat_stdev, stdev / 1e3, stdev / 1e3 * 1e-6 + 1e-9);
		assert_false(isnan(s.lat_stdev));
		assert_near(s.iops, N_VALUES / 10.0, 1e-9);
	}
	free(v);
	dir_stats_release(d);
	free(d);
}

/* All-equal latencies make E[x^2] - E[x]^2 round below zero; stdev must be 0, not NaN. */
static void test_summary_constant(void **state)
{
	struct dir_stats *d = calloc(1, sizeof(*d));
	struct dir_summary s;

	assert_non_null(d);
	dir_stats_init(d);
	for (unsigned i = 0; i < 1000; i++)
		dir_stats_add(d, 4096, 123456789);
	dir_stats_summarize(d, 1.0, &s);
	assert_false(isnan(s.lat_stdev));
	assert_true(s.lat_stdev >= 0 && s.lat_stdev < 1e-3);
	for (unsigned i = 0; i < 1000; i++)
		dir_stats_add(d, 4096, 3);
	d->lat_sumsq -= 1; /* as if rounded down */
	dir_stats_summarize(d, 1.0, &s);
	assert_false(isnan(s.lat_stdev));
	dir_stats_release(d);
	free(d);
}

static void test_empty(void **state)
{
	struct dir_stats *d = calloc(1, sizeof(*d));
	struct dir_summary s;

	assert_non_null(d);
	dir_stats_init(d);
	/* No histogram until one is asked for or latencies arrive: no percentile to make up. */
	assert_null(d->hist);
	dir_stats_summarize(d, 10.0, &s);
	assert_false(s.has_lat);
	/* with its histogram, the statistics start over: what a reused slot held is gone */
	d->ios = 5;
	d->lat_min = 3;
	d->lat_max = 9;
	assert_int_equal(dir_stats_init_hist(d), 0);
	assert_int_equal(d->ios, 0);
	assert_int_equal(d->lat_min, UINT64_MAX);
	assert_int_equal(d->lat_max, 0);
	assert_int_equal(hist_count(d->hist), 0);
	assert_int_equal(hist_percentile(d->hist, 50, 0, UINT64_MAX), 0);
	assert_int_equal(hist_percentile(d->hist, 100, d->lat_min, d->lat_max), 0);
	dir_stats_summarize(d, 10.0, &s);
	assert_false(s.has_lat);
	assert_int_equal(s.ios, 0);
	assert_true(s.iops == 0 && s.mibps == 0 && s.mbps == 0);
	assert_true(s.lat_mean == 0 && s.p99 == 0);
	/* Counted without latency (--no-latency), and over zero seconds: no division by zero. */
	dir_stats_count(d, 4096);
	dir_stats_summarize(d, 0.0, &s);
	assert_false(s.has_lat);
	assert_int_equal(s.ios, 1);
	assert_true(s.iops == 0 && isfinite(s.mibps));
	/* Released twice (a job's cleanup after a failed start) frees once; NULL is a no-op. */
	dir_stats_release(d);
	assert_null(d->hist);
	dir_stats_release(d);
	dir_stats_release(NULL);
	free(d);
}

/* Values beyond 2^40 ns share the last bucket; the exact max keeps the tail honest. */
static void test_overflow(void **state)
{
	struct dir_stats *d = calloc(1, sizeof(*d));
	uint64_t huge = 5ull << HIST_MAX_BITS;

	assert_non_null(d);
	dir_stats_init(d);
	dir_stats_add(d, 1, 1000);
	dir_stats_add(d, 1, huge);
	assert_int_equal(d->hist->counts[HIST_BUCKETS - 1], 1);
	assert_int_equal(hist_percentile(d->hist, 100, d->lat_min, d->lat_max), huge);
	assert_near((double)hist_percentile(d->hist, 50, d->lat_min, d->lat_max), 1000, 10);
	dir_stats_release(d);
	free(d);
}

/*
 * The mean of a histogram (each interval's mean latency, src/core/supervise.c) counts each value
 * at its bucket's midpoint; an index past the last bucket is read as the last one.
 */
static void test_hist_mean(void **state)
{
	struct hist *h = calloc(1, sizeof(*h));
	unsigned k = HIST_SUB + 3 * HIST_HALF + 5;

	assert_non_null(h);
	assert_near(hist_mean(h), 0, 0);
	h->counts[7] = 3;
	assert_near(hist_mean(h), 7.5, 1e-12);
	hist_reset(h);
	h->counts[k] = 4;
	assert_true(hist_bucket_width(k) > 1);
	assert_near(hist_mean(h), hist_bucket_low(k) + hist_bucket_width(k) / 2.0, 1e-9);
	/* two buckets, weighted by their counts */
	h->counts[7] = 4;
	assert_near(hist_mean(h), (7.5 + hist_bucket_low(k) + hist_bucket_width(k) / 2.0) / 2, 1e-9);
	/* the first bucket (0 ns, from a clock that did not move) counts too: 4 x 0.5 + 4 x 7.5 */
	hist_reset(h);
	h->counts[0] = 4;
	h->counts[7] = 4;
	assert_near(hist_mean(h), 4.0, 1e-12);
	free(h);
	for (unsigned past = HIST_BUCKETS; past < HIST_BUCKETS + 3; past++) {
		assert_int_equal(hist_bucket_low(past), hist_bucket_low(HIST_BUCKETS - 1));
		assert_int_equal(hist_bucket_width(past), hist_bucket_width(HIST_BUCKETS - 1));
	}
}

/*
 * A histogram made at the first latency (a worker's, stats.h) gives the percentiles of one made
 * beforehand; a target's only thread hands its histogram over (dir_stats_merge_take) and the
 * result is the copy's.
 */
static void test_lazy_and_take(void **state)
{
	struct dir_stats lazy, eager, copy, took, second;

	(void)state;
	dir_stats_init(&lazy);
	assert_null(lazy.hist);
	assert_int_equal(dir_stats_init_hist(&eager), 0);
	rng_state = 11;
	for (unsigned i = 0; i < 20000; i++) {
		uint64_t v = draw(LOGNORMAL);
		dir_stats_add(&lazy, 4096, v);
		dir_stats_add(&eager, 4096, v);
	}
	assert_non_null(lazy.hist);
	assert_memory_equal(lazy.hist->counts, eager.hist->counts, sizeof(eager.hist->counts));
	assert_int_equal(lazy.lat_n, eager.lat_n);
	assert_int_equal(lazy.ios, 20000);

	dir_stats_init(&copy);
	dir_stats_init(&took);
	assert_int_equal(dir_stats_merge(&copy, &lazy), 0);
	struct hist *h = lazy.hist;
	assert_int_equal(dir_stats_merge_take(&took, &lazy), 0);
	assert_ptr_equal(took.hist, h);
	assert_null(lazy.hist);
	assert_int_equal(took.ios, copy.ios);
	assert_int_equal(took.lat_n, copy.lat_n);
	assert_int_equal(took.lat_sum, copy.lat_sum);
	assert_int_equal(took.lat_min, copy.lat_min);
	assert_int_equal(took.lat_max, copy.lat_max);
	for (unsigned i = 0; i < STATS_NPCT; i++)
		assert_int_equal(hist_percentile(took.hist, stats_pcts[i], took.lat_min,
						 took.lat_max),
				 hist_percentile(eager.hist, stats_pcts[i], eager.lat_min,
						 eager.lat_max));
	/* A dst that has a histogram keeps it and adds src's: src keeps its own. */
	dir_stats_init(&second);
	dir_stats_add(&second, 4096, 1000);
	h = second.hist;
	assert_int_equal(dir_stats_merge_take(&took, &second), 0);
	assert_ptr_equal(second.hist, h);
	assert_int_equal(hist_count(took.hist), 20001);
	/* A direction never done has no histogram, and gives the merge none. */
	dir_stats_release(&second);
	dir_stats_release(&copy);
	dir_stats_init(&second);
	dir_stats_init(&copy);
	assert_int_equal(dir_stats_merge_take(&copy, &second), 0);
	assert_null(copy.hist);
	dir_stats_release(&eager);
	dir_stats_release(&took);
	dir_stats_release(&copy);
	dir_stats_release(&second);
	dir_stats_release(&lazy);
}

static void test_pct_table(void **state)
{
	static const char *const want[] = { "p50", "p90", "p99", "p99_9", "p99_99", "p99_999" };

	assert_int_equal(STATS_NPCT, 6);
	for (unsigned i = 0; i < STATS_NPCT; i++) {
		assert_string_equal(stats_pct_names[i], want[i]);
		if (i)
			assert_true(stats_pcts[i] > stats_pcts[i - 1]);
	}
	assert_near(stats_pcts[5], 99.999, 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_percentiles_vs_exact),
		cmocka_unit_test(test_percentile_ranks),
		cmocka_unit_test(test_merge_diff),
		cmocka_unit_test(test_summary_known),
		cmocka_unit_test(test_summary_random),
		cmocka_unit_test(test_summary_constant),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_pct_table),
		cmocka_unit_test(test_hist_mean),
		cmocka_unit_test(test_lazy_and_take),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
