#include "core/verify.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isa-l/crc.h>
#include <nettle/md5.h>
#include <nettle/sha2.h>

#include "core/workload.h"

static const char magic[8] = {'i', 'o', 'r', 'a', 't', 'e', 'V', '1'};

#define OFF_SEED 8
#define OFF_OFFSET 16
#define OFF_GEN 24
#define OFF_TARGET 28
#define OFF_THREAD 32
#define OFF_BLOCK 36
#define OFF_KIND 40
#define OFF_SUM 48
#define SUM_LEN 32

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

/* The checksum of a block whose sum field is taken as zero, into out (SUM_LEN bytes). */
static void block_sum(const unsigned char *b, uint32_t size, enum verify_sum kind,
		      unsigned char out[SUM_LEN])
{
	static const unsigned char zero[SUM_LEN];
	const unsigned char *rest = b + OFF_SUM + SUM_LEN;
	size_t nrest = size - OFF_SUM - SUM_LEN;

	memset(out, 0, SUM_LEN);
	if (kind == VERIFY_CRC32C) {
		unsigned c = crc32_iscsi((unsigned char *)b, OFF_SUM, 0xffffffffu);
		c = crc32_iscsi((unsigned char *)zero, SUM_LEN, c);
		c = crc32_iscsi((unsigned char *)rest, (int)nrest, c);
		put32(out, c);
	} else if (kind == VERIFY_MD5) {
		struct md5_ctx m;
		md5_init(&m);
		md5_update(&m, OFF_SUM, b);
		md5_update(&m, SUM_LEN, zero);
		md5_update(&m, nrest, rest);
		md5_digest(&m, MD5_DIGEST_SIZE, out);
	} else if (kind == VERIFY_SHA256) {
		struct sha256_ctx s;
		sha256_init(&s);
		sha256_update(&s, OFF_SUM, b);
		sha256_update(&s, SUM_LEN, zero);
		sha256_update(&s, nrest, rest);
		sha256_digest(&s, SHA256_DIGEST_SIZE, out);
	}
}

void verify_make(void *block, const struct verify_id *id, enum verify_sum sum)
{
	unsigned char *b = block;
	uint64_t st = id->seed ^ (id->offset * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)id->gen << 32);

	memcpy(b, magic, sizeof(magic));
	put64(b + OFF_SEED, id->seed);
	put64(b + OFF_OFFSET, id->offset);
	put32(b + OFF_GEN, id->gen);
	put32(b + OFF_TARGET, id->target);
	put32(b + OFF_THREAD, id->thread);
	put32(b + OFF_BLOCK, id->block);
	memset(b + OFF_KIND, 0, OFF_SUM - OFF_KIND);
	b[OFF_KIND] = (unsigned char)sum;
	for (uint32_t i = VERIFY_HEADER; i + 8 <= id->block; i += 8) {
		uint64_t v = splitmix64(&st);
		memcpy(b + i, &v, 8);
	}
	block_sum(b, id->block, sum, b + OFF_SUM);
}

enum verify_why verify_check(const void *block, uint32_t size, const struct verify_id *want,
			     struct verify_id *found)
{
	const unsigned char *b = block;
	unsigned char sum[SUM_LEN];

	if (memcmp(b, magic, sizeof(magic)))
		return VERIFY_UNWRITTEN;
	*found = (struct verify_id){.seed = get64(b + OFF_SEED), .offset = get64(b + OFF_OFFSET),
				    .gen = get32(b + OFF_GEN), .target = get32(b + OFF_TARGET),
				    .thread = get32(b + OFF_THREAD), .block = get32(b + OFF_BLOCK)};
	if (found->block != size || b[OFF_KIND] < VERIFY_CRC32C || b[OFF_KIND] > VERIFY_SHA256)
		return found->block != size ? VERIFY_SIZE : VERIFY_SUM;
	block_sum(b, size, (enum verify_sum)b[OFF_KIND], sum);
	if (memcmp(sum, b + OFF_SUM, SUM_LEN))
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

unsigned verify_sums(const void *block, uint32_t size, unsigned char header[32],
		     unsigned char data[32])
{
	static const unsigned char len[] = {0, 4, 16, 32};
	const unsigned char *b = block;

	if (size < VERIFY_HEADER || memcmp(b, magic, sizeof(magic)) ||
	    get32(b + OFF_BLOCK) != size || b[OFF_KIND] < VERIFY_CRC32C || b[OFF_KIND] > VERIFY_SHA256)
		return 0;
	memcpy(header, b + OFF_SUM, SUM_LEN);
	block_sum(b, size, (enum verify_sum)b[OFF_KIND], data);
	return len[b[OFF_KIND]];
}

void verify_sum_hex(const unsigned char *sum, unsigned len, char out[65])
{
	out[0] = 0;
	if (len == 4) {
		snprintf(out, 65, "%08x", get32(sum));
		return;
	}
	for (unsigned i = 0; i < len && i < SUM_LEN; i++)
		snprintf(out + 2 * i, 3, "%02x", sum[i]);
}

int verify_sum_unhex(const char *hex, unsigned char out[32], unsigned *len)
{
	size_t n = strlen(hex);
	unsigned char b[SUM_LEN] = {0};

	if (n != 8 && n != 32 && n != 64)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		static const char digits[] = "0123456789abcdef";
		const char *d = strchr(digits, hex[i]);
		if (!d)
			return -EINVAL;
		b[i / 2] = (unsigned char)(b[i / 2] << 4 | (d - digits));
	}
	if (n == 8)
		put32(b, (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]);
	memcpy(out, b, SUM_LEN);
	*len = (unsigned)n / 2;
	return 0;
}
