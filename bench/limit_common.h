/*
 * What the bare loops (limit.c, limit_uring.c, limit_aio.c) share: the clock they time I/Os
 * with and xoshiro256**, the generator iorate uses, so every loop draws offsets at iorate's
 * cost. Header-only and static, so each loop still builds from its one file with cc -O2.
 */
#ifndef IORATE_BENCH_LIMIT_COMMON_H
#define IORATE_BENCH_LIMIT_COMMON_H
#include <stdint.h>
#include <time.h>

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t s[4];

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t next_rand(void)
{
	uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return r;
}

/* The generator's state from a seed, by splitmix64. */
static inline void seed_rand(uint64_t sm)
{
	for (int i = 0; i < 4; i++) {
		uint64_t z = (sm += 0x9e3779b97f4a7c15ull);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		s[i] = z ^ (z >> 31);
	}
}

#endif
