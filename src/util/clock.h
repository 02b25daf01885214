#ifndef IORATE_UTIL_CLOCK_H
#define IORATE_UTIL_CLOCK_H
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

/*
 * The clock every latency is taken from, in nanoseconds on the CLOCK_MONOTONIC timeline.
 *
 * Where the TSC is invariant (constant_tsc and nonstop_tsc) and synchronised across CPUs (the
 * kernel uses it as its clocksource, or marks it tsc_reliable), clock_init() measures its rate
 * against CLOCK_MONOTONIC and clock_ns() becomes rdtsc, a compare and a multiply: about 11 ns
 * against 28 ns for the vDSO clock_gettime on a kvm-clock VM. Each thread re-anchors the TSC on
 * CLOCK_MONOTONIC once a millisecond of ticks has passed (or the TSC went backwards), so times
 * stay within a few nanoseconds of CLOCK_MONOTONIC however long the run, and a VM that is
 * paused or migrated (its TSC stopped or shifted) is back on the kernel's time within 1 ms.
 * A latency that spans a re-anchor can be off by the anchor's error (a few ns, and never
 * counted below zero: see clock_since()).
 *
 * Elsewhere, or with IORATE_CLOCK=monotonic in the environment, clock_ns() is
 * clock_gettime(CLOCK_MONOTONIC). IORATE_CLOCK=tsc takes an invariant TSC even where it is not
 * known to be synchronised across CPUs.
 */
struct clock_cal {
	bool tsc;
	uint64_t mult;       /* ns per tick, times 2^32 */
	uint64_t period;     /* ticks between re-anchors (1 ms): period * mult stays below 2^64 */
};
extern struct clock_cal clock_cal;

/* One thread's pairing of a TSC reading with CLOCK_MONOTONIC. */
struct clock_anchor {
	uint64_t tsc, ns;
};
extern __thread struct clock_anchor clock_anchor;

/* Calibrates once (about 20 ms); later calls return at once. Thread-safe via pthread_once. */
void clock_init(void);
/* "tsc" or "monotonic": which source clock_ns() uses. */
const char *clock_source(void);
/* Re-anchors this thread's TSC on CLOCK_MONOTONIC; returns the time now. The slow path. */
uint64_t clock_reanchor(void);

static inline uint64_t clock_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline uint64_t clock_ns(void)
{
#if defined(__x86_64__)
	if (__builtin_expect(clock_cal.tsc, 1)) {
		uint64_t d = __rdtsc() - clock_anchor.tsc;
		if (__builtin_expect(d < clock_cal.period, 1))
			return clock_anchor.ns + ((d * clock_cal.mult) >> 32);
		return clock_reanchor();
	}
#endif
	return clock_mono_ns();
}

/* now - then, or 0 when a re-anchor in between put `now` a few ns before `then`. */
static inline uint64_t clock_since(uint64_t now, uint64_t then)
{
	return now > then ? now - then : 0;
}

/*
 * Sleeps until clock_ns() reaches t; returns early on a signal. The time remaining on clock_ns()
 * is slept on CLOCK_MONOTONIC, so that the few ns between the two clocks cannot make a sleep
 * return early and spin.
 */
static inline void clock_sleep_until(uint64_t t)
{
	uint64_t now = clock_ns();

	if (t <= now)
		return;
	t = clock_mono_ns() + (t - now);
	struct timespec ts = {.tv_sec = (time_t)(t / 1000000000ull),
			      .tv_nsec = (long)(t % 1000000000ull)};

	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

static inline uint64_t clock_realtime_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000ull + (uint64_t)ts.tv_nsec / 1000000ull;
}

#endif
