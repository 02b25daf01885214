/*
 * The model under allocation failure: each allocation of a call (the library's own, wrapped at
 * link time, and jansson's, through json_set_alloc_funcs()) fails in turn. Every such run must
 * return a negative errno (-ENOMEM where the failed allocation was the model's own), free what
 * it took (the ASan build, build/tests-san/test_model_alloc, finds a leak) and, once no
 * allocation is left to fail, succeed with the same result as without the wrappers.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <jansson.h>

#include "model/attribute.h"
#include "model/catalog.h"
#include "model/config.h"
#include "model/import.h"
#include "model/plan.h"
#include "model/predict.h"
#include "model/prices.h"

/* Which allocation fails: the Nth of the library's own (libc's, wrapped) or of jansson's. */
static long own_at, json_at, own_calls, json_calls;
static int fired_own, fired_json;

static int fail_own(void)
{
	if (own_at && ++own_calls == own_at) {
		fired_own = 1;
		errno = ENOMEM;
		return 1;
	}
	return 0;
}

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);

void *__wrap_malloc(size_t n)
{
	return fail_own() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return fail_own() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	return fail_own() ? NULL : __real_realloc(p, n);
}

char *__wrap_strdup(const char *s)
{
	return fail_own() ? NULL : __real_strdup(s);
}

char *__wrap_strndup(const char *s, size_t n)
{
	return fail_own() ? NULL : __real_strndup(s, n);
}

int __wrap_asprintf(char **out, const char *fmt, ...)
{
	va_list ap;
	int ret;

	if (fail_own())
		return -1;
	va_start(ap, fmt);
	ret = vasprintf(out, fmt, ap);
	va_end(ap);
	return ret;
}

/*
 * jansson's parser is jansson's: with one of its allocations failing, jansson 2.14 has been
 * seen to return a document short of an entry. What is counted is what the model builds.
 */
static int in_parse;

json_t *__real_json_loads(const char *text, size_t flags, json_error_t *e);
json_t *__real_json_loadb(const char *text, size_t len, size_t flags, json_error_t *e);
json_t *__real_json_load_callback(json_load_callback_t cb, void *data, size_t flags,
				  json_error_t *e);

json_t *__wrap_json_loads(const char *text, size_t flags, json_error_t *e)
{
	in_parse++;
	json_t *j = __real_json_loads(text, flags, e);
	in_parse--;
	return j;
}

json_t *__wrap_json_loadb(const char *text, size_t len, size_t flags, json_error_t *e)
{
	in_parse++;
	json_t *j = __real_json_loadb(text, len, flags, e);
	in_parse--;
	return j;
}

json_t *__wrap_json_load_callback(json_load_callback_t cb, void *data, size_t flags,
				  json_error_t *e)
{
	in_parse++;
	json_t *j = __real_json_load_callback(cb, data, flags, e);
	in_parse--;
	return j;
}

static void *json_malloc(size_t n)
{
	if (json_at && !in_parse && ++json_calls == json_at) {
		fired_json = 1;
		return NULL;
	}
	return __real_malloc(n);
}

static void json_free(void *p)
{
	free(p);
}

/* One call of the model, from scratch to released; 0 or what the model returned. */
typedef int (*model_op)(char *err, size_t errlen);
/* What a successful op found (counts of entries, a figure), to compare with a run unharmed. */
static double op_sum;

/*
 * Runs op with its Nth own allocation failing for N = 1, 2, ... and then its jansson
 * allocations failing one in json_stride (jansson's parses allocate thousands alike), until
 * a run reaches no Nth allocation: that one must succeed. jansson absorbs some failures of
 * its own (a parse goes on); an op that then succeeds must find what an unharmed one found.
 */
static void each_failure(const char *what, model_op op, long json_stride)
{
	char err[512];
	long n, runs = 0;
	double want;
	int ret;

	op_sum = 0;
	if ((ret = op(err, sizeof(err))))
		fail_msg("%s: %d (%s)", what, ret, err);
	want = op_sum;
	for (n = 1;; n++, runs++) {
		own_calls = json_calls = 0;
		fired_own = fired_json = 0;
		own_at = n;
		err[0] = '\0';
		op_sum = 0;
		ret = op(err, sizeof(err));
		own_at = 0;
		if (!fired_own)
			break;
		if (ret != -ENOMEM)
			fail_msg("%s: own allocation %ld failing: %d (%s)", what, n, ret, err);
	}
	if (ret || op_sum != want)
		fail_msg("%s: no allocation failing: %d (%s)", what, ret, err);
	/* A run with nothing failed at all would mean the wrappers are not linked in. */
	if (runs == 0)
		fail_msg("%s: not one allocation could be made to fail", what);
	for (n = 1; json_stride; n += json_stride, runs++) {
		own_calls = json_calls = 0;
		fired_own = fired_json = 0;
		json_at = n;
		err[0] = '\0';
		op_sum = 0;
		ret = op(err, sizeof(err));
		json_at = 0;
		if (!fired_json)
			break;
		if (ret > 0 || (!ret && op_sum != want))
			fail_msg("%s: jansson allocation %ld failing: %d, %g found, not %g", what,
				 n, ret, op_sum, want);
	}
	print_message("%s: %ld runs\n", what, runs);
}

