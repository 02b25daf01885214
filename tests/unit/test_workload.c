#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/job.h"
#include "core/workload.h"

#define N 100000

/* The length workload_next() gives shaped jobs (plain ones leave it). */
static uint32_t io_len;

static void same_seed_same_offsets(void **state)
{
	struct workload a, b, c;

	assert_int_equal(workload_init(&a, 0, 1ull << 30, 4096, 0, false, 30, 42, 0, 0, 1), 0);
	assert_int_equal(workload_init(&b, 0, 1ull << 30, 4096, 0, false, 30, 42, 0, 0, 1), 0);
	assert_int_equal(workload_init(&c, 0, 1ull << 30, 4096, 0, false, 30, 43, 0, 0, 1), 0);
	unsigned differ = 0;
	for (int i = 0; i < N; i++) {
		bool wa, wb, wc;
		uint64_t oa = workload_next(&a, &wa, &io_len), ob = workload_next(&b, &wb, &io_len);
		uint64_t oc = workload_next(&c, &wc, &io_len);
		assert_int_equal(oa, ob);
		assert_int_equal(wa, wb);
		differ += oa != oc;
	}
	/* Another seed is another stream (a collision now and then is fine). */
	assert_true(differ > N - 100);
}

static void threads_have_own_streams(void **state)
{
	struct workload a, b;
	unsigned same = 0;

	workload_init(&a, 0, 1ull << 30, 4096, 0, false, 0, 7, 0, 0, 2);
	workload_init(&b, 0, 1ull << 30, 4096, 0, false, 0, 7, 0, 1, 2);
	for (int i = 0; i < 1000; i++) {
		bool w;
		same += workload_next(&a, &w, &io_len) == workload_next(&b, &w, &io_len);
	}
	assert_true(same < 5);
}

static void random_offsets_in_region_and_aligned(void **state)
{
	struct workload w;
	const uint64_t base = 1 << 20, len = 10 << 20, bs = 8192, align = 4096;
	uint64_t lo = UINT64_MAX, hi = 0;

	assert_int_equal(workload_init(&w, base, len, bs, align, false, 0, 1, 0, 0, 1), 0);
	for (int i = 0; i < N; i++) {
		bool wr;
		uint64_t o = workload_next(&w, &wr, &io_len);
		assert_int_equal(o % align, 0);
		assert_true(o >= base);
		assert_true(o + bs <= base + len);
		assert_false(wr);
		lo = o < lo ? o : lo;
		hi = o > hi ? o : hi;
	}
	/* With 2,559 slots and 100,000 draws, both ends are reached. */
	assert_int_equal(lo, base);
	assert_int_equal(hi, base + len - bs);
}

static void sequential_threads_interleave(void **state)
{
	struct workload t0, t1, t2;
	const uint64_t bs = 4096, len = 10 * bs;

	workload_init(&t0, 0, len, bs, 0, true, 0, 1, 0, 0, 3);
	workload_init(&t1, 0, len, bs, 0, true, 0, 1, 0, 1, 3);
	workload_init(&t2, 0, len, bs, 0, true, 0, 1, 0, 2, 3);
	/* Thread k takes blocks k, k+3, k+6, ... wrapping within the 10 blocks. */
	static const uint64_t want0[] = {0, 3, 6, 9, 2, 5, 8, 1, 4, 7, 0};
	for (size_t i = 0; i < sizeof(want0) / sizeof(want0[0]); i++) {
		bool w;
		assert_int_equal(workload_next(&t0, &w, &io_len), want0[i] * bs);
	}
	bool w;
	assert_int_equal(workload_next(&t1, &w, &io_len), 1 * bs);
	assert_int_equal(workload_next(&t1, &w, &io_len), 4 * bs);
	assert_int_equal(workload_next(&t2, &w, &io_len), 2 * bs);
	assert_int_equal(workload_next(&t2, &w, &io_len), 5 * bs);
}

