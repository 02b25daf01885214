/*
 * What a job's writes carry. fio's forms, as its documentation describes them: a compressible
 * share is the pattern (zeros without one) at the end of each chunk, after random bytes; a
 * deduplicable block repeats the last new block's contents, or one of a working set of blocks;
 * a scrambled buffer keeps its random contents but has the write's offset stamped into each
 * 512 bytes, which keeps naive deduplication from folding buffers that are written again.
 */
#include "core/wdata.h"

#include <string.h>

#include "core/job.h"
#include "core/workload.h"

/* The working set shared by the jobs with --dedupe-global: every such job mixes this. */
#define GLOBAL_SET_BASE 0x9e3779b97f4a7c15ull

bool wdata_active(const struct job *j)
{
	return j->compress_pct || j->dedupe_pct || j->data_len || j->refill || j->scramble;
}

static uint64_t mix(uint64_t a, uint64_t b)
{
	uint64_t s = a ^ (b * 0xbf58476d1ce4e5b9ull);

	return splitmix64(&s);
}

void wdata_init(struct wdata *d, const struct job *j, uint64_t seed)
{
	uint64_t region = j->range ? j->range : j->size ? j->size : JOB_DEFAULT_FILE_SIZE;

	memset(d, 0, sizeof(*d));
	d->job = j;
	d->unit = (uint32_t)job_min_bs(j);
	d->rng = mix(j->seed, seed);
	d->pick = mix(d->rng, 1);
	/* A job's working set is its own, unless every job shares one; its size is a share of
	 * the region's blocks (fio's dedupe_working_set_percentage of the file). */
	d->set_base = j->dedupe_global ? GLOBAL_SET_BASE : mix(j->seed, 2);
	d->nset = region / 100 * j->dedupe_set_pct / d->unit;
	if (d->nset == 0)
		d->nset = 1;
}

void wdata_repeat(const unsigned char *pattern, size_t n, unsigned char *buf, size_t len)
{
	size_t k = n < len ? n : len;

	memcpy(buf, pattern, k);
	/* Doubling copies: a 512-byte pattern fills a 4 KiB block in three. */
	while (k < len) {
		size_t c = k < len - k ? k : len - k;
		memcpy(buf + k, buf, c);
		k += c;
	}
}

/* len random bytes from *s (a splitmix64 stream). */
static void random_bytes(uint64_t *s, unsigned char *buf, size_t len)
{
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t v = splitmix64(s);
		memcpy(buf + i, &v, 8);
	}
	if (i < len) {
		uint64_t v = splitmix64(s);
		memcpy(buf + i, &v, len - i);
	}
}

/* The compressible share of a chunk: the pattern, or zeros. */
static void fixed_bytes(const struct job *j, unsigned char *buf, size_t len)
{
	if (j->data_len)
		wdata_repeat(j->data_pattern, j->data_len, buf, len);
	else
		memset(buf, 0, len);
}

void wdata_block(const struct job *j, uint64_t seed, unsigned char *buf, size_t len)
{
	size_t chunk = j->compress_chunk && j->compress_chunk < len ? j->compress_chunk : len;
	uint64_t s = seed;

	if (!j->compress_pct && !j->dedupe_pct && j->data_len) {
		wdata_repeat(j->data_pattern, j->data_len, buf, len);
		return;
	}
	if (j->compress_pct == 100) {
		fixed_bytes(j, buf, len);
		return;
	}
	for (size_t at = 0; at < len; at += chunk) {
		size_t c = len - at < chunk ? len - at : chunk;
		size_t rnd = (size_t)((uint64_t)c * (100 - j->compress_pct) / 100);
		random_bytes(&s, buf + at, rnd);
		fixed_bytes(j, buf + at + rnd, c - rnd);
	}
}

/* The seed of the next block: a new one, or (dedupe) one that came before. */
static uint64_t next_seed(struct wdata *d)
{
	const struct job *j = d->job;

	if (j->dedupe_pct && d->have_last &&
	    (j->dedupe_pct == 100 || splitmix64(&d->pick) % 100 < j->dedupe_pct)) {
		if (!j->dedupe_set_pct)
			return d->last;
		return mix(d->set_base, splitmix64(&d->pick) % (d->nnew < d->nset ? d->nnew :
								    d->nset));
	}
	/* The working set is the first new blocks (as fio's is); then new ones are drawn. */
	d->last = j->dedupe_set_pct && d->nnew < d->nset ? mix(d->set_base, d->nnew)
							: splitmix64(&d->rng);
	d->nnew++;
	d->have_last = true;
	return d->last;
}

/* fio stamps the offset at the start of each 512 bytes and its clock at the end of them. */
static void scramble(struct wdata *d, unsigned char *buf, uint32_t len, uint64_t offset)
{
	uint64_t n = ++d->writes;

	for (uint32_t at = 0; at + 16 <= len; at += 512) {
		uint64_t o = offset + at;
		memcpy(buf + at, &o, 8);
		if (at + 512 <= len)
			memcpy(buf + at + 504, &n, 8);
	}
}

void wdata_write(struct wdata *d, void *buf, uint32_t len, uint64_t offset)
{
	const struct job *j = d->job;
	unsigned char *p = buf;

	if (!j->refill && !j->compress_pct && !j->dedupe_pct) {
		/* The random contents the buffers were made with, or the pattern (rewritten, as a
		 * scrambled write changed it); stamped when asked. */
		if (j->data_len)
			wdata_repeat(j->data_pattern, j->data_len, p, len);
		if (j->scramble)
			scramble(d, p, len, offset);
		return;
	}
	for (uint32_t at = 0; at < len; at += d->unit) {
		uint32_t c = len - at < d->unit ? len - at : d->unit;
		wdata_block(j, next_seed(d), p + at, c);
	}
}
