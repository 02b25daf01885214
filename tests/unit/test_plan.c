#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model_helpers.h"
#include "model/plan.h"

/* Each provider's built-in prices give answers for 20,000 IOPS on 2 TiB, cheapest first. */
static void test_cheapest_meets_target(void **state)
{
	static const char *const prov[] = {"azure", "aws", "gcp"};

	for (unsigned k = 0; k < 3; k++) {
		struct plan_target t = {20000, 0, 0, 2ull << 40, 4096, 0, prov[k], NULL, 3};
		struct plan_result r;

		assert_int_equal(plan_search(&cat, &t, &r), 0);
		assert_true(r.n > 0 && r.n <= 3);
		for (unsigned i = 0; i < r.n; i++) {
			assert_string_equal(r.options[i].config.vm->catalog, prov[k]);
			assert_true(r.options[i].result.iops >= 20000 * 0.9999);
			assert_true(r.options[i].cost.total > 0);
			assert_string_equal(r.options[i].cost.currency, "USD");
			if (i)
				assert_true(r.options[i].cost.total >= r.options[i - 1].cost.total);
		}
		plan_result_free(&r);
	}
}

static void test_impossible(void **state)
{
	struct plan_target t = {9e6, 0, 0, 0, 4096, 0, NULL, NULL, 0};
	struct plan_result r;

	assert_int_equal(plan_search(&cat, &t, &r), 0);
	assert_int_equal(r.n, 0);
	assert_non_null(strstr(r.unmet, "--iops"));
	plan_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cheapest_meets_target), cmocka_unit_test(test_impossible),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