static void write_share(void **state)
{
	static const unsigned pcts[] = {0, 1, 30, 50, 70, 99, 100};

	for (size_t p = 0; p < sizeof(pcts) / sizeof(pcts[0]); p++) {
		struct workload w;
		unsigned writes = 0;
		workload_init(&w, 0, 1 << 20, 4096, 0, false, pcts[p], 3, 0, 0, 1);
		for (int i = 0; i < N; i++) {
			bool wr;
			workload_next(&w, &wr, &io_len);
			writes += wr;
		}
		double share = 100.0 * writes / N;
		/* Binomial: 4 standard deviations of 100,000 draws is under 0.7 points. */
		assert_true(share > pcts[p] - 0.7 && share < pcts[p] + 0.7);
		if (pcts[p] == 0)
			assert_int_equal(writes, 0);
		if (pcts[p] == 100)
			assert_int_equal(writes, N);
	}
}

static void too_small_region(void **state)
{
	struct workload w;

	assert_int_equal(workload_init(&w, 0, 4095, 4096, 0, false, 0, 1, 0, 0, 1), -22);
	assert_int_equal(workload_init(&w, 0, 4096, 4096, 0, false, 0, 1, 0, 0, 1), 0);
	bool wr;
	assert_int_equal(workload_next(&w, &wr, &io_len), 0);
}

/* A workload over [0, region) of a job's shape, thread 0 of 1. */
static void shaped(struct workload *w, struct workload_shape **s, const struct job *j,
		   uint64_t region)
{
	assert_int_equal(workload_init(w, 0, region, j->bs, j->align,
				       j->pattern == PATTERN_SEQUENTIAL, j->write_pct, 7, 0, 0, 1), 0);
	assert_int_equal(workload_shape_new(j, s), 0);
	assert_non_null(*s);
	assert_int_equal(workload_shape_attach(w, *s, region, 0, 1), 0);
}

static void plain_job_has_no_shape(void **state)
{
	struct job j;
	struct workload_shape *s = (void *)1;

	job_init(&j);
	assert_int_equal(workload_shape_new(&j, &s), 0);
	assert_null(s);
	assert_int_equal(workload_max_bs(NULL, 4096), 4096);
	job_release(&j);
}

/* bssplit: each size at its share, offsets aligned to the smallest and inside the region. */
static void block_size_mix(void **state)
{
	struct job j;
	struct workload w;
	struct workload_shape *s;
	unsigned n4k = 0, n64k = 0, nw = 0;
	const uint64_t region = 64ull << 20;

	job_init(&j);
	j.write_pct = 50;
	j.bs_read[0] = (struct job_bs){4096, 25};
	j.bs_read[1] = (struct job_bs){65536, 75};
	j.nbs_read = 2;
	j.bs_write[0] = (struct job_bs){8192, 100};
	j.nbs_write = 1;
	shaped(&w, &s, &j, region);
	assert_int_equal(workload_max_bs(s, j.bs), 65536);
	for (int i = 0; i < N; i++) {
		bool wr;
		uint64_t off = workload_next(&w, &wr, &io_len);
		assert_true(off + io_len <= region);
		assert_int_equal(off % 4096, 0);
		if (wr) {
			assert_int_equal(io_len, 8192);
			nw++;
			continue;
		}
		n4k += io_len == 4096;
		n64k += io_len == 65536;
	}
	/* Every read is one of the two sizes; the split within 4 standard deviations. */
	assert_int_equal(n4k + n64k + nw, N);
	double share = 100.0 * n4k / (n4k + n64k);
	assert_true(share > 25 - 1.3 && share < 25 + 1.3);
	workload_shape_free(s);
	job_release(&j);
}

