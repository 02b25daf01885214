/* Verified blocks: what verify_make() writes, verify_check() takes apart, for every fault. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/verify.h"
#include "core/verify_scan.h"

#define BLOCK 4096

static const struct verify_id id = {.seed = 1234567, .offset = 5 * BLOCK, .gen = 7, .target = 2,
				    .thread = 1, .block = BLOCK};

static enum verify_why check(const void *b, uint32_t gen)
{
	struct verify_id want = id, found;

	want.gen = gen;
	return verify_check(b, BLOCK, &want, &found);
}

/* Every checksum: an intact block checks out and says who it is. */
static void intact_blocks(void **state)
{
	static unsigned char b[BLOCK];
	struct verify_id found;

	for (enum verify_sum s = VERIFY_CRC32C; s <= VERIFY_SHA256; s++) {
		verify_make(b, &id, s);
		assert_int_equal(check(b, 7), VERIFY_OK);
		assert_int_equal(verify_check(b, BLOCK, &id, &found), VERIFY_OK);
		assert_int_equal(found.offset, id.offset);
		assert_int_equal(found.gen, 7);
		assert_int_equal(found.thread, 1);
		assert_int_equal(found.seed, id.seed);
		assert_int_equal(b[VERIFY_AT_KIND], s);
	}
}

/* Each fault a device can hide is told apart. */
static void faults(void **state)
{
	static unsigned char b[BLOCK], older[BLOCK];
	struct verify_id other = id;

	verify_make(b, &id, VERIFY_CRC32C);
	/* One bit anywhere after the magic: the checksum. */
	for (unsigned at = 8; at < BLOCK; at += 509) {
		b[at] ^= 1;
		assert_int_equal(check(b, 7), VERIFY_SUM);
		b[at] ^= 1;
	}
	assert_int_equal(check(b, 7), VERIFY_OK);
	/* A torn write: the new first sector over the older write's rest. */
	other.gen = 3;
	verify_make(older, &other, VERIFY_CRC32C);
	assert_int_equal(check(older, 7), VERIFY_STALE);
	memcpy(older, b, 512);
	assert_int_equal(check(older, 7), VERIFY_SUM);
	/* Newer than iorate knows, another offset, another target, another run. */
	assert_int_equal(check(b, 6), VERIFY_NEWER);
	other = id;
	other.offset += BLOCK;
	verify_make(older, &other, VERIFY_MD5);
	assert_int_equal(check(older, 7), VERIFY_OFFSET);
	other = id;
	other.target = 3;
	verify_make(older, &other, VERIFY_SHA256);
	assert_int_equal(check(older, 7), VERIFY_TARGET);
	other = id;
	other.seed = 99;
	verify_make(older, &other, VERIFY_CRC32C);
	assert_int_equal(check(older, 7), VERIFY_RUN);
	/* No header at all; a header of another block size. */
	memset(older, 0, BLOCK);
	assert_int_equal(check(older, 7), VERIFY_UNWRITTEN);
	other = id;
	other.block = 512;
	verify_make(older, &other, VERIFY_CRC32C);
	assert_int_equal(check(older, 7), VERIFY_SIZE);
}

/* Two writes of one block differ everywhere after the header (a torn write shows anywhere). */
static void generations_differ(void **state)
{
	static unsigned char a[BLOCK], b[BLOCK];
	struct verify_id next = id;
	unsigned same = 0;

	next.gen = 8;
	verify_make(a, &id, VERIFY_CRC32C);
	verify_make(b, &next, VERIFY_CRC32C);
	for (unsigned i = VERIFY_HEADER; i < BLOCK; i += 8)
		same += !memcmp(a + i, b + i, 8);
	assert_int_equal(same, 0);
}

static void names(void **state)
{
	enum verify_sum s;
	enum verify_why w;

	for (unsigned i = VERIFY_CRC32C; i <= VERIFY_SHA256; i++) {
		assert_int_equal(verify_sum_parse(verify_sum_name(i), &s), 0);
		assert_int_equal(s, i);
	}
	assert_int_equal(verify_sum_parse("crc32", &s), -EINVAL);
	for (unsigned i = VERIFY_OK; i <= VERIFY_NEWER; i++) {
		assert_int_equal(verify_why_parse(verify_why_name(i), &w), 0);
		assert_int_equal(w, i);
	}
}

