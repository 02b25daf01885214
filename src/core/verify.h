#ifndef IORATE_CORE_VERIFY_H
#define IORATE_CORE_VERIFY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Verified writes. With --verify every block a run writes (blocks of --verify-block bytes, the
 * smallest I/O size by default) carries a header and a checksum of the whole block. The
 * header's layout is enum verify_field below, the one definition the code that writes headers
 * and the code that reads them (the run's checks, `iorate verify`) both use. After the header,
 * data drawn from (seed, offset, generation): two writes of one block differ everywhere, so a
 * torn write shows wherever it tore.
 *
 * Little-endian throughout. crc32c comes from ISA-L (Intel's storage acceleration library),
 * md5 and sha256 from Nettle.
 */
enum verify_sum { VERIFY_NONE, VERIFY_CRC32C, VERIFY_MD5, VERIFY_SHA256 };

/* Where each field of the header starts, in bytes from the start of the block. */
enum verify_field {
	VERIFY_AT_MAGIC = 0,        /* "iorateV1" (VERIFY_MAGIC), 8 bytes */
	VERIFY_AT_SEED = 8,         /* the run's seed, 8: blocks of another run are told apart */
	VERIFY_AT_OFFSET = 16,      /* the block's byte offset in its target, 8: a misplaced
				     * block is told apart */
	VERIFY_AT_GEN = 24,         /* the write's generation, 4: a count per thread, so an
				     * older copy is stale */
	VERIFY_AT_TARGET = 28,      /* the target's index in the run, 4 */
	VERIFY_AT_THREAD = 32,      /* the thread, 4 */
	VERIFY_AT_BLOCK = 36,       /* the block size, 4 */
	VERIFY_AT_KIND = 40,        /* the checksum's kind (enum verify_sum), 1 */
	VERIFY_AT_FLAGS = 41,       /* enum verify_flag, 1; then 6 zero (0 in blocks written
				     * before it was added) */
	VERIFY_AT_SUM = 48,         /* the checksum, VERIFY_SUM_MAX bytes, zero-padded (crc32c in
				     * 4, md5 in 16, sha256 in 32), over the whole block with
				     * these bytes taken as zero */
};
/*
 * What the writer of a block tells a later reader. VERIFY_FLAG_SEQ: the thread writes its slice
 * block after block in order, each block one generation after the one before it; so headerless
 * blocks between two of its blocks whose generations differ by their distance were written in
 * that sweep and lost (`iorate verify` without the run's result, src/core/verify_scan.c).
 */
enum verify_flag { VERIFY_FLAG_SEQ = 1 };
#define VERIFY_MAGIC "iorateV1"
#define VERIFY_MAGIC_LEN 8u
#define VERIFY_SUM_MAX 32u
#define VERIFY_HEADER (VERIFY_AT_SUM + VERIFY_SUM_MAX)
#define VERIFY_MIN_BLOCK 512u

/* Who a block is. gen 0 and target UINT32_MAX mean "any" when checking. */
struct verify_id {
	uint64_t seed, offset;
	uint32_t gen, target, thread, block;
	uint32_t flags;             /* enum verify_flag: written into the header, not checked */
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
/* The checksum's length in bytes: 4, 16, 32 (0 for none). */
unsigned verify_sum_len(enum verify_sum s);

/* Writes block (id->block bytes) as the header above says, with its data and checksum. */
void verify_make(void *block, const struct verify_id *id, enum verify_sum sum);

/*
 * The header at the start of block as it stands, its checksum not checked: who it says the
 * block is, into *id, and the checksum's kind it names, into *sum (VERIFY_NONE when not one
 * iorate makes). false when block (of VERIFY_HEADER bytes at least) starts with no header.
 */
bool verify_header_read(const void *block, struct verify_id *id, enum verify_sum *sum);

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
	/* A checksum mismatch: the kind of checksum the header names, the checksum it holds
	 * and the one of the block's data (VERIFY_NONE: not known). */
	enum verify_sum sum;
	unsigned char sum_header[VERIFY_SUM_MAX], sum_data[VERIFY_SUM_MAX];
};

/*
 * The checksum block's header holds and the one its data gives, into header and data
 * (VERIFY_SUM_MAX bytes each), and the kind the header names; VERIFY_NONE without a header of
 * that size and a known kind. For a VERIFY_SUM block, to say what differed.
 */
enum verify_sum verify_sums(const void *block, uint32_t size, unsigned char header[VERIFY_SUM_MAX],
			    unsigned char data[VERIFY_SUM_MAX]);
/* A checksum of that kind as text: crc32c as its 32-bit value (8 hex digits), md5 and sha256 as
 * their bytes in order (32 and 64 hex digits); "" for none. out holds 65 bytes. */
void verify_sum_hex(const unsigned char *sum, enum verify_sum kind, char out[65]);
/* And back, the kind told by the text's length: 0, or -EINVAL for text of another length or
 * with a character not a hex digit. */
int verify_sum_unhex(const char *hex, unsigned char out[VERIFY_SUM_MAX], enum verify_sum *kind);

/*
 * The blocks of one target a verifying run wrote (their last write succeeded), so that
 * `iorate verify --result` can tell a lost write from a block never written. Taken after the
 * run from the generations each thread keeps anyway (no cost per I/O), not replayed from the
 * seed: a thread draws again while a block is in flight and drops an I/O the engine refuses,
 * both at times no seed decides. Kept as byte ranges, merged when adjacent: a sequential run,
 * or a random one that covered its region, is one range per target; a sparse random run keeps
 * its first VERIFY_EXTENTS_MAX ranges (a few KiB whatever the run's length) and counts the
 * rest.
 */
#define VERIFY_EXTENTS_MAX 256
struct verify_extent {
	uint64_t offset, len;       /* bytes */
};
struct verify_written {
	unsigned target;            /* the target's index in the run */
	uint64_t blocks;            /* blocks written, all of them */
	struct verify_extent *ext;  /* the first n ranges they make, by offset */
	unsigned n;
	bool truncated;             /* more ranges than kept: blocks counts those left out too */
};

/* Adds [offset, offset + len), at or after the last range's end, of blocks of `block` bytes:
 * 0 or -ENOMEM. */
int verify_written_add(struct verify_written *w, uint64_t offset, uint64_t len, uint32_t block);
/* Whether the byte at offset lies in one of w's kept ranges. */
bool verify_written_has(const struct verify_written *w, uint64_t offset);
/* Blocks of `block` bytes w's kept ranges hold. */
uint64_t verify_written_kept(const struct verify_written *w, uint32_t block);
void verify_written_release(struct verify_written *w);

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
	/* A run that wrote: what it wrote of each target (one each, by target index); else
	 * NULL. */
	struct verify_written *written;
	unsigned nwritten;
};

void verify_result_release(struct verify_result *v);
/* Adds one bad block (kept while fewer than VERIFY_KEEP are). */
void verify_result_add(struct verify_result *v, const struct verify_bad *b);
/* Sorts the kept bad blocks by target, then offset. */
void verify_result_sort(struct verify_result *v);

#endif
