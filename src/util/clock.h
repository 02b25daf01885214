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
 * Where the kernel itself uses the TSC as its clocksource and the TSC is invariant
 * (constant_tsc and nonstop_tsc), clock_init() calibrates it against CLOCK_MONOTONIC and
 * clock_ns() becomes rdtsc plus a multiply (about 11 ns against 28 ns for the vDSO call).
 * Elsewhere (VMs on kvm-clock), or with IORATE_CLOCK=monotonic in the environment, clock_ns()
 * is clock_gettime(CLOCK_MONOTONIC). IORATE_CLOCK=tsc uses an invariant TSC even where the
 * kernel does not: faster, but durations can be off by the TSC's drift (0.1% seen on a VM).
 */
struct clock_cal {
	bool tsc;
	uint64_t tsc0, ns0;
	uint64_t mult;       /* ns per tick, times 2^32 */
};
extern struct clock_cal clock_cal;

/* Calibrates once (about 20 ms); later calls return at once. Thread-safe via pthread_once. */
void clock_init(void);
/* "tsc" or "monotonic": which source clock_ns() uses. */
const char *clock_source(void);

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
		uint64_t d = __rdtsc() - clock_cal.tsc0;
		return clock_cal.ns0 + (uint64_t)(((unsigned __int128)d * clock_cal.mult) >> 32);
	}
#endif
	return clock_mono_ns();
}

/*
 * Sleeps until clock_ns() reaches t; returns early on a signal. The calibrated TSC and
 * CLOCK_MONOTONIC drift apart by the calibration error (0.1% was measured on a VM: 1 ms per
 * second since clock_init()), so t cannot be handed to clock_nanosleep as it is: an absolute
 * sleep would overshoot, or return early and spin, by that much. The remaining time is slept.
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