static int hotter_first(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* How many of the draws fall on the hottest `top` share of the slots. */
static double top_share(const struct job *j, uint64_t slots, double top)
{
	struct workload w;
	struct workload_shape *s;
	uint32_t *hits = calloc(slots, sizeof(*hits));
	const unsigned draws = 400000;

	assert_non_null(hits);
	shaped(&w, &s, j, slots * j->bs);
	for (unsigned i = 0; i < draws; i++) {
		bool wr;
		uint64_t off = workload_next(&w, &wr, &io_len);
		assert_int_equal(off % j->bs, 0);
		assert_true(off / j->bs < slots);
		hits[off / j->bs]++;
	}
	qsort(hits, slots, sizeof(*hits), hotter_first);
	uint64_t sum = 0;
	for (uint64_t i = 0; i < (uint64_t)(top * (double)slots); i++)
		sum += hits[i];
	free(hits);
	workload_shape_free(s);
	return 100.0 * (double)sum / draws;
}

/* pareto h: a share h of the slots draws 1 - h of the I/Os (h = 0.2: the 80/20 rule). */
static void pareto_80_20(void **state)
{
	struct job j;

	job_init(&j);
	j.dist = DIST_PARETO;
	j.dist_param = 0.2;
	double share = top_share(&j, 10000, 0.2);
	assert_true(share > 79 && share < 81.5);
	job_release(&j);
}

/* zipf theta: the hottest k of n slots draw H(k, theta) / H(n, theta) of the I/Os. */
static void zipf_follows_its_law(void **state)
{
	struct job j;
	const uint64_t n = 10000, k = 100;
	double hk = 0, hn = 0;

	job_init(&j);
	j.dist = DIST_ZIPF;
	j.dist_param = 1.2;
	for (uint64_t i = 1; i <= n; i++) {
		hn += pow((double)i, -1.2);
		hk += i <= k ? pow((double)i, -1.2) : 0;
	}
	double want = 100 * hk / hn, got = top_share(&j, n, (double)k / n);
	/* Gray's method approximates the ranks past the first two: within 2 points here. */
	assert_true(fabs(got - want) < 2);
	/* And a skew that matters: a hundredth of the slots, over half of the I/Os. */
	assert_true(got > 50);
	job_release(&j);
}

/* normal: sigma percent of the region; within one sigma of the middle, 68.3% of the I/Os. */
static void normal_around_the_middle(void **state)
{
	struct job j;
	struct workload w;
	struct workload_shape *s;
	const uint64_t slots = 100000;
	unsigned in = 0;

	job_init(&j);
	j.dist = DIST_NORMAL;
	j.dist_param = 10;
	shaped(&w, &s, &j, slots * j.bs);
	for (int i = 0; i < N; i++) {
		bool wr;
		uint64_t slot = workload_next(&w, &wr, &io_len) / j.bs;
		in += slot >= slots * 4 / 10 && slot < slots * 6 / 10;
	}
	double share = 100.0 * in / N;
	assert_true(share > 68.27 - 0.6 && share < 68.27 + 0.6);
	workload_shape_free(s);
	job_release(&j);
}

/* zoned: 60% of the I/Os in the first 10% of the region, 40% in the rest. */
static void zoned_shares(void **state)
{
	struct job j;
	struct workload w;
	struct workload_shape *s;
	const uint64_t region = 100ull << 20;
	unsigned first = 0;

	job_init(&j);
	j.dist = DIST_ZONED;
	j.zones[0] = (struct job_zone){60, 10};
	j.zones[1] = (struct job_zone){40, 90};
	j.nzones = 2;
	shaped(&w, &s, &j, region);
	for (int i = 0; i < N; i++) {
		bool wr;
		uint64_t off = workload_next(&w, &wr, &io_len);
		assert_true(off + io_len <= region);
		first += off < region / 10;
	}
	double share = 100.0 * first / N;
	assert_true(share > 60 - 0.7 && share < 60 + 0.7);
	workload_shape_free(s);
	job_release(&j);
}

/* DiskSpd -rs30: 30% random, the rest continue from the previous I/O. */
static void random_sequential_mix(void **state)
{
	struct job j;
	struct workload w;
	struct workload_shape *s;
	uint64_t next = UINT64_MAX;
	unsigned follows = 0;

	job_init(&j);
	j.random_pct = 30;
	shaped(&w, &s, &j, 1ull << 30);
	for (int i = 0; i < N; i++) {
		bool wr;
		uint64_t off = workload_next(&w, &wr, &io_len);
		follows += off == next;
		next = off + io_len;
	}
	/* A random draw lands on the next block about once in 2^18 draws: 70% within 0.7. */
	double share = 100.0 * follows / N;
	assert_true(share > 70 - 0.7 && share < 70 + 0.7);
	workload_shape_free(s);
	job_release(&j);
}

/* fio rw=read:12k: after each 4 KiB read, 12 KiB skipped; at the end, round again. */
static void sequential_with_skips(void **state)
{
	struct job j;
	struct workload w;
	struct workload_shape *s;

	job_init(&j);
	j.pattern = PATTERN_SEQUENTIAL;
	j.skip = 12288;
	shaped(&w, &s, &j, 40960);
	const uint64_t want[] = {0, 16384, 32768, 0, 16384};
	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		bool wr;
		assert_int_equal(workload_next(&w, &wr, &io_len), want[i]);
		assert_int_equal(io_len, 4096);
	}
	workload_shape_free(s);
	job_release(&j);
}

