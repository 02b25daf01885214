#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "util/parse.h"

static void sizes(void **state)
{
	static const struct {
		const char *s;
		uint64_t v;
	} ok[] = {
		{"0", 0},           {"4096", 4096},        {"4k", 4096},       {"4K", 4096},
		{"4KB", 4096},      {"4KiB", 4096},        {"4kib", 4096},     {"64KiB", 65536},
		{"1M", 1048576},    {"1m", 1048576},       {"1G", 1ull << 30}, {"2TiB", 2ull << 40},
		{"1.5G", 3ull << 29}, {"0.5k", 512},       {"512B", 512},      {"512b", 512},
		{"16E", 0},
	};

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]) - 1; i++) {
		uint64_t v = 1;
		assert_int_equal(parse_size(ok[i].s, &v), 0);
		assert_int_equal(v, ok[i].v);
	}
	uint64_t v;
	/* 16 EiB is 2^64: one past the largest size. */
	assert_int_equal(parse_size("16E", &v), -ERANGE);
	assert_int_equal(parse_size("15E", &v), 0);
	assert_int_equal(v, 15ull << 60);
	assert_int_equal(parse_size("18446744073709551615", &v), 0);
	assert_int_equal(v, UINT64_MAX);
	assert_int_equal(parse_size("18446744073709551616", &v), -ERANGE);
	assert_int_equal(parse_size("99999999999999999999999", &v), -ERANGE);
}

static void bad_sizes(void **state)
{
	static const char *bad[] = {"", "k", "64q", "-1", "4 k", "4kk", "4KiBs", "1.3", ".",
				    "0x10", "1e3", "4k ", " 4k", "4Mi"};
	uint64_t v;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(parse_size(bad[i], &v), -EINVAL);
	assert_int_equal(parse_size(NULL, &v), -EINVAL);
}

static void durations(void **state)
{
	uint64_t ns;

	assert_int_equal(parse_duration("30", &ns), 0);
	assert_int_equal(ns, 30000000000ull);
	assert_int_equal(parse_duration("30s", &ns), 0);
	assert_int_equal(ns, 30000000000ull);
	assert_int_equal(parse_duration("5m", &ns), 0);
	assert_int_equal(ns, 300000000000ull);
	assert_int_equal(parse_duration("1h", &ns), 0);
	assert_int_equal(ns, 3600000000000ull);
	assert_int_equal(parse_duration("500ms", &ns), 0);
	assert_int_equal(ns, 500000000ull);
	assert_int_equal(parse_duration("250us", &ns), 0);
	assert_int_equal(ns, 250000ull);
	assert_int_equal(parse_duration("1.5s", &ns), 0);
	assert_int_equal(ns, 1500000000ull);
	assert_int_equal(parse_duration("0", &ns), 0);
	assert_int_equal(ns, 0);
	assert_int_equal(parse_duration("-1", &ns), -EINVAL);
	assert_int_equal(parse_duration("10x", &ns), -EINVAL);
	assert_int_equal(parse_duration("s", &ns), -EINVAL);
	assert_int_equal(parse_duration("", &ns), -EINVAL);
	assert_int_equal(parse_duration("1e30h", &ns), -ERANGE);
}

static void percents_and_counts(void **state)
{
	unsigned v;
	uint64_t u;
	double d;

	assert_int_equal(parse_percent("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(parse_percent("30%", &v), 0);
	assert_int_equal(v, 30);
	assert_int_equal(parse_percent("100", &v), 0);
	assert_int_equal(parse_percent("101", &v), -ERANGE);
	assert_int_equal(parse_percent("-5", &v), -EINVAL);
	assert_int_equal(parse_percent("%", &v), -EINVAL);
	assert_int_equal(parse_uint("8", 1, 16, &v), 0);
	assert_int_equal(v, 8);
	assert_int_equal(parse_uint("0", 1, 16, &v), -ERANGE);
	assert_int_equal(parse_uint("8x", 1, 16, &v), -EINVAL);
	assert_int_equal(parse_u64("0x10", 0, 100, &u), 0);
	assert_int_equal(u, 16);
	assert_int_equal(parse_double("2.5", 0, 10, &d), 0);
	assert_true(d == 2.5);
	assert_int_equal(parse_double("nan", 0, 10, &d), -EINVAL);
	assert_int_equal(parse_double("11", 0, 10, &d), -ERANGE);
}

static void lists(void **state)
{
	uint64_t *v;
	size_t n;

	assert_int_equal(parse_list("1..16", false, &v, &n), 0);
	assert_int_equal(n, 16);
	assert_int_equal(v[0], 1);
	assert_int_equal(v[15], 16);
	free(v);
	assert_int_equal(parse_list("1..64:x2", false, &v, &n), 0);
	assert_int_equal(n, 7);
	assert_int_equal(v[6], 64);
	free(v);
	assert_int_equal(parse_list("0..100:25", false, &v, &n), 0);
	assert_int_equal(n, 5);
	assert_int_equal(v[4], 100);
	free(v);
	assert_int_equal(parse_list("4k,8k,64k,1m", true, &v, &n), 0);
	assert_int_equal(n, 4);
	assert_int_equal(v[3], 1048576);
	free(v);
	assert_int_equal(parse_list("1,2,4..16:x2", false, &v, &n), 0);
	assert_int_equal(n, 5);
	assert_int_equal(v[4], 16);
	free(v);
	assert_int_equal(parse_list("4k..16k:4k", true, &v, &n), 0);
	assert_int_equal(n, 4);
	free(v);
	assert_int_equal(parse_list("", false, &v, &n), -EINVAL);
	assert_int_equal(parse_list("5..1", false, &v, &n), -EINVAL);
	assert_int_equal(parse_list("1..8:x1", false, &v, &n), -EINVAL);
	assert_int_equal(parse_list("1..8:0", false, &v, &n), -ERANGE);
	assert_int_equal(parse_list("a,b", false, &v, &n), -EINVAL);
	assert_null(v);
	assert_int_equal(parse_list("0..100000", false, &v, &n), -ERANGE);
}

static void format_sizes(void **state)
{
	char b[32];

	assert_string_equal(fmt_size(4096, b, sizeof(b)), "4KiB");
	assert_string_equal(fmt_size(1536, b, sizeof(b)), "1536B");
	assert_string_equal(fmt_size(1ull << 30, b, sizeof(b)), "1GiB");
	assert_string_equal(fmt_size(0, b, sizeof(b)), "0B");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sizes),     cmocka_unit_test(bad_sizes),
		cmocka_unit_test(durations), cmocka_unit_test(percents_and_counts),
		cmocka_unit_test(lists),     cmocka_unit_test(format_sizes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
