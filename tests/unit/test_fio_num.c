/* fio's numbers as src/compat/fio_num.c reads them: arithmetic, units, bools, refusals. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "compat/fio.h"

static int64_t arith(const char *s)
{
	int64_t v = -12345;
	const char *why = NULL;

	if (fio_arith(s, &v, &why))
		fail_msg("%s: refused: %s", s, why);
	return v;
}

/* The refusal of s, whose reason must contain want. */
static void arith_refused(const char *s, const char *want)
{
	int64_t v = 0;
	const char *why = NULL;

	assert_int_equal(fio_arith(s, &v, &why), -EINVAL);
	if (!why || !strstr(why, want))
		fail_msg("%s: '%s', not '%s'", s, why ? why : "(none)", want);
}

static void test_arith(void **state)
{
	(void)state;
	assert_int_equal(arith("1+2*3"), 7);
	assert_int_equal(arith(" ( 1 + 2 ) * 3 "), 9);
	assert_int_equal(arith("2^10"), 1024);
	/* ^ binds right to left, and tighter than * */
	assert_int_equal(arith("2^3^2"), 512);
	assert_int_equal(arith("3*2^2"), 12);
	assert_int_equal(arith("-3+5"), 2);
	assert_int_equal(arith("10-4-3"), 3);
	assert_int_equal(arith("7/2"), 3);
	assert_int_equal(arith("100/10/5"), 2);
	assert_int_equal(arith("7%4"), 3);
	assert_int_equal(arith("2^0"), 1);
	assert_int_equal(arith("9223372036854775807"), INT64_MAX);
	assert_int_equal(arith("-9223372036854775807-1"), INT64_MIN);
}

static void test_arith_refused(void **state)
{
	char deep[200];

	(void)state;
	arith_refused("1/0", "divides by zero");
	arith_refused("5%0", "divides by zero");
	arith_refused("(-9223372036854775807-1)/-1", "divides by zero");
	arith_refused("2^-1", "negative exponent");
	arith_refused("(1+2", "unclosed parenthesis");
	arith_refused("1+2)", "unopened parenthesis");
	arith_refused("1.5", "a unit or a fraction");
	arith_refused("4k", "a unit or a fraction");
	arith_refused("abc", "not arithmetic");
	arith_refused("1 2", "not arithmetic");
	arith_refused("9223372036854775807+1", "64 bits");
	arith_refused("-9223372036854775807-2", "64 bits");
	arith_refused("99999999999999999999", "64 bits");
	arith_refused("2^63", "64 bits");
	arith_refused("4294967296*4294967296", "64 bits");
	arith_refused("-(-9223372036854775807-1)", "64 bits");
	memset(deep, '(', 65);
	strcpy(deep + 65, "1");
	memset(deep + 66, ')', 65);
	deep[131] = '\0';
	arith_refused(deep, "too deep");
	/* 64 levels are read */
	deep[130] = '\0';
	assert_int_equal(arith(deep + 1), 1);
}

static uint64_t number(const char *s, enum fio_unit unit, unsigned kb_base)
{
	uint64_t v = 12345;
	const char *why = NULL;

	if (fio_number(s, unit, kb_base, &v, NULL, &why))
		fail_msg("%s: refused: %s", s, why);
	return v;
}

static void number_refused(const char *s, enum fio_unit unit, const char *want)
{
	uint64_t v = 0;
	bool pct = true;
	const char *why = NULL;

	assert_int_equal(fio_number(s, unit, 1024, &v, &pct, &why), -EINVAL);
	if (!why || !strstr(why, want))
		fail_msg("%s: '%s', not '%s'", s, why ? why : "(none)", want);
}