/* The offsets of n I/Os, in blocks of 4 KiB, against want. */
static void expect_blocks(struct workload *w, const unsigned *want, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		bool wr;
		assert_int_equal(workload_next(w, &wr, &io_len) / 4096, want[i]);
	}
}

/*
 * fio rw=read:-8k on 64 KiB: the first block, then from 8 KiB before the end down to the start,
 * and again (the offsets fio 3.33's write_iolog shows); -12k steps two blocks back.
 */
static void sequential_backwards(void **state)
{
	struct job j;
	struct workload w;
	struct workload_shape *s;

	job_init(&j);
	j.pattern = PATTERN_SEQUENTIAL;
	j.rewind = 8192;
	shaped(&w, &s, &j, 65536);
	const unsigned back8[] = {0, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 14, 13};
	expect_blocks(&w, back8, sizeof(back8) / sizeof(back8[0]));
	workload_shape_free(s);
	j.rewind = 12288;
	shaped(&w, &s, &j, 65536);
	const unsigned back12[] = {0, 13, 11, 9, 7, 5, 3, 1, 13, 11};
	expect_blocks(&w, back12, sizeof(back12) / sizeof(back12[0]));
	workload_shape_free(s);
	job_release(&j);
}

/*
 * fio's zonemode=strided on 1 MiB of 4 KiB blocks, as its write_iolog shows: zonesize=16k and
 * zoneskip=32k read 4 blocks every 12; with zonerange=8k a zone of 2 blocks is read twice; at
 * the end the zones start again from the region's start.
 */
static void strided_zones(void **state)
{
	struct job j;
	struct workload w;
	struct workload_shape *s;

	job_init(&j);
	j.pattern = PATTERN_SEQUENTIAL;
	j.zone_size = 16384;
	j.zone_skip = 32768;
	shaped(&w, &s, &j, 1 << 20);
	const unsigned seq[] = {0, 1, 2, 3, 12, 13, 14, 15, 24, 25};
	expect_blocks(&w, seq, sizeof(seq) / sizeof(seq[0]));
	for (unsigned i = 10; i < 84; i++) {
		bool wr;
		workload_next(&w, &wr, &io_len);
	}
	const unsigned wrap[] = {252, 253, 254, 255, 0, 1};
	expect_blocks(&w, wrap, sizeof(wrap) / sizeof(wrap[0]));
	workload_shape_free(s);
	j.zone_range = 8192;
	shaped(&w, &s, &j, 1 << 20);
	const unsigned twice[] = {0, 1, 0, 1, 10, 11, 10, 11, 20};
	expect_blocks(&w, twice, sizeof(twice) / sizeof(twice[0]));
	workload_shape_free(s);
	/* Random: zonesize=8k, zonerange=16k: two I/Os in each zone of 4 blocks, 12 apart. */
	j.pattern = PATTERN_RANDOM;
	j.zone_size = 8192;
	j.zone_range = 16384;
	shaped(&w, &s, &j, 1 << 20);
	for (unsigned i = 0; i < 200; i++) {
		bool wr;
		uint64_t b = workload_next(&w, &wr, &io_len) / 4096, zone = i / 2 % 22 * 12;
		assert_true(b >= zone && b < zone + 4);
	}
	workload_shape_free(s);
	job_release(&j);
}

