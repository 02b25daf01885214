/* The price list readers: Azure Retail Prices API pages, AWS offer files in CSV, their indexes. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <cmocka.h>

#include <jansson.h>

#include "model/catalog.h"
#include "model/prices.h"

#define ITEM(svc, prod, sku, meter, unit, price, arm, type, tier) \
	"{\"currencyCode\": \"EUR\", \"retailPrice\": " price ", \"armRegionName\": " \
	"\"westeurope\", \"serviceName\": \"" svc "\", \"productName\": \"" prod "\", " \
	"\"skuName\": \"" sku "\", \"meterName\": \"" meter "\", \"unitOfMeasure\": \"" unit \
	"\", \"type\": \"" type "\", \"armSkuName\": \"" arm "\", \"tierMinimumUnits\": " tier "}"

static double price_of(json_t *map, const char *name, const char *key)
{
	return json_number_value(json_object_get(json_object_get(map, name), key));
}

/* Which meters count: Linux pay as you go, LRS sizes, the paid tier of provisioned disks. */
static void test_azure_page(void **state)
{
	struct prices_azure a = {.region = "westeurope", .currency = "EUR", .source = "s",
				 .date = "2026-01-02"};
	char err[256], *next = NULL;
	unsigned v, d, s;
	json_t *list;

	assert_int_equal(prices_azure_init(&a), 0);
	assert_int_equal(prices_azure_page(&a, "{\"Items\": ["
		ITEM("Virtual Machines", "Virtual Machines Esv5 Series", "E2s v5", "E2s v5",
		     "1 Hour", "0.12", "Standard_E2s_v5", "Consumption", "0") ","
		ITEM("Virtual Machines", "Virtual Machines Esv5 Series Windows", "E2s v5", "E2s v5",
		     "1 Hour", "0.2", "Standard_E2s_v5", "Consumption", "0") ","
		ITEM("Virtual Machines", "Virtual Machines Esv5 Series", "E2s v5", "E2s v5",
		     "1 Hour", "0.05", "Standard_E2s_v5", "Reservation", "0") ","
		ITEM("Storage", "Standard HDD Managed Disks", "S10 LRS", "S10 LRS Disk", "1/Month",
		     "4.5", "", "Consumption", "0") ","
		ITEM("Storage", "Standard HDD Managed Disks", "S10 GRS", "S10 GRS Disk", "1/Month",
		     "9", "", "Consumption", "0") ","
		/* One operations meter bills every size of its product; a ZRS one does not count. */
		ITEM("Storage", "Standard HDD Managed Disks", "S4 ZRS", "S4 ZRS Disk Operations",
		     "10K", "0.0009", "", "Consumption", "0") ","
		ITEM("Storage", "Standard HDD Managed Disks", "S4 LRS", "S4 LRS Disk Operations",
		     "10K", "0.0005", "", "Consumption", "0") ","
		ITEM("Storage", "Standard SSD Managed Disks", "E4 LRS", "E4 LRS Disk Operations",
		     "10K", "0.002", "", "Consumption", "0") ","
		ITEM("Storage", "Premium SSD Managed Disks", "P10 LRS", "P10 LRS Disk", "1/Month",
		     "20", "", "Consumption", "0") ","
		ITEM("Storage", "Ultra Disks", "Ultra LRS", "Ultra LRS Provisioned IOPS", "1/Hour",
		     "0.00005", "", "Consumption", "0") ","
		ITEM("Storage", "Ultra Disks", "Ultra LRS", "Ultra LRS Reservation per vCPU "
		     "Provisioned", "1/Hour", "0.01", "", "Consumption", "0") ","
		ITEM("Storage", "General Block Blob v2", "Cool RA-GRS", "Cool RA-GRS Data Stored",
		     "1 GB/Month", "0.02", "", "Consumption", "0") ","
		ITEM("Storage", "General Block Blob v2", "Cool RA-GRS",
		     "Cool RA-GRS Write Operations", "10K", "0.2", "", "Consumption", "0") ","
		/* The meter infracost reads for "Geo-replication data transfer" (per GB). */
		ITEM("Storage", "Storage - Bandwidth", "Geo-Replication v2",
		     "Geo-Replication v2 Data Transfer", "1 GB", "0.019", "", "Consumption", "0")
		"], \"NextPageLink\": \"https://example.invalid/next\"}", &next, err, sizeof(err)),
		0);
	assert_string_equal(next, "https://example.invalid/next");
	free(next);
	assert_true(price_of(a.vms, "E2s_v5", "per_hour") == 0.12);
	assert_true(price_of(a.disks, "S10", "per_month") == 4.5);
	/* Per hour x 730, kept as the decimal it is: 0.0365, not the product 0.036500000000000005. */
	assert_true(price_of(a.disks, "ultra", "per_iops_month") == 0.0365);
	assert_true(price_of(a.storage, "cool-ragrs", "write_per_10k") == 0.2);
	list = prices_azure_list(&a, &v, &d, &s);
	assert_int_equal(v, 1);
	assert_int_equal(d, 3);
	assert_int_equal(s, 1);
	assert_int_equal(json_array_size(list), 5);
	/* The region's geo-replication transfer goes with every GRS and RA-GRS price. */
	assert_true(price_of(a.storage, "cool-ragrs", "geo_per_gb") == 0.019);
	/* S10 is billed the Standard HDD operations; Premium P10 none; no E size was priced. */
	assert_true(price_of(a.disks, "S10", "per_10k_transactions") == 0.0005);
	assert_null(json_object_get(json_object_get(a.disks, "P10"), "per_10k_transactions"));
	assert_null(json_object_get(a.disks, "E4"));
	json_decref(list);
	/* A page in another currency than asked is refused, not mixed in. */
	assert_int_equal(prices_azure_page(&a, "{\"Items\": [{\"currencyCode\": \"USD\", "
		"\"retailPrice\": 1}], \"NextPageLink\": null}", &next, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "priced in 'USD', not EUR"));
	assert_int_equal(prices_azure_page(&a, "{\"items\": []}", &next, err, sizeof(err)),
			 -EINVAL);
	prices_azure_release(&a);
}

