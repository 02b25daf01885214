/*
 * What the bare loops (limit.c, limit_uring.c, limit_aio.c) share: the clock they time I/Os
 * with, xoshiro256** (the generator iorate uses, so every loop draws offsets at iorate's cost)
 * and their command line. Header-only and static, so each loop builds from its one file.
 */
#ifndef IORATE_BENCH_LIMIT_COMMON_H
#define IORATE_BENCH_LIMIT_COMMON_H
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
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

/* The command line every loop reads; which of -q, -s and --buffered it takes is its own. */
#define LOOP_Q 1        /* -q DEPTH */
#define LOOP_S 2        /* -s N: submit every N I/Os */
#define LOOP_BUFFERED 4 /* --buffered: through the page cache */
struct loop_args {
	double secs;
	uint64_t bs, size;
	unsigned depth, every;
	int json, direct, fd;
	const char *path;
};

/*
 * Reads -d SECONDS, -b BYTES, --json, PATH and the options `takes` allows, then opens PATH
 * (O_DIRECT unless --buffered) and finds its size. 0, or the exit status after saying why:
 * 2 with usage on bad usage, 1 when PATH cannot be read or holds less than one block.
 */
static inline int loop_args(int argc, char **argv, const char *name, const char *usage,
			    unsigned takes, struct loop_args *a)
{
	struct stat st;

	*a = (struct loop_args){.secs = 5, .bs = 4096, .depth = 1, .direct = 1};
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-d") && i + 1 < argc)
			a->secs = atof(argv[++i]);
		else if (!strcmp(argv[i], "-b") && i + 1 < argc)
			a->bs = strtoull(argv[++i], NULL, 0);
		else if ((takes & LOOP_Q) && !strcmp(argv[i], "-q") && i + 1 < argc)
			a->depth = (unsigned)strtoul(argv[++i], NULL, 0);
		else if ((takes & LOOP_S) && !strcmp(argv[i], "-s") && i + 1 < argc)
			a->every = (unsigned)strtoul(argv[++i], NULL, 0);
		else if ((takes & LOOP_BUFFERED) && !strcmp(argv[i], "--buffered"))
			a->direct = 0;
		else if (!strcmp(argv[i], "--json"))
			a->json = 1;
		else if (argv[i][0] != '-' && !a->path)
			a->path = argv[i];
		else {
			a->path = NULL; /* an unknown option or a second path: usage */
			break;
		}
	}
	if (!a->path || a->secs <= 0 || a->bs == 0 || a->bs % 512 || a->depth == 0 ||
	    a->depth > 4096) {
		fprintf(stderr, "usage: %s %s\n", name, usage);
		return 2;
	}
	if ((a->fd = open(a->path, O_RDONLY | (a->direct ? O_DIRECT : 0))) < 0 ||
	    fstat(a->fd, &st) < 0) {
		fprintf(stderr, "%s: %s: %s\n", name, a->path, strerror(errno));
		return 1;
	}
	if (!S_ISBLK(st.st_mode))
		a->size = (uint64_t)st.st_size;
	else if (ioctl(a->fd, BLKGETSIZE64, &a->size) < 0)
		a->size = 0;
	if (a->size < a->bs) {
		fprintf(stderr, "%s: %s: smaller than one block\n", name, a->path);
		return 1;
	}
	return 0;
}

#endif