/* The kept bad blocks grow without bound on the count, up to VERIFY_KEEP kept, sorted. */
static void result_keeps_the_first(void **state)
{
	struct verify_result v = {0};

	for (unsigned i = 0; i < VERIFY_KEEP + 100; i++) {
		struct verify_bad b = {.target = i % 2, .offset = (uint64_t)(VERIFY_KEEP - i) * 512};
		verify_result_add(&v, &b);
	}
	assert_int_equal(v.bad, VERIFY_KEEP + 100);
	assert_int_equal(v.nbads, VERIFY_KEEP);
	verify_result_sort(&v);
	for (unsigned i = 1; i < v.nbads; i++)
		assert_true(v.bads[i - 1].target < v.bads[i].target ||
			    (v.bads[i - 1].target == v.bads[i].target &&
			     v.bads[i - 1].offset < v.bads[i].offset));
	verify_result_release(&v);
}

/* A target after the fact: the layout found from the first header, each fault counted once. */
static void scan_finds_the_faults(void **state)
{
	const unsigned n = 64;
	unsigned char *img = calloc(n, BLOCK);
	struct verify_id b = id;
	struct verify_scan s = {0};
	int fd = memfd_create("verify", 0);

	assert_non_null(img);
	assert_true(fd >= 0);
	/* Blocks 2..61 written by the run; 0, 1, 62, 63 never. */
	for (unsigned i = 2; i < n - 2; i++) {
		b.offset = (uint64_t)i * BLOCK;
		b.gen = i;
		verify_make(img + (size_t)i * BLOCK, &b, VERIFY_CRC32C);
	}
	img[10 * BLOCK + 1000] ^= 4;                                   /* corrupted */
	memset(img + 20 * BLOCK + 1024, 0, 512);                       /* torn */
	memcpy(img + 30 * BLOCK, img + 31 * BLOCK, BLOCK);             /* misdirected */
	b.seed = 77;
	b.offset = 40 * BLOCK;
	verify_make(img + 40 * BLOCK, &b, VERIFY_CRC32C);              /* another run's */
	assert_int_equal(write(fd, img, (size_t)n * BLOCK), (ssize_t)n * BLOCK);
	assert_int_equal(verify_scan_fd(fd, 0, (uint64_t)n * BLOCK, &s, NULL, NULL, NULL), 0);
	assert_int_equal(s.block, BLOCK);
	assert_int_equal(s.seed, id.seed);
	assert_int_equal(s.unwritten, 4);
	assert_int_equal(s.res.checked, 60);
	assert_int_equal(s.res.bad, 4);
	verify_result_sort(&s.res);
	const uint64_t at[] = {10, 20, 30, 40};
	const enum verify_why why[] = {VERIFY_SUM, VERIFY_SUM, VERIFY_OFFSET, VERIFY_RUN};
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(s.res.bads[i].offset, at[i] * BLOCK);
		assert_int_equal(s.res.bads[i].why, why[i]);
	}
	verify_result_release(&s.res);
	/* Another run's block first: the run most blocks name is checked, and that block is bad. */
	b.offset = 2 * BLOCK;
	verify_make(img + 2 * BLOCK, &b, VERIFY_CRC32C);
	assert_int_equal(pwrite(fd, img + 2 * BLOCK, BLOCK, 2 * BLOCK), BLOCK);
	s = (struct verify_scan){0};
	assert_int_equal(verify_scan_fd(fd, 0, (uint64_t)n * BLOCK, &s, NULL, NULL, NULL), 0);
	assert_int_equal(s.seed, id.seed);
	assert_int_equal(s.res.bad, 5);
	verify_result_sort(&s.res);
	assert_int_equal(s.res.bads[0].offset, 2 * BLOCK);
	assert_int_equal(s.res.bads[0].why, VERIFY_RUN);
	verify_result_release(&s.res);
	/* Half the blocks of another run: which run to check is not for the scan to guess. */
	for (unsigned i = 2; i < 32; i++) {
		b.offset = (uint64_t)i * BLOCK;
		verify_make(img + (size_t)i * BLOCK, &b, VERIFY_CRC32C);
	}
	assert_int_equal(pwrite(fd, img, (size_t)n * BLOCK, 0), (ssize_t)n * BLOCK);
	s = (struct verify_scan){0};
	assert_int_equal(verify_scan_fd(fd, 0, (uint64_t)n * BLOCK, &s, NULL, NULL, NULL),
			 -ENOTUNIQ);
	assert_int_equal(s.rival_count[0] + s.rival_count[1], 60);
	verify_result_release(&s.res);
	/* Nothing of iorate's: no layout to go by. */
	memset(img, 0, (size_t)n * BLOCK);
	assert_int_equal(pwrite(fd, img, (size_t)n * BLOCK, 0), (ssize_t)n * BLOCK);
	s = (struct verify_scan){0};
	assert_int_equal(verify_scan_fd(fd, 0, (uint64_t)n * BLOCK, &s, NULL, NULL, NULL), -ENOENT);
	close(fd);
	free(img);
}

