/* The job's I/O buffers: aligned for O_DIRECT, in huge pages only for I/Os of several pages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/iobuf.h"

/* The smaps field `key` of the mapping that holds p, or -1 when not found. */
static long smaps_field(const void *p, const char *key)
{
	FILE *f = fopen("/proc/self/smaps", "re");
	char line[256];
	unsigned long lo, hi, at = (unsigned long)p;
	bool in = false;
	long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		/* A mapping's first line is "lo-hi perms ..."; no field name ("Name: value") holds
		 * a '-', so only that line scans as two numbers. */
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
			in = at >= lo && at < hi;
		else if (in && !strncmp(line, key, strlen(key)) && line[strlen(key)] == ':')
			v = strtol(line + strlen(key) + 1, NULL, 10);
	}
	fclose(f);
	return v;
}

/* Small I/Os: whole pages, page-aligned, no huge page asked for, and writable. */
static void small_ios_take_pages(void **state)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct iobuf b;

	(void)state;
	assert_int_equal(iobuf_alloc(&b, 3 * 4096 + 1, 4096), 0);
	assert_non_null(b.base);
	assert_int_equal((uintptr_t)b.base % page, 0);
	assert_int_equal(b.len % page, 0);
	assert_true(b.len >= 3 * 4096 + 1);
	assert_int_equal(b.huge, 0);
	assert_int_equal(iobuf_huge_size(IOBUF_HUGE_MIN_IO - 1), 0);
	memset(b.base, 0xa5, b.len);
	iobuf_release(&b);
	assert_null(b.base);
	assert_int_equal(b.len, 0);
}

/*
 * Large I/Os, where the kernel has transparent huge pages: the mapping starts on a huge page,
 * is whole huge pages, and the kernel takes it as eligible (THPeligible), whatever it can
 * allocate at the moment. Elsewhere they are pages, as for small I/Os.
 */
static void large_ios_ask_for_huge_pages(void **state)
{
	size_t huge = iobuf_huge_size(256 << 10);
	struct iobuf b;

	(void)state;
	assert_int_equal(iobuf_alloc(&b, 16 * (256 << 10), 256 << 10), 0);
	assert_true(b.len >= 16 * (256 << 10));
	assert_int_equal(b.huge, huge);
	if (huge) {
		assert_int_equal((uintptr_t)b.base % huge, 0);
		assert_int_equal(b.len % huge, 0);
		long eligible = smaps_field(b.base, "THPeligible");
		if (eligible >= 0)
			assert_int_equal(eligible, 1);
	}
	memset(b.base, 0x5a, b.len);
	assert_int_equal(((unsigned char *)b.base)[b.len - 1], 0x5a);
	iobuf_release(&b);
}

/* Releasing twice, or what was never allocated, does nothing. */
static void release_is_safe(void **state)
{
	struct iobuf b = {0};

	(void)state;
	iobuf_release(&b);
	iobuf_release(NULL);
	assert_int_equal(iobuf_alloc(&b, 0, 0), 0);
	assert_true(b.len > 0);
	iobuf_release(&b);
	iobuf_release(&b);
	assert_null(b.base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(small_ios_take_pages),
		cmocka_unit_test(large_ios_ask_for_huge_pages),
		cmocka_unit_test(release_is_safe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
