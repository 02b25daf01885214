/* The disk specs src/model/disk.c resolves and refuses, each refusal by its whole message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>

#include "model_helpers.h"
#include "util/field.h"

/* The refusal of one spec, which names the field: "<disk> SPEC: why". */
static void refused_as(const char *vm, const char *spec, const char *want)
{
	char err[512], full[512];

	snprintf(full, sizeof(full), FIELD("disk") " %s", want);
	assert_string_equal(refusal(vm, spec, err, sizeof(err)), full);
}

/* Several specs together: the refusal of the configuration. */
static void refused_together(const char *vm, const char *a, const char *b, const char *want)
{
	struct model_config m;
	char err[512], *specs[2] = {(char *)a, (char *)b};

	assert_int_equal(model_config_resolve(&cat, vm, NULL, specs, 2, MODEL_CACHE_DEFAULT, &m, err,
					      sizeof(err)), -EINVAL);
	assert_string_equal(err, want);
}

static void test_refusals(void **state)
{
	(void)state;
	refused_as("m5.large", "gp2:100GiB:iops=3000",
		   "gp2:100GiB:iops=3000: gp2 derives its performance from its size; iops= and "
		   "mbps= apply to provisioned types (pv2, ultra, gp3, io1, io2, hyperdisk-*)");
	refused_as("m5.large", "gp3", "gp3: gp3 needs a size, e.g. gp3:512GiB");
	refused_as("D8s_v3", "P10:1TiB", "P10:1TiB: P10 holds 128 GiB; that size needs P30");
	refused_as("D8s_v3", "2xlocal",
		   "2xlocal: the local disk takes no count, size, iops= or cache=");
	refused_as("D8s_v3", "local:cache=readonly",
		   "local:cache=readonly: the local disk takes no count, size, iops= or cache=");
	refused_as("D8s_v3", "P10:burst=ondemand",
		   "P10:burst=ondemand: P10 has no on-demand bursting (Premium SSD larger than "
		   "512 GiB only)");
	refused_together("D8s_v3", "local", "P10",
			 "\001disk\002 local: the local disk is modelled alone, not striped with "
			 "other disks");
	refused_together("D8s_v3", "os", "os",
			 "\001disk\002 os: a VM has one OS disk, a volume of its own");
	refused_together("D8s_v3", "os", "P10",
			 "\001disk\002 os: a VM has one OS disk, a volume of its own");
}

/* A spec that is no SPEC: each form refused whole, with what a SPEC looks like. */
static void test_malformed(void **state)
{
	static const char *const specs[] = {
		"0xP30", "257xP30", "P30:0", "P30:1q", "P30:iops=0", "P30:mbps=x",
		"P30:cache=bogus",
		"P30:burst=maybe", "P30:burst", "P10:1G:1G:1G:1G:1G:1G:1G", ":", "azure:0xP30",
	};
	char err[512], want[512], long_spec[200];

	(void)state;
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		snprintf(want, sizeof(want), FIELD("disk") " '%s' is not a disk SPEC (expected "
			 "[Nx]TYPE[:SIZE][:iops=N][:mbps=N][:burst=ondemand][:cache=MODE], e.g. "
			 "2xP30, 16xstandard, gp3:1TiB:iops=6000, P30:cache=readonly)", specs[i]);
		assert_string_equal(refusal("D8s_v3", specs[i], err, sizeof(err)), want);
	}
	memset(long_spec, 'P', sizeof(long_spec) - 1);
	long_spec[sizeof(long_spec) - 1] = '\0';
	/* Longer than any name: refused as no SPEC (the message, cut, starts with it). */
	refusal("D8s_v3", long_spec, err, sizeof(err));
	assert_int_equal(strncmp(err, FIELD("disk") " 'PPPPPPPP", 11), 0);
	/* A count needs its x and a name after it: "2x" alone is a name, not found. */
	refused_as("D8s_v3", "2x", "2x: no disk type '2x' in catalog azure");
	refused_as("m5.large", "local", "local: m5.large has no local disk with published limits");
}

/* The host cache's names, each of its spellings, and one out of range named none. */
static void test_cache_names(void **state)
{
	static const struct {
		const char *s;
		enum model_cache c;
	} forms[] = {
		{"none", MODEL_CACHE_NONE}, {"OFF", MODEL_CACHE_NONE},
		{"readonly", MODEL_CACHE_READONLY}, {"ro", MODEL_CACHE_READONLY},
		{"Read", MODEL_CACHE_READONLY}, {"readwrite", MODEL_CACHE_READWRITE},
		{"RW", MODEL_CACHE_READWRITE},
	};
	enum model_cache c = MODEL_CACHE_DEFAULT;

	(void)state;
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		assert_int_equal(model_cache_parse(forms[i].s, &c), 0);
		assert_int_equal(c, forms[i].c);
	}
	assert_int_equal(model_cache_parse("write", &c), -EINVAL);
	assert_string_equal(model_cache_name(MODEL_CACHE_READWRITE), "readwrite");
	assert_string_equal(model_cache_name(MODEL_CACHE_DEFAULT), "default");
	assert_string_equal(model_cache_name((enum model_cache)(MODEL_CACHE_DEFAULT + 1)), "none");
}

