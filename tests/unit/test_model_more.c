/*
 * The model's refusals of a malformed catalog, each with the field it names, and the host
 * cache's skews: which it refuses and the share of reads the hottest part of each draws.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "model/catalog.h"
#include "model/hostcache.h"

#define DISK(extra) "{\"catalog\": \"t\", \"disks\": [{\"name\": \"X1\", \"gib\": 4, " \
	"\"iops\": 100, \"source\": \"s\", \"date\": \"d\"" extra "}]}"
#define VM(extra) "{\"catalog\": \"t\", \"vms\": [{\"name\": \"v1\", \"vcpus\": 2, " \
	"\"source\": \"s\", \"date\": \"d\"" extra "}]}"
#define SERIES(extra) "{\"catalog\": \"t\", \"series\": [{\"name\": \"n9\", " \
	"\"source\": \"s\", \"date\": \"d\"" extra "}]}"
#define PRICE(extra) "{\"catalog\": \"t\", \"prices\": [{\"kind\": \"disk\", \"name\": " \
	"\"X1\", \"currency\": \"USD\", \"source\": \"s\", \"date\": \"d\"" extra "}]}"

/* Each malformed document with what its one-line refusal says. */
static const struct {
	const char *text, *says;
} refused[] = {
	{"[]", "t.json: expected a JSON object"},
	{"{\"catalog\": \"t\", \"bogus\": 1}", "t.json:1: unknown top-level field 'bogus'"},
	{"{\"catalog\": \"t\", \"disks\": {}}", "t.json:1: field 'disks': expected an array"},
	{"{\"disks\": []}", "t.json: missing field 'catalog'"},
	{"{\"catalog\": \"t\", \"disks\": [1]}", "expected an object"},
	{"{\"catalog\": \"t\", \"vms\": [1]}", "expected an object"},
	{"{\"catalog\": \"t\", \"prices\": [1]}", "expected an object"},
	{"{\"catalog\": \"t\", \"accounts\": [1]}", "expected an object"},
	{"{\"catalog\": \"t\", \"disks\": [{\"name\": \"X1\", \"gib\": 4, \"date\": \"d\"}]}",
	 "missing field 'source'"},
	{"{\"catalog\": \"t\", \"disks\": [{\"name\": \"X1\", \"gib\": 4, \"source\": \"s\"}]}",
	 "missing field 'date'"},
	{"{\"catalog\": \"t\", \"vms\": [{\"name\": \"v\", \"source\": \"s\"}]}",
	 "missing field 'date'"},
	{"{\"catalog\": \"t\", \"vms\": [{\"name\": \"v\", \"date\": \"d\"}]}",
	 "missing field 'source'"},
	{"{\"catalog\": \"t\", \"accounts\": [{\"name\": \"a\", \"source\": \"s\"}]}",
	 "missing field 'date'"},
	{"{\"catalog\": \"t\", \"accounts\": [{\"source\": \"s\", \"date\": \"d\"}]}",
	 "missing field 'name'"},
	{"{\"catalog\": \"t\", \"prices\": [{\"kind\": \"vm\", \"source\": \"s\", \"date\": \"d\"}]}",
	 "missing field 'name'"},
	{"{\"catalog\": \"t\", \"prices\": [{\"kind\": \"vm\", \"name\": \"n\", \"date\": \"d\"}]}",
	 "missing field 'source'"},
	{DISK(", \"mbps_steps\": [[1]]"), "field 'mbps_steps': expected up to 8 pairs"},
	{DISK(", \"mbps_steps\": [1]"), "field 'mbps_steps': expected up to 8 pairs"},
	{DISK(", \"mbps_steps\": [[1, \"a\"]]"), "field 'mbps_steps': expected up to 8 pairs"},
	{DISK(", \"mbps_steps\": [[\"a\", 1]]"), "field 'mbps_steps': expected up to 8 pairs"},
	{DISK(", \"mbps_steps\": [[1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, 6], [7, 7], "
	      "[8, 8], [9, 9]]"), "field 'mbps_steps': expected up to 8 pairs"},
	{DISK(", \"mbps_by_iops\": [[1, 2]]"), "field 'mbps_by_iops': expected up to 4 rows"},
	{DISK(", \"mbps_by_iops\": [[1, -2, 3]]"), "field 'mbps_by_iops': expected up to 4 rows"},
	{DISK(", \"mbps_by_iops\": [[5, 1, 1], [3, 1, 1]]"),
	 "field 'mbps_by_iops': expected up to 4 rows"},
	{DISK(", \"mbps_by_iops\": [[1, 1, 1], [2, 1, 1], [3, 1, 1], [4, 1, 1], [5, 1, 1]]"),
	 "field 'mbps_by_iops': expected up to 4 rows"},
	{DISK(", \"cache_rule\": \"2016\""), "field 'cache_rule': must be \"current\" or \"2015\""},
	{DISK(", \"default_cache\": \"always\""),
	 "field 'default_cache': must be none, readonly or readwrite"},
	{"{\"catalog\": \"t\", \"disks\": [{\"name\": \"X1\", \"source\": \"s\", \"date\": \"d\"}]}",
	 "field 'gib': a fixed-size disk needs its size"},
	{VM(", \"caps_by_family\": [1]"), "caps_by_family[0]: expected an object (at most 8)"},
	{VM(", \"caps_by_family\": [{\"iops\": 1}]"), "caps_by_family[0]: missing field 'family'"},
	{VM(", \"controllers\": [\"ide\"], \"controller\": \"ide\""),
	 "field 'controllers': each must be \"scsi\" or \"nvme\""},
	{VM(", \"controllers\": [2], \"controller\": \"scsi\""),
	 "field 'controllers': each must be \"scsi\" or \"nvme\""},
	{VM(", \"controller\": \"ide\""), "field 'controller': must be \"scsi\" or \"nvme\""},
	{VM(", \"controllers\": [\"scsi\"], \"controller\": \"nvme\""),
	 "field 'controller': must be \"scsi\" or \"nvme\", one of its controllers"},
	{VM(", \"controllers\": [\"scsi\"]"), "field 'controllers' needs a 'controller'"},
	{VM(", \"caps_by_family\": [{\"family\": \"p\", \"controller\": \"nvme\"}]"),
	 "caps_by_family[0]: field 'controller': must be one of the VM's 'controllers'"},
	{VM(", \"max_disks_by_type\": []"), "max_disks_by_type: expected an object of at most 8"},
	{VM(", \"max_disks_by_type\": {\"a*b\": 1}"), "'*' may only end a key"},
	{VM(", \"max_disks_by_type\": {\"a\": -1}"), "a: expected a whole number from 0 to 100000"},
	{VM(", \"max_disks_by_type\": {\"a\": 1.5}"), "a: expected a whole number from 0 to 100000"},
	{VM(", \"max_disks_by_type\": {\"a\": 100001}"),
	 "a: expected a whole number from 0 to 100000"},
	{VM(", \"max_gib_by_type\": {\"a\": 1, \"b\": 1, \"c\": 1, \"d\": 1, \"e\": 1}"),
	 "max_gib_by_type: expected an object of at most 4"},
	{PRICE(", \"per_iops_month_above\": [[0, 1]]"), "'per_iops_month_above': expected up to"},
	{PRICE(", \"per_iops_month_above\": [[5, 1], [3, 1]]"),
	 "'per_iops_month_above': expected up to"},
	{PRICE(", \"per_iops_month_above\": [[5, -1]]"), "'per_iops_month_above': expected up to"},
	{PRICE(", \"per_iops_month_above\": [5]"), "'per_iops_month_above': expected up to"},
	{PRICE(", \"per_iops_month_above\": [[5, \"a\"]]"),
	 "'per_iops_month_above': expected up to"},
	{PRICE(", \"per_iops_month_above\": [[5, 1e9]]"), "field 'per_iops_month_above'"},
	{PRICE(", \"per_month\": -1"), "field 'per_month'"},
	{"{\"catalog\": \"t\", \"series\": [1]}", "series[0]: expected an object"},
	{"{\"catalog\": \"t\", \"series\": [{\"source\": \"s\", \"date\": \"d\"}]}",
	 "missing field 'name'"},
	{"{\"catalog\": \"t\", \"series\": [{\"name\": \"n9\", \"date\": \"d\"}]}",
	 "missing field 'source'"},
	{"{\"catalog\": \"t\", \"series\": [{\"name\": \"n9\", \"source\": \"s\"}]}",
	 "missing field 'date'"},
	{SERIES(""), "field 'caps': expected an array of rows"},
	{SERIES(", \"caps\": [1]"), "caps[0]: expected an object"},
	{SERIES(", \"caps\": [{\"iops\": 1}]"), "caps[0]: missing field 'family'"},
	{SERIES(", \"caps\": [{\"family\": \"pd\", \"vcpus_min\": 8, \"vcpus_max\": 4}]"),
	 "caps[0]: field 'vcpus_min': above vcpus_max"},
	{SERIES(", \"caps\": [{\"family\": \"pd\", \"vcpus_min\": -1}]"),
	 "field 'vcpus_min': expected a non-negative number"},
	{SERIES(", \"caps\": [{\"family\": \"pd\", \"iops\": \"many\"}]"),
	 "field 'iops': expected a non-negative number"},
	{SERIES(", \"caps\": [{\"family\": 2}]"), "field 'family': expected a string"},
	{SERIES(", \"caps\": [{\"family\": \"pd\", \"speed\": 1}]"),
	 "caps[0]: unknown field 'speed'"},
	{DISK(", \"units\": \"GB/s\""), "field 'units': must be \"MB/s\", \"MiB/s\""},
	{DISK(", \"units\": {\"default\": \"GB/s\"}"), "field 'units': must be"},
	{DISK(", \"units\": {\"vcpus\": \"MiB/s\"}"),
	 "field 'units': 'vcpus' is not a throughput figure of this entry"},
	{DISK(", \"premium\": 1"), "field 'premium': expected true or false"},
};