static const char csv[] =
	"\"FormatVersion\",\"v1.0\"\n\"Disclaimer\",\"x\"\n\"Publication Date\",\"2026\"\n"
	"\"SKU\",\"TermType\",\"PriceDescription\",\"Unit\",\"PricePerUnit\",\"Currency\","
	"\"Product Family\",\"Instance Type\",\"Tenancy\",\"Operating System\",\"usageType\","
	"\"Pre Installed S/W\",\"Region Code\"\r\n"
	"\"A\",\"OnDemand\",\"a \"\"quoted\"\", with commas, m9.large\",\"Hrs\",\"0.5\",\"USD\","
	"\"Compute Instance\",\"m9.large\",\"Shared\",\"Linux\",\"BoxUsage:m9.large\",\"NA\","
	"\"eu-west-1\"\r\n"
	"\"B\",\"OnDemand\",\"\",\"Hrs\",\"0.9\",\"USD\",\"Compute Instance\",\"m9.large\","
	"\"Shared\",\"Windows\",\"BoxUsage:m9.large\",\"NA\",\"eu-west-1\"\n"
	"\"C\",\"OnDemand\",\"\",\"MiBps-Mo\",\"0.05\",\"USD\",\"Provisioned Throughput\",\"\","
	"\"\",\"\",\"EU-EBS:VolumeP-Throughput.gp3\",\"\",\"eu-west-1\"\n"
	"\"D\",\"OnDemand\",\"\",\"IOPS-Mo\",\"0.07\",\"USD\",\"System Operation\",\"\",\"\",\"\","
	"\"EU-EBS:VolumeP-IOPS.piops\",\"\",\"eu-west-1\"\n"
	"\"F\",\"OnDemand\",\"\",\"IOPS-Mo\",\"0.03\",\"USD\",\"System Operation\",\"\",\"\",\"\","
	"\"EU-EBS:VolumeP-IOPS.io2.tier3\",\"\",\"eu-west-1\"\n"
	"\"G\",\"OnDemand\",\"\",\"IOPS-Mo\",\"0.07\",\"USD\",\"System Operation\",\"\",\"\",\"\","
	"\"EU-EBS:VolumeP-IOPS.io2\",\"\",\"eu-west-1\"\n"
	"\"H\",\"OnDemand\",\"\",\"IOPS-Mo\",\"0.05\",\"USD\",\"System Operation\",\"\",\"\",\"\","
	"\"EU-EBS:VolumeP-IOPS.io2.tier2\",\"\",\"eu-west-1\"\n"
	"\"E\",\"OnDemand\",\"\",\"GB-Mo\",\"0.1\",\"USD\",\"Storage\",\"\",\"\",\"\","
	"\"EU-EBS:VolumeUsage.gp2\",\"\",\"us-east-2\"";