static struct catalog cat;
/* A directory of the test's own for the layers and the importer's output. */
static char dir[64], inst[96], user[96];

static void put(const char *d, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", d, name);
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void drop(const char *d, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", d, name);
	unlink(path);
}

static int setup(void **state)
{
	char err[256];

	(void)state;
	json_set_alloc_funcs(json_malloc, json_free);
	snprintf(dir, sizeof(dir), "/tmp/iorate-model-alloc-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(inst, sizeof(inst), "%s/inst", dir);
	snprintf(user, sizeof(user), "%s/user", dir);
	if (mkdir(inst, 0700) || mkdir(user, 0700))
		return -1;
	return model_catalog_open(&cat, NULL, 0, err, sizeof(err));
}

static int teardown(void **state)
{
	(void)state;
	catalog_release(&cat);
	/* What a test that failed midway left. */
	drop(inst, "aws.json");
	for (const char *const *n = (const char *const[]){"imported-aws.json",
		"imported-azure.json", "imported-gcp.json", "prices-azure-westeurope-EUR.json",
		NULL}; *n; n++)
		drop(user, *n);
	rmdir(inst);
	rmdir(user);
	rmdir(dir);
	return 0;
}

static int op_catalog_open(char *err, size_t errlen)
{
	struct catalog c;
	int ret = model_catalog_open(&c, NULL, 0, err, errlen);

	if (!ret)
		op_sum = c.nvms * 1e9 + c.ndisks * 1e6 + c.nprices * 1e3 + c.nseries;
	catalog_release(&c);
	return ret;
}

static void test_catalog_open(void **state)
{
	(void)state;
	each_failure("catalog", op_catalog_open, 1);
}

static int op_plan(char *err, size_t errlen)
{
	struct plan_target t = {.iops = 20000, .capacity = 2ull << 40, .bs = 4096,
				.provider = "azure", .top = 3};
	struct plan_result r;
	int ret = plan_search(&cat, &t, &r);

	if (!ret && !r.n)
		ret = -ENOENT;
	if (ret)
		snprintf(err, errlen, "%s", r.unmet);
	else
		op_sum = r.n + r.considered + r.options[0].cost.total;
	plan_result_free(&r);
	return ret;
}

static void test_plan(void **state)
{
	(void)state;
	each_failure("plan", op_plan, 1);
}


static int op_layers(char *err, size_t errlen)
{
	struct catalog_layers l = {.installed = inst, .user = user};
	struct catalog c;
	int ret = catalog_open_layers(&c, &l, err, errlen);

	if (!ret)
		op_sum = c.nvms * 1e9 + c.ndisks * 1e6 + c.nprices * 1e3 + c.nconflicts +
			 catalog_find_vm(&c, "aws", "m6i.huge")->uncached_iops;
	catalog_release(&c);
	return ret;
}

/* The layers: an installed file, a user's file above it, a user's price list. */
static void test_layers(void **state)
{
	(void)state;
	put(inst, "aws.json", "{\"catalog\": \"aws\", \"vms\": [{\"name\": \"m6i.huge\","
	    " \"vcpus\": 2, \"uncached_iops\": 7000, \"source\": \"s\", \"date\": \"2026\"}]}");
	put(user, "imported-aws.json", "{\"catalog\": \"aws\", \"vms\": [{\"name\":"
	    " \"m6i.huge\", \"vcpus\": 2, \"uncached_iops\": 8000, \"source\": \"u\","
	    " \"date\": \"2026\"}]}");
	put(user, "prices-azure-westeurope-EUR.json", "{\"catalog\": \"azure\", \"prices\": "
	    "[{\"kind\": \"vm\", \"name\": \"D4s_v5\", \"region\": \"westeurope\", \"currency\":"
	    " \"EUR\", \"per_hour\": 0.2, \"source\": \"s\", \"date\": \"2026-01-02\"}]}");
	each_failure("catalog layers", op_layers, 1);
	drop(inst, "aws.json");
	drop(user, "imported-aws.json");
	drop(user, "prices-azure-westeurope-EUR.json");
}

static const char az_text[] = "[{\"resourceType\": \"virtualMachines\", "
	"\"name\": \"Standard_X8s\", \"size\": \"X8s\", \"capabilities\": ["
	"{\"name\": \"vCPUs\", \"value\": \"8\"}, {\"name\": \"MemoryGB\", \"value\": \"0.5\"},"
	"{\"name\": \"UncachedDiskBytesPerSecond\", \"value\": \"201326592\"},"
	"{\"name\": \"CachedDiskBytes\", \"value\": \"214748364800\"},"
	"{\"name\": \"PremiumIO\", \"value\": \"False\"}]},"
	"{\"resourceType\": \"virtualMachines\", \"name\": \"Standard_D4s_v5\", \"size\": "
	"\"D4s_v5\", \"capabilities\": [{\"name\": \"vCPUs\", \"value\": \"4\"},"
	"{\"name\": \"UncachedDiskIOPS\", \"value\": \"6500\"}]},"
	"{\"resourceType\": \"disks\", \"name\": \"StandardSSD_LRS\", \"size\": \"E99\","
	"\"capabilities\": [{\"name\": \"MaxSizeGiB\", \"value\": \"100\"},"
	"{\"name\": \"MaxIOps\", \"value\": \"500\"}]},"
	"{\"resourceType\": \"hostGroups\", \"name\": \"H\"}]";
static const char aws_text[] = "{\"InstanceTypes\": ["
	"{\"InstanceType\": \"m5.large\", \"Hypervisor\": \"nitro\", \"VCpuInfo\": "
	"{\"DefaultVCpus\": 2}, \"MemoryInfo\": {\"SizeInMiB\": 8192}, \"EbsInfo\": "
	"{\"EbsOptimizedInfo\": {\"BaselineIops\": 3600, \"BaselineThroughputInMBps\": 81.25,"
	"\"MaximumIops\": 18750, \"MaximumThroughputInMBps\": 593.75}}},"
	"{\"InstanceType\": \"z9.large\", \"Hypervisor\": \"xen\", \"VCpuInfo\": "
	"{\"DefaultVCpus\": 2}, \"EbsInfo\": {\"MaximumEbsAttachments\": 28,"
	"\"EbsOptimizedInfo\": {\"BaselineIops\": 1000, \"MaximumIops\": 1000}}}]}";
static const char gcp_text[] = "[{\"name\": \"n2-standard-4\", \"guestCpus\": 4, \"memoryMb\":"
	" 16384, \"maximumPersistentDisks\": 128}, {\"name\": \"z3-new-8\", \"guestCpus\": 8}]";

static int op_import(char *err, size_t errlen)
{
	struct import im;
	int ret;

	/* What an init that failed took is released as after a success (as the commands do). */
	if (!(ret = import_init(&im, "2026-01-02")) &&
	    !(ret = import_text(&im, "az.json", az_text, err, errlen)) &&
	    !(ret = import_text(&im, "aws.json", aws_text, err, errlen)) &&
	    !(ret = import_text(&im, "gcp.json", gcp_text, err, errlen)) &&
	    !(ret = import_compare(&im, &cat, err, errlen)) &&
	    !(ret = import_write(&im, user, err, errlen)))
		op_sum = im.nsame * 1e6 + im.ndiffer * 1e3 + im.nnew;
	import_release(&im);
	/* Each run writes from scratch. */
	drop(user, "imported-azure.json");
	drop(user, "imported-aws.json");
	drop(user, "imported-gcp.json");
	return ret;
}

static void test_import(void **state)
{
	(void)state;
	each_failure("catalog import", op_import, 1);
}

#define ITEM(svc, prod, sku, meter, unit, price, arm) \
	"{\"currencyCode\": \"EUR\", \"retailPrice\": " price ", \"armRegionName\": " \
	"\"westeurope\", \"serviceName\": \"" svc "\", \"productName\": \"" prod "\", " \
	"\"skuName\": \"" sku "\", \"meterName\": \"" meter "\", \"unitOfMeasure\": \"" unit \
	"\", \"type\": \"Consumption\", \"armSkuName\": \"" arm "\", \"tierMinimumUnits\": 0}"

static int op_azure_page(char *err, size_t errlen)
{
	struct prices_azure a = {.region = "westeurope", .currency = "EUR", .source = "s",
				 .date = "2026-01-02"};
	char *next = NULL;
	unsigned v, d, st;
	json_t *list;
	int ret;

	if (!(ret = prices_azure_init(&a)))
		ret = prices_azure_page(&a, "{\"Items\": ["
			ITEM("Virtual Machines", "Virtual Machines Esv5 Series", "E2s v5", "E2s v5",
			     "1 Hour", "0.12", "Standard_E2s_v5") ","
			ITEM("Storage", "Standard HDD Managed Disks", "S10 LRS", "S10 LRS Disk", "1/Month",
			     "4.5", "") ","
			ITEM("Storage", "Standard HDD Managed Disks", "S4 LRS", "S4 LRS Disk Operations",
			     "10K", "0.0005", "") ","
			ITEM("Storage", "Ultra Disks", "Ultra LRS", "Ultra LRS Provisioned IOPS", "1/Hour",
			     "0.00005", "") ","
			ITEM("Storage", "General Block Blob v2", "Cool RA-GRS", "Cool RA-GRS Data Stored",
			     "1 GB/Month", "0.02", "") ","
			ITEM("Storage", "Storage - Bandwidth", "Geo-Replication v2",
			     "Geo-Replication v2 Data Transfer", "1 GB", "0.019", "")
			"], \"NextPageLink\": \"https://example.invalid/next\"}", &next, err, errlen);
	if (!ret) {
		if (!(list = prices_azure_list(&a, &v, &d, &st)))
			ret = -ENOMEM;
		else
			op_sum = v * 1e6 + d * 1e3 + st + json_array_size(list) * 1e9;
		json_decref(list);
	}
	free(next);
	prices_azure_release(&a);
	return ret;
}

static void test_azure_page(void **state)
{
	(void)state;
	each_failure("azure prices", op_azure_page, 1);
}

static const char csv[] =
	"\"FormatVersion\",\"v1.0\"\n"
	"\"SKU\",\"TermType\",\"PriceDescription\",\"Unit\",\"PricePerUnit\",\"Currency\","
	"\"Product Family\",\"Instance Type\",\"Tenancy\",\"Operating System\",\"usageType\","
	"\"Pre Installed S/W\",\"Region Code\"\r\n"
	"\"A\",\"OnDemand\",\"a \"\"quoted\"\", m9.large\",\"Hrs\",\"0.5\",\"USD\","
	"\"Compute Instance\",\"m9.large\",\"Shared\",\"Linux\",\"BoxUsage:m9.large\",\"NA\","
	"\"eu-west-1\"\r\n"
	"\"C\",\"OnDemand\",\"\",\"MiBps-Mo\",\"0.05\",\"USD\",\"Provisioned Throughput\",\"\","
	"\"\",\"\",\"EU-EBS:VolumeP-Throughput.gp3\",\"\",\"eu-west-1\"\n"
	"\"G\",\"OnDemand\",\"\",\"IOPS-Mo\",\"0.07\",\"USD\",\"System Operation\",\"\",\"\",\"\","
	"\"EU-EBS:VolumeP-IOPS.io2\",\"\",\"eu-west-1\"\n"
	"\"H\",\"OnDemand\",\"\",\"IOPS-Mo\",\"0.05\",\"USD\",\"System Operation\",\"\",\"\",\"\","
	"\"EU-EBS:VolumeP-IOPS.io2.tier2\",\"\",\"eu-west-1\"\n"
	"\"E\",\"OnDemand\",\"\",\"GB-Mo\",\"0.1\",\"USD\",\"Storage\",\"\",\"\",\"\","
	"\"EU-EBS:VolumeUsage.gp2\",\"\",\"eu-west-1\"";

static int op_aws_csv(char *err, size_t errlen)
{
	struct prices_aws a = {.region = "eu-west-1", .source = "s", .date = "d"};
	unsigned v, d;
	json_t *list;
	int ret;

	ret = prices_aws_init(&a);
	/* In pieces, so a line is carried over from one to the next. */
	for (size_t at = 0; !ret && at < sizeof(csv) - 1; at += 100)
		ret = prices_aws_feed(&a, csv + at, sizeof(csv) - 1 - at < 100 ?
				      sizeof(csv) - 1 - at : 100, err, errlen);
	if (!ret && !(ret = prices_aws_finish(&a, err, errlen))) {
		if (!(list = prices_aws_list(&a, &v, &d)))
			ret = -ENOMEM;
		else
			op_sum = v * 1e3 + d + json_array_size(list) * 1e6;
		json_decref(list);
	}
	prices_aws_release(&a);
	return ret;
}

static void test_aws_csv(void **state)
{
	(void)state;
	each_failure("aws prices", op_aws_csv, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_catalog_open),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_layers),
		cmocka_unit_test(test_import),
		cmocka_unit_test(test_azure_page),
		cmocka_unit_test(test_aws_csv),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
