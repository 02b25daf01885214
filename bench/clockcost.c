/*
 * clockcost: what one clock read costs here, the floor of timing every I/O. Prints the mean of
 * 20M back-to-back reads of the TSC (rdtsc, x86-64 only) and of clock_gettime(CLOCK_MONOTONIC),
 * in ns, best of three rounds:  {"rdtsc_ns": 11.2, "clock_gettime_ns": 28.2}
 * Built and run by bench/run.sh with cc -O2; not part of iorate.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int main(void)
{
	const int n = 20000000;
	double best_tsc = -1, best_cg = 1e9;
	volatile uint64_t sink = 0;

	for (int round = 0; round < 3; round++) {
		uint64_t t0 = now_ns(), s = 0;
#if defined(__x86_64__)
		for (int i = 0; i < n; i++)
			s += __rdtsc();
		uint64_t t1 = now_ns();
		double tsc = (double)(t1 - t0) / n;
		if (best_tsc < 0 || tsc < best_tsc)
			best_tsc = tsc;
		t0 = t1;
#endif
		for (int i = 0; i < n; i++)
			s += now_ns();
		double cg = (double)(now_ns() - t0) / n;
		if (cg < best_cg)
			best_cg = cg;
		sink += s;
	}
	if (best_tsc < 0)
		printf("{\"rdtsc_ns\": null, \"clock_gettime_ns\": %.1f}\n", best_cg);
	else
		printf("{\"rdtsc_ns\": %.1f, \"clock_gettime_ns\": %.1f}\n", best_tsc, best_cg);
	return (int)(sink & 0);
}
