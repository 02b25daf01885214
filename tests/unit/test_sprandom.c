/* src/core/sprandom.c: the steady-state preconditioning pass, its model and its offsets. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/sprandom.h"

#define MIB (1024ull * 1024)
#define NONE UINT64_MAX

/* |a - b| <= tol, saying what was compared when it is not. */
#define assert_within(a, b, tol) within_at((a), (b), (tol), #a, __LINE__)

static void within_at(double a, double b, double tol, const char *what, int line)
{
	if (!(fabs(a - b) <= tol))
		fail_msg("line %d: %s = %.9g, not %.9g within %.3g", line, what, a, b, tol);
}

static struct sprandom *make(uint64_t len, uint32_t bs, double op, unsigned n, uint64_t cache,
			     uint64_t seed)
{
	struct sprandom *s;
	char err[256] = "";
	int rc = sprandom_new(len, bs, op, n, cache, seed, &s, err, sizeof(err));

	if (rc)
		fail_msg("sprandom_new: %d %s", rc, err);
	return s;
}

/* First write of region r of n over `writes` writes (sprandom.h: floor(r * P / n)). */
static uint64_t boundary(uint64_t writes, unsigned n, unsigned r)
{
	return (uint64_t)((unsigned __int128)writes * r / n);
}

/* What a whole pass did, block by block and region by region. */
struct pass {
	uint64_t writes;
	uint64_t *last;          /* per logical block: the index of its last write, or NONE */
	uint64_t *valid;         /* per region: writes still valid at the end */
	uint64_t min_gap;        /* fewest writes between a write and the one invalidating it */
	uint64_t rewrites;
};

/*
 * Runs s to its end as a device would see it: a block's last write is valid, earlier ones are
 * not, and each write lands in the physical region its index falls in. Every offset must be
 * aligned and inside the logical range.
 */
static void run_pass(struct sprandom *s, uint64_t len, uint32_t bs, struct pass *p)
{
	uint64_t blocks = len / bs, total = sprandom_writes(s), off, w = 0;
	unsigned n, r = 0;

	sprandom_validity(s, &n);
	p->last = malloc(blocks * sizeof(*p->last));
	p->valid = calloc(n, sizeof(*p->valid));
	assert_non_null(p->last);
	assert_non_null(p->valid);
	memset(p->last, 0xff, blocks * sizeof(*p->last));
	p->min_gap = NONE;
	p->rewrites = 0;
	while (sprandom_next(s, &off)) {
		uint64_t b = off / bs;

		assert_int_equal(off % bs, 0);
		assert_true(b < blocks);
		assert_true(w < total);
		while (w >= boundary(total, n, r + 1))
			r++;
		if (p->last[b] != NONE) {
			unsigned old = 0;

			while (p->last[b] >= boundary(total, n, old + 1))
				old++;
			p->valid[old]--;
			p->rewrites++;
			if (w - p->last[b] < p->min_gap)
				p->min_gap = w - p->last[b];
		}
		p->last[b] = w++;
		p->valid[r]++;
	}
	p->writes = w;
	/* Done stays done. */
	assert_false(sprandom_next(s, &off));
}

static void pass_free(struct pass *p)
{
	free(p->last);
	free(p->valid);
}

static double model_gc(double op)
{
	return 1.0 - 1.0 / (0.5 / op + 0.7);
}

/*
 * The targets follow the model: region 0 at the validity of the block garbage collection takes,
 * 1 - 1/WA with fio's WA = 0.5/op + 0.7, rising to 1 in the last region, and the share of space
 * f(v) per unit of validity such that v * f(v) is the same everywhere. Here f is measured
 * between neighbouring regions (one region, 1/n of the space, over their validity step), and
 * the constant is the normalised one, 1 / ln(1 / gc), up to the one-region step of the ends.
 */
