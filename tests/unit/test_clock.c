#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "util/clock.h"

static int setup_tsc(void **state)
{
	(void)state;
	setenv("IORATE_CLOCK", "tsc", 1);
	clock_init();
	return 0;
}

/* Reads clock_ns() until `ns` of CLOCK_MONOTONIC have passed. */
static void read_for(uint64_t ns)
{
	uint64_t end = clock_mono_ns() + ns;

	while (clock_mono_ns() < end)
		clock_ns();
}

/* Whether a clock_ns() reading falls between two CLOCK_MONOTONIC reads, give or take 2 us. */
static bool bracketed(void)
{
	uint64_t a = clock_mono_ns(), t = clock_ns(), b = clock_mono_ns();

	return t + 2000 >= a && t <= b + 2000;
}

/* Successive readings on one thread go back by no more than a re-anchor's error (5 ms of reads). */
static void steps_back_at_most_the_anchor_error(void **state)
{
	(void)state;
	if (!clock_cal.tsc)
		skip();
	uint64_t end = clock_mono_ns() + 5000000, prev = clock_ns(), back = 0, n = 0;

	while (clock_mono_ns() < end) {
		uint64_t t = clock_ns();
		if (t < prev)
			back = back > prev - t ? back : prev - t;
		prev = t;
		n++;
	}
	assert_true(n > 1000);
	/* A re-anchor may step back by the pairing's error: tens of ns, never microseconds. */
	assert_true(back < 1000);
}

/* The calibrated TSC stays on CLOCK_MONOTONIC: a reading is bracketed by two kernel reads. */
static void agrees_with_monotonic(void **state)
{
	(void)state;
	if (!clock_cal.tsc)
		skip();
	for (int i = 0; i < 1000; i++)
		assert_true(bracketed());
}

/*
 * A VM paused for a second (its TSC stopped while the kernel's clock went on) looks to the
 * thread like an anchor a second behind; a migrated one like an anchor whose TSC is in the
 * future. Either way clock_ns() is back on CLOCK_MONOTONIC within a millisecond of reads.
 */
static void recovers_from_a_jump(void **state)
{
	(void)state;
	if (!clock_cal.tsc)
		skip();
	clock_ns();
	clock_anchor.ns -= 1000000000ull;
	assert_false(bracketed());
	read_for(2000000);
	assert_true(bracketed());

	clock_anchor.tsc += 1ull << 40; /* the TSC went backwards, as seen by this thread */
	assert_true(bracketed());
}

static void clock_since_never_negative(void **state)
{
	(void)state;
	assert_int_equal(clock_since(100, 40), 60);
	assert_int_equal(clock_since(40, 100), 0);
	assert_int_equal(clock_since(7, 7), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(steps_back_at_most_the_anchor_error),
		cmocka_unit_test(agrees_with_monotonic),
		cmocka_unit_test(recovers_from_a_jump),
		cmocka_unit_test(clock_since_never_negative),
	};

	return cmocka_run_group_tests(tests, setup_tsc, NULL);
}