static void test_number(void **state)
{
	bool pct = true;
	uint64_t v = 0;
	const char *why = NULL;

	(void)state;
	assert_int_equal(number("4096", FIO_BYTES, 1024), 4096);
	assert_int_equal(number("4k", FIO_BYTES, 1024), 4096);
	assert_int_equal(number("4kb", FIO_BYTES, 1024), 4096);
	assert_int_equal(number("4ki", FIO_BYTES, 1024), 4096);
	assert_int_equal(number("8b", FIO_BYTES, 1024), 8);
	/* fio swaps the bases: "KiB" is the other base than kb_base */
	assert_int_equal(number("4KiB", FIO_BYTES, 1024), 4000);
	assert_int_equal(number("4KiB", FIO_BYTES, 1000), 4096);
	assert_int_equal(number("4k", FIO_BYTES, 1000), 4000);
	assert_int_equal(number("3m", FIO_BYTES, 1024), 3ull << 20);
	assert_int_equal(number("2g", FIO_COUNT, 1024), 2ull << 30);
	assert_int_equal(number("1t", FIO_BYTES, 1024), 1ull << 40);
	assert_int_equal(number("1P", FIO_BYTES, 1024), 1ull << 50);
	assert_int_equal(number("0x10", FIO_BYTES, 1024), 16);
	assert_int_equal(number("0XfF", FIO_COUNT, 1024), 255);
	assert_int_equal(number("(2*3)", FIO_BYTES, 1024), 6);
	/* times come out in nanoseconds; arithmetic in them counts microseconds */
	assert_int_equal(number("10", FIO_SECONDS, 1024), 10000000000ull);
	assert_int_equal(number("10", FIO_MICROSECONDS, 1024), 10000);
	assert_int_equal(number("(2*3)", FIO_SECONDS, 1024), 6000);
	assert_int_equal(number("(7)", FIO_MICROSECONDS, 1024), 7000);
	assert_int_equal(number("250us", FIO_SECONDS, 1024), 250000);
	assert_int_equal(number("3usec", FIO_SECONDS, 1024), 3000);
	assert_int_equal(number("10ms", FIO_SECONDS, 1024), 10000000);
	assert_int_equal(number("2msec", FIO_MICROSECONDS, 1024), 2000000);
	assert_int_equal(number("2s", FIO_MICROSECONDS, 1024), 2000000000ull);
	assert_int_equal(number("2M", FIO_SECONDS, 1024), 120000000000ull);
	assert_int_equal(number("1h", FIO_SECONDS, 1024), 3600000000000ull);
	assert_int_equal(number("1d", FIO_SECONDS, 1024), 86400000000000ull);
	/* a percentage, where the caller takes one */
	assert_int_equal(fio_number("50%", FIO_BYTES, 1024, &v, &pct, &why), 0);
	assert_true(pct);
	assert_int_equal(v, 50);
	assert_int_equal(fio_number("100%", FIO_BYTES, 1024, &v, &pct, &why), 0);
	assert_int_equal(v, 100);
	assert_int_equal(fio_number("4k", FIO_BYTES, 1024, &v, &pct, &why), 0);
	assert_false(pct);
}

static void test_number_refused(void **state)
{
	(void)state;
	number_refused("", FIO_BYTES, "is empty");
	number_refused("-1", FIO_BYTES, "below 0");
	number_refused("(1-2)", FIO_BYTES, "below 0");
	number_refused("(1/0)", FIO_BYTES, "divides by zero");
	number_refused("abc", FIO_BYTES, "not a number");
	number_refused("1.5k", FIO_BYTES, "fraction");
	number_refused("0x10k", FIO_BYTES, "hexadecimal");
	number_refused("0x", FIO_BYTES, "not a number");
	number_refused("150%", FIO_BYTES, "above 100");
	number_refused("50%", FIO_COUNT, "unknown unit (k, m");
	number_refused("99999999999999999999", FIO_BYTES, "64 bits");
	number_refused("0x10000000000000000", FIO_BYTES, "64 bits");
	number_refused("17179869184g", FIO_BYTES, "64 bits");
	number_refused("(9223372036854775807)", FIO_SECONDS, "64 bits");
	number_refused("4x", FIO_BYTES, "unknown unit (k, m");
	number_refused("4kx", FIO_BYTES, "unknown unit (k, m");
	number_refused("4kibibytes", FIO_BYTES, "unknown unit (k, m");
	number_refused("4z", FIO_BYTES, "zones");
	number_refused("10sec", FIO_SECONDS, "microseconds");
	number_refused("10w", FIO_SECONDS, "unknown unit (us, ms");
	number_refused("10seconds", FIO_MICROSECONDS, "unknown unit (us, ms");
}

static void test_bool(void **state)
{
	bool b = true;
	const char *why = NULL;

	(void)state;
	assert_int_equal(fio_bool("0", &b, &why), 0);
	assert_false(b);
	assert_int_equal(fio_bool("1", &b, &why), 0);
	assert_true(b);
	assert_int_equal(fio_bool("0x0", &b, &why), 0);
	assert_false(b);
	assert_int_equal(fio_bool("0X1", &b, &why), 0);
	assert_true(b);
	for (const char *const *s = (const char *const[]){"2", "yes", "", "1x", "-1", NULL}; *s;
	     s++) {
		why = NULL;
		assert_int_equal(fio_bool(*s, &b, &why), -EINVAL);
		assert_string_equal(why, "is not 0 or 1");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arith), cmocka_unit_test(test_arith_refused),
		cmocka_unit_test(test_number), cmocka_unit_test(test_number_refused),
		cmocka_unit_test(test_bool),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
