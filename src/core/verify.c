#include "core/verify.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isa-l/crc.h>
#include <nettle/md5.h>
#include <nettle/sha2.h>

#include "core/workload.h"

_Static_assert(sizeof(VERIFY_MAGIC) - 1 == VERIFY_MAGIC_LEN &&
	       VERIFY_MAGIC_LEN <= VERIFY_AT_SEED && VERIFY_AT_KIND < VERIFY_AT_FLAGS &&
	       VERIFY_AT_FLAGS < VERIFY_AT_SUM,
	       "the header's fields overlap");
_Static_assert(MD5_DIGEST_SIZE <= VERIFY_SUM_MAX && SHA256_DIGEST_SIZE <= VERIFY_SUM_MAX,
	       "a checksum longer than its field");

static void put64(unsigned char *p, uint64_t v)
{
	for (unsigned i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put32(unsigned char *p, uint32_t v)
{
	for (unsigned i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)get64((const unsigned char[8]){p[0], p[1], p[2], p[3]});
}

const char *verify_sum_name(enum verify_sum s)
{
	static const char *const names[] = {NULL, "crc32c", "md5", "sha256"};

	return (unsigned)s < 4 ? names[s] : NULL;
}

int verify_sum_parse(const char *s, enum verify_sum *out)
{
	for (unsigned i = VERIFY_CRC32C; i <= VERIFY_SHA256; i++)
		if (!strcmp(s, verify_sum_name((enum verify_sum)i))) {
			*out = (enum verify_sum)i;
			return 0;
		}
	return -EINVAL;
}

unsigned verify_sum_len(enum verify_sum s)
{
	static const unsigned char len[] = {0, 4, 16, 32};

	return (unsigned)s < 4 ? len[s] : 0;
}

static const char *const why_names[] = {"ok", "unwritten", "size", "sum", "run",
					"offset", "target", "stale", "newer"};

const char *verify_why_name(enum verify_why w)
{
	return (unsigned)w < sizeof(why_names) / sizeof(why_names[0]) ? why_names[w] : "?";
}

int verify_why_parse(const char *s, enum verify_why *out)
{
	for (unsigned i = 0; i < sizeof(why_names) / sizeof(why_names[0]); i++)
		if (!strcmp(s, why_names[i])) {
			*out = (enum verify_why)i;
			return 0;
		}
	return -EINVAL;
}

const char *verify_why_text(enum verify_why w)
{
	static const char *const text[] = {
		"intact",
		"no iorate header (the write was lost, or never reached this block)",
		"a header for another block size",
		"checksum mismatch (corrupted, or a torn write)",
		"an intact block of another run",
		"an intact block of another offset (a misdirected write)",
		"an intact block of another target",
		"stale: an older write of this block than the last one",
		"a newer write than the last one iorate made",
	};

	return (unsigned)w < sizeof(text) / sizeof(text[0]) ? text[w] : "?";
}

/* The checksum of a block whose sum field is taken as zero, into out (VERIFY_SUM_MAX bytes). */
static void block_sum(const unsigned char *b, uint32_t size, enum verify_sum kind,
		      unsigned char out[VERIFY_SUM_MAX])
{
	static const unsigned char zero[VERIFY_SUM_MAX];
	const unsigned char *rest = b + VERIFY_AT_SUM + VERIFY_SUM_MAX;
	size_t nrest = size - VERIFY_AT_SUM - VERIFY_SUM_MAX;

	memset(out, 0, VERIFY_SUM_MAX);
	if (kind == VERIFY_CRC32C) {
		unsigned c = crc32_iscsi((unsigned char *)b, VERIFY_AT_SUM, 0xffffffffu);
		c = crc32_iscsi((unsigned char *)zero, VERIFY_SUM_MAX, c);
		c = crc32_iscsi((unsigned char *)rest, (int)nrest, c);
		put32(out, c);
	} else if (kind == VERIFY_MD5) {
		struct md5_ctx m;
		md5_init(&m);
		md5_update(&m, VERIFY_AT_SUM, b);
		md5_update(&m, VERIFY_SUM_MAX, zero);
		md5_update(&m, nrest, rest);
		md5_digest(&m, MD5_DIGEST_SIZE, out);
	} else if (kind == VERIFY_SHA256) {
		struct sha256_ctx s;
		sha256_init(&s);
		sha256_update(&s, VERIFY_AT_SUM, b);
		sha256_update(&s, VERIFY_SUM_MAX, zero);
		sha256_update(&s, nrest, rest);
		sha256_digest(&s, SHA256_DIGEST_SIZE, out);
	}
}

void verify_make(void *block, const struct verify_id *id, enum verify_sum sum)
{
	unsigned char *b = block;
	uint64_t st = id->seed ^ (id->offset * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)id->gen << 32);

	memcpy(b + VERIFY_AT_MAGIC, VERIFY_MAGIC, VERIFY_MAGIC_LEN);
	memset(b + VERIFY_MAGIC_LEN, 0, VERIFY_HEADER - VERIFY_MAGIC_LEN);
	put64(b + VERIFY_AT_SEED, id->seed);
	put64(b + VERIFY_AT_OFFSET, id->offset);
	put32(b + VERIFY_AT_GEN, id->gen);
	put32(b + VERIFY_AT_TARGET, id->target);
	put32(b + VERIFY_AT_THREAD, id->thread);
	put32(b + VERIFY_AT_BLOCK, id->block);
	b[VERIFY_AT_KIND] = (unsigned char)sum;
	b[VERIFY_AT_FLAGS] = (unsigned char)id->flags;
	for (uint32_t i = VERIFY_HEADER; i + 8 <= id->block; i += 8) {
		uint64_t v = splitmix64(&st);
		memcpy(b + i, &v, 8);
	}
	block_sum(b, id->block, sum, b + VERIFY_AT_SUM);
}

bool verify_header_read(const void *block, struct verify_id *id, enum verify_sum *sum)
{
	const unsigned char *b = block;
	unsigned kind;

	if (memcmp(b + VERIFY_AT_MAGIC, VERIFY_MAGIC, VERIFY_MAGIC_LEN))
		return false;
	*id = (struct verify_id){.seed = get64(b + VERIFY_AT_SEED),
				 .offset = get64(b + VERIFY_AT_OFFSET),
				 .gen = get32(b + VERIFY_AT_GEN),
				 .target = get32(b + VERIFY_AT_TARGET),
				 .thread = get32(b + VERIFY_AT_THREAD),
				 .block = get32(b + VERIFY_AT_BLOCK),
				 .flags = b[VERIFY_AT_FLAGS]};
	kind = b[VERIFY_AT_KIND];
	*sum = kind >= VERIFY_CRC32C && kind <= VERIFY_SHA256 ? (enum verify_sum)kind : VERIFY_NONE;
	return true;
}

enum verify_why verify_check(const void *block, uint32_t size, const struct verify_id *want,
			     struct verify_id *found)
{
	const unsigned char *b = block;
	unsigned char sum[VERIFY_SUM_MAX];
	enum verify_sum kind;

	if (!verify_header_read(b, found, &kind))
		return VERIFY_UNWRITTEN;
	if (found->block != size)
		return VERIFY_SIZE;
	if (kind == VERIFY_NONE)
		return VERIFY_SUM;
	block_sum(b, size, kind, sum);
	if (memcmp(sum, b + VERIFY_AT_SUM, VERIFY_SUM_MAX))
		return VERIFY_SUM;
	if (want->seed && found->seed != want->seed)
		return VERIFY_RUN;
	if (found->offset != want->offset)
		return VERIFY_OFFSET;
	if (want->target != UINT32_MAX && found->target != want->target)
		return VERIFY_TARGET;
	if (want->gen && found->gen < want->gen)
		return VERIFY_STALE;
	if (want->gen && found->gen > want->gen)
		return VERIFY_NEWER;
	return VERIFY_OK;
}

void verify_result_release(struct verify_result *v)
{
	if (!v)
		return;
	free(v->bads);
	v->bads = NULL;
	v->nbads = 0;
	for (unsigned i = 0; i < v->nwritten; i++)
		verify_written_release(&v->written[i]);
	free(v->written);
	v->written = NULL;
	v->nwritten = 0;
}

int verify_written_add(struct verify_written *w, uint64_t offset, uint64_t len, uint32_t block)
{
	struct verify_extent *last = w->n ? &w->ext[w->n - 1] : NULL;

	w->blocks += block ? len / block : 0;
	if (last && last->offset + last->len == offset && !w->truncated) {
		last->len += len;
		return 0;
	}
	if (w->n == VERIFY_EXTENTS_MAX || w->truncated) {
		w->truncated = true;
		return 0;
	}
	/* Room for 4, then doubled: most runs make one range per target. */
	if (!w->ext || (w->n >= 4 && (w->n & (w->n - 1)) == 0)) {
		struct verify_extent *n = realloc(w->ext, (w->ext ? w->n * 2 : 4) * sizeof(*n));
		if (!n)
			return -ENOMEM;
		w->ext = n;
	}
	w->ext[w->n++] = (struct verify_extent){.offset = offset, .len = len};
	return 0;
}

bool verify_written_has(const struct verify_written *w, uint64_t offset)
{
	unsigned lo = 0, hi = w->n;

	/* The ranges are sorted and apart: the last one starting at or before offset. */
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (w->ext[mid].offset <= offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && offset - w->ext[lo - 1].offset < w->ext[lo - 1].len;
}

uint64_t verify_written_kept(const struct verify_written *w, uint32_t block)
{
	uint64_t n = 0;

	for (unsigned i = 0; block && i < w->n; i++)
		n += w->ext[i].len / block;
	return n;
}

void verify_written_release(struct verify_written *w)
{
	free(w->ext);
	w->ext = NULL;
	w->n = 0;
}

void verify_result_add(struct verify_result *v, const struct verify_bad *b)
{
	v->bad++;
	if (v->nbads >= VERIFY_KEEP)
		return;
	/* Room for 8, then doubled at 8, 16, ...: a run with no bad block allocates nothing. */
	if (!v->bads || (v->nbads >= 8 && (v->nbads & (v->nbads - 1)) == 0)) {
		unsigned cap = v->bads ? v->nbads * 2 : 8;
		struct verify_bad *n = realloc(v->bads, cap * sizeof(*n));
		if (!n)
			return;
		v->bads = n;
	}
	v->bads[v->nbads++] = *b;
}

static int by_place(const void *a, const void *b)
{
	const struct verify_bad *x = a, *y = b;

	if (x->target != y->target)
		return x->target < y->target ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

void verify_result_sort(struct verify_result *v)
{
	if (v->nbads > 1)
		qsort(v->bads, v->nbads, sizeof(*v->bads), by_place);
}

enum verify_sum verify_sums(const void *block, uint32_t size, unsigned char header[VERIFY_SUM_MAX],
			    unsigned char data[VERIFY_SUM_MAX])
{
	const unsigned char *b = block;
	struct verify_id id;
	enum verify_sum kind;

	if (size < VERIFY_HEADER || !verify_header_read(b, &id, &kind) || id.block != size ||
	    kind == VERIFY_NONE)
		return VERIFY_NONE;
	memcpy(header, b + VERIFY_AT_SUM, VERIFY_SUM_MAX);
	block_sum(b, size, kind, data);
	return kind;
}

void verify_sum_hex(const unsigned char *sum, enum verify_sum kind, char out[65])
{
	out[0] = 0;
	if (kind == VERIFY_CRC32C) {
		snprintf(out, 65, "%08x", get32(sum));
		return;
	}
	for (unsigned i = 0; i < verify_sum_len(kind); i++)
		snprintf(out + 2 * i, 3, "%02x", sum[i]);
}

int verify_sum_unhex(const char *hex, unsigned char out[VERIFY_SUM_MAX], enum verify_sum *kind)
{
	size_t n = strlen(hex);
	unsigned char b[VERIFY_SUM_MAX] = {0};
	enum verify_sum k = VERIFY_NONE;

	/* Each kind's text has its own length. */
	for (unsigned i = VERIFY_CRC32C; i <= VERIFY_SHA256; i++)
		if (n == 2 * verify_sum_len((enum verify_sum)i))
			k = (enum verify_sum)i;
	if (k == VERIFY_NONE)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		static const char digits[] = "0123456789abcdef";
		const char *d = strchr(digits, hex[i]);
		if (!d)
			return -EINVAL;
		b[i / 2] = (unsigned char)(b[i / 2] << 4 | (d - digits));
	}
	if (k == VERIFY_CRC32C)
		put32(b, (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]);
	memcpy(out, b, VERIFY_SUM_MAX);
	*kind = k;
	return 0;
}
