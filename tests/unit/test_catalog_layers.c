/*
 * The catalog's layers (src/model/catalog_layers.c): installed and user files laid over the
 * built-in ones in place, their differing figures kept as conflicts, downloaded prices and
 * --catalog files first. The directories are made for each test under a mkdtemp directory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "model/catalog.h"

struct dirs {
	char top[64], inst[96], user[96];
};

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_non_null(f = fopen(path, "w"));
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

static int make_dirs(void **state)
{
	struct dirs *d = calloc(1, sizeof(*d));

	if (!d)
		return -1;
	snprintf(d->top, sizeof(d->top), "/tmp/iorate-layers.XXXXXX");
	if (!mkdtemp(d->top))
		return -1;
	snprintf(d->inst, sizeof(d->inst), "%s/installed", d->top);
	snprintf(d->user, sizeof(d->user), "%s/user", d->top);
	if (mkdir(d->inst, 0700) || mkdir(d->user, 0700))
		return -1;
	*state = d;
	return 0;
}

/* Removes what make_dirs and the test wrote: the files this test names, then the directories. */
static int remove_dirs(void **state)
{
	static const char *const files[] = {"aws.json", "gcp.json", "prices.json", "zz.json",
					    "imported-aws.json", "prices-aws-us-east-1-USD.json"};
	struct dirs *d = *state;
	char path[256];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", d->inst, files[i]);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%s", d->user, files[i]);
		unlink(path);
	}
	rmdir(d->inst);
	rmdir(d->user);
	rmdir(d->top);
	free(d);
	return 0;
}

static void open_layers(const struct dirs *d, struct catalog *c)
{
	struct catalog_layers l = {.installed = d->inst, .user = d->user};
	char err[512];

	if (catalog_open_layers(c, &l, err, sizeof(err)))
		fail_msg("%s", err);
}

static size_t vm_index(const struct catalog *c, const char *cat, const char *name)
{
	const struct cat_vm *v = catalog_find_vm(c, cat, name);

	assert_non_null(v);
	return (size_t)(v - c->vms);
}

static const struct cat_conflict *conflict(const struct catalog *c, const char *name,
					   const char *field)
{
	for (size_t i = 0; i < c->nconflicts; i++)
		if (!strcmp(c->conflicts[i].name, name) && !strcmp(c->conflicts[i].field, field))
			return &c->conflicts[i];
	return NULL;
}

/* An installed entry takes the built-in one's place; its differing figures are kept. */
static void test_installed_in_place(void **state)
{
	struct dirs *d = *state;
	struct catalog base = {0}, c;
	const struct cat_conflict *x;
	char err[256];

	assert_int_equal(catalog_load_builtin(&base, err, sizeof(err)), 0);
	write_file(d->inst, "aws.json", "{\"catalog\": \"aws\", \"vms\": [{\"name\": \"m6i.large\","
		   " \"vcpus\": 2, \"uncached_iops\": 5000, \"uncached_mbps\": 81.25,"
		   " \"source\": \"edited\", \"date\": \"2026-12-01\"},"
		   " {\"name\": \"m6i.new\", \"vcpus\": 2, \"uncached_iops\": 1,"
		   " \"source\": \"s\", \"date\": \"2026\"}]}");
	open_layers(d, &c);
	/* Same place, so the same order of lookups; one more VM, the new one. */
	assert_int_equal(c.nvms, base.nvms + 1);
	assert_int_equal(vm_index(&c, "aws", "m6i.large"), vm_index(&base, "aws", "m6i.large"));
	assert_int_equal(vm_index(&c, "aws", "m6i.new"), base.nvms);
	assert_int_equal(catalog_find_vm(&c, "aws", "m6i.large")->layer, CAT_INSTALLED);
	assert_true(catalog_find_vm(&c, "aws", "m6i.large")->uncached_iops == 5000);
	assert_true(catalog_find_vm(&c, "aws", "m6i.xlarge")->layer == CAT_BUILTIN);
	/* uncached_iops differs; the built-in figures the file leaves out are missing from it. */
	assert_non_null(x = conflict(&c, "m6i.large", "uncached_iops"));
	assert_int_equal(x->layer, CAT_INSTALLED);
	assert_int_equal(x->below, CAT_BUILTIN);
	assert_string_equal(x->kind, "vm");
	assert_true(json_number_value(x->was) == 3600 && json_number_value(x->is) == 5000);
	assert_non_null(x = conflict(&c, "m6i.large", "burst_iops"));
	assert_null(x->is);
	/* Sources, dates and notes may differ; equal figures are no conflict. */
	assert_null(conflict(&c, "m6i.large", "source"));
	assert_null(conflict(&c, "m6i.large", "uncached_mbps"));
	assert_null(conflict(&c, "m6i.new", "vcpus"));
	catalog_release(&c);
	catalog_release(&base);
}