static void test_validity_model(void **state)
{
	const double ops[] = {0.07, 0.15, 0.28, 0.5};
	const unsigned n = 100;

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		struct sprandom *s = make(256 * MIB, 4096, ops[i], n, 0, 1);
		double gc = model_gc(ops[i]), k = 1.0 / log(1.0 / gc), lo = INFINITY, hi = 0;
		const double *v;
		unsigned m;

		v = sprandom_validity(s, &m);
		assert_int_equal(m, n);
		assert_within(v[0], gc, 1e-12);
		assert_within(v[n - 1], 1.0, 1e-12);
		for (unsigned j = 0; j + 1 < n; j++) {
			double f = 1.0 / (n * (v[j + 1] - v[j])), vf = (v[j] + v[j + 1]) / 2 * f;

			assert_true(v[j + 1] > v[j]);
			lo = fmin(lo, vf);
			hi = fmax(hi, vf);
			assert_within(vf / k, 1.0, 1.5 / n);
		}
		assert_within(hi / lo, 1.0, 1e-3);
		sprandom_free(s);
	}
}

/*
 * By hand for op 0.15: WA = 0.5 / 0.15 + 0.7 = 4.0333, so region 0 holds 1 - 1/4.0333 =
 * 0.752066 valid. fio 3.41 builds its curve from 100 validities spaced evenly, resampled by
 * linear interpolation at even cumulative space; that gives, for regions 10, 50 and 90,
 * 0.774022, 0.868454 and 0.974426. The closed form here agrees to 2e-5.
 */
static void test_validity_matches_fio(void **state)
{
	struct sprandom *s = make(256 * MIB, 4096, 0.15, 100, 0, 1);
	unsigned n;
	const double *v = sprandom_validity(s, &n);

	assert_within(v[0], 0.752066, 1e-6);
	assert_within(v[10], 0.774022, 2e-5);
	assert_within(v[50], 0.868454, 2e-5);
	assert_within(v[90], 0.974426, 2e-5);
	assert_within(v[99], 1.0, 1e-12);
	sprandom_free(s);
}

/*
 * The pass writes fio's physical size, logical + ceil(logical * op) bytes rounded down to
 * whole blocks, which fio also sets as the job's io_size:
 *   64 MiB = 67108864 bytes, op 0.15: 67108864 * 0.15 = 10066329.6, ceil 10066330; the sum
 *   77175194 is 18841 blocks of 4096 (18841 * 4096 = 77172736, 2458 bytes over): 18841
 *   writes, 16384 logical blocks and 2457 rewrites.
 *   5000003 bytes in blocks of 520 (fio allows any block size), op 0.1: 500000.3, ceil
 *   500001; 5500004 / 520 = 10576.9: 10576 writes; 5000003 / 520 = 9615 logical blocks.
 */
static void test_total_writes(void **state)
{
	struct sprandom *s = make(64 * MIB, 4096, 0.15, 100, 0, 7);
	struct pass p;

	assert_int_equal(sprandom_writes(s), 18841);
	run_pass(s, 64 * MIB, 4096, &p);
	assert_int_equal(p.writes, 18841);
	assert_int_equal(p.rewrites, 18841 - 16384);
	pass_free(&p);
	sprandom_free(s);

	s = make(5000003, 520, 0.1, 10, 0, 7);
	assert_int_equal(sprandom_writes(s), 10576);
	run_pass(s, 5000003, 520, &p);
	assert_int_equal(p.writes, 10576);
	for (uint64_t b = 0; b < 9615; b++)
		assert_true(p.last[b] != NONE);
	pass_free(&p);
	sprandom_free(s);
}

/*
 * After the pass every logical block has been written and each region holds its target share of
 * valid blocks. Tolerance: one block of the region (a region's rewrites are a whole number)
 * plus 0.003, the most the scaling of the invalid shares to the pass's P - L rewrites moves a
 * target for these op (0.005 * (1 - gc) at most: 0.0013 for op 0.28). A region picking its
 * rewrites by chance rather than by count would miss by about sqrt(v (1 - v) / 753) = 0.016.
 */
