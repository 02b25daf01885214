/*
 * The --latency-target search (src/core/worker_lat.c) step by step, as fio's io_u.c steps it:
 * doubling while windows hold, bisecting after a failure, a final window once the depth stops
 * changing, failure at depth 1, and the percentile's share of I/Os.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "core/job.h"
#include "core/worker.h"

#define MS 1000000ull

static struct worker_lat lt(unsigned max, double pct)
{
	return (struct worker_lat){.target_ns = MS, .window_ns = 10 * MS, .pct = pct, .max = max,
				   .qd = 1, .low = 1, .high = max};
}

/* A window of n I/Os, bad of them over the target, judged at its end. */
static enum lat_step window(struct worker_lat *l, uint64_t *now, unsigned n, unsigned bad)
{
	enum lat_step s;

	lat_target_cycle(l, *now);
	l->done += n;
	l->failed += bad;
	assert_int_equal(lat_target_step(l, *now + 5 * MS), LAT_NONE);  /* not yet over */
	*now += 10 * MS;
	s = lat_target_step(l, *now);
	if (s == LAT_FINAL)
		l->end_run = true;
	return s;
}

static void doubles_then_bisects_then_settles(void **state)
{
	struct worker_lat l = lt(64, 100);
	uint64_t now = 0;

	/* 1, 2, 4, 8, 16 hold; 32 fails: back to (32 + 16) / 2 = 24 ... */
	for (unsigned qd = 1; qd < 32; qd *= 2) {
		assert_int_equal(l.qd, qd);
		assert_int_equal(window(&l, &now, 100, 0), LAT_UP);
	}
	assert_int_equal(l.qd, 32);
	l.down_now = true;               /* one I/O over the target at percentile 100 */
	assert_int_equal(lat_target_step(&l, now), LAT_DOWN);
	assert_int_equal(l.qd, 24);
	assert_int_equal(l.high, 32);
	/* 24 holds: bisect up to 28; 28 fails: 26; holds: 27; holds: (27 + 28) / 2 = 27 again. */
	assert_int_equal(window(&l, &now, 100, 0), LAT_UP);
	assert_int_equal(l.qd, 28);
	assert_int_equal(window(&l, &now, 100, 1), LAT_DOWN);
	assert_int_equal(l.qd, 26);
	assert_int_equal(window(&l, &now, 100, 0), LAT_UP);
	assert_int_equal(l.qd, 27);
	assert_int_equal(window(&l, &now, 100, 0), LAT_FINAL);
	assert_int_equal(l.qd, 27);
	/* The final window holds too: done, at 27. */
	assert_int_equal(window(&l, &now, 100, 0), LAT_DONE);
	assert_int_equal(l.qd, 27);
}

static void percentile_counts_a_share(void **state)
{
	struct worker_lat l = lt(8, 99);
	uint64_t now = 0;

	/* 1 of 100 over the target is 99 % within it: holds; 2 of 100 does not. */
	assert_int_equal(window(&l, &now, 100, 1), LAT_UP);
	assert_int_equal(l.qd, 2);
	assert_int_equal(window(&l, &now, 100, 2), LAT_DOWN);
	assert_int_equal(l.qd, 1);
	/* At depth 1 below 100 % a window that falls short changes nothing and fails nothing. */
	assert_int_equal(window(&l, &now, 100, 50), LAT_NONE);
	assert_int_equal(l.qd, 1);
	/* A window with no completion is not judged. */
	lat_target_cycle(&l, now);
	assert_int_equal(lat_target_step(&l, now + 20 * MS), LAT_NONE);
}

static void depth_one_fails_at_100(void **state)
{
	struct worker_lat l = lt(8, 100);

	l.down_now = true;
	assert_int_equal(lat_target_step(&l, 0), LAT_FATAL);
}

static void capped_at_max_and_run_keeps_searching(void **state)
{
	struct worker_lat l = lt(4, 100);
	uint64_t now = 0;

	assert_int_equal(window(&l, &now, 10, 0), LAT_UP);
	assert_int_equal(window(&l, &now, 10, 0), LAT_UP);
	assert_int_equal(l.qd, 4);
	assert_int_equal(window(&l, &now, 10, 0), LAT_FINAL);  /* 8 is capped to 4: settled */

	l = lt(4, 100);
	l.run = true;
	now = 0;
	for (int i = 0; i < 6; i++)
		assert_int_equal(window(&l, &now, 10, 0), LAT_UP);
	assert_int_equal(l.qd, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(doubles_then_bisects_then_settles),
		cmocka_unit_test(percentile_counts_a_share),
		cmocka_unit_test(depth_one_fails_at_100),
		cmocka_unit_test(capped_at_max_and_run_keeps_searching),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