/* The largest block must fit: a region smaller than it is refused. */
static void region_smaller_than_largest_block(void **state)
{
	struct job j;
	struct workload w;
	struct workload_shape *s;

	job_init(&j);
	j.bs_read[0] = (struct job_bs){4096, 50};
	j.bs_read[1] = (struct job_bs){1 << 20, 50};
	j.nbs_read = 2;
	assert_int_equal(workload_init(&w, 0, 65536, 4096, 0, false, 0, 1, 0, 0, 1), 0);
	assert_int_equal(workload_shape_new(&j, &s), 0);
	assert_int_equal(workload_shape_attach(&w, s, 65536, 0, 1), -EINVAL);
	workload_shape_free(s);
	job_release(&j);
}

/* zoned_abs: a zone of 1 MiB from the start draws 75%, the rest of the region (size 0) 25%. */
static void zoned_in_bytes(void **state)
{
	struct job j;
	struct workload w;
	struct workload_shape *s;
	const uint64_t region = 16ull << 20;
	unsigned first = 0;

	job_init(&j);
	j.dist = DIST_ZONED_ABS;
	j.zones[0] = (struct job_zone){.access_pct = 75, .size_bytes = 1 << 20};
	j.zones[1] = (struct job_zone){.access_pct = 25, .size_bytes = 0};
	j.nzones = 2;
	shaped(&w, &s, &j, region);
	for (int i = 0; i < N; i++) {
		bool wr;
		uint64_t off = workload_next(&w, &wr, &io_len);
		assert_true(off + io_len <= region);
		first += off < (1 << 20);
	}
	double share = 100.0 * first / N;
	assert_true(share > 75 - 0.6 && share < 75 + 0.6);
	workload_shape_free(s);
	job_release(&j);
}

/* --seq-threads each: every thread sweeps the region, thread k from k x stride, wrapping. */
static void threads_sweep_each(void **state)
{
	struct job j;
	struct workload w;
	struct workload_shape *s;
	const uint64_t region = 8 * 4096;

	job_init(&j);
	j.pattern = PATTERN_SEQUENTIAL;
	j.seq_per_thread = true;
	j.thread_stride = 3 * 4096;
	assert_int_equal(workload_shape_new(&j, &s), 0);
	for (unsigned t = 0; t < 3; t++) {
		assert_int_equal(workload_init(&w, 0, region, 4096, 0, true, 0, 1, 0, t, 3), 0);
		assert_int_equal(workload_shape_attach(&w, s, region, t, 3), 0);
		for (unsigned i = 0; i < 10; i++) {
			bool wr;
			uint64_t want = (t * 3 + i) % 8 * 4096;
			assert_int_equal(workload_next(&w, &wr, &io_len), want);
		}
	}
	workload_shape_free(s);
	job_release(&j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_seed_same_offsets),
		cmocka_unit_test(threads_have_own_streams),
		cmocka_unit_test(random_offsets_in_region_and_aligned),
		cmocka_unit_test(sequential_threads_interleave),
		cmocka_unit_test(write_share),
		cmocka_unit_test(too_small_region),
		cmocka_unit_test(plain_job_has_no_shape),
		cmocka_unit_test(block_size_mix),
		cmocka_unit_test(pareto_80_20),
		cmocka_unit_test(zipf_follows_its_law),
		cmocka_unit_test(normal_around_the_middle),
		cmocka_unit_test(zoned_shares),
		cmocka_unit_test(random_sequential_mix),
		cmocka_unit_test(sequential_with_skips),
		cmocka_unit_test(sequential_backwards),
		cmocka_unit_test(strided_zones),
		cmocka_unit_test(region_smaller_than_largest_block),
		cmocka_unit_test(zoned_in_bytes),
		cmocka_unit_test(threads_sweep_each),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
