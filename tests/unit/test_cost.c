#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model_helpers.h"
#include "model/cost.h"
#include "report/model_words.h"
#include "util/field.h"

/* the StorSimple calculator post's StorSimple calculator: 750 GiB in 512 KiB chunks, prices keyed in. */
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
	assert_non_null(strstr(err, FIELD("write-price")));
}

static void test_config(void **state)
{
	struct model_config m;
	struct cost_breakdown b;
	char err[256], *specs[1] = {"2xP30"};

	assert_int_equal(model_config_resolve(&cat, "DS14", NULL, specs, 1, MODEL_CACHE_NONE, &m,
					      err, sizeof(err)), 0);
	struct cost_query q = {.hours = 730, .vm_hour = -1, .disk_month = -1};

	assert_int_equal(cost_config(&cat, &m, &q, &b, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "DS14"));
	q.vm_hour = 1.5;
	assert_int_equal(cost_config(&cat, &m, &q, &b, err, sizeof(err)), 0);
	assert_within(b.total, 1095 + 2 * 135.17, 1e-9);
}

/*
 * Prices of one region and currency: the first one found (here the VM's, from the file loaded
 * first) decides them for the disks too; a disk priced only elsewhere is missing, not mixed in.
 * Each line carries its age at the query's now.
 */
static void test_region_currency(void **state)
{
	struct catalog c = {0};
	struct model_config m;
	struct cost_breakdown b;
	struct cost_query q = {.hours = 730, .vm_hour = -1, .disk_month = -1,
			       .now = 1764547200 /* 2025-12-01 */};
	char err[256], *specs[1] = {"P30"};

	assert_int_equal(catalog_load_text(&c, "p.json", "{\"catalog\": \"p\", \"prices\": ["
		"{\"catalog\": \"azure\", \"kind\": \"vm\", \"name\": \"D4s_v5\","
		" \"per_hour\": 0.2,"
		" \"region\": \"northeurope\", \"currency\": \"GBP\", \"source\": \"s\","
		" \"date\": \"2025-11-21\"},"
		"{\"catalog\": \"azure\", \"kind\": \"disk\", \"name\": \"P30\","
		" \"per_month\": 110,"
		" \"region\": \"northeurope\", \"currency\": \"GBP\", \"source\": \"s\","
		" \"date\": \"2025-08-01\"},"
		"{\"catalog\": \"azure\", \"kind\": \"vm\", \"name\": \"D8s_v5\","
		" \"per_hour\": 0.4,"
		" \"region\": \"francecentral\", \"currency\": \"EUR\", \"source\": \"s\","
		" \"date\": \"undated\"}]}", err, sizeof(err)), 0);
	assert_int_equal(catalog_load_builtin(&c, err, sizeof(err)), 0);
	assert_int_equal(model_config_resolve(&c, "D4s_v5", NULL, specs, 1, MODEL_CACHE_NONE, &m,
					      err, sizeof(err)), 0);
	assert_int_equal(cost_config(&c, &m, &q, &b, err, sizeof(err)), 0);
	assert_string_equal(b.currency, "GBP");
	assert_string_equal(b.region, "northeurope");
	assert_within(b.total, 0.2 * 730 + 110, 1e-9);
	assert_int_equal(b.lines[0].age_days, 10);
	assert_false(b.lines[0].stale);
	assert_int_equal(b.lines[1].age_days, 122);
	assert_true(b.lines[1].stale);
	assert_int_equal(b.nstale, 1);
	/* Asked for USD, the built-in eastus prices are used instead. */
	q.currency = "USD";
	assert_int_equal(cost_config(&c, &m, &q, &b, err, sizeof(err)), 0);
	assert_string_equal(b.region, "eastus");
	/* D8s_v5 is priced in EUR in francecentral only: P30 has no price there. */
	q.currency = NULL;
	assert_int_equal(model_config_resolve(&c, "D8s_v5", NULL, specs, 1, MODEL_CACHE_NONE, &m,
					      err, sizeof(err)), 0);
	assert_int_equal(cost_config(&c, &m, &q, &b, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "no price for disk P30 (azure) in francecentral in EUR"));
	catalog_release(&c);
}

/*
 * Disks priced per operation: the volume's I/O rate shared among its disks, all the VM's hours,
 * each disk billed up to its hourly cap; without a rate the price is named at 0.
 */
/* A line in the words the outputs print it with. */
static const char *what(const struct cost_line *l)
{
	static char buf[MODEL_WORDS_COST];

	return model_words_cost(l, buf, sizeof(buf));
}

