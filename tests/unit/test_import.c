/* catalog import: each CLI's output read into entries, compared with the built-in catalog. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>

#include "model_helpers.h"
#include "model/import.h"

static json_t *vm_named(const struct import *im, enum import_provider p, const char *name)
{
	json_t *e;
	size_t i;

	json_array_foreach((json_t *)im->vms[p], i, e)
		if (!strcmp(json_string_value(json_object_get(e, "name")), name))
			return e;
	return NULL;
}

static double num(json_t *e, const char *key)
{
	return json_number_value(json_object_get(e, key));
}

/* Azure's capabilities are strings: bytes per second become MB/s, bytes GiB, MiB GiB. */
static void test_azure(void **state)
{
	struct import im;
	char err[256];
	json_t *e;

	assert_int_equal(import_init(&im, "2026-01-02"), 0);
	assert_int_equal(import_text(&im, "az.json", "[{\"resourceType\": \"virtualMachines\", "
		"\"name\": \"Standard_X8s\", \"size\": \"X8s\", \"capabilities\": ["
		"{\"name\": \"vCPUs\", \"value\": \"8\"}, {\"name\": \"MemoryGB\","
		" \"value\": \"0.5\"},"
		"{\"name\": \"UncachedDiskBytesPerSecond\", \"value\": \"201326592\"},"
		"{\"name\": \"CachedDiskBytes\", \"value\": \"214748364800\"},"
		"{\"name\": \"PremiumIO\", \"value\": \"False\"},"
		"{\"name\": \"SomethingNew\", \"value\": \"whatever\"}]},"
		"{\"resourceType\": \"disks\", \"name\": \"StandardSSD_LRS\", \"size\": \"E99\","
		"\"capabilities\": [{\"name\": \"MaxSizeGiB\", \"value\": \"100\"},"
		"{\"name\": \"MaxIOps\", \"value\": \"500\"}]},"
		"{\"resourceType\": \"disks\", \"name\": \"UltraSSD_LRS\", \"capabilities\": []},"
		"{\"resourceType\": \"hostGroups\", \"name\": \"H\"}]", err, sizeof(err)), 0);
	e = vm_named(&im, IMPORT_AZURE, "X8s");
	assert_non_null(e);
	assert_int_equal(json_integer_value(json_object_get(e, "vcpus")), 8);
	assert_true(num(e, "mem_gib") == 0.5);
	assert_true(num(e, "uncached_mbps") == 201.326592);
	assert_true(num(e, "cache_gib") == 200);
	assert_true(json_is_true(json_object_get(e, "cache")));
	assert_true(json_is_false(json_object_get(e, "premium")));
	assert_null(json_object_get(e, "SomethingNew"));
	assert_string_equal(json_string_value(json_array_get(json_object_get(e, "aliases"), 0)),
			    "Standard_X8s");
	assert_non_null(strstr(json_string_value(json_object_get(e, "source")),
			       "imported from az.json on 2026-01-02"));
	assert_int_equal(json_array_size(im.disks[IMPORT_AZURE]), 1);
	assert_int_equal(im.files[0].skipped, 2);
	import_release(&im);
}