/* On-demand bursting raises the disk's caps to the published ones, with no bucket. */
static void test_ondemand(void **state)
{
	struct model_disk d = disk_of("D8s_v3", "P40:burst=ondemand"), p = disk_of("D8s_v3", "P40");

	(void)state;
	assert_true(d.ondemand);
	assert_true(d.iops > p.iops);
	assert_true(d.mbps > p.mbps);
	assert_true(d.burst_iops == 0 && d.bucket_ios == 0);
}

/* A family and a size name the family's smallest tier that holds it, as the provider bills. */
static void test_family(void **state)
{
	struct model_disk d = disk_of("D8s_v3", "premium:200GiB");

	(void)state;
	assert_string_equal(d.type->name, "P15");
	assert_within(d.gib, 256, 1e-9);
	d = disk_of("D8s_v3", "standard-ssd:100GiB");
	assert_string_equal(d.type->name, "E10");
	d = disk_of("D8s_v3", "premium:1GiB");
	assert_string_equal(d.type->name, "P1");
}

/* Standard disks of 2015 share their storage account's 20,000 IOPS: a limit of its own. */
static void test_account(void **state)
{
	const char *std[] = {"16xstandard"};
	struct model_workload w = {.bs = 4096, .threads = 16, .depth = 32};
	struct model_result r = predict_groups("A4", std, 1, 0, w);
	unsigned found = 0;

	(void)state;
	for (unsigned i = 0; i < r.nlimits; i++)
		if (!strcmp(r.limits[i].name, "account_iops")) {
			assert_within(r.limits[i].iops, 20000, 1e-9);
			found++;
		}
	assert_int_equal(found, 1);
}

/*
 * The catalog's reader takes any figure of 0 or more, so one below 1 is a figure, not "none":
 * an IOPS maximum of 0.5 without Nitro, 0.5 MB/s per IOPS, a maximum of 0.5 MB/s.
 */
static void test_figures_below_one(void **state)
{
	struct cat_disk t = {.provisioned = true, .iops = 100, .iops_max = 100,
			     .iops_max_without_nitro = 0.5};
	struct cat_vm nitro = {.nitro = true}, xen = {.nitro = false};

	(void)state;
	assert_true(model_rule_max_iops(&t, &xen, 100) == 0.5);
	assert_true(model_rule_max_iops(&t, &nitro, 100) == 100);
	/* 0.5 MB/s per IOPS: 100 IOPS allow 50 MB/s, above the 10 of the base, below 1,000. */
	struct cat_disk p = {.provisioned = true, .mbps = 10, .mbps_per_iops = 0.5,
			     .mbps_max = 1000};
	assert_true(model_rule_max_mbps(&p, 100) == 50);
	/* A provisioned type's maximum of 0.5 MB/s is its bound, not its base of 10. */
	struct cat_disk m = {.provisioned = true, .mbps = 10, .mbps_max = 0.5};
	assert_true(model_rule_max_mbps(&m, 100) == 0.5);
}

/* A provisioned type whose base throughput is 0.5 MB/s (up to 100): a disk given no mbps=
 * gets the 0.5, not the maximum. */
static void test_base_mbps_below_one(void **state)
{
	struct catalog c = {0};
	struct model_disk d;
	char err[256];

	(void)state;
	assert_int_equal(catalog_load_text(&c, "small.json", "{\"catalog\": \"x\", \"disks\": [{"
		"\"name\": \"T\", \"rule\": true, \"provisioned\": true, \"min_gib\": 1, "
		"\"max_gib\": 100, \"iops\": 3000, \"iops_max\": 16000, \"mbps\": 0.5, "
		"\"mbps_max\": 100, "
		"\"source\": \"s\", \"date\": \"d\"}]}", err, sizeof(err)), 0);
	if (model_parse_disk(&c, NULL, "T:10GiB", &d, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(d.mbps == 0.5);
	assert_true(d.iops == 3000);
	catalog_release(&c);
}

/* An Ultra Disk given IOPS and no mbps= gets the most those IOPS allow (0.25 MB/s each), not
 * its base of 0 raised to the least of 1 MB/s. */
static void test_ultra_mbps_by_iops(void **state)
{
	struct model_disk d = disk_of("D8s_v3", "ultra:1TiB:iops=10000");

	(void)state;
	assert_true(d.iops == 10000);
	assert_true(d.mbps == 2500);
}

/* gp2 bursts to 3,000 IOPS: a volume of 1,000 GiB has them as its base and no bucket, one of
 * 999 GiB (2,997 IOPS) has the bucket of 5.4 million I/Os. */
static void test_gp2_burst_edge(void **state)
{
	struct model_disk d = disk_of("m5.large", "gp2:1000GiB");

	(void)state;
	assert_true(d.iops == 3000);
	assert_true(d.burst_iops == 0 && d.bucket_ios == 0);
	d = disk_of("m5.large", "gp2:999GiB");
	assert_true(d.iops == 2997 && d.burst_iops == 3000 && d.bucket_ios == 5400000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_cache_names),
		cmocka_unit_test(test_ondemand),
		cmocka_unit_test(test_family), cmocka_unit_test(test_account),
		cmocka_unit_test(test_figures_below_one),
		cmocka_unit_test(test_base_mbps_below_one),
		cmocka_unit_test(test_ultra_mbps_by_iops),
		cmocka_unit_test(test_gp2_burst_edge),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
