#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* What duration_str() writes, parse_duration() reads back exactly, in the largest whole unit. */
static void duration_strings(void **state)
{
	const uint64_t ns[] = {0, 5, 1000, 1500000, 250000000, 30000000000ull, 1000000001ull,
			       86400000000000ull};
	const char *want[] = {"0s", "5ns", "1us", "1500us", "250ms", "30s", "1000000001ns", "86400s"};
	char b[32];
	uint64_t back;

	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		duration_str(ns[i], b, sizeof(b));
		if (want[i])
			assert_string_equal(b, want[i]);
		assert_int_equal(parse_duration(b, &back), 0);
		assert_true(back == ns[i]);
	}
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
	assert_int_equal(parse_u64("18446744073709551615", 0, UINT64_MAX, &u), 0);
	assert_true(u == UINT64_MAX);
	assert_int_equal(parse_u64("18446744073709551616", 0, UINT64_MAX, &u), -ERANGE);
	assert_int_equal(parse_double("2.5", 0, 10, &d), 0);
	assert_true(d == 2.5);
	assert_int_equal(parse_double("nan", 0, 10, &d), -EINVAL);
	assert_int_equal(parse_double("11", 0, 10, &d), -ERANGE);
}

/* Counts are decimal: a leading 0 is not octal, and 0x, signs and spaces are refused. */
static void decimal_only(void **state)
{
	static const char *bad[] = {"0x10", "0X10", "+5", "-5", " 5", "5 ", "\t5", "0x", "",
				    "5x", "1e3", "0b1", "５"};
	unsigned v = 0;
	uint64_t u = 0;
	double d;

	assert_int_equal(parse_uint("010", 0, 100, &v), 0);
	assert_int_equal(v, 10);
	assert_int_equal(parse_uint("0008", 0, 100, &v), 0);
	assert_int_equal(v, 8);
	assert_int_equal(parse_percent("030%", &v), 0);
	assert_int_equal(v, 30);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse_u64(bad[i], 0, UINT64_MAX, &u), -EINVAL);
		assert_int_equal(parse_percent(bad[i], &v), -EINVAL);
	}
	assert_int_equal(parse_percent("0x32", &v), -EINVAL);
	/* strtod reads hexadecimal floats; iorate's rates and durations do not. */
	assert_int_equal(parse_double("0x10", 0, 100, &d), -EINVAL);
	assert_int_equal(parse_double("1e2", 0, 100, &d), 0);
	assert_true(d == 100);
	assert_int_equal(parse_duration("0x10", &u), -EINVAL);
	assert_int_equal(parse_duration("010", &u), 0);
	assert_true(u == 10000000000ull);
	/* Lists of counts too. */
	uint64_t *vals;
	size_t n;
	assert_int_equal(parse_list("08,0x10", false, &vals, &n), -EINVAL);
	assert_int_equal(parse_list("08..010", false, &vals, &n), 0);
	assert_int_equal(n, 3);
	assert_true(vals[0] == 8 && vals[2] == 10);
	free(vals);
}

/* fio documents 0x for its integers and sizes: only its job files read it. */
static void fio_hex(void **state)
{
	uint64_t u = 0;

	assert_int_equal(parse_u64_hex("0x32", 0, 100, &u), 0);
	assert_true(u == 50);
	assert_int_equal(parse_u64_hex("010", 0, 100, &u), 0);
	assert_true(u == 10);
	assert_int_equal(parse_u64_hex("0xff", 0, 100, &u), -ERANGE);
	assert_int_equal(parse_u64_hex("0x", 0, 100, &u), -EINVAL);
	assert_int_equal(parse_u64_hex("0xg", 0, 100, &u), -EINVAL);
	assert_int_equal(parse_u64_hex("-0x1", 0, 100, &u), -EINVAL);
	assert_int_equal(parse_u64_hex("0xffffffffffffffff", 0, UINT64_MAX, &u), 0);
	assert_true(u == UINT64_MAX);
	assert_int_equal(parse_u64_hex("0x10000000000000000", 0, UINT64_MAX, &u), -ERANGE);
	assert_int_equal(parse_size_hex("0x1000", &u), 0);
	assert_true(u == 4096);
	assert_int_equal(parse_size_hex("0x10k", &u), 0);
	assert_true(u == 16384);
	assert_int_equal(parse_size_hex("0X2MiB", &u), 0);
	assert_true(u == 2u << 20);
	assert_int_equal(parse_size_hex("4k", &u), 0);
	assert_true(u == 4096);
	assert_int_equal(parse_size_hex("0x10q", &u), -EINVAL);
	assert_int_equal(parse_size_hex("0x1000000000000000k", &u), -ERANGE);
}

static void number_why(void **state)
{
	assert_non_null(strstr(parse_number_why("0x32"), "hexadecimal"));
	assert_non_null(strstr(parse_number_why("-4"), "sign"));
	assert_non_null(strstr(parse_number_why("+4"), "sign"));
	assert_non_null(strstr(parse_number_why(" 4"), "space"));
	assert_non_null(strstr(parse_number_why("4 "), "space"));
	assert_null(parse_number_why("4q"));
	assert_null(parse_number_why(""));
	assert_null(parse_number_why(NULL));
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
	/* For reading: four digits, the exact bytes printed elsewhere. */
	assert_string_equal(fmt_size_human(512, b, sizeof(b)), "512 B");
	assert_string_equal(fmt_size_human(1536ull << 20, b, sizeof(b)), "1.5 GiB");
	assert_string_equal(fmt_size_human(100000000, b, sizeof(b)), "95.37 MiB");
	assert_string_equal(fmt_size_human(86ull << 30, b, sizeof(b)), "86 GiB");
}

