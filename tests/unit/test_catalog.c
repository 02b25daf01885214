#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model_helpers.h"

static void test_builtin_sources(void **state)
{
	assert_true(cat.nvms > 50);
	for (size_t i = 0; i < cat.nvms; i++)
		assert_true(*cat.vms[i].source && *cat.vms[i].date);
	for (size_t i = 0; i < cat.ndisks; i++)
		assert_true(*cat.disks[i].source && *cat.disks[i].date);
	for (size_t i = 0; i < cat.nprices; i++)
		assert_true(*cat.prices[i].source && *cat.prices[i].date);
}

/*
 * Every price names its region, currency, source and date, refers to a VM or disk of its catalog,
 * and says how sure it is; the one figure left unverified is the azure-2015 standard capacity.
 */
static void test_prices(void **state)
{
	const struct cat_price *p;

	assert_true(cat.nprices > 40);
	for (size_t i = 0; i < cat.nprices; i++) {
		p = &cat.prices[i];
		assert_true(p->region && *p->region && p->currency && *p->currency);
		if (!strcmp(p->kind, "vm"))
			assert_non_null(catalog_find_vm(&cat, p->catalog, p->name));
		if (!strcmp(p->kind, "disk"))
			assert_non_null(catalog_find_disk(&cat, p->catalog, p->name));
		if (!strcmp(p->kind, "storage") || !strcmp(p->catalog, "azure-2015"))
			continue;
		assert_non_null(strstr(p->source, "confidence"));
		assert_null(strstr(p->source, "unverified"));
	}
	p = catalog_find_price(&cat, "aws", "vm", "m5.large", "us-east-1");
	assert_non_null(p);
	assert_within(p->per_hour, 0.096, 0.01);
	p = catalog_find_price(&cat, "aws", "disk", "gp3", NULL);
	assert_within(p->per_mbps_month, 0.04 / 1.048576, 0.1);
	p = catalog_find_price(&cat, "gcp", "disk", "pd-balanced", "us-central1");
	assert_within(p->per_gib_month, 0.10, 0.01);
	assert_null(catalog_find_price(&cat, "gcp", "disk", "pd-balanced", "eastus"));
	assert_null(catalog_find_price(&cat, "azure", "disk", "pv2", NULL)); /* not sourced yet */

	/* Spot checks of the third-party (confidence C) records added later, and of what stays unpriced. */
	p = catalog_find_price(&cat, "azure", "vm", "D16s_v5", "eastus");
	assert_non_null(p);
	assert_within(p->per_hour, 0.768, 0.01);
	p = catalog_find_price(&cat, "azure", "vm", "E96s_v5", "eastus");
	assert_non_null(p);
	assert_within(p->per_hour, 6.048, 0.01);	/* infracost: 730 h $4,415.04 */
	p = catalog_find_price(&cat, "azure", "disk", "P40", "eastus");
	assert_non_null(p);
	assert_within(p->per_month, 259.0457, 0.01);
	p = catalog_find_price(&cat, "azure", "disk", "S10", "eastus");
	assert_non_null(p);
	assert_within(p->per_month, 5.89, 0.01);
	p = catalog_find_price(&cat, "aws", "vm", "m6i.xlarge", "us-east-1");
	assert_non_null(p);
	assert_within(p->per_hour, 0.192, 0.01);
	assert_null(catalog_find_price(&cat, "azure", "disk", "P1", NULL));
	assert_null(catalog_find_price(&cat, "azure", "disk", "P70", NULL));
	assert_null(catalog_find_price(&cat, "azure", "vm", "E104is_v5", NULL));
	assert_null(catalog_find_price(&cat, "azure", "vm", "L16s_v3", NULL));
	assert_null(catalog_find_price(&cat, "gcp", "disk", "hyperdisk-balanced", NULL));
}

static void test_lookup(void **state)
{
	const struct cat_vm *v = catalog_find_vm(&cat, NULL, "Standard_DS14");

	assert_non_null(v);
	assert_string_equal(v->catalog, "azure-2015");
	assert_within(v->uncached_iops, 51200, 0.01);
	assert_non_null(catalog_find_vm(&cat, NULL, "l16s"));
	assert_null(catalog_find_vm(&cat, "azure", "DS2"));
	assert_string_equal(catalog_find_disk(&cat, "azure-2015", "P30")->catalog, "azure-2015");
	assert_string_equal(catalog_find_family(&cat, "azure", "premium", 600)->name, "P30");
	/* gp3 is written in MiB/s and converted to MB/s */
	assert_within(catalog_find_disk(&cat, NULL, "gp3")->mbps, 131.072, 0.01);
}

static void test_suggest(void **state)
{
	char out[160];

	catalog_suggest(&cat, "vm", NULL, "DS3x", out, sizeof(out));
	assert_non_null(strstr(out, "DS3"));
	catalog_suggest(&cat, "disk", "azure-2015", "P31", out, sizeof(out));
	assert_non_null(strstr(out, "P30"));
}

static void test_malformed(void **state)
{
	struct catalog c = {0};
	char err[256];

	assert_int_equal(catalog_load_text(&c, "bad.json", "{\"catalog\": \"x\",\n \"vms\": [\n}",
					   err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "bad.json:3:"));
	catalog_release(&c);
	assert_int_equal(catalog_load_text(&c, "f.json", "{\"catalog\": \"x\", \"disks\": [{"
		"\"name\": \"P30\", \"gib\": 1024, \"iosp\": 5000, \"source\": \"s\", \"date\": \"d\"}]}",
		err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "f.json:1: disks[0] 'P30': unknown field 'iosp'");
	catalog_release(&c);
	/* The line is found from the entry's name and then the field's key. */
	assert_int_equal(catalog_load_text(&c, "g.json", "{\"catalog\": \"x\", \"disks\": [\n"
		"{\"name\": \"A\", \"gib\": 1, \"iops\": 1, \"source\": \"s\", \"date\": \"d\"},\n"
		"{\"name\": \"B\",\n \"gib\": 1,\n \"iops\": 1, \"iosp\": 2,\n"
		" \"source\": \"s\", \"date\": \"d\"}]}", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "g.json:5: disks[1] 'B': unknown field 'iosp'");
	catalog_release(&c);
	assert_int_equal(catalog_load_text(&c, "f.json", "{\"catalog\": \"x\", \"vms\": [{"
		"\"name\": \"V\", \"uncached_iops\": \"lots\", \"source\": \"s\", \"date\": \"d\"}]}",
		err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "vms[0] 'V': field 'uncached_iops'"));
	catalog_release(&c);
	assert_int_equal(catalog_load_text(&c, "f.json", "{\"catalog\": \"x\", \"vms\": [{"
		"\"name\": \"V\"}]}", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "missing field 'source'"));
	catalog_release(&c);
}

static void test_override(void **state)
{
	struct catalog c = {0};
	char err[256];

	assert_int_equal(catalog_load_text(&c, "mine.json", "{\"catalog\": \"azure-2015\", \"vms\": "
		"[{\"name\": \"DS2\", \"premium\": true, \"max_disks\": 8, \"uncached_iops\": 9999, "
		"\"uncached_mbps\": 64, \"source\": \"me\", \"date\": \"2025\"}]}", err, sizeof(err)), 0);
	assert_int_equal(catalog_load_builtin(&c, err, sizeof(err)), 0);
	assert_within(catalog_find_vm(&c, NULL, "DS2")->uncached_iops, 9999, 0.01);
	catalog_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_sources), cmocka_unit_test(test_prices),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_suggest), cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_override),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
