/* src/core/ranks.c: target templates, the clash check, and summing ranks' results. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/ranks.h"

static void test_expand(void **state)
{
	char out[64], err[128];

	assert_int_equal(ranks_expand("/var/tmp/iorate.%r.dat", 3, "node7.example.org", out,
				      sizeof(out), err, sizeof(err)), 0);
	assert_string_equal(out, "/var/tmp/iorate.3.dat");
	assert_int_equal(ranks_expand("/d/%h-%r-%%r", 12, "node7.example.org", out, sizeof(out),
				      err, sizeof(err)), 0);
	assert_string_equal(out, "/d/node7-12-%r");
	assert_int_equal(ranks_expand("plain", 0, "h", out, sizeof(out), err, sizeof(err)), 0);
	assert_string_equal(out, "plain");
	assert_int_equal(ranks_expand("", 0, "h", out, sizeof(out), err, sizeof(err)), 0);
	assert_string_equal(out, "");
}

static void test_expand_errors(void **state)
{
	char out[8], err[128];

	assert_int_equal(ranks_expand("/a/%x", 0, "h", out, sizeof(out), err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "'%x'"));
	assert_int_equal(ranks_expand("/a%", 0, "h", out, sizeof(out), err, sizeof(err)), -EINVAL);
	/* 7 characters fit an 8-byte buffer, 8 do not. */
	assert_int_equal(ranks_expand("1234567", 0, "h", out, sizeof(out), err, sizeof(err)), 0);
	assert_int_equal(ranks_expand("123456%r", 10, "h", out, sizeof(out), err, sizeof(err)),
			 -ENAMETOOLONG);
}

static void test_clash(void **state)
{
	struct rank_target t[] = {
		{0, "a", "/x", true}, {1, "b", "/x", true},   /* other hosts: no clash */
		{2, "a", "/dev/sdb", false}, {3, "a", "/dev/sdb", false}, /* both only read */
		{4, "b", "/y", false}, {5, "b", "/y", true},  /* one writes: clash */
	};
	unsigned a = 99, b = 99;

	assert_true(ranks_find_clash(t, 6, &a, &b));
	assert_int_equal(a, 4);
	assert_int_equal(b, 5);
	assert_false(ranks_find_clash(t, 4, &a, &b));
	/* Two targets of one rank naming one file are the runner's business, not a clash. */
	struct rank_target same[] = {{0, "a", "/x", true}, {0, "a", "/x", true}};
	assert_false(ranks_find_clash(same, 2, &a, &b));
	struct rank_target two[] = {{0, "a", "/x", true}, {1, "a", "/x", true}};
	assert_true(ranks_find_clash(two, 2, &a, &b));
}

static void test_count_hosts(void **state)
{
	const char *h[] = {"a", "b", "a", "c", "b"};

	assert_int_equal(ranks_count_hosts(h, 5), 3);
	assert_int_equal(ranks_count_hosts(h, 1), 1);
	assert_int_equal(ranks_count_hosts(h, 0), 0);
}

static void test_series_add(void **state)
{
	struct series_point a[2] = {{.t = 1, .seconds = 1, .read_ios = 10, .read_bytes = 100,
				     .p99_ns = 5},
				    {.t = 1.5, .seconds = 0.5, .write_ios = 4, .p99_ns = 9}};
	struct series_point b[3] = {{.t = 1, .seconds = 1, .read_ios = 1, .read_bytes = 7,
				     .p99_ns = 8},
				    {.t = 2, .seconds = 1, .write_ios = 2, .write_bytes = 3},
				    {.t = 2.25, .seconds = 0.25, .read_ios = 6}};
	struct series_point *sum = NULL;
	unsigned n = 0;

	assert_int_equal(ranks_series_add(&sum, &n, a, 2), 0);
	assert_int_equal(ranks_series_add(&sum, &n, b, 3), 0);
	assert_int_equal(n, 3);
	assert_int_equal(sum[0].read_ios, 11);
	assert_int_equal(sum[0].read_bytes, 107);
	assert_int_equal(sum[0].p99_ns, 8);
	assert_int_equal(sum[1].write_ios, 6);
	assert_int_equal(sum[1].write_bytes, 3);
	assert_int_equal(sum[1].p99_ns, 9);
	assert_true(sum[1].t == 2 && sum[1].seconds == 1);
	assert_int_equal(sum[2].read_ios, 6);
	assert_true(sum[2].credit_iops < 0 && sum[2].credit_mbps < 0);
	free(sum);
}

static void test_add_targets(void **state)
{
	struct result agg;
	struct target_result t[2];

	result_init(&agg);
	memset(t, 0, sizeof(t));
	for (int i = 0; i < 2; i++) {
		dir_stats_init(&t[i].read);
		dir_stats_init(&t[i].write);
		dir_stats_init(&t[i].trim);
		dir_stats_add(&t[i].read, 4096, 1000 * (i + 1));
	}
	t[0].path = "/a.0";
	t[1].path = "/a.1";
	assert_int_equal(ranks_add_targets(&agg, t, 1), 0);
	assert_int_equal(ranks_add_targets(&agg, t + 1, 1), 0);
	assert_int_equal(agg.ntargets, 2);
	assert_string_equal(agg.targets[1].path, "/a.1");
	assert_ptr_not_equal(agg.targets[1].path, t[1].path);
	assert_int_equal(agg.targets[1].read.lat_max, 2000);
	assert_int_equal(agg.read.ios, 0);
	/* The copies have histograms of their own. */
	assert_ptr_not_equal(agg.targets[1].read.hist, t[1].read.hist);
	assert_int_equal(hist_count(agg.targets[1].read.hist), 1);
	result_release(&agg);
	for (int i = 0; i < 2; i++)
		dir_stats_release(&t[i].read);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expand),
		cmocka_unit_test(test_expand_errors),
		cmocka_unit_test(test_clash),
		cmocka_unit_test(test_count_hosts),
		cmocka_unit_test(test_series_add),
		cmocka_unit_test(test_add_targets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