static void test_operations(void **state)
{
	struct model_config m;
	struct cost_breakdown b;
	char err[256], *specs[2] = {"2xS6", "2xP10"};
	struct cost_query q = {.hours = 730, .vm_hour = 0.192, .disk_month = -1};

	assert_int_equal(model_config_resolve(&cat, "D4s_v5", NULL, specs, 2, MODEL_CACHE_NONE,
					      &m, err, sizeof(err)), 0);
	assert_int_equal(cost_config(&cat, &m, &q, &b, err, sizeof(err)), 0);
	assert_int_equal(b.nlines, 4);
	assert_non_null(strstr(what(&b.lines[2]), "not counted"));
	assert_true(b.lines[2].amount == 0);
	/* 400 IOPS, 200 on the two S6: 100 a disk, 360,000 an hour, under the cap of 858,000. */
	q.iops = 400;
	assert_int_equal(cost_config(&cat, &m, &q, &b, err, sizeof(err)), 0);
	assert_within(b.lines[2].amount, 2 * 360000.0 * 730 / 10000 * 0.0005, 1e-9);
	assert_null(strstr(what(&b.lines[2]), "capped"));
	/* 4,000 IOPS: 1,000 a disk would be 3.6 million an hour; 858,000 are billed. */
	q.iops = 4000;
	assert_int_equal(cost_config(&cat, &m, &q, &b, err, sizeof(err)), 0);
	assert_within(b.lines[2].amount, 2 * 858000.0 * 730 / 10000 * 0.0005, 1e-9);
	assert_non_null(strstr(what(&b.lines[2]), "(capped)"));
	/* Premium SSD has no price per operation: one line for the P10s. */
	assert_string_equal(what(&b.lines[3]), "2 x P10 at 19.71 per month");
	/* Standard SSD has no cap. */
	specs[0] = "4xE10";
	assert_int_equal(model_config_resolve(&cat, "D4s_v5", NULL, specs, 1, MODEL_CACHE_NONE,
					      &m, err, sizeof(err)), 0);
	q.iops = 2000;
	assert_int_equal(cost_config(&cat, &m, &q, &b, err, sizeof(err)), 0);
	assert_within(b.lines[2].amount, 1051.20, 1e-9);
	/* 64 KiB I/Os: Standard SSD still one operation each... */
	q.io_bytes = 64 << 10;
	assert_int_equal(cost_config(&cat, &m, &q, &b, err, sizeof(err)), 0);
	assert_within(b.lines[2].amount, 1051.20, 1e-9);
	/* ...an S4 four (16 KiB units), an S80 at most 16 however large. */
	specs[0] = "S4";
	specs[1] = "S80";
	assert_int_equal(model_config_resolve(&cat, "D4s_v5", NULL, specs, 2, MODEL_CACHE_NONE,
					      &m, err, sizeof(err)), 0);
	q.iops = 20;
	assert_int_equal(cost_config(&cat, &m, &q, &b, err, sizeof(err)), 0);
	assert_within(b.lines[2].amount, 10.0 * 4 * 3600 * 730 / 10000 * 0.0005, 1e-9);
	assert_non_null(strstr(what(&b.lines[2]), "(4 ops each)"));
	q.io_bytes = 1 << 20;
	assert_int_equal(cost_config(&cat, &m, &q, &b, err, sizeof(err)), 0);
	assert_within(b.lines[4].amount, 10.0 * 16 * 3600 * 730 / 10000 * 0.0005, 1e-9);
	assert_non_null(strstr(what(&b.lines[4]), "(16 ops each)"));
}

/*
 * Geo-replication: Azure's "Blob storage pricing" page bills GRS and RA-GRS accounts a
 * "Geo-replication data transfer" per GB written; the built-in westus list has it at 0.02 USD
 * (infracost's storage_queue_test.golden), the eastus one has none: unknown, not guessed.
 */
static void test_geo_replication(void **state)
{
	struct cost_upload u = {.data = 750ull << 30, .write_per_10k = -1, .per_gb_month = -1,
				.tier = "hot", .redundancy = "grs", .region = "westus",
				.currency = "USD"};
	struct cost_upload_result r;
	char err[256];

	assert_int_equal(cost_upload(&cat, &u, &r, err, sizeof(err)), 0);
	assert_true(r.geo);
	assert_within(r.geo_per_gb, 0.02, 1e-12);
	assert_within(r.geo_cost, 750 * 0.02, 1e-9);
	assert_within(r.total, r.transaction_cost + r.storage_cost + 15, 1e-9);
	u.redundancy = "ragrs";
	assert_int_equal(cost_upload(&cat, &u, &r, err, sizeof(err)), 0);
	assert_within(r.geo_cost, 15, 1e-9);
	/* LRS keeps one region: nothing to transfer. */
	u.redundancy = "lrs";
	assert_int_equal(cost_upload(&cat, &u, &r, err, sizeof(err)), 0);
	assert_false(r.geo);
	assert_within(r.total, r.transaction_cost + r.storage_cost, 1e-12);
	/* eastus has no transfer price: unknown, left out of the total, never taken from westus. */
	u.redundancy = "grs", u.region = "eastus";
	assert_int_equal(cost_upload(&cat, &u, &r, err, sizeof(err)), 0);
	assert_true(r.geo);
	assert_true(r.geo_per_gb < 0);
	assert_within(r.total, r.transaction_cost + r.storage_cost, 1e-12);
	/* A price given is used; prices all given take no transfer price from any list. */
	u.geo_given = true, u.geo_per_gb = 0.03;
	assert_int_equal(cost_upload(&cat, &u, &r, err, sizeof(err)), 0);
	assert_within(r.geo_cost, 750 * 0.03, 1e-9);
	u.geo_given = false, u.region = "westus", u.write_per_10k = 0.1, u.per_gb_month = 0.02;
	assert_int_equal(cost_upload(&cat, &u, &r, err, sizeof(err)), 0);
	assert_true(r.geo_per_gb < 0);
}