static void test_refused(void **state)
{
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		struct catalog c = {0};
		int ret = catalog_load_text(&c, "t.json", refused[i].text, err, sizeof(err));

		if (ret != -EINVAL || !strstr(err, refused[i].says))
			fail_msg("%s: %d '%s', not '%s'", refused[i].text, ret, err,
				 refused[i].says);
		/* One line. */
		assert_null(strchr(err, '\n'));
		catalog_release(&c);
	}
}

/* The documents above less their one fault load. */
static void test_accepted(void **state)
{
	static const char *const ok[] = {
		DISK(", \"mbps_steps\": [[1, 10], [100, 20]], \"cache_rule\": \"2015\", "
		     "\"default_cache\": \"readonly\""),
		DISK(", \"mbps_by_iops\": [[0, 0.25, 1000], [32000, 0.5, 4000]]"),
		VM(", \"controllers\": [\"scsi\", \"nvme\"], \"controller\": \"nvme\", "
		   "\"caps_by_family\": [{\"family\": \"p\", \"controller\": \"scsi\"}], "
		   "\"max_disks_by_type\": {\"hyperdisk-*\": 8, \"a\": 100000}"),
		SERIES(", \"units\": \"MiB/s\", \"caps\": [{\"family\": \"pd\", \"mbps\": 100, "
		       "\"vcpus_min\": 2, \"vcpus_max\": 8}]"),
		PRICE(", \"per_iops_month\": 0.07, \"per_iops_month_above\": [[32000, 0.05], "
		      "[64000, 0.03]]"),
	};
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct catalog c = {0};

		if (catalog_load_text(&c, "t.json", ok[i], err, sizeof(err)))
			fail_msg("%s: %s", ok[i], err);
		catalog_release(&c);
	}
	struct catalog c = {0};

	assert_int_equal(catalog_load_text(&c, "t.json", ok[0], err, sizeof(err)), 0);
	assert_int_equal(c.disks[0].nsteps, 2);
	assert_true(c.disks[0].hits_count_against_disk);
	catalog_release(&c);
	assert_int_equal(catalog_load_text(&c, "t.json", ok[1], err, sizeof(err)), 0);
	assert_int_equal(c.disks[0].ntiers, 2);
	assert_true(c.disks[0].tiers[1].mbps_max == 4000);
	catalog_release(&c);
	/* A row without units of its own takes its series' MiB/s. */
	assert_int_equal(catalog_load_text(&c, "t.json", ok[3], err, sizeof(err)), 0);
	assert_int_equal(c.series[0].nrows, 1);
	assert_true(fabs(c.series[0].rows[0].caps.mbps - 104.8576) < 1e-9);
	assert_int_equal(c.series[0].rows[0].vcpus_min, 2);
	catalog_release(&c);
}

