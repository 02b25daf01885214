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
#include "core/worker.h"

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

/* FNV-1a over a block: a fingerprint of every byte verify_make() wrote. */
static uint64_t fnv1a(const unsigned char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

/*
 * The blocks are a format: a block written by one iorate is checked by another (iorate verify
 * of an earlier run's target). Each checksum's block, byte for byte, is the one this format
 * always wrote: a change of the header, the fill or what a checksum covers shows here even
 * when make and check changed alike.
 */
static void blocks_are_a_format(void **state)
{
	static unsigned char b[BLOCK];
	static const uint64_t want[] = {
		[VERIFY_CRC32C] = 0x6a24dcff0ded31b3ull, [VERIFY_MD5] = 0xeca4c33b91ab8095ull,
		[VERIFY_SHA256] = 0x44631d6f30ecdfc3ull,
	};

	for (enum verify_sum s = VERIFY_CRC32C; s <= VERIFY_SHA256; s++) {
		memset(b, 0xa5, sizeof(b));
		verify_make(b, &id, s);
		if (fnv1a(b, sizeof(b)) != want[s])
			fail_msg("%s: 0x%016llxull", verify_sum_name(s),
				 (unsigned long long)fnv1a(b, sizeof(b)));
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
	/* a name not in the table (a damaged record): refused, and nothing past the table read */
	assert_int_equal(verify_why_parse("nosuch", &w), -EINVAL);
	for (unsigned i = VERIFY_OK; i <= VERIFY_NEWER; i++) {
		assert_int_equal(verify_why_parse(verify_why_name(i), &w), 0);
		assert_int_equal(w, i);
		assert_string_not_equal(verify_why_text(i), "?");
	}
	/* a value past the last (a damaged record) has no name, and reads nothing past the table */
	assert_string_equal(verify_why_name((enum verify_why)(VERIFY_NEWER + 1)), "?");
	assert_string_equal(verify_why_text((enum verify_why)(VERIFY_NEWER + 1)), "?");
	assert_string_equal(verify_why_name((enum verify_why)-1), "?");
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
	/* A block without a sum (its header unreadable) has none to show: an empty string. */
	memset(hex, 'x', sizeof(hex) - 1);
	hex[sizeof(hex) - 1] = 0;
	verify_sum_hex(d, VERIFY_NONE, hex);
	assert_string_equal(hex, "");
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

/* The ranges a run wrote: adjacent ones merge, lookups find each byte of them and none else, and
 * past VERIFY_EXTENTS_MAX ranges the rest is counted only. */
static void written_ranges(void **state)
{
	struct verify_written w = {0};

	assert_int_equal(verify_written_add(&w, 0, 2 * BLOCK, BLOCK), 0);
	assert_int_equal(verify_written_add(&w, 2 * BLOCK, BLOCK, BLOCK), 0);
	assert_int_equal(verify_written_add(&w, 5 * BLOCK, BLOCK, BLOCK), 0);
	assert_int_equal(w.n, 2);
	assert_int_equal(w.blocks, 4);
	assert_int_equal(w.ext[0].len, 3 * BLOCK);
	assert_true(verify_written_has(&w, 0) && verify_written_has(&w, 3 * BLOCK - 1));
	assert_false(verify_written_has(&w, 3 * BLOCK) || verify_written_has(&w, 4 * BLOCK));
	assert_true(verify_written_has(&w, 5 * BLOCK) && !verify_written_has(&w, 6 * BLOCK));
	/* Every other block from 10 on: one range each, until the cap. */
	for (uint64_t b = 10; b < 10 + 2 * VERIFY_EXTENTS_MAX; b += 2)
		assert_int_equal(verify_written_add(&w, b * BLOCK, BLOCK, BLOCK), 0);
	assert_int_equal(w.n, VERIFY_EXTENTS_MAX);
	assert_true(w.truncated);
	assert_int_equal(w.blocks, 4 + VERIFY_EXTENTS_MAX);
	assert_int_equal(verify_written_kept(&w, BLOCK), 4 + VERIFY_EXTENTS_MAX - 2);
	assert_true(verify_written_has(&w, 10 * BLOCK) && !verify_written_has(&w, 11 * BLOCK));
	/* A range left out is not found, even one right after the last kept. */
	uint64_t last = w.ext[w.n - 1].offset;
	assert_false(verify_written_has(&w, last + 2 * BLOCK));
	assert_int_equal(verify_written_add(&w, last + BLOCK, BLOCK, BLOCK), 0);
	assert_false(verify_written_has(&w, last + BLOCK));
	verify_written_release(&w);
	/* released: empty, and released again harmlessly (a result released twice) */
	assert_null(w.ext);
	assert_int_equal(w.n, 0);
	verify_written_release(&w);
}

/* After a run, a thread's generations give the blocks whose last write succeeded. */
static void written_from_generations(void **state)
{
	struct worker w __attribute__((aligned(64))) = {.depth = 1};
	struct verify_written out = {0};
	const uint64_t base = 2 * BLOCK;

	assert_int_equal(verify_setup(&w, base, 16 * BLOCK, BLOCK, BLOCK, VERIFY_CRC32C, 1, 0,
				      false), 0);
	for (unsigned b = 0; b < 3; b++)
		w.vf->gen[b] = b + 1;
	w.vf->gen[5] = VERIFY_FAILED;                  /* unknown: not counted as written */
	w.vf->gen[6] = 4;
	for (unsigned b = 10; b < 16; b++)
		w.vf->gen[b] = b;
	assert_int_equal(verify_written_collect(&w, &out), 0);
	assert_int_equal(out.n, 3);
	assert_int_equal(out.blocks, 10);
	assert_true(out.ext[0].offset == base && out.ext[0].len == 3 * BLOCK);
	assert_true(out.ext[1].offset == base + 6 * BLOCK && out.ext[1].len == BLOCK);
	assert_true(out.ext[2].offset == base + 10 * BLOCK && out.ext[2].len == 6 * BLOCK);
	verify_written_release(&out);
	verify_free(&w);
}

/* An image of n blocks one thread swept in order (generation i + 1 at block i), seq or not. */
static int swept(unsigned n, bool seq, unsigned char **img)
{
	struct verify_id b = id;
	int fd = memfd_create("verify", 0);

	*img = calloc(n, BLOCK);
	assert_non_null(*img);
	assert_true(fd >= 0);
	b.flags = seq ? VERIFY_FLAG_SEQ : 0;
	for (unsigned i = 0; i < n; i++) {
		b.offset = (uint64_t)i * BLOCK;
		b.gen = i + 1;
		verify_make(*img + (size_t)i * BLOCK, &b, VERIFY_CRC32C);
	}
	return fd;
}

static void zero_blocks(int fd, const unsigned *at, unsigned n)
{
	static const unsigned char zero[BLOCK];

	for (unsigned i = 0; i < n; i++)
		assert_int_equal(pwrite(fd, zero, BLOCK, (off_t)at[i] * BLOCK), BLOCK);
}

/*
 * Zeroed blocks after the fact. Without the run's record: inside a sequential sweep they are lost
 * writes; at its edges, or in a run that does not say it swept, they are not (suspicious
 * between the run's blocks). With a record: each block it names; a truncated one counts the rest.
 */
static void scan_finds_lost_writes(void **state)
{
	const unsigned n = 64, zeroed[] = {0, 10, 11, 30, 63};
	unsigned char *img;
	struct verify_scan s = {0};
	int fd = swept(n, true, &img);

	assert_int_equal(write(fd, img, (size_t)n * BLOCK), (ssize_t)n * BLOCK);
	assert_int_equal(verify_scan_fd(fd, 0, (uint64_t)n * BLOCK, &s, NULL, NULL, NULL), 0);
	assert_true(s.res.bad == 0 && s.lost == 0 && s.suspicious == 0 && s.unwritten == 0);
	verify_result_release(&s.res);
	zero_blocks(fd, zeroed, 5);
	s = (struct verify_scan){0};
	assert_int_equal(verify_scan_fd(fd, 0, (uint64_t)n * BLOCK, &s, NULL, NULL, NULL), 0);
	assert_int_equal(s.lost, 3);
	assert_int_equal(s.res.bad, 3);
	assert_int_equal(s.suspicious, 0);
	assert_int_equal(s.unwritten, 2);
	assert_int_equal(s.res.checked, n - 2);
	verify_result_sort(&s.res);
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(s.res.bads[i].offset, (uint64_t)zeroed[i + 1] * BLOCK);
		assert_int_equal(s.res.bads[i].why, VERIFY_UNWRITTEN);
		assert_false(s.res.bads[i].has_found);
	}
	verify_result_release(&s.res);
	/* Generations closer than the distance (a block read or an I/O not issued between):
	 * suspicious, not lost. */
	struct verify_id b = id;
	b.flags = VERIFY_FLAG_SEQ;
	b.offset = 12 * BLOCK;
	b.gen = 11;
	verify_make(img, &b, VERIFY_CRC32C);
	assert_int_equal(pwrite(fd, img, BLOCK, 12 * BLOCK), BLOCK);
	s = (struct verify_scan){0};
	assert_int_equal(verify_scan_fd(fd, 0, (uint64_t)n * BLOCK, &s, NULL, NULL, NULL), 0);
	assert_int_equal(s.lost, 1);                   /* block 30 */
	assert_int_equal(s.suspicious, 2);             /* blocks 10, 11 */
	verify_result_release(&s.res);
	close(fd);
	free(img);

	/* The same zeros in a run that does not say it swept: suspicious only, none bad. */
	fd = swept(n, false, &img);
	assert_int_equal(write(fd, img, (size_t)n * BLOCK), (ssize_t)n * BLOCK);
	zero_blocks(fd, zeroed, 5);
	s = (struct verify_scan){0};
	assert_int_equal(verify_scan_fd(fd, 0, (uint64_t)n * BLOCK, &s, NULL, NULL, NULL), 0);
	assert_true(s.res.bad == 0 && s.lost == 0);
	assert_int_equal(s.suspicious, 3);
	assert_int_equal(s.unwritten, 5);
	verify_result_release(&s.res);

	/* With the run's record: every zeroed block it names, the edges too. */
	struct verify_written w = {0};
	assert_int_equal(verify_written_add(&w, 0, (uint64_t)n * BLOCK, BLOCK), 0);
	s = (struct verify_scan){.block = BLOCK, .nfrom = 1, .whole = true};
	s.from[0] = (struct verify_origin){.seed = id.seed, .target = id.target};
	s.written[0] = &w;
	assert_int_equal(verify_scan_fd(fd, 0, (uint64_t)n * BLOCK, &s, NULL, NULL, NULL), 0);
	assert_true(s.res.bad == 5 && s.lost == 5 && s.suspicious == 0 && s.unwritten == 0);
	verify_result_release(&s.res);
	verify_written_release(&w);

	/* A record of blocks 0-31 that names only 0-7 (truncated): 0 placed, 10, 11, 30 counted. */
	w = (struct verify_written){0};
	assert_int_equal(verify_written_add(&w, 0, 8 * BLOCK, BLOCK), 0);
	w.blocks = 32;
	w.truncated = true;
	s = (struct verify_scan){.block = BLOCK, .nfrom = 1, .whole = true};
	s.from[0] = (struct verify_origin){.seed = id.seed, .target = id.target};
	s.written[0] = &w;
	assert_int_equal(verify_scan_fd(fd, 0, (uint64_t)n * BLOCK, &s, NULL, NULL, NULL), 0);
	assert_int_equal(s.lost, 1);
	/* Of the 24 blocks beyond its ranges, the run's headers are found in 24 + 32 - 3 - 1
	 * places (its blocks 32-62 lie there too): none missing by count. */
	assert_int_equal(s.lost_unplaced, 0);
	verify_result_release(&s.res);
	/* Blocks 32-63 taken by another run: the count now misses 3 (10, 11, 30). */
	struct verify_id o = id;
	o.seed = 99;
	for (unsigned i = 32; i < n; i++) {
		o.offset = (uint64_t)i * BLOCK;
		verify_make(img + (size_t)i * BLOCK, &o, VERIFY_CRC32C);
		assert_int_equal(pwrite(fd, img + (size_t)i * BLOCK, BLOCK, (off_t)i * BLOCK), BLOCK);
	}
	s = (struct verify_scan){.block = BLOCK, .nfrom = 1, .whole = true};
	s.from[0] = (struct verify_origin){.seed = id.seed, .target = id.target};
	s.written[0] = &w;
	assert_int_equal(verify_scan_fd(fd, 0, (uint64_t)n * BLOCK, &s, NULL, NULL, NULL), 0);
	assert_int_equal(s.lost, 1);
	assert_int_equal(s.lost_unplaced, 3);
	assert_int_equal(s.res.bad, 1 + 3 + (n - 32));
	verify_result_release(&s.res);
	close(fd);
	free(img);

	/* A sweep's hole beyond a truncated record's ranges: placed once, not also counted. */
	const unsigned forty = 40;
	fd = swept(n, true, &img);
	assert_int_equal(write(fd, img, (size_t)n * BLOCK), (ssize_t)n * BLOCK);
	zero_blocks(fd, &forty, 1);
	w.blocks = n;
	s = (struct verify_scan){.block = BLOCK, .nfrom = 1, .whole = true};
	s.from[0] = (struct verify_origin){.seed = id.seed, .target = id.target};
	s.written[0] = &w;
	assert_int_equal(verify_scan_fd(fd, 0, (uint64_t)n * BLOCK, &s, NULL, NULL, NULL), 0);
	assert_true(s.lost == 1 && s.lost_unplaced == 0 && s.res.bad == 1);
	assert_int_equal(s.res.bads[0].offset, 40 * BLOCK);
	verify_result_release(&s.res);
	verify_written_release(&w);
	close(fd);
	free(img);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(intact_blocks),
		cmocka_unit_test(blocks_are_a_format),
		cmocka_unit_test(faults),
		cmocka_unit_test(generations_differ),
		cmocka_unit_test(names),
		cmocka_unit_test(result_keeps_the_first),
		cmocka_unit_test(scan_finds_the_faults),
		cmocka_unit_test(sums_told),
		cmocka_unit_test(header_read_back),
		cmocka_unit_test(written_ranges),
		cmocka_unit_test(written_from_generations),
		cmocka_unit_test(scan_finds_lost_writes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
