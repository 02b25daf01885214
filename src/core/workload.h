#ifndef IORATE_CORE_WORKLOAD_H
#define IORATE_CORE_WORKLOAD_H
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

/*
 * The offset and direction of every I/O of one thread. Pure and deterministic: with the same
 * seed, region and thread index, the same sequence comes out, whatever engine runs it.
 */
struct workload_shape;

struct workload {
	uint64_t s[4];           /* xoshiro256** state */
	uint64_t base;           /* first byte of the region */
	uint64_t slots;          /* random: number of aligned start offsets; sequential: blocks */
	uint64_t align;          /* random: distance between slots; sequential: block size */
	uint64_t next;           /* sequential: next block index */
	uint64_t stride;         /* sequential: threads of the target (interleaving) */
	uint64_t write_thresh;   /* an I/O writes when the draw is below this */
	bool sequential;
	bool mixed;              /* 0 < write% < 100: draw the direction */
	bool all_write;
	/* Block-size mixes, skewed distributions, random/sequential mixes, skips: NULL for the
	 * plain uniform shape, which keeps the hot path to the lines above. */
	const struct workload_shape *shape;
	uint64_t cursor;         /* shaped, sequential: the next byte, as the region is swept */
	uint64_t end;            /* shaped: the region's end */
	double zipf_zetan, zipf_eta; /* shaped, zipf: over this worker's slots */
	uint64_t zone_start;     /* shaped, strided zones: the zone in use */
	uint64_t zone_done;      /* ... bytes moved in it */
	uint64_t seq_n[2];       /* shaped, sequence distribution: reads, writes drawn */
};

/*
 * What a job asks beyond one block size and a uniform pattern, prepared once per job and shared
 * read-only by its workers (workload_shape_new from the job; NULL when it asks nothing more).
 */
struct job;
int workload_shape_new(const struct job *j, struct workload_shape **out);
void workload_shape_free(struct workload_shape *s);
/* The largest block size the shape can draw (buffers are this long); bs when none. */
uint64_t workload_max_bs(const struct workload_shape *s, uint64_t bs);
/*
 * Gives an initialised workload the job's shape over its region of len bytes (after
 * workload_init, in the runner's thread: it fills the shape's cache of zipf sums). Random offsets then leave room for the largest
 * block; a sequential sweep starts at the thread's share of the region. 0 or -EINVAL.
 */
int workload_shape_attach(struct workload *w, struct workload_shape *s, uint64_t len,
			  unsigned thread, unsigned nthreads);

/*
 * region [base, base + len) of a target; thread `thread` of `nthreads`; bs and align bytes
 * (align 0 = bs); seed mixes with target and thread index so every thread has its own stream.
 * Returns -EINVAL when not even one block fits.
 */
int workload_init(struct workload *w, uint64_t base, uint64_t len, uint64_t bs, uint64_t align,
		  bool sequential, unsigned write_pct, uint64_t seed, unsigned target,
		  unsigned thread, unsigned nthreads);

static inline uint64_t rotl64(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t workload_rand(struct workload *w)
{
	uint64_t *s = w->s;
	uint64_t r = rotl64(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl64(s[3], 45);
	return r;
}

/* A shaped job's next I/O (workload.c): offset, direction and length. */
uint64_t workload_next_shaped(struct workload *w, bool *write, uint32_t *len);

/*
 * Next I/O: returns its offset and sets *write (and *len, for shaped jobs; others leave it).
 * No division: a multiply-high bounds the draw.
 */
static inline uint64_t workload_next(struct workload *w, bool *write, uint32_t *len)
{
	uint64_t off;

	if (__builtin_expect(w->shape != NULL, 0))
		return workload_next_shaped(w, write, len);
	if (w->mixed)
		*write = workload_rand(w) < w->write_thresh;
	else
		*write = w->all_write;
	if (w->sequential) {
		off = w->base + w->next * w->align;
		w->next += w->stride;
		if (w->next >= w->slots) /* next and stride are both below slots */
			w->next -= w->slots;
	} else {
		uint64_t slot = (uint64_t)(((unsigned __int128)workload_rand(w) * w->slots) >> 64);
		off = w->base + slot * w->align;
	}
	return off;
}

/* splitmix64: seeds xoshiro and anything else that needs a well-mixed 64-bit value. */
uint64_t splitmix64(uint64_t *state);
/* Seeds w's generator alone (workload_init does it with the job's seed, target and thread). */
void workload_seed(struct workload *w, uint64_t seed);
/* Fills len bytes (a multiple of 8) from w's generator: incompressible data. */
void workload_fill(struct workload *w, void *buf, size_t len);

#endif
