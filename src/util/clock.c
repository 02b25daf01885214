#include "util/clock.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct clock_cal clock_cal;

/*
 * The kernel knows best whether the TSC can be trusted across CPUs, suspends and migrations:
 * it only keeps "tsc" as its clocksource when it does. On a VM using kvm-clock (or a host
 * where the TSC was marked unstable) a calibrated TSC can drift from CLOCK_MONOTONIC or differ
 * between CPUs, so iorate stays with clock_gettime there.
 */
static bool kernel_trusts_tsc(void)
{
	char cs[32] = "";
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");

	if (!f)
		return false;
	if (!fgets(cs, sizeof(cs), f))
		cs[0] = '\0';
	fclose(f);
	return !strcmp(cs, "tsc\n");
}

static bool tsc_invariant(void)
{
	char line[4096];
	bool constant = false, nonstop = false;
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		constant = strstr(line, " constant_tsc") != NULL;
		nonstop = strstr(line, " nonstop_tsc") != NULL;
		break;
	}
	fclose(f);
	return constant && nonstop;
}

static void calibrate(void)
{
#if defined(__x86_64__)
	const char *env = getenv("IORATE_CLOCK");

	bool forced = env && !strcmp(env, "tsc");

	if ((env && !strcmp(env, "monotonic")) || (!forced && !kernel_trusts_tsc()) ||
	    !tsc_invariant())
		return;
	/* Bracket each reading of the monotonic clock by two TSC reads and keep the midpoint. */
	uint64_t a0 = __rdtsc(), n0 = clock_mono_ns(), a1 = __rdtsc();
	struct timespec pause = {0, 20 * 1000 * 1000};
	nanosleep(&pause, NULL);
	uint64_t b0 = __rdtsc(), n1 = clock_mono_ns(), b1 = __rdtsc();
	uint64_t t0 = a0 + (a1 - a0) / 2, t1 = b0 + (b1 - b0) / 2;
	if (t1 <= t0 || n1 <= n0)
		return;
	clock_cal.mult = (uint64_t)(((unsigned __int128)(n1 - n0) << 32) / (t1 - t0));
	clock_cal.tsc0 = t0;
	clock_cal.ns0 = n0;
	/* A TSC this far off CLOCK_MONOTONIC (under 100 MHz or over 10 GHz) is not one to trust. */
	if (clock_cal.mult > (10ull << 32) || clock_cal.mult < (1ull << 32) / 10)
		return;
	__atomic_store_n(&clock_cal.tsc, true, __ATOMIC_RELEASE);
#endif
}

void clock_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, calibrate);
}

const char *clock_source(void)
{
	return clock_cal.tsc ? "tsc" : "monotonic";
}
