/* The disk specs src/model/disk.c resolves and refuses, each refusal by its whole message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_ondemand),
		cmocka_unit_test(test_family), cmocka_unit_test(test_account),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