static void test_pass_validity(void **state)
{
	const struct {
		double op;
		uint64_t cache;
	} cases[] = {{0.07, 0}, {0.15, 0}, {0.28, 0}, {0.15, 1 * MIB}};
	const uint64_t len = 256 * MIB, blocks = len / 4096;
	const unsigned n = 100;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sprandom *s = make(len, 4096, cases[i].op, n, cases[i].cache, 42 + i);
		uint64_t total = sprandom_writes(s), sum = 0;
		const double *v = sprandom_validity(s, &(unsigned){0});
		struct pass p;

		run_pass(s, len, 4096, &p);
		assert_int_equal(p.writes, total);
		for (uint64_t b = 0; b < blocks; b++)
			assert_true(p.last[b] != NONE);
		for (unsigned r = 0; r < n; r++) {
			uint64_t w = boundary(total, n, r + 1) - boundary(total, n, r);
			double got = (double)p.valid[r] / (double)w;

			assert_within(got, v[r], 0.003 + 1.0 / (double)w);
			sum += p.valid[r];
		}
		assert_int_equal(sum, blocks);
		pass_free(&p);
		sprandom_free(s);
	}
}

/*
 * With a cache size a rewrite comes at least a region's writes after the write it invalidates,
 * so the two are never in a cache of that size together; without one, the first rewrites of a
 * region follow closely the last picks of the one before.
 */
static void test_cache_defers(void **state)
{
	const uint64_t len = 64 * MIB;
	const unsigned n = 100;
	struct sprandom *s = make(len, 4096, 0.15, n, 0, 3);
	uint64_t region = sprandom_writes(s) / n;       /* the shortest region, in writes */
	struct pass p;

	run_pass(s, len, 4096, &p);
	assert_true(p.min_gap < region / 4);
	pass_free(&p);
	sprandom_free(s);

	s = make(len, 4096, 0.15, n, region * 4096, 3);
	run_pass(s, len, 4096, &p);
	assert_int_equal(p.writes, sprandom_writes(s));
	assert_true(p.min_gap >= region);
	assert_true(p.min_gap != NONE);
	pass_free(&p);
	sprandom_free(s);
}

static void test_deterministic(void **state)
{
	struct sprandom *a = make(64 * MIB, 4096, 0.15, 100, 0, 99);
	struct sprandom *b = make(64 * MIB, 4096, 0.15, 100, 0, 99);
	struct sprandom *c = make(64 * MIB, 4096, 0.15, 100, 0, 100);
	uint64_t x, y, z, same_as_c = 0, n = 0;

	while (sprandom_next(a, &x)) {
		assert_true(sprandom_next(b, &y));
		assert_true(sprandom_next(c, &z));
		assert_int_equal(x, y);
		same_as_c += x == z;
		n++;
	}
	assert_false(sprandom_next(b, &y));
	assert_true(same_as_c < n / 100);
	sprandom_free(a);
	sprandom_free(b);
	sprandom_free(c);
}

/*
 * The writes are spread over the whole range as random ones would be: each sixteenth of the
 * logical blocks gets its share of the first 8192 (512 +- 128, six standard deviations), and a
 * write lands within 1% of the range from the one before about as often as chance has it
 * (0.0199 +- 0.01: an affine order, or a sweep, is far from it).
 */
static void test_spread(void **state)
{
	const uint64_t lens[] = {256 * MIB, 300 * MIB};

	for (size_t l = 0; l < 2; l++) {
		struct sprandom *s = make(lens[l], 4096, 0.15, 100, 0, 5);
		unsigned counts[16] = {0}, near = 0;
		uint64_t off, prev = 0;

		for (int i = 0; i < 8192; i++) {
			assert_true(sprandom_next(s, &off));
			counts[off * 16 / lens[l]]++;
			if (i && (off > prev ? off - prev : prev - off) < lens[l] / 100)
				near++;
			prev = off;
		}
		for (int i = 0; i < 16; i++) {
			assert_true(counts[i] >= 384);
			assert_true(counts[i] <= 640);
		}
		assert_within(near / 8191.0, 0.0199, 0.01);
		sprandom_free(s);
	}
}