/* The CSV read in pieces of every size gives the same prices. */
static void test_aws_csv(void **state)
{
	char err[256];

	for (size_t piece = 1; piece <= 64; piece = piece * 2 + 1) {
		struct prices_aws a = {.region = "eu-west-1", .source = "s", .date = "d"};
		unsigned v, d;
		json_t *list;

		assert_int_equal(prices_aws_init(&a), 0);
		for (size_t at = 0; at < sizeof(csv) - 1; at += piece) {
			size_t n = sizeof(csv) - 1 - at < piece ? sizeof(csv) - 1 - at : piece;

			assert_int_equal(prices_aws_feed(&a, csv + at, n, err, sizeof(err)), 0);
		}
		assert_int_equal(prices_aws_finish(&a, err, sizeof(err)), 0);
		assert_true(price_of(a.vms, "m9.large", "per_hour") == 0.5);
		assert_true(price_of(a.disks, "gp3", "per_mbps_month") == 0.05 / 1.048576);
		assert_true(price_of(a.disks, "io1", "per_iops_month") == 0.07);
		/* Another region's row is not kept. */
		assert_null(json_object_get(a.disks, "gp2"));
		list = prices_aws_list(&a, &v, &d);
		assert_int_equal(v, 1);
		assert_int_equal(d, 4);
		/* io2's tiers, in any order in the file, above 32,000 and 64,000 IOPS (io2-bx too). */
		json_t *steps = json_pack("[[f, f], [f, f]]", 32000.0, 0.05, 64000.0, 0.03);

		for (const char *const *n = (const char *const[]){"io2", "io2-bx", NULL}; *n; n++) {
			json_t *io2 = json_object_get(a.disks, *n);

			assert_true(price_of(a.disks, *n, "per_iops_month") == 0.07);
			assert_true(json_equal(json_object_get(io2, "per_iops_month_above"), steps));
			assert_null(json_object_get(io2, "io2 tier2"));
		}
		json_decref(steps);
		json_decref(list);
		prices_aws_release(&a);
	}
}

/* io2's upper tiers alone make no io2 price; with a first tier of 0 they are not kept. */
static void test_aws_io2_tiers_alone(void **state)
{
	static const char *const first[] = {"", "\"F\",\"OnDemand\",\"\",\"IOPS-Mo\",\"0\",\"USD\","
		"\"System Operation\",\"\",\"\",\"\",\"EBS:VolumeP-IOPS.io2\",\"\",\"us-east-1\"\n"};
	char err[256], text[2048];

	for (size_t i = 0; i < 2; i++) {
		struct prices_aws a = {.region = "us-east-1", .source = "s", .date = "d"};
		unsigned v, d;
		json_t *list;

		snprintf(text, sizeof(text), "\"SKU\",\"TermType\",\"PriceDescription\",\"Unit\","
			 "\"PricePerUnit\",\"Currency\",\"Product Family\",\"Instance Type\","
			 "\"Tenancy\",\"Operating System\",\"usageType\",\"Pre Installed S/W\","
			 "\"Region Code\"\n%s"
			 "\"G\",\"OnDemand\",\"\",\"IOPS-Mo\",\"0.05\",\"USD\",\"System Operation\","
			 "\"\",\"\",\"\",\"EBS:VolumeP-IOPS.io2.tier2\",\"\",\"us-east-1\"\n", first[i]);
		assert_int_equal(prices_aws_init(&a), 0);
		assert_int_equal(prices_aws_feed(&a, text, strlen(text), err, sizeof(err)), 0);
		assert_int_equal(prices_aws_finish(&a, err, sizeof(err)), 0);
		list = prices_aws_list(&a, &v, &d);
		assert_non_null(list);
		assert_int_equal(d, i ? 2 : 0);
		assert_null(json_object_get(json_object_get(a.disks, "io2"), "per_iops_month_above"));
		json_decref(list);
		prices_aws_release(&a);
	}
}