/* A mismatch's two checksums: the header's, the data's, and the kind the header names; as text
 * and back. */
static void sums_told(void **state)
{
	static unsigned char b[BLOCK];
	unsigned char h[VERIFY_SUM_MAX], d[VERIFY_SUM_MAX], back[VERIFY_SUM_MAX];
	const enum verify_sum kinds[] = {VERIFY_CRC32C, VERIFY_MD5, VERIFY_SHA256};
	const unsigned lens[] = {4, 16, 32};
	char hex[65];
	enum verify_sum kind;

	for (unsigned k = 0; k < 3; k++) {
		verify_make(b, &id, kinds[k]);
		assert_int_equal(verify_sum_len(kinds[k]), lens[k]);
		assert_int_equal(verify_sums(b, BLOCK, h, d), kinds[k]);
		assert_memory_equal(h, d, lens[k]);
		b[1000] ^= 0x10;
		assert_int_equal(verify_sums(b, BLOCK, h, d), kinds[k]);
		assert_memory_not_equal(h, d, lens[k]);
		verify_sum_hex(d, kinds[k], hex);
		assert_int_equal(strlen(hex), 2 * lens[k]);
		assert_int_equal(verify_sum_unhex(hex, back, &kind), 0);
		assert_int_equal(kind, kinds[k]);
		assert_memory_equal(back, d, lens[k]);
	}
	/* A flipped bit in the kind's byte: the kind the header names now, whose checksum is
	 * another length. */
	verify_make(b, &id, VERIFY_CRC32C);
	b[VERIFY_AT_KIND] ^= 2;
	assert_int_equal(verify_sums(b, BLOCK, h, d), VERIFY_SHA256);
	/* crc32c as its 32-bit value, the bytes little-endian in the header. */
	verify_sum_hex((const unsigned char[]){0x0a, 0x03, 0x2f, 0x2e}, VERIFY_CRC32C, hex);
	assert_string_equal(hex, "2e2f030a");
	assert_int_equal(verify_sum_unhex("2e2f03", back, &kind), -EINVAL);
	assert_int_equal(verify_sum_unhex("2e2f030g", back, &kind), -EINVAL);
	/* No header of that size: nothing to tell. */
	assert_int_equal(verify_sums(b, BLOCK / 2, h, d), VERIFY_NONE);
}

/* The header a block is written with reads back as written, field by field, as it stands. */
static void header_read_back(void **state)
{
	static unsigned char b[BLOCK];
	struct verify_id want = {.seed = 0x8877665544332211ull, .offset = 0x0123456789ab000ull,
				 .gen = 0xfedcba98u, .target = 0x01020304u, .thread = 0x0a0b0c0du,
				 .block = BLOCK, .flags = VERIFY_FLAG_SEQ};
	struct verify_id got;
	enum verify_sum kind;

	for (enum verify_sum s = VERIFY_CRC32C; s <= VERIFY_SHA256; s++) {
		verify_make(b, &want, s);
		/* The sum spoilt: still read as it stands. */
		b[VERIFY_AT_SUM] ^= 0xff;
		assert_true(verify_header_read(b, &got, &kind));
		assert_int_equal(kind, s);
		/* Field by field: the struct has padding. */
		assert_true(got.seed == want.seed && got.offset == want.offset);
		assert_true(got.gen == want.gen && got.target == want.target);
		assert_true(got.thread == want.thread && got.block == want.block);
		assert_int_equal(got.flags, VERIFY_FLAG_SEQ);
	}
	b[VERIFY_AT_KIND] = 9;
	assert_true(verify_header_read(b, &got, &kind));
	assert_int_equal(kind, VERIFY_NONE);
	b[VERIFY_AT_MAGIC] ^= 1;
	assert_false(verify_header_read(b, &got, &kind));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(intact_blocks),
		cmocka_unit_test(faults),
		cmocka_unit_test(generations_differ),
		cmocka_unit_test(names),
		cmocka_unit_test(result_keeps_the_first),
		cmocka_unit_test(scan_finds_the_faults),
		cmocka_unit_test(sums_told),
		cmocka_unit_test(header_read_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