static void test_skew_refused(void **state)
{
	static const struct {
		struct model_skew s;
		const char *why;
	} cases[] = {
		{{.dist = DIST_SEQUENCE}, "is not one the model takes"},
		{{.dist = DIST_ZIPF, .param = 1}, "zipf theta"},
		{{.dist = DIST_ZIPF, .param = 0}, "zipf theta"},
		{{.dist = DIST_PARETO, .param = 1}, "pareto h"},
		{{.dist = DIST_NORMAL, .param = 0}, "normal deviation"},
		{{.dist = DIST_NORMAL, .param = 101}, "normal deviation"},
		{{.dist = DIST_ZONED}, "accesses or sizes do not add up to 100%"},
		{{.dist = DIST_ZONED, .nzones = 2, .zones = {{60, 50}, {40, 40}}},
		 "accesses or sizes do not add up to 100%"},
		{{.dist = DIST_ZONED, .nzones = 2, .zones = {{60, 50}, {30, 50}}},
		 "accesses or sizes do not add up to 100%"},
		{{.dist = DIST_ZONED_ABS, .nzones = 2, .zones = {{60, 0, 0}, {40, 0, 4096}}},
		 "runs a zone other than the last to the end"},
		{{.dist = DIST_ZONED_ABS, .nzones = 2, .zones = {{60, 0, 4096}, {30, 0, 0}}},
		 "accesses do not add up to 100%"},
	};
	static const struct model_skew ok[] = {
		{.dist = DIST_UNIFORM}, {.dist = DIST_ZIPF, .param = 1.2},
		{.dist = DIST_PARETO, .param = 0.2}, {.dist = DIST_NORMAL, .param = 100},
		{.dist = DIST_ZONED, .nzones = 2, .zones = {{80, 20}, {20, 80}}},
		{.dist = DIST_ZONED_ABS, .nzones = 2, .zones = {{80, 0, 4096}, {20, 0, 0}}},
	};
	const char *why;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(model_skew_check(&cases[i].s, &why), -EINVAL);
		if (!strstr(why, cases[i].why))
			fail_msg("case %zu: '%s', not '%s'", i, why, cases[i].why);
	}
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(model_skew_check(&ok[i], &why), 0);
		assert_null(why);
	}
}

