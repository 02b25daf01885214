/* The I/O buffers of a job (iobuf.h): one anonymous mapping, in huge pages for large I/Os. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/iobuf.h"

#define THP "/sys/kernel/mm/transparent_hugepage/"

/* The kernel's transparent huge page size, or 0 when it has none or they are turned off. */
static size_t thp_size(void)
{
	char mode[128] = "";
	unsigned long long sz = 0;
	FILE *f = fopen(THP "enabled", "re");

	if (!f)
		return 0;
	if (!fgets(mode, sizeof(mode), f))
		mode[0] = 0;
	fclose(f);
	if (!mode[0] || strstr(mode, "[never]"))
		return 0;
	if (!(f = fopen(THP "hpage_pmd_size", "re")))
		return 0;
	if (fscanf(f, "%llu", &sz) != 1)
		sz = 0;
	fclose(f);
	return sz && !(sz & (sz - 1)) && sz <= IOBUF_HUGE_MAX ? (size_t)sz : 0;
}

size_t iobuf_huge_size(uint64_t max_io)
{
	return max_io >= IOBUF_HUGE_MIN_IO ? thp_size() : 0;
}

static size_t round_up(size_t n, size_t to)
{
	return (n + to - 1) / to * to;
}

int iobuf_alloc(struct iobuf *b, size_t len, uint64_t max_io)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), huge = iobuf_huge_size(max_io), map;
	char *p, *at;

	memset(b, 0, sizeof(*b));
	len = round_up(len ? len : 1, huge ? huge : page);
	/* A huge page must lie whole inside the mapping: map one more and trim to the boundary. */
	map = len + huge;
	p = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	at = p;
	if (huge) {
		at = (char *)round_up((size_t)p, huge);
		if (at > p)
			munmap(p, (size_t)(at - p));
		if (p + map > at + len)
			munmap(at + len, (size_t)(p + map - (at + len)));
		/* Refused (a kernel without THP): the buffers stay in ordinary pages. */
		if (madvise(at, len, MADV_HUGEPAGE))
			huge = 0;
	}
	b->base = at;
	b->len = len;
	b->huge = huge;
	return 0;
}

void iobuf_release(struct iobuf *b)
{
	if (b && b->base)
		munmap(b->base, b->len);
	if (b)
		memset(b, 0, sizeof(*b));
}