static void test_aws_refusals(void **state)
{
	struct prices_aws a = {.region = "eu-west-1", .source = "s", .date = "d"};
	char err[256], *url = NULL;

	assert_int_equal(prices_aws_init(&a), 0);
	for (int i = 0; i < 30; i++)
		assert_true(prices_aws_feed(&a, "\"x\",\"y\"\n", 8, err, sizeof(err)) == 0 ||
			    i >= 20);
	assert_non_null(strstr(err, "no header row"));
	prices_aws_release(&a);
	assert_int_equal(prices_aws_region_url("{\"regions\": {\"eu-west-1\": {"
		"\"currentVersionUrl\": \"/a/b/index.json\"}}}", "eu-west-1", &url, err,
		sizeof(err)), 0);
	assert_string_equal(url, "/a/b/index.json");
	free(url);
	assert_int_equal(prices_aws_region_url("{\"regions\": {}}", "xx-1", &url, err,
					       sizeof(err)), -ENOENT);
	assert_int_equal(prices_aws_offer_url("{\"offers\": {}}", "AmazonEBS", &url, err,
					      sizeof(err)), 0);
	assert_null(url);
	assert_int_equal(prices_aws_offer_url("<html>", "AmazonEC2", &url, err, sizeof(err)),
			 -EINVAL);
}

/* A price's age: from its date, or unknown (stale) when it has none a reader can count from. */
static void test_age(void **state)
{
	long long now = 1764547200; /* 2025-12-01 */

	assert_int_equal(catalog_price_age_days("2025-12-01", now), 0);
	assert_int_equal(catalog_price_age_days("2025-08-01", now), 122);
	assert_int_equal(catalog_price_age_days("2025-09", now), 91);
	assert_int_equal(catalog_price_age_days("2025", now), 334);
	assert_int_equal(catalog_price_age_days("undated", now), -1);
	assert_int_equal(catalog_price_age_days("about 2016", now), -1);
	assert_int_equal(catalog_price_age_days("2025-13-01", now), -1);
	assert_int_equal(catalog_price_age_days("2025-12-01x", now), -1);
	assert_false(catalog_price_stale(90));
	assert_true(catalog_price_stale(91));
	assert_true(catalog_price_stale(-1));
}