/*
 * Early deletion: Azure "Access tiers for blob data" bills cool, cold and archive data kept
 * less than 30, 90 and 180 days for the rest of the period, pro rata by day (its example: cool
 * data deleted after 21 days is billed 9 more days).
 */
static void test_early_deletion(void **state)
{
	struct cost_upload u = {.data = 100ull << 30, .write_per_10k = 0.1, .per_gb_month = 0.01,
				.tier = "cool", .keep_days = 21};
	struct cost_upload_result r;
	char err[256];

	assert_int_equal(cost_min_days("hot"), 0);
	assert_int_equal(cost_min_days("Cool"), 30);
	assert_int_equal(cost_min_days("cold"), 90);
	assert_int_equal(cost_min_days("archive"), 180);
	assert_int_equal(cost_upload(&cat, &u, &r, err, sizeof(err)), 0);
	assert_true(r.keep_given);
	assert_within(r.early_days, 9, 1e-12);
	assert_within(r.early_cost, 100 * 0.01 * 9 / 30, 1e-12);
	/* Kept 21 days, stored 21 days: not a month. */
	assert_within(r.storage_cost, 100 * 0.01 * 21 / 30, 1e-12);
	assert_within(r.total, r.transaction_cost + r.storage_cost + r.early_cost, 1e-12);
	/* Without --keep-days the months stored are assumed: archive for a month owes 150 days. */
	u.keep_days = 0, u.tier = "archive", u.months = 1;
	assert_int_equal(cost_upload(&cat, &u, &r, err, sizeof(err)), 0);
	assert_false(r.keep_given);
	assert_within(r.keep_days, 30, 1e-12);
	assert_within(r.early_days, 150, 1e-12);
	assert_within(r.early_cost, 100 * 0.01 * 5, 1e-12);
	/* Kept the minimum or longer, or hot: nothing. */
	u.months = 6;
	assert_int_equal(cost_upload(&cat, &u, &r, err, sizeof(err)), 0);
	assert_within(r.early_cost, 0, 0);
	u.tier = "hot", u.keep_days = 1;
	assert_int_equal(cost_upload(&cat, &u, &r, err, sizeof(err)), 0);
	assert_int_equal(r.min_days, 0);
	assert_within(r.early_cost, 0, 0);
}

/*
 * The StorSimple post's setting, North Europe in GBP, cool RA-GRS, priced offline: the built-in
 * northeurope list (Azure Retail Prices API, recorded) converted from USD at the ECB rates of
 * 2026-08-24, geo-replication included. A region no list has is refused, naming the command.
 */
static void test_storsimple_setting(void **state)
{
	struct cost_upload u = {.data = 750ull << 30, .write_per_10k = -1, .per_gb_month = -1,
				.tier = "cool", .redundancy = "ragrs", .region = "northeurope",
				.currency = "GBP"};
	struct cost_upload_result r;
	char err[512];

	assert_int_equal(cost_upload(&cat, &u, &r, err, sizeof(err)), 0);
	assert_string_equal(r.currency, "GBP");
	assert_string_equal(r.price_region, "northeurope");
	assert_non_null(strstr(r.price_source, "converted from USD at 0.733453 GBP per USD"));
	assert_non_null(strstr(r.price_source, "2026-08-24"));
	assert_non_null(strstr(r.price_source, "regions/northeurope/storage.json"));
	/* 0.025, 0.2 and 0.02 USD at 0.8555 / 1.1664, to 6 significant digits. */
	assert_within(r.per_gb_month, 0.0183363, 1e-12);
	assert_within(r.write_per_10k, 0.146691, 1e-12);
	assert_within(r.geo_per_gb, 0.0146691, 1e-12);
	assert_within(r.total, 1536000 / 10000.0 * 0.146691 + 750 * 0.0183363 + 750 * 0.0146691,
		      1e-9);
	u.region = "francecentral";
	assert_int_equal(cost_upload(&cat, &u, &r, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "'iorate catalog prices --provider azure --region francecentral "
			       "--currency GBP'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_storsimple), cmocka_unit_test(test_catalog_prices),
		cmocka_unit_test(test_config), cmocka_unit_test(test_region_currency),
		cmocka_unit_test(test_operations), cmocka_unit_test(test_geo_replication),
		cmocka_unit_test(test_early_deletion), cmocka_unit_test(test_storsimple_setting),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
