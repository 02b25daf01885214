#include "util/clock.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct clock_cal clock_cal;
__thread struct clock_anchor clock_anchor;

/*
 * The kernel knows whether the TSC agrees across CPUs: it keeps "tsc" as its clocksource only
 * when it does. (It also flags it tsc_reliable where the platform vouches for it: some
 * hypervisors, or tsc=reliable on the command line, as on Firecracker VMs on kvm-clock.)
 */
static bool kernel_uses_tsc(void)
{
	char cs[32] = "";
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");

	if (f) {
		if (!fgets(cs, sizeof(cs), f))
			cs[0] = '\0';
		fclose(f);
	}
	return !strcmp(cs, "tsc\n");
}

/* Whether /proc/cpuinfo's flags say constant_tsc and nonstop_tsc (invariant), and tsc_reliable. */
static bool tsc_flags(bool *reliable)
{
	char line[4096];
	bool constant = false, nonstop = false;
	FILE *f = fopen("/proc/cpuinfo", "r");

	*reliable = false;
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		constant = strstr(line, " constant_tsc") != NULL;
		nonstop = strstr(line, " nonstop_tsc") != NULL;
		*reliable = strstr(line, " tsc_reliable") != NULL;
		break;
	}
	fclose(f);
	return constant && nonstop;
}

#if defined(__x86_64__)
/*
 * One pairing of the TSC with CLOCK_MONOTONIC: the midpoint of two TSC reads around the
 * clock_gettime, from the tightest of a few tries. The first clock_gettime after a sleep can
 * take microseconds (seen: 2.4 us, which put a 16 ms calibration 70 ppm off); the tightest
 * bracket is a few hundred ticks, so the pairing is good to about 50 ns.
 */
static void pair(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 4; i++) {
		uint64_t a = __rdtsc(), n = clock_mono_ns(), b = __rdtsc();
		if (b - a < best) {
			best = b - a;
			*tsc = a + (b - a) / 2;
			*ns = n;
		}
	}
}
#endif

uint64_t clock_reanchor(void)
{
#if defined(__x86_64__)
	pair(&clock_anchor.tsc, &clock_anchor.ns);
	return clock_anchor.ns + (((__rdtsc() - clock_anchor.tsc) * clock_cal.mult) >> 32);
#else
	return clock_mono_ns();
#endif
}

static void calibrate(void)
{
#if defined(__x86_64__)
	const char *env = getenv("IORATE_CLOCK");
	bool forced = env && !strcmp(env, "tsc"), reliable;

	if ((env && !strcmp(env, "monotonic")) || !tsc_flags(&reliable) ||
	    (!forced && !reliable && !kernel_uses_tsc()))
		return;
	uint64_t t0, n0, t1, n1;
	struct timespec pause = {.tv_sec = 0, .tv_nsec = 20 * 1000 * 1000};
	pair(&t0, &n0);
	nanosleep(&pause, NULL);
	pair(&t1, &n1);
	if (t1 <= t0 || n1 <= n0)
		return;
	clock_cal.mult = (uint64_t)(((unsigned __int128)(n1 - n0) << 32) / (t1 - t0));
	/* A TSC this far off CLOCK_MONOTONIC (under 100 MHz or over 10 GHz) is not one to trust. */
	if (clock_cal.mult > (10ull << 32) || clock_cal.mult < (1ull << 32) / 10)
		return;
	clock_cal.period = (t1 - t0) * 1000000ull / (n1 - n0); /* 1 ms of ticks */
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