/* Figures print as a reader compares them: six significant digits, integers whole. */
static void format_figures(void **state)
{
	char b[64];

	/* 75 GB of instance store in GiB. */
	assert_string_equal(fmt_figure(75e9 / 1073741824.0, b, sizeof(b)), "69.8492");
	assert_string_equal(fmt_figure(152.04352, b, sizeof(b)), "152.044");
	assert_string_equal(fmt_figure(0.00099, b, sizeof(b)), "0.00099");
	assert_string_equal(fmt_figure(0.1, b, sizeof(b)), "0.1");
	assert_string_equal(fmt_figure(1234567.8, b, sizeof(b)), "1234568");
	assert_string_equal(fmt_figure(123456.78, b, sizeof(b)), "123457");
	assert_string_equal(fmt_figure(99999.96, b, sizeof(b)), "100000");
	assert_string_equal(fmt_figure(400000, b, sizeof(b)), "400000");
	assert_string_equal(fmt_figure(-2.5, b, sizeof(b)), "-2.5");
	assert_string_equal(fmt_figure(0, b, sizeof(b)), "0");
}

/* Prices print as the list wrote them: every digit they have, no noise, no exponent. */
static void format_decimals(void **state)
{
	char b[64];

	assert_string_equal(fmt_decimal(0.00099, 0, b, sizeof(b)), "0.00099");
	assert_string_equal(fmt_decimal(0.045, 0, b, sizeof(b)), "0.045");
	/* The sum is 0.045000000000000005 as a double: the 17th digit is arithmetic's. */
	assert_string_equal(fmt_decimal(0.04 + 0.005, 0, b, sizeof(b)), "0.045");
	assert_string_equal(fmt_decimal(730 * 0.096, 0, b, sizeof(b)), "70.08");
	assert_string_equal(fmt_decimal(0.000171 * 730, 0, b, sizeof(b)), "0.12483");
	assert_string_equal(fmt_decimal(135.17, 0, b, sizeof(b)), "135.17");
	assert_string_equal(fmt_decimal(3000, 0, b, sizeof(b)), "3000");
	assert_string_equal(fmt_decimal(1200000, 0, b, sizeof(b)), "1200000");
	assert_string_equal(fmt_decimal(0.0000113, 0, b, sizeof(b)), "0.0000113");
	assert_string_equal(fmt_decimal(0.097118, 0, b, sizeof(b)), "0.097118");
	assert_string_equal(fmt_decimal(8, 2, b, sizeof(b)), "8.00");
	assert_string_equal(fmt_decimal(0.5, 2, b, sizeof(b)), "0.50");
	assert_string_equal(fmt_decimal(0.7425, 2, b, sizeof(b)), "0.7425");
	assert_string_equal(fmt_decimal(0, 0, b, sizeof(b)), "0");
	assert_string_equal(fmt_decimal(0, 2, b, sizeof(b)), "0.00");
	assert_string_equal(fmt_decimal(-1.5, 0, b, sizeof(b)), "-1.5");
	/* 240 MiB/s through MB/s and back. */
	assert_string_equal(fmt_decimal(240 * 1.048576 / 1.048576, 0, b, sizeof(b)), "240");
	assert_string_equal(fmt_decimal(123456789012345.0, 0, b, sizeof(b)), "123456789012345");
	assert_string_equal(fmt_decimal(1e300, 0, b, sizeof(b)), "1e+300");
}

/* Counts and rates take k, M, G as decimal multipliers: --iops 20k is 20000. */
static void counts_with_suffixes(void **state)
{
	uint64_t v = 0;
	double d = 0;

	assert_int_equal(parse_count("20k", 0, UINT64_MAX, &v), 0);
	assert_int_equal(v, 20000);
	assert_int_equal(parse_count("1M", 0, UINT64_MAX, &v), 0);
	assert_int_equal(v, 1000000);
	assert_int_equal(parse_count("1.5m", 0, UINT64_MAX, &v), 0);
	assert_int_equal(v, 1500000);
	assert_int_equal(parse_count("2G", 0, UINT64_MAX, &v), 0);
	assert_int_equal(v, 2000000000ull);
	assert_int_equal(parse_count("4096", 0, UINT64_MAX, &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(parse_count("1.0005k", 0, UINT64_MAX, &v), -EINVAL);
	assert_int_equal(parse_count("2e3k", 0, UINT64_MAX, &v), -EINVAL);
	assert_int_equal(parse_count("4q", 0, UINT64_MAX, &v), -EINVAL);
	assert_int_equal(parse_count("k", 0, UINT64_MAX, &v), -EINVAL);
	assert_int_equal(parse_count("4kb", 0, UINT64_MAX, &v), -EINVAL);
	assert_int_equal(parse_count("2k", 1, 1000, &v), -ERANGE);
	assert_int_equal(parse_amount("20k", 0, 1e9, &d), 0);
	assert_true(d == 20000.0);
	assert_int_equal(parse_amount("2.5", 0, 1e9, &d), 0);
	assert_true(d == 2.5);
	assert_int_equal(parse_amount("1e3", 0, 1e9, &d), 0);
	assert_true(d == 1000.0);
	assert_int_equal(parse_amount("2G", 0, 1e9, &d), -ERANGE);
	assert_int_equal(parse_amount("1e3k", 0, 1e9, &d), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sizes),     cmocka_unit_test(bad_sizes),
		cmocka_unit_test(durations), cmocka_unit_test(duration_strings),
		cmocka_unit_test(percents_and_counts),
		cmocka_unit_test(lists),     cmocka_unit_test(format_sizes),
		cmocka_unit_test(decimal_only), cmocka_unit_test(fio_hex),
		cmocka_unit_test(number_why), cmocka_unit_test(format_decimals),
		cmocka_unit_test(format_figures),
		cmocka_unit_test(counts_with_suffixes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