/* What is refused names the file and the entry, and keeps nothing of the file. */
static void test_malformed(void **state)
{
	struct import im;
	char err[256];

	assert_int_equal(import_init(&im, "2026-01-02"), 0);
	assert_int_equal(import_text(&im, "a.json", "[{\"resourceType\": \"virtualMachines\", "
		"\"name\": \"Standard_A\", \"capabilities\": [{\"name\": \"vCPUs\","
		" \"value\": \"2\"}]},"
		"{\"resourceType\": \"virtualMachines\", \"name\": \"Standard_B\","
		" \"capabilities\": "
		"[{\"name\": \"MemoryGB\", \"value\": \"-1\"}]}]", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "a.json: [1] 'Standard_B': capability 'MemoryGB': not a "
			    "non-negative number");
	assert_int_equal(json_array_size(im.vms[IMPORT_AZURE]), 0);
	assert_int_equal(im.nfiles, 0);
	assert_int_equal(import_text(&im, "g.json", "[{\"name\": \"n9-x\", \"guestCpus\": \"2\"}]",
				     err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "g.json: [0] 'n9-x': 'guestCpus': expected a count of vCPUs");
	assert_int_equal(import_text(&im, "w.json", "{\"InstanceTypes\": [{\"InstanceType\": "
		"\"x.large\", \"MemoryInfo\": {\"SizeInMiB\": \"lots\"}}]}", err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "w.json: [0] 'x.large': "));
	assert_int_equal(import_text(&im, "n.json", "{\"Reservations\": []}", err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "n.json: not a provider CLI's output"));
	assert_int_equal(import_text(&im, "s.json", "[1, 2", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "s.json:1:"));
	import_release(&im);
}

/* AWS: the EBS-optimized baseline and maximum; the root volume takes one attachment. */
static void test_aws(void **state)
{
	struct import im;
	char err[256];
	json_t *e;

	assert_int_equal(import_init(&im, "2026-01-02"), 0);
	assert_int_equal(import_text(&im, "aws.json", "{\"InstanceTypes\": [{\"InstanceType\": "
		"\"z9.large\", \"Hypervisor\": \"xen\", \"VCpuInfo\": {\"DefaultVCpus\": 2},"
		"\"MemoryInfo\": {\"SizeInMiB\": 3072},"
		" \"EbsInfo\": {\"MaximumEbsAttachments\": 28,"
		"\"EbsOptimizedInfo\": {\"BaselineIops\": 1000, \"BaselineThroughputInMBps\": 50,"
		"\"MaximumIops\": 1000, \"MaximumThroughputInMBps\": 50}}}], \"NextToken\": \"x\"}",
		err, sizeof(err)), 0);
	e = vm_named(&im, IMPORT_AWS, "z9.large");
	assert_non_null(e);
	assert_true(num(e, "mem_gib") == 3);
	assert_int_equal(json_integer_value(json_object_get(e, "max_disks")), 27);
	assert_true(json_is_false(json_object_get(e, "nitro")));
	/* No burst when the maximum is the baseline. */
	assert_null(json_object_get(e, "burst_iops"));
	assert_true(num(e, "uncached_mbps") == 50);
	import_release(&im);
}

/*
 * AWS's EBS volume limit ('Amazon EBS volume limits for Amazon EC2 instances'): a shared limit
 * also holds the network interface and each NVMe instance store volume; without a limit, a
 * Nitro instance has the shared 28 and a Xen one 40 volumes, the root volume among them.
 */
static void test_aws_volume_limits(void **state)
{
	static const struct {
		const char *ebs, *store, *hv;
		long want;
	} cases[] = {
		{"\"MaximumEbsAttachments\": 28, \"AttachmentLimitType\": \"shared\"",
		 "{\"Disks\": [{\"SizeInGB\": 1900, \"Count\": 2}]}", "nitro", 24},
		{"\"MaximumEbsAttachments\": 28, \"AttachmentLimitType\": \"shared\"", "{}",
		 "nitro", 26},
		{"\"MaximumEbsAttachments\": 32, \"AttachmentLimitType\": \"dedicated\"",
		 "{\"Disks\": [{\"SizeInGB\": 1250, \"Count\": 1}]}", "nitro", 31},
		{"\"EbsOptimizedSupport\": \"default\"",
		 "{\"Disks\": [{\"SizeInGB\": 937, \"Count\": 1}]}", "nitro", 25},
		{"\"EbsOptimizedSupport\": \"default\"", "{}", "xen", 39},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct import im;
		char text[512], err[256];
		json_t *e;

		snprintf(text, sizeof(text), "{\"InstanceTypes\": [{\"InstanceType\": "
			 "\"z9.large\", \"Hypervisor\": \"%s\", \"InstanceStorageInfo\": %s, "
			 "\"EbsInfo\": {%s}}]}", cases[i].hv, cases[i].store, cases[i].ebs);
		assert_int_equal(import_init(&im, "2026-01-02"), 0);
		assert_int_equal(import_text(&im, "aws.json", text, err, sizeof(err)), 0);
		e = vm_named(&im, IMPORT_AWS, "z9.large");
		assert_non_null(e);
		long long got = json_integer_value(json_object_get(e, "max_disks"));

		if (got != cases[i].want)
			fail_msg("%s: %lld data disks, not %ld", text, got, cases[i].want);
		import_release(&im);
	}
}

/*
 * Compared with the built-in catalog: equal entries and differing ones are left out, each
 * differing figure recorded with both values; a figure the built-in entry lacks counts too.
 */
static void test_compare(void **state)
{
	struct import im;
	char err[256];

	assert_int_equal(import_init(&im, "2026-01-02"), 0);
	assert_int_equal(import_text(&im, "aws.json", "{\"InstanceTypes\": ["
		"{\"InstanceType\": \"m5.large\", \"Hypervisor\": \"nitro\", \"VCpuInfo\": "
		"{\"DefaultVCpus\": 2}, \"MemoryInfo\": {\"SizeInMiB\": 8192}, \"EbsInfo\": "
		"{\"EbsOptimizedInfo\": {\"BaselineIops\": 3600,"
		" \"BaselineThroughputInMBps\": 81.25,"
		"\"MaximumIops\": 18750, \"MaximumThroughputInMBps\": 593.75}}},"
		"{\"InstanceType\": \"m5.xlarge\","
		" \"VCpuInfo\": {\"DefaultVCpus\": 4}, \"EbsInfo\": "
		"{\"EbsOptimizedInfo\": {\"BaselineIops\": 6001}}},"
		"{\"InstanceType\": \"q1.nano\", \"VCpuInfo\": {\"DefaultVCpus\": 1}}]}",
		err, sizeof(err)), 0);
	assert_int_equal(import_compare(&im, &cat, err, sizeof(err)), 0);
	assert_int_equal(im.nsame, 1);
	assert_int_equal(im.ndiffer, 1);
	assert_int_equal(im.nnew, 1);
	assert_int_equal(im.nconflicts, 1);
	assert_string_equal(im.conflicts[0].name, "m5.xlarge");
	assert_string_equal(im.conflicts[0].field, "uncached_iops");
	assert_true(im.conflicts[0].builtin == 6000 && im.conflicts[0].imported == 6001);
	assert_int_equal(json_array_size(im.vms[IMPORT_AWS]), 1);
	assert_non_null(vm_named(&im, IMPORT_AWS, "q1.nano"));
	import_release(&im);
}

/* The sweep: the document, the name it is imported as, how many tries were refused. */
struct isweep {
	json_t *root;
	unsigned tried, refused;
};

/* The document as it stands, imported alone: taken, or refused naming the file, keeping none of
 * it. */
static void import_as_is(struct isweep *sw)
{
	struct import im;
	char err[256] = "", *text = json_dumps(sw->root, JSON_COMPACT);
	int r;

	assert_non_null(text);
	assert_int_equal(import_init(&im, "2026-01-02"), 0);
	r = import_text(&im, "f.json", text, err, sizeof(err));
	sw->tried++;
	if (r) {
		sw->refused++;
		assert_int_equal(r, -EINVAL);
		if (strncmp(err, "f.json: ", 8))
			fail_msg("%s: \"%s\" does not name the file", text, err);
		assert_int_equal(im.nfiles, 0);
		for (int p = 0; p < IMPORT_NPROVIDERS; p++)
			assert_int_equal(json_array_size(im.vms[p]) +
					 json_array_size(im.disks[p]), 0);
	}
	import_release(&im);
	free(text);
}

/* Each member of o in turn given another type (a number for a string, a string otherwise),
 * then left out; the first element of each array likewise. */
static void isweep_members(struct isweep *sw, json_t *o)
{
	if (json_is_array(o) && json_array_size(o)) {
		json_t *v = json_incref(json_array_get(o, 0));
		json_array_set_new(o, 0, json_is_string(v) ? json_integer(7) : json_string("x"));
		import_as_is(sw);
		json_array_set(o, 0, v);
		isweep_members(sw, v);
		json_decref(v);
	} else if (json_is_object(o)) {
		size_t n = json_object_size(o), i = 0;
		char **keys = calloc(n ? n : 1, sizeof(*keys));
		const char *key;
		json_t *v;

		assert_non_null(keys);
		json_object_foreach(o, key, v)
			keys[i++] = strdup(key);
		for (i = 0; i < n; i++) {
			v = json_incref(json_object_get(o, keys[i]));
			json_object_set_new(o, keys[i],
					    json_is_string(v) ? json_integer(7) : json_string("x"));
			import_as_is(sw);
			json_object_del(o, keys[i]);
			import_as_is(sw);
			json_object_set(o, keys[i], v);
			isweep_members(sw, v);
			json_decref(v);
			free(keys[i]);
		}
		free(keys);
	}
}

/* Each provider's output with each member changed: imported, or refused naming the file and
 * keeping nothing of it. */
static void test_every_member(void **state)
{
	static const char *const docs[] = {
		"[{\"resourceType\": \"virtualMachines\", \"name\": \"Standard_X8s\", \"size\": "
		"\"X8s\", \"capabilities\": [{\"name\": \"vCPUs\", \"value\": \"8\"}, {\"name\": "
		"\"MemoryGB\", \"value\": \"0.5\"}, {\"name\": \"UncachedDiskBytesPerSecond\", "
		"\"value\": \"201326592\"}, {\"name\": \"CachedDiskBytes\", \"value\": "
		"\"214748364800\"}, {\"name\": \"PremiumIO\", \"value\": \"False\"}]},"
		"{\"resourceType\": \"disks\", \"name\": \"StandardSSD_LRS\", \"size\": \"E99\","
		"\"capabilities\": [{\"name\": \"MaxSizeGiB\", \"value\": \"100\"},"
		"{\"name\": \"MaxIOps\", \"value\": \"500\"}]}]",
		"{\"InstanceTypes\": [{\"InstanceType\": \"z9.large\", \"Hypervisor\": \"nitro\", "
		"\"VCpuInfo\": {\"DefaultVCpus\": 2}, \"MemoryInfo\": {\"SizeInMiB\": 3072}, "
		"\"EbsInfo\": {\"MaximumEbsAttachments\": 28, \"EbsOptimizedInfo\": "
		"{\"BaselineIops\": 1000, \"BaselineThroughputInMBps\": 50, \"MaximumIops\": 2000, "
		"\"MaximumThroughputInMBps\": 100}}}]}",
		"[{\"name\": \"n9-standard-2\", \"guestCpus\": 2, \"memoryMb\": 7680, "
		"\"maximumPersistentDisks\": 128}]",
	};
	unsigned refused[3];

	for (int d = 0; d < 3; d++) {
		struct isweep sw = {.root = json_loads(docs[d], 0, NULL)};

		assert_non_null(sw.root);
		import_as_is(&sw);
		assert_int_equal(sw.refused, 0);
		isweep_members(&sw, sw.root);
		refused[d] = sw.refused;
		json_decref(sw.root);
	}
	/* Each provider's reader refuses some of its members' changes. */
	assert_true(refused[0] > 5 && refused[1] > 5 && refused[2] > 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_azure), cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_every_member),
		cmocka_unit_test(test_aws), cmocka_unit_test(test_aws_volume_limits),
		cmocka_unit_test(test_compare),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
