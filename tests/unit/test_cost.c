#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model_helpers.h"
#include "model/cost.h"

/* Seed 003's StorSimple calculator: 750 GiB in 512 KiB chunks, prices keyed in. */
static void test_storsimple(void **state)
{
	struct cost_upload u = {750ull << 30, 0, 0.10, 0.0152, 0, NULL, NULL, NULL};
	struct cost_upload_result r;
	char err[256];

	assert_int_equal(cost_upload(&cat, &u, &r, err, sizeof(err)), 0);
	assert_int_equal(r.transactions, 1536000);
	assert_within(r.transaction_cost, 15.36, 1e-9);
	assert_within(r.storage_cost, 11.40, 1e-9);
	assert_within(r.total, 26.76, 1e-9);
	/* A partial chunk is still a transaction; 64 KiB chunks cost eight times more. */
	u.data = (750ull << 30) + 1;
	assert_int_equal(cost_upload(&cat, &u, &r, err, sizeof(err)), 0);
	assert_int_equal(r.transactions, 1536001);
	u.data = 750ull << 30;
	u.chunk = 64 << 10;
	assert_int_equal(cost_upload(&cat, &u, &r, err, sizeof(err)), 0);
	assert_within(r.transaction_cost, 122.88, 1e-9);
}

static void test_catalog_prices(void **state)
{
	struct cost_upload u = {1ull << 30, 0, -1, -1, 0, "cool", "lrs", NULL};
	struct cost_upload_result r;
	char err[256];

	assert_int_equal(cost_upload(&cat, &u, &r, err, sizeof(err)), 0);
	assert_within(r.write_per_10k, 0.10, 1e-9);
	assert_within(r.per_gb_month, 0.0152, 1e-9);
	u.tier = "archive", u.redundancy = "zrs";
	assert_int_equal(cost_upload(&cat, &u, &r, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "--write-price"));
}

static void test_config(void **state)
{
	struct model_config m;
	struct cost_breakdown b;
	char err[256], *specs[1] = {"2xP30"};

	assert_int_equal(model_config_resolve(&cat, "DS14", NULL, specs, 1, MODEL_CACHE_NONE, &m,
					      err, sizeof(err)), 0);
	assert_int_equal(cost_config(&cat, &m, 730, NULL, -1, -1, &b, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "DS14"));
	assert_int_equal(cost_config(&cat, &m, 730, NULL, 1.5, -1, &b, err, sizeof(err)), 0);
	assert_within(b.total, 1095 + 2 * 135.17, 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_storsimple), cmocka_unit_test(test_catalog_prices),
		cmocka_unit_test(test_config),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