/* A price kept is within its unit's bound; one outside it is refused naming the meter. */
static void test_bounds(void **state)
{
	char err[512];

	(void)state;
	assert_int_equal(prices_check("per_hour", 407.0, 407.0, "m", "USD", err, sizeof(err)), 0);
	/* A 32 TiB disk's month and a 24xlarge's hour in KRW pass; an overflow to inf does not. */
	assert_int_equal(prices_check("per_month", 5e6, 5e6, "m", "KRW", err, sizeof(err)), 0);
	assert_int_equal(prices_check("per_hour", 6e5, 6e5, "m", "KRW", err, sizeof(err)), 0);
	assert_int_equal(prices_check("per_iops_month", 1e306, 1e306 * 730, "Items[4]: meter 'x'",
				      "GBP", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "Items[4]: meter 'x': the price 1e+306 GBP (per_iops_month inf) "
			    "is above 1e+06, the bound of per_iops_month: beyond any real price "
			    "list");
	assert_int_equal(prices_check("per_hour", 1e308, 1e308, "SKU 'A'", "USD", err,
				      sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "SKU 'A': the price 1e+308 USD is above 1e+07"));
	assert_int_equal(prices_check(NULL, -1, -1, "m", "EUR", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "m: the price -1 EUR is negative");
	assert_int_equal(prices_check(NULL, NAN, NAN, "m", NULL, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "m: the price is not a number");
	assert_int_equal(prices_check(NULL, -INFINITY, 0, "m", NULL, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "m: the price is infinite");
	/* Any price without a unit has no bound but these. */
	assert_int_equal(prices_check(NULL, 1e300, 1e300, "m", "USD", err, sizeof(err)), 0);
	assert_true(prices_bound("per_month") == 1e8);
	assert_true(isinf(prices_bound("name")));
	/* Every key a price is kept under has a bound. */
	static const char *const keys[] = {"per_hour", "per_month", "per_gib_month",
		"per_iops_month", "per_iops_month_above", "per_mbps_month", "per_gb_month",
		"per_10k_transactions", "write_per_10k", "read_per_10k"};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		assert_true(prices_bound(keys[i]) <= 1e8);
}

/* The readers refuse such a price naming the meter (Azure) or the SKU and usage type (AWS). */
static void test_bad_prices(void **state)
{
	static const char *const azure[][2] = {
		{"1e308", "Items[1]: meter 'S10 LRS Disk' (skuName 'S10 LRS', product 'Standard HDD "
			  "Managed Disks'): the price 1e+308 EUR is above 1e+08, the bound of "
			  "per_month"},
		{"-0.5", "Items[1]: meter 'S10 LRS Disk' (skuName 'S10 LRS', product 'Standard HDD "
			 "Managed Disks'): the price -0.5 EUR is negative"},
	};
	static const char *const aws[][2] = {
		{"NaN", "SKU 'Q' (usage type 'EBS:VolumeUsage.gp3'): the price is not a number"},
		{"1e999", "SKU 'Q' (usage type 'EBS:VolumeUsage.gp3'): the price is infinite"},
		{"2e6", "SKU 'Q' (usage type 'EBS:VolumeUsage.gp3'): the price 2e+06 USD is above "
			"1e+06, the bound of per_gib_month"},
	};
	char err[512], text[2048], *next = NULL;

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct prices_azure a = {.region = "westeurope", .currency = "EUR", .source = "s",
					 .date = "2026-01-02"};

		snprintf(text, sizeof(text), "{\"Items\": ["
			 ITEM("Storage", "Standard HDD Managed Disks", "S4 LRS", "S4 LRS Disk",
			      "1/Month", "1", "", "Consumption", "0") ","
			 ITEM("Storage", "Standard HDD Managed Disks", "S10 LRS", "S10 LRS Disk",
			      "1/Month", "%s", "", "Consumption", "0") "]}", azure[i][0]);
		assert_int_equal(prices_azure_init(&a), 0);
		assert_int_equal(prices_azure_page(&a, text, &next, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, azure[i][1]));
		prices_azure_release(&a);
	}
	for (size_t i = 0; i < 3; i++) {
		struct prices_aws a = {.region = "us-east-1", .source = "s", .date = "d"};

		snprintf(text, sizeof(text), "\"SKU\",\"TermType\",\"Unit\",\"PricePerUnit\","
			 "\"usageType\"\n\"Q\",\"OnDemand\",\"GB-Mo\",\"%s\","
			 "\"EBS:VolumeUsage.gp3\"\n", aws[i][0]);
		assert_int_equal(prices_aws_init(&a), 0);
		assert_int_equal(prices_aws_feed(&a, text, strlen(text), err, sizeof(err)),
				 -EINVAL);
		assert_non_null(strstr(err, aws[i][1]));
		prices_aws_release(&a);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_azure_page), cmocka_unit_test(test_aws_csv),
		cmocka_unit_test(test_aws_io2_tiers_alone),
		cmocka_unit_test(test_aws_refusals), cmocka_unit_test(test_age),
		cmocka_unit_test(test_bounds), cmocka_unit_test(test_bad_prices),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
