#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "model_helpers.h"
#include "model/emulate.h"

static void test_profiles(void **state)
{
	struct job_caps d, v;
	unsigned n;
	uint64_t unit;
	char err[256];

	assert_int_equal(emulate_profile("azure-2015:DS2+2xP30", &d, &n, &v, &unit, err,
					 sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_within(d.iops, 5000, 0.01);
	assert_within(d.mbps, 200, 0.01);
	assert_within(v.iops, 6400, 0.01);
	/* DS caps of 2015 were MiB/s in practice (the 2015 normalian post measured 64 MiB/s). */
	assert_within(v.mbps, 64 * 1.048576, 0.01);
	assert_int_equal(unit, 256 * 1024);
	assert_int_equal(emulate_profile("azure-2015:A4+16xstandard", &d, &n, &v, &unit, err,
					 sizeof(err)), 0);
	assert_int_equal(n, 16);
	assert_within(d.iops, 500, 0.01);
	assert_within(v.mbps, 300, 0.01);
	assert_int_equal(unit, 0);
	assert_int_equal(emulate_profile("azure:D8s_v5+4xP20", &d, &n, &v, &unit, err,
					 sizeof(err)), 0);
	assert_within(d.burst_iops, 3500, 0.01);
	assert_within(d.burst_seconds, 1800, 0.01);
	assert_within(v.burst_iops, 20000, 0.01);
	assert_int_equal(emulate_profile("aws:m5.large+gp3:1TiB", &d, &n, &v, &unit, err,
					 sizeof(err)), 0);
	assert_within(d.iops, 3000, 0.01);
	assert_within(v.iops, 3600, 0.01);
}

static void test_unknown(void **state)
{
	struct job_caps d, v;
	unsigned n;
	uint64_t unit;
	char err[256];

	assert_int_equal(emulate_profile("azure-2015:DS3x+P30", &d, &n, &v, &unit, err,
					 sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "DS3"));
	assert_int_equal(emulate_profile("azure-2015:DS2+P31", &d, &n, &v, &unit, err,
					 sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "P30"));
	assert_int_equal(emulate_profile("DS2", &d, &n, &v, &unit, err, sizeof(err)), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profiles), cmocka_unit_test(test_unknown),
	};

	/* emulate_profile() reads the layered catalog: no installed or user layer here. */
	setenv("IORATE_CATALOG_DIR", "/nonexistent/iorate-test", 1);
	setenv("XDG_DATA_HOME", "/nonexistent/iorate-test", 1);
	return cmocka_run_group_tests(tests, setup, teardown);
}
