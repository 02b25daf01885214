/*
 * What writes carry (src/core/wdata.c), measured as a device would see it: compressed with
 * zlib, and counted in duplicate blocks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#include "core/job.h"
#include "core/wdata.h"

#define BS 4096u
#define NBLOCKS 2048u
#define LEN ((size_t)BS * NBLOCKS)

/* Writes the job's contents for NBLOCKS writes of BS bytes, as one worker makes them. */
static unsigned char *written(const struct job *j)
{
	unsigned char *buf = malloc(LEN);
	struct wdata d;

	assert_non_null(buf);
	/* The buffers the worker starts with: random, like its own. */
	for (size_t i = 0; i < LEN; i++)
		buf[i] = (unsigned char)(rand() >> 7);
	wdata_init(&d, j, 7);
	for (unsigned b = 0; b < NBLOCKS; b++)
		wdata_write(&d, buf + (size_t)b * BS, BS, (uint64_t)b * BS);
	return buf;
}

/* Compressed size, in percent of the original. */
static unsigned compressed_pct(const unsigned char *buf, size_t len)
{
	uLongf out = compressBound(len);
	unsigned char *z = malloc(out);

	assert_non_null(z);
	assert_int_equal(compress2(z, &out, buf, len, 6), Z_OK);
	free(z);
	return (unsigned)(out * 100 / len);
}

static int cmp_block(const void *a, const void *b)
{
	return memcmp(*(const unsigned char *const *)a, *(const unsigned char *const *)b, BS);
}

/* Blocks of BS bytes that no earlier block equals. */
static unsigned distinct_blocks(const unsigned char *buf)
{
	const unsigned char **p = malloc(NBLOCKS * sizeof(*p));
	unsigned n = 1;

	assert_non_null(p);
	for (unsigned i = 0; i < NBLOCKS; i++)
		p[i] = buf + (size_t)i * BS;
	qsort(p, NBLOCKS, sizeof(*p), cmp_block);
	for (unsigned i = 1; i < NBLOCKS; i++)
		n += memcmp(p[i - 1], p[i], BS) != 0;
	free(p);
	return n;
}

static void job_with(struct job *j)
{
	job_init(j);
	j->bs = BS;
	j->size = LEN;
}

/* --compress N: random bytes, then N percent of zeros, in each 512-byte chunk. */
static void compress_share(void **state)
{
	struct job j;
	unsigned char *b;

	job_with(&j);
	j.compress_pct = 50;
	b = written(&j);
	/* Half of each chunk is zeros: zlib takes it to about half (random bytes stay). */
	unsigned pct = compressed_pct(b, LEN);
	assert_in_range(pct, 48, 56);
	for (unsigned c = 0; c < LEN / 512; c++) {
		const unsigned char *chunk = b + (size_t)c * 512;
		for (unsigned i = 256; i < 512; i++)
			assert_int_equal(chunk[i], 0);
	}
	/* New contents in every write: no two blocks alike. */
	assert_int_equal(distinct_blocks(b), NBLOCKS);
	free(b);
	j.compress_pct = 80;
	j.compress_chunk = 0;               /* the whole block: 20% random, then 80% zeros */
	b = written(&j);
	assert_in_range(compressed_pct(b, LEN), 19, 25);
	for (unsigned i = BS / 5 + 8; i < BS; i++)
		assert_int_equal(b[i], 0);
	free(b);
	j.compress_pct = 0;
	j.refill = true;                    /* incompressible */
	b = written(&j);
	assert_in_range(compressed_pct(b, LEN), 99, 101);
	free(b);
}

/* --dedupe N: N percent of blocks repeat the last new one (fio's repeat mode). */
static void dedupe_repeat(void **state)
{
	struct job j;
	unsigned char *b;

	job_with(&j);
	j.dedupe_pct = 30;
	b = written(&j);
	/* 70% new blocks, within a few standard deviations (about 21 blocks). */
	unsigned n = distinct_blocks(b);
	assert_in_range(n, NBLOCKS * 70 / 100 - 100, NBLOCKS * 70 / 100 + 100);
	/* Every block that is not new equals the one before it or an earlier repeat of it. */
	for (unsigned i = 1; i < NBLOCKS; i++) {
		const unsigned char *x = b + (size_t)i * BS;
		bool seen = false;
		for (unsigned k = i; k-- > 0 && !seen;)
			seen = !memcmp(x, b + (size_t)k * BS, BS);
		if (seen)
			assert_memory_equal(x, x - BS, BS);
	}
	free(b);
	j.dedupe_pct = 100;
	b = written(&j);
	assert_int_equal(distinct_blocks(b), 1);
	free(b);
}

/* --dedupe-set: repeats come from a working set, the first new blocks. */
static void dedupe_working_set(void **state)
{
	struct job j;
	unsigned char *b;

	job_with(&j);
	j.dedupe_pct = 50;
	j.dedupe_set_pct = 10;              /* 204 blocks */
	b = written(&j);
	unsigned n = distinct_blocks(b);
	/* About 1024 new blocks; the repeats fall among the first 204 of them. */
	assert_in_range(n, 1024 - 100, 1024 + 100);
	free(b);
	/* With compression too: the repeated blocks compress as the new ones. */
	j.compress_pct = 50;
	b = written(&j);
	assert_in_range(compressed_pct(b, LEN), 48, 56);
	free(b);
}

/* --data-pattern alone: every write is the pattern; in --compress's share otherwise. */
static void pattern_fill(void **state)
{
	struct job j;
	const char *why;
	unsigned char *b;

	job_with(&j);
	assert_int_equal(job_parse_pattern(&j, "0xdeadbeef\"ab\"", &why), 0);
	b = written(&j);
	/* Each write starts with the pattern's first byte. */
	for (size_t i = 0; i < LEN; i++)
		assert_int_equal(b[i], j.data_pattern[i % BS % 6]);
	free(b);
	j.compress_pct = 25;
	b = written(&j);
	/* Chunks of 512: 384 random bytes, then the pattern from its start. */
	assert_memory_equal(b + 384, j.data_pattern, 6);
	assert_memory_equal(b + 390, j.data_pattern, 6);
	free(b);
}

/* --scramble: the buffers stay as made, each 512 bytes stamped with the write's offset. */
static void scramble_stamps(void **state)
{
	struct job j;
	unsigned char *b, one[BS];
	struct wdata d;

	job_with(&j);
	j.scramble = true;
	memset(one, 0xab, sizeof(one));
	wdata_init(&d, &j, 1);
	wdata_write(&d, one, BS, 1 << 20);
	for (unsigned s = 0; s < BS / 512; s++) {
		uint64_t off;
		memcpy(&off, one + s * 512, 8);
		assert_int_equal(off, (1 << 20) + s * 512);
		assert_int_equal(one[s * 512 + 8], 0xab);      /* the rest is kept */
	}
	/* Writes of one buffer again and again: all different. */
	b = calloc(1, LEN);
	assert_non_null(b);
	for (unsigned i = 0; i < NBLOCKS; i++) {
		wdata_write(&d, one, BS, 0);
		memcpy(b + (size_t)i * BS, one, BS);
	}
	assert_int_equal(distinct_blocks(b), NBLOCKS);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(compress_share),
		cmocka_unit_test(dedupe_repeat),
		cmocka_unit_test(dedupe_working_set),
		cmocka_unit_test(pattern_fill),
		cmocka_unit_test(scramble_stamps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