/* The share of reads the hottest part of the working set draws. */
static void test_hot_share(void **state)
{
	struct model_skew zoned = {.dist = DIST_ZONED, .nzones = 2,
				   .zones = {{20, 80}, {80, 20}}};
	struct model_skew abs = {.dist = DIST_ZONED_ABS, .nzones = 2,
				 .zones = {{80, 0, 100}, {20, 0, 0}}};
	struct model_skew uniform = {.dist = DIST_UNIFORM};

	(void)state;
	/* The dense zone (80 % of reads in 20 %) fills the cache first. */
	assert_true(fabs(model_hot_share(&zoned, 10, 100, 1) - 0.4) < 1e-12);
	assert_true(fabs(model_hot_share(&zoned, 20, 100, 1) - 0.8) < 1e-12);
	/* Then the rest, uniform within its zone: 0.8 + 0.2 * 40 / 80. */
	assert_true(fabs(model_hot_share(&zoned, 60, 100, 1) - 0.9) < 1e-12);
	/* zoned_abs: the first 100 bytes of 1000 draw 80 %; the last zone runs to the end. */
	assert_true(fabs(model_hot_share(&abs, 100, 1000, 1) - 0.8) < 1e-12);
	assert_true(fabs(model_hot_share(&abs, 550, 1000, 1) - 0.9) < 1e-12);
	/* Nothing cached, or all of it. */
	assert_true(model_hot_share(&zoned, 0, 100, 1) == 0);
	assert_true(model_hot_share(&zoned, 10, 0, 1) == 0);
	assert_true(model_hot_share(&zoned, 200, 100, 1) == 1);
	assert_true(fabs(model_hot_share(&uniform, 25, 100, 1) - 0.25) < 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_accepted),
		cmocka_unit_test(test_skew_refused),
		cmocka_unit_test(test_hot_share),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