/* A series replaced by the installed layer gives its VMs its rows; the old rows are freed. */
static void test_series_replaced(void **state)
{
	struct dirs *d = *state;
	const struct cat_family_caps *fc;
	struct catalog c;

	write_file(d->inst, "gcp.json", "{\"catalog\": \"gcp\", \"series\": [{\"name\": \"n2d\","
		   " \"source\": \"edited\", \"date\": \"2026\", \"units\": \"MiB/s\", \"caps\": ["
		   " {\"family\": \"pd-ssd\", \"vcpus_min\": 1, \"iops\": 12345, \"mbps\": 100}]}]}");
	open_layers(d, &c);
	fc = catalog_vm_family_caps(catalog_find_vm(&c, "gcp", "n2d-standard-4"), "pd-ssd");
	assert_non_null(fc);
	assert_true(fc->iops == 12345);
	assert_null(catalog_vm_family_caps(catalog_find_vm(&c, "gcp", "n2d-standard-4"),
					   "pd-balanced"));
	assert_non_null(conflict(&c, "n2d", "caps"));
	catalog_release(&c);
}

/*
 * Prices: the same catalog, name, region and currency is replaced; another region is added.
 * Downloaded prices (prices-*.json of the user's directory) still come first, and an installed
 * price of the same region does not replace them.
 */
static void test_prices(void **state)
{
	struct dirs *d = *state;
	const struct cat_price *p;
	struct catalog c;

	write_file(d->inst, "prices.json", "{\"catalog\": \"prices\", \"prices\": ["
		   "{\"catalog\": \"aws\", \"kind\": \"vm\", \"name\": \"m6i.large\","
		   " \"per_hour\": 0.00099, \"region\": \"us-east-1\", \"currency\": \"USD\","
		   " \"source\": \"s\", \"date\": \"2026\"},"
		   "{\"catalog\": \"aws\", \"kind\": \"vm\", \"name\": \"m6i.large\","
		   " \"per_hour\": 0.5, \"region\": \"eu-west-1\", \"currency\": \"USD\","
		   " \"source\": \"s\", \"date\": \"2026\"}]}");
	open_layers(d, &c);
	p = catalog_find_price(&c, "aws", "vm", "m6i.large", "us-east-1", "USD");
	assert_true(p->per_hour == 0.00099 && p->layer == CAT_INSTALLED);
	p = catalog_find_price(&c, "aws", "vm", "m6i.large", "eu-west-1", NULL);
	assert_true(p && p->per_hour == 0.5);
	assert_non_null(conflict(&c, "m6i.large", "per_hour"));
	catalog_release(&c);

	write_file(d->user, "prices-aws-us-east-1-USD.json", "{\"catalog\": \"prices-aws\","
		   " \"prices\": [{\"catalog\": \"aws\", \"kind\": \"vm\", \"name\": \"m6i.large\","
		   " \"per_hour\": 0.1, \"region\": \"us-east-1\", \"currency\": \"USD\","
		   " \"source\": \"downloaded\", \"date\": \"2026-12-01\"}]}");
	open_layers(d, &c);
	p = catalog_find_price(&c, "aws", "vm", "m6i.large", NULL, NULL);
	assert_true(p->per_hour == 0.1 && p->layer == CAT_USER);
	catalog_release(&c);
}

