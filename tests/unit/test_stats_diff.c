/* What differs between two runs' settings (src/stats/diff.c), as codes and values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "stats/diff.h"

/* A value that differs, a key only one side has, a time kept by its _ns twin, an element. */
static void test_json_diff(void **state)
{
	json_t *a = json_pack("{s:{s:i,s:i,s:f,s:I},s:[{s:s},{s:s}]}", "params", "knob", 1, "bs",
			      4096, "time", 1.0, "time_ns", (json_int_t)1000000000, "targets",
			      "device", "sda", "device", "sdb");
	json_t *b = json_pack("{s:{s:i,s:i,s:f,s:I,s:b},s:[{s:s}]}", "params", "knob", 2, "bs",
			      4096, "time", 2.0, "time_ns", (json_int_t)2000000000, "only_b", 1,
			      "targets", "device", "sda");
	struct stats_diff d = {0};

	(void)state;
	assert_int_equal(stats_json_diff(a, b, 3, &d), 0);
	assert_int_equal(d.n, 4);
	assert_int_equal(d.item[0].kind, STATS_DIFF_VALUE);
	assert_string_equal(d.item[0].key, "params.knob");
	assert_int_equal(json_integer_value(d.item[0].a), 1);
	assert_int_equal(json_integer_value(d.item[0].b), 2);
	assert_int_equal(d.item[0].job, 3);
	/* params.time is left out: time_ns holds it exactly. */
	assert_string_equal(d.item[1].key, "params.time_ns");
	assert_string_equal(d.item[2].key, "params.only_b");
	assert_null(d.item[2].a);
	assert_true(json_is_true(d.item[2].b));
	/* The second target is only in a; the first is the same in both. */
	assert_int_equal(d.item[3].kind, STATS_DIFF_ELEMENT);
	assert_string_equal(d.item[3].key, "targets");
	assert_int_equal(d.item[3].index, 1);
	assert_false(d.item[3].only_b);
	assert_non_null(d.item[3].a);
	assert_null(d.item[3].b);
	stats_diff_free(&d);
	assert_int_equal(d.n, 0);
	/* The same object twice differs in nothing. */
	assert_int_equal(stats_json_diff(a, a, 0, &d), 0);
	assert_int_equal(d.n, 0);
	stats_diff_free(&d);
	json_decref(a);
	json_decref(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_diff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
