#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/workload.h"

#define N 100000

static void same_seed_same_offsets(void **state)
{
	struct workload a, b, c;

	assert_int_equal(workload_init(&a, 0, 1ull << 30, 4096, 0, false, 30, 42, 0, 0, 1), 0);
	assert_int_equal(workload_init(&b, 0, 1ull << 30, 4096, 0, false, 30, 42, 0, 0, 1), 0);
	assert_int_equal(workload_init(&c, 0, 1ull << 30, 4096, 0, false, 30, 43, 0, 0, 1), 0);
	unsigned differ = 0;
	for (int i = 0; i < N; i++) {
		bool wa, wb, wc;
		uint64_t oa = workload_next(&a, &wa), ob = workload_next(&b, &wb);
		uint64_t oc = workload_next(&c, &wc);
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
		same += workload_next(&a, &w) == workload_next(&b, &w);
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
		uint64_t o = workload_next(&w, &wr);
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
		assert_int_equal(workload_next(&t0, &w), want0[i] * bs);
	}
	bool w;
	assert_int_equal(workload_next(&t1, &w), 1 * bs);
	assert_int_equal(workload_next(&t1, &w), 4 * bs);
	assert_int_equal(workload_next(&t2, &w), 2 * bs);
	assert_int_equal(workload_next(&t2, &w), 5 * bs);
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
			workload_next(&w, &wr);
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
	assert_int_equal(workload_next(&w, &wr), 0);
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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