/* The user's layer over the installed one, and a --catalog file before them all. */
static void test_user_and_files(void **state)
{
	struct dirs *d = *state;
	const struct cat_conflict *x;
	struct catalog c;
	char path[256], err[512];

	write_file(d->inst, "aws.json", "{\"catalog\": \"aws\", \"vms\": [{\"name\": \"m6i.huge\","
		   " \"vcpus\": 2, \"uncached_iops\": 7000, \"source\": \"s\", \"date\": \"2026\"}]}");
	write_file(d->user, "imported-aws.json", "{\"catalog\": \"aws\", \"vms\": [{\"name\":"
		   " \"m6i.huge\", \"vcpus\": 2, \"uncached_iops\": 8000, \"source\": \"u\","
		   " \"date\": \"2026\"}]}");
	open_layers(d, &c);
	assert_true(catalog_find_vm(&c, "aws", "m6i.huge")->uncached_iops == 8000);
	assert_non_null(x = conflict(&c, "m6i.huge", "uncached_iops"));
	assert_int_equal(x->layer, CAT_USER);
	assert_int_equal(x->below, CAT_INSTALLED);
	catalog_release(&c);

	snprintf(path, sizeof(path), "%s/zz.json", d->inst);
	write_file(d->inst, "zz.json", "{\"catalog\": \"aws\", \"vms\": [{\"name\": \"m6i.huge\","
		   " \"vcpus\": 2, \"uncached_iops\": 9000, \"source\": \"f\", \"date\": \"2026\"}]}");
	char *files[] = {path};
	struct catalog_layers l = {.files = files, .nfiles = 1, .installed = NULL,
				   .user = d->user};

	assert_int_equal(catalog_open_layers(&c, &l, err, sizeof(err)), 0);
	assert_true(catalog_find_vm(&c, "aws", "m6i.huge")->uncached_iops == 9000);
	assert_int_equal(catalog_find_vm(&c, "aws", "m6i.huge")->layer, CAT_FILE);
	catalog_release(&c);
}

/* A malformed installed file is refused with its path; a missing directory is empty. */
static void test_errors(void **state)
{
	struct dirs *d = *state;
	struct catalog c;
	char err[512], none[160];
	struct catalog_layers l = {.installed = none, .user = none};

	snprintf(none, sizeof(none), "%s/none", d->top);
	assert_int_equal(catalog_open_layers(&c, &l, err, sizeof(err)), 0);
	assert_int_equal(c.nconflicts, 0);
	catalog_release(&c);
	write_file(d->inst, "zz.json", "{\"catalog\": \"aws\", \"vms\": [{\"name\": \"x\","
		   " \"iosp\": 1}]}");
	l.installed = d->inst;
	assert_int_equal(catalog_open_layers(&c, &l, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "/installed/zz.json"));
	assert_non_null(strstr(err, "unknown field 'iosp'"));
	catalog_release(&c);
}

/* catalog_load_layer_text: the same overlay for a document in memory, and the layer names. */
static void test_layer_text(void **state)
{
	struct catalog c = {0};
	char err[256];

	assert_int_equal(catalog_load_builtin(&c, err, sizeof(err)), 0);
	c.layer = CAT_INSTALLED;
	assert_int_equal(catalog_load_layer_text(&c, "t.json", "{\"catalog\": \"azure\", \"disks\":"
		" [{\"name\": \"P30\", \"gib\": 1024, \"iops\": 5000, \"mbps\": 200, \"family\":"
		" \"premium\", \"source\": \"s\", \"date\": \"2026\"}]}", err, sizeof(err)), 0);
	/* Unqualified, P30 is still azure's (it comes before azure-2015's). */
	assert_string_equal(catalog_find_disk(&c, NULL, "P30")->catalog, "azure");
	assert_int_equal(catalog_find_disk(&c, NULL, "P30")->layer, CAT_INSTALLED);
	assert_string_equal(catalog_layer_name(CAT_BUILTIN), "built-in");
	assert_string_equal(catalog_layer_name(CAT_FILE), "--catalog");
	catalog_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_installed_in_place, make_dirs, remove_dirs),
		cmocka_unit_test_setup_teardown(test_series_replaced, make_dirs, remove_dirs),
		cmocka_unit_test_setup_teardown(test_prices, make_dirs, remove_dirs),
		cmocka_unit_test_setup_teardown(test_user_and_files, make_dirs, remove_dirs),
		cmocka_unit_test_setup_teardown(test_errors, make_dirs, remove_dirs),
		cmocka_unit_test(test_layer_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
