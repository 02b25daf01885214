#ifndef IORATE_CORE_VERIFY_H
#define IORATE_CORE_VERIFY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Verified writes. With --verify every block a run writes (blocks of --verify-block bytes, the
 * smallest I/O size by default) carries a header and a checksum of the whole block:
 *
 *   bytes  0..7   "iorateV1"
 *          8..15  the run's seed (blocks of another run are told apart)
 *         16..23  the block's byte offset in its target (a misplaced block is told apart)
 *         24..27  the write's generation: a count per thread, so an older copy is stale
 *         28..31  the target's index in the run; 32..35 the thread; 36..39 the block size
 *         40      the checksum's kind; 41..47 zero
 *         48..79  the checksum (crc32c in 4 bytes, md5 in 16, sha256 in 32; zero-padded),
 *                 over the whole block with these 32 bytes taken as zero
 *         80..    data drawn from (seed, offset, generation): two writes of one block differ
 *                 everywhere, so a torn write shows wherever it tore
 *
 * Little-endian throughout. crc32c comes from ISA-L (Intel's storage acceleration library),
 * md5 and sha256 from Nettle.
 */
enum verify_sum { VERIFY_NONE, VERIFY_CRC32C, VERIFY_MD5, VERIFY_SHA256 };

#define VERIFY_HEADER 80u
#define VERIFY_MIN_BLOCK 512u

/* Who a block is. gen 0 and target UINT32_MAX mean "any" when checking. */
struct verify_id {
	uint64_t seed, offset;
	uint32_t gen, target, thread, block;
};

/* What was wrong with a block, from the worst to the subtlest. */
enum verify_why {
	VERIFY_OK,
	VERIFY_UNWRITTEN,   /* no header: never written by iorate, or lost (or its header broke) */
	VERIFY_SIZE,        /* a header for another block size */
	VERIFY_SUM,         /* the checksum does not match: corrupted or torn */
	VERIFY_RUN,         /* intact, but written by another run (another seed) */
	VERIFY_OFFSET,      /* intact, but the block of another offset */
	VERIFY_TARGET,      /* intact, but the block of another target */
	VERIFY_STALE,       /* intact, but an older write than the last one */
	VERIFY_NEWER,       /* intact, but a newer write than the last one iorate knows of */
};

/* "no iorate header (lost or never written)", "checksum mismatch (corrupted or torn)", ... */
const char *verify_why_text(enum verify_why w);
/* A word for each (JSON): "ok", "unwritten", "size", "sum", "run", "offset", "target", "stale",
 * "newer"; and back (-EINVAL). */
const char *verify_why_name(enum verify_why w);
int verify_why_parse(const char *s, enum verify_why *out);
/* "crc32c", "md5", "sha256" (NULL for none), and back (-EINVAL). */
const char *verify_sum_name(enum verify_sum s);
int verify_sum_parse(const char *s, enum verify_sum *out);

/* Writes block (id->block bytes) as the header above says, with its data and checksum. */
void verify_make(void *block, const struct verify_id *id, enum verify_sum sum);

/*
 * Checks block against want (gen 0: any generation; target UINT32_MAX: any target; seed 0: any
 * run) and, when it has a header, fills *found from it. The sum's kind is the header's own.
 */
enum verify_why verify_check(const void *block, uint32_t size, const struct verify_id *want,
			     struct verify_id *found);

/* One bad block, as results keep them. */
struct verify_bad {
	unsigned target;
	uint64_t offset;
	enum verify_why why;
	uint32_t want_gen;          /* 0 when any was fine */
	bool has_found;             /* the block had a header: found is what it says */
	struct verify_id found;
	/* A checksum mismatch: the checksum the header holds and the one of the block's data,
	 * sum_len bytes each (0: not known). */
	uint8_t sum_len;
	unsigned char sum_header[32], sum_data[32];
};

/*
 * The checksum block's header holds and the one its data gives, into header and data (32
 * bytes each); their length in bytes (4, 16 or 32), or 0 without a header of that size and a
 * known kind. For a VERIFY_SUM block, to say what differed.
 */
unsigned verify_sums(const void *block, uint32_t size, unsigned char header[32],
		     unsigned char data[32]);
/* A checksum of len bytes as text: crc32c as its 32-bit value (8 hex digits), md5 and sha256
 * as their bytes in order (32 and 64 hex digits); out holds 65 bytes. */
void verify_sum_hex(const unsigned char *sum, unsigned len, char out[65]);
/* And back: 0, or -EINVAL for text of another length or with a character not a hex digit. */
int verify_sum_unhex(const char *hex, unsigned char out[32], unsigned *len);

/* What verification found in a run (or a verify pass): counts, and the first bad blocks. */
#define VERIFY_KEEP 1024
struct verify_result {
	enum verify_sum sum;        /* VERIFY_NONE: the run did not verify */
	uint32_t block;
	uint64_t checked;           /* blocks read and checked, during the run and after it */
	uint64_t bad;
	uint64_t unknown;           /* blocks whose last write failed: not checked */
	struct verify_bad *bads;    /* the first min(bad, VERIFY_KEEP), by target and offset */
	unsigned nbads;
};

void verify_result_release(struct verify_result *v);
/* Adds one bad block (kept while fewer than VERIFY_KEEP are). */
void verify_result_add(struct verify_result *v, const struct verify_bad *b);
/* Sorts the kept bad blocks by target, then offset. */
void verify_result_sort(struct verify_result *v);

#endif