/* One region has no later one to rewrite into: the pass writes each block exactly once. */
static void test_one_region(void **state)
{
	struct sprandom *s = make(4 * MIB, 4096, 0.2, 1, 0, 11);
	unsigned n;
	const double *v = sprandom_validity(s, &n);
	struct pass p;

	assert_int_equal(n, 1);
	assert_within(v[0], 1.0, 0);
	assert_int_equal(sprandom_writes(s), 1024);
	run_pass(s, 4 * MIB, 4096, &p);
	assert_int_equal(p.writes, 1024);
	assert_int_equal(p.rewrites, 0);
	pass_free(&p);
	sprandom_free(s);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Devices of 16 TiB (2^32 blocks, the most the 32-bit queue holds) and 64 TiB: the size is fio's
 * arithmetic, and the first region's writes are distinct, aligned and in range.
 */
static void test_large(void **state)
{
	const uint64_t lens[] = {16ull << 40, 64ull << 40};
	enum { DRAWS = 200000 };
	uint64_t *offs = malloc(DRAWS * sizeof(*offs));

	assert_non_null(offs);
	for (size_t i = 0; i < 2; i++) {
		struct sprandom *s = make(lens[i], 4096, 0.15, 1000, 0, 1);
		uint64_t phys = (lens[i] + (uint64_t)ceil((double)lens[i] * 0.15)) / 4096;

		assert_int_equal(sprandom_writes(s), phys);
		for (int d = 0; d < DRAWS; d++) {
			assert_true(sprandom_next(s, &offs[d]));
			assert_int_equal(offs[d] % 4096, 0);
			assert_true(offs[d] < lens[i]);
		}
		/* the first region (phys / 1000 > DRAWS writes) is all first writes */
		qsort(offs, DRAWS, sizeof(*offs), cmp_u64);
		for (int d = 1; d < DRAWS; d++)
			assert_true(offs[d] != offs[d - 1]);
		sprandom_free(s);
	}
	free(offs);
}

static void refused(uint64_t len, uint32_t bs, double op, unsigned n, uint64_t cache,
		    const char *field)
{
	struct sprandom *s = (struct sprandom *)1;
	char err[256] = "", want[64];

	assert_int_equal(sprandom_new(len, bs, op, n, cache, 1, &s, err, sizeof(err)), -EINVAL);
	assert_null(s);
	snprintf(want, sizeof(want), "\001%s\002", field);
	if (!strstr(err, want))
		fail_msg("'%s' does not name %s", err, field);
}

static void test_refused(void **state)
{
	refused(MIB, 0, 0.15, 10, 0, "bs");
	refused(MIB, 4096, 0, 10, 0, "spr-op");
	refused(MIB, 4096, 1, 10, 0, "spr-op");
	refused(MIB, 4096, -0.1, 10, 0, "spr-op");
	refused(MIB, 4096, NAN, 10, 0, "spr-op");
	refused(MIB, 4096, 0.15, 0, 0, "spr-num-regions");
	/* 256 blocks, 257 regions */
	refused(MIB, 4096, 0.15, 257, 0, "spr-num-regions");
	refused(UINT64_MAX - 4096, 4096, 0.5, 10, 0, "size");
	/* 32 MiB at op 0.1 over 2000 regions: regions of 18 KiB, less than a 32 KiB cache (fio
	 * refuses the same); 50 regions of 720 KiB do not hold 32 MiB of it either */
	refused(32 * MIB, 4096, 0.1, 2000, 32 * 1024, "spr-cs");
	refused(32 * MIB, 4096, 0.1, 50, 32 * MIB, "spr-cs");
	/* two regions of two blocks cannot hold the three rewrites op 0.99 asks for */
	refused(29, 10, 0.99, 2, 0, "spr-num-regions");

	/* the limits themselves are accepted */
	struct sprandom *s = make(32 * MIB, 4096, 0.1, 100, 32 * 1024, 1);

	sprandom_free(s);
	s = make(256 * 4096, 4096, 0.15, 256, 0, 1);
	sprandom_free(s);
	sprandom_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_validity_model),
		cmocka_unit_test(test_validity_matches_fio),
		cmocka_unit_test(test_total_writes),
		cmocka_unit_test(test_pass_validity),
		cmocka_unit_test(test_cache_defers),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_one_region),
		cmocka_unit_test(test_large),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
