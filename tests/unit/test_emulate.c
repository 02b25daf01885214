#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "model_helpers.h"
#include "model/catalog.h"
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
	/* Dsv3 size series (dsv3-series.md, ms.date 09/24/2024): the VM's burst columns. */
	assert_int_equal(emulate_profile("azure:D8s_v3+4xP30", &d, &n, &v, &unit, err,
					 sizeof(err)), 0);
	assert_within(v.iops, 12800, 0.01);
	assert_within(v.burst_iops, 16000, 0.01);
	assert_within(v.burst_mbps, 400, 0.01);
	assert_within(v.burst_seconds, 1800, 0.01);
	/* Dsv6 sizes series (dsv6-series.md): Premium SSD v2 meets its own column, burst too. */
	assert_int_equal(emulate_profile("azure:D16s_v6+2xpv2:64GiB:iops=20000", &d, &n, &v,
					 &unit, err, sizeof(err)), 0);
	assert_within(v.iops, 33333, 0.01);
	assert_within(v.mbps, 992, 0.01);
	assert_within(v.burst_iops, 52083, 0.01);
	assert_within(v.burst_mbps, 1463, 0.01);
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

/* A catalog loaded once and passed in gives what emulate_profile() gives, refusals too. */
static void test_profile_in(void **state)
{
	const char *profiles[] = {"azure-2015:DS2+2xP30", "azure:D8s_v5+4xP20",
				  "aws:m5.large+gp3:1TiB", "azure-2015:DS2+P31", "DS2"};
	struct catalog c;
	char err[256], err_in[256];

	assert_int_equal(catalog_open_default(&c, err, sizeof(err)), 0);
	for (size_t i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++) {
		struct job_caps d = {0}, v = {0}, d_in = {0}, v_in = {0};
		unsigned n = 0, n_in = 0;
		uint64_t unit = 0, unit_in = 0;
		int r = emulate_profile(profiles[i], &d, &n, &v, &unit, err, sizeof(err));

		assert_int_equal(emulate_profile_in(&c, profiles[i], &d_in, &n_in, &v_in, &unit_in,
						    err_in, sizeof(err_in)), r);
		if (r) {
			assert_string_equal(err_in, err);
			continue;
		}
		assert_memory_equal(&d_in, &d, sizeof(d));
		assert_memory_equal(&v_in, &v, sizeof(v));
		assert_int_equal(n_in, n);
		assert_int_equal(unit_in, unit);
	}
	catalog_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profiles), cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_profile_in),
	};

	/* emulate_profile() reads the layered catalog: no installed or user layer here. */
	setenv("IORATE_CATALOG_DIR", "/nonexistent/iorate-test", 1);
	setenv("XDG_DATA_HOME", "/nonexistent/iorate-test", 1);
	return cmocka_run_group_tests(tests, setup, teardown);
}
