#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/jsonout.h"

static void shortest_reals(void **state)
{
	static const struct {
		double d;
		const char *text;
	} cases[] = {
		{0.05, "0.05"}, {52.429, "52.429"}, {1.0, "1.0"}, {-2.5, "-2.5"},
		{1e300, "1e+300"}, {0.1 + 0.2, "0.30000000000000004"}, {1e-7, "1e-07"},
		{123456789.123456789, "123456789.12345679"}, {5000.0, "5000.0"},
		{64e6, "64000000.0"}, {1.5e-5, "0.000015"}, {1e17, "1e+17"}, {-120000.5, "-120000.5"},
	};
	char buf[40];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		jsonout_real(cases[i].d, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].text);
		assert_true(strtod(buf, NULL) == cases[i].d);
	}
}

/* Reals anywhere are rewritten, strings that look like numbers are not, and it reads back. */
static void document_round_trip(void **state)
{
	json_t *o = json_pack("{s:f, s:[f, i, s], s:{s:f}}", "a", 0.05, "b", 52.429, (json_int_t)7,
			      "x \"0.050000000000000003\" \\ 1.5", "c", "d", 3.0);
	char *t = jsonout_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
	json_t *back = json_loads(t, 0, NULL);

	assert_string_equal(t, "{\"a\":0.05,\"b\":[52.429,7,\"x \\\"0.050000000000000003\\\" "
			       "\\\\ 1.5\"],\"c\":{\"d\":3.0}}");
	assert_true(json_equal(o, back));
	free(t);
	json_decref(back);
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shortest_reals),
		cmocka_unit_test(document_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
