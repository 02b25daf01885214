#ifndef IORATE_UTIL_CLOCK_H
#define IORATE_UTIL_CLOCK_H
#include <stdint.h>
#include <time.h>

/*
 * The clock every latency is taken from: CLOCK_MONOTONIC through the vDSO (about 20 ns, no
 * system call), in nanoseconds. One function so that a cheaper source can replace it in one place.
 */
static inline uint64_t clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Sleeps until the CLOCK_MONOTONIC time t (ns); returns early on a signal. */
static inline void clock_sleep_until(uint64_t t)
{
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
