#ifndef IORATE_CORE_WDATA_H
#define IORATE_CORE_WDATA_H
/*
 * What a job's writes carry (--compress, --dedupe, --pattern, --refill, --scramble: fio's
 * buffer_compress_percentage, dedupe_percentage, buffer_pattern, refill_buffers and
 * scramble_buffers). A worker keeps a struct wdata and makes each write's contents just before
 * it is issued. Internal to the core; the worker's hook is in src/core/worker_extra.c.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct job;

struct wdata {
	const struct job *job;
	uint64_t rng;               /* the seeds of new contents */
	uint64_t pick;              /* dedupe: which blocks repeat, and which earlier one */
	uint64_t last;              /* dedupe: the seed of the last new block */
	bool have_last;
	uint64_t set_base, nset;    /* dedupe working set: its seeds are mixes of base and index */
	uint64_t nnew;              /* new blocks so far: the first nset are the working set */
	uint64_t writes;            /* --scramble: stamps each write apart */
	uint32_t unit;              /* bytes per block that dedupe decides on */
};

/* Whether the job's writes need contents made per write (else its buffers are filled once). */
bool wdata_active(const struct job *j);
/* A worker's state: seed tells its threads and targets apart. */
void wdata_init(struct wdata *d, const struct job *j, uint64_t seed);
/* The contents of a write of len bytes at offset into buf. */
void wdata_write(struct wdata *d, void *buf, uint32_t len, uint64_t offset);
/*
 * One block's contents from its seed: each chunk of the job's --compress-chunk holds random
 * bytes, then the pattern (zeros without one) in --compress percent of it.
 */
void wdata_block(const struct job *j, uint64_t seed, unsigned char *buf, size_t len);
/* pattern (n bytes) repeated over buf. */
void wdata_repeat(const unsigned char *pattern, size_t n, unsigned char *buf, size_t len);

#endif
