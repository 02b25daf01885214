/* The model commands' outputs, written by src/report (model_fmt.h, catalog_fmt.h). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "model/config.h"
#include "report/catalog_fmt.h"
#include "report/model_fmt.h"
#include "report/model_words.h"

/* What a writer printed, as a string the caller frees; its return value in *rc. */
#define CAPTURE(rc, call)                                                                         \
	({                                                                                        \
		char *buf_ = NULL;                                                                \
		size_t len_ = 0;                                                                  \
		FILE *f = open_memstream(&buf_, &len_);                                           \
		assert_non_null(f);                                                               \
		*(rc) = (call);                                                                   \
		fclose(f);                                                                        \
		buf_;                                                                             \
	})

static void assert_has(const char *text, const char *want)
{
	if (!strstr(text, want))
		fail_msg("'%s' not found in:\n%s", want, text);
}

/*
 * A disk written in MiB/s with a latency of its own source, a VM with caps per family, and a
 * note with a control byte: what catalog show must label, unit and escape.
 */
static const char doc[] =
	"{\"catalog\": \"mine\", \"disks\": [{\"name\": \"D1\", \"family\": \"f\", \"gib\": 100, "
	"\"iops\": 3000, \"mbps\": 125, \"units\": \"MiB/s\", \"iops_per_gib\": 3, "
	"\"mbps_steps\": [[0, 100], [200, 250]], \"latency_read_ms\": 0.5, "
	"\"latency_source\": \"a benchmark\", \"burst_seconds\": 1800, \"cache\": false, "
	"\"note\": \"bell \\u0007 here\", \"source\": \"vendor page\", \"date\": \"2024-01-02\"}], "
	"\"vms\": [{\"name\": \"V1\", \"vcpus\": 4, \"uncached_iops\": 6400, \"uncached_mbps\": 96, "
	"\"uncached_source\": \"observed\", \"caps_by_family\": [{\"family\": \"f\", "
	"\"iops\": 9000, \"mbps\": 200, \"units\": \"MiB/s\"}], \"source\": \"vm page\", "
	"\"date\": \"2023\"}]}";

static void catalog_show_text(void **state)
{
	struct catalog c = {0};
	char err[256];
	int rc;

	assert_int_equal(catalog_load_text(&c, "mine.json", doc, err, sizeof(err)), 0);
	struct catalog_show_report s = {.catalog = &c, .disk = catalog_find_disk(&c, NULL, "D1")};
	char *t = CAPTURE(&rc, catalog_fmt_show_text(f, &s));

	assert_int_equal(rc, 0);
	assert_has(t, "D1, a disk type of catalog mine\ndate:       2024-01-02\nfamily:     f\n");
	assert_has(t, "source [1]: vendor page\nsource [2]: a benchmark\n");
	assert_has(t, "note:       bell \\a here\n");
	assert_has(t, "  gib                                     100  GiB            [1]\n");
	assert_has(t, "  mbps                                    125  MiB/s          [1]\n");
	assert_has(t, "  iops_per_gib                              3  IOPS per GiB   [1]\n");
	assert_has(t, "  latency_read_ms                         0.5  ms             [2]\n");
	assert_has(t, "  burst_seconds                          1800  s              [1]\n");
	assert_has(t, "  cache                                    no                 [1]\n");
	assert_has(t, "  mbps_steps from 200 GiB                 250  MiB/s          [1]\n");
	free(t);

	s = (struct catalog_show_report){.catalog = &c, .vm = catalog_find_vm(&c, NULL, "V1")};
	t = CAPTURE(&rc, catalog_fmt_show_text(f, &s));
	assert_has(t, "V1, a VM size of catalog mine\n");
	assert_has(t, "source [1]: vm page\nsource [2]: observed\n");
	assert_has(t, "  vcpus                                     4  vCPUs          [1]\n");
	assert_has(t, "  uncached_mbps                            96  MB/s           [2]\n");
	assert_has(t, "  f mbps                                  200  MiB/s          [1]\n");
	free(t);
	catalog_release(&c);
}

/* JSON: the entry exactly as written, plus its catalog, its layer and its prices (none). */
static void catalog_show_json(void **state)
{
	struct catalog c = {0};
	char err[256];
	int rc;

	assert_int_equal(catalog_load_text(&c, "mine.json", doc, err, sizeof(err)), 0);
	struct catalog_show_report s = {.catalog = &c, .disk = catalog_find_disk(&c, NULL, "D1")};
	char *t = CAPTURE(&rc, catalog_fmt_show_json(f, &s));
	json_t *got = json_loads(t, 0, NULL), *want = json_loads(doc, 0, NULL);
	json_t *entry = json_array_get(json_object_get(want, "disks"), 0);

	assert_int_equal(rc, 0);
	assert_non_null(got);
	json_object_set_new(entry, "catalog", json_string("mine"));
	json_object_set_new(entry, "layer", json_string("built-in"));
	json_object_set_new(entry, "prices", json_array());
	assert_true(json_equal(got, entry));
	free(t);
	json_decref(got);
	json_decref(want);
	/* Neither a VM nor a disk: nothing to show. */
	s = (struct catalog_show_report){.catalog = &c};
	t = CAPTURE(&rc, catalog_fmt_show_json(f, &s));
	assert_int_equal(rc, -ENOENT);
	free(t);
	catalog_release(&c);
}

/* A prediction in both formats names the same configuration and figures. */
static void prediction(void **state)
{
	struct catalog c = {0};
	struct model_config m;
	struct model_workload w = {.bs = 4096, .threads = 1, .depth = 32};
	struct model_result r;
	char err[256], name[256], *specs[] = {"2xP30"};
	int rc;

	assert_int_equal(model_catalog_open(&c, NULL, 0, err, sizeof(err)), 0);
	assert_int_equal(model_config_resolve(&c, "azure-2015:DS2", NULL, specs, 1,
					      MODEL_CACHE_NONE, &m, err, sizeof(err)), 0);
	assert_int_equal(model_predict(&m, &w, 0, &r), 0);
	model_fmt_config_name(&m, name, sizeof(name));
	assert_string_equal(name, "DS2 + 2 x P30 (azure-2015)");

	const struct model_report mr = {&m, &w, &r};
	char *t = CAPTURE(&rc, model_fmt_text(f, &mr));
	assert_int_equal(rc, 0);
	assert_has(t, "configuration: DS2 + 2 x P30 (azure-2015), host cache none\n");
	assert_has(t, "predicted:     6400 IOPS, 26.2 MB/s (25.0 MiB/s)");
	assert_has(t, "bound by:      vm_uncached_iops");
	free(t);

	t = CAPTURE(&rc, model_fmt_json(f, &mr));
	assert_int_equal(rc, 0);
	json_t *o = json_loads(t, 0, NULL);
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "binding")), "vm_uncached_iops");
	/* Three decimals, written in the shortest form: 6400 * 4096 B = 26.214 MB/s. */
	assert_has(t, "\"mbps\": 26.214,");
	assert_int_equal(json_integer_value(json_object_get(o, "schema")), 1);
	json_decref(o);
	free(t);
	catalog_release(&c);
}

/* An upload's text and JSON carry the same figures and every chunk size compared. */
static void upload(void **state)
{
	const struct cost_upload u = {.data = 750ull << 30};
	const struct cost_upload_result r = {.transactions = 1536000, .gib = 750,
		.transaction_cost = 15.36, .storage_cost = 11.4, .total = 26.76,
		.write_per_10k = 0.1, .per_gb_month = 0.0152, .months = 1, .currency = "USD"};
	const uint64_t chunks[] = {65536, 524288};
	const struct cost_upload_result alt[] = {{.transactions = 12288000,
						  .transaction_cost = 122.88}, r};
	const struct cost_upload_report rep = {&u, &r, chunks, alt, 2};
	int rc;
	char *t = CAPTURE(&rc, cost_fmt_upload_text(f, &rep));

	assert_has(t, "upload:        750GiB (750.00 GiB) in 512KiB chunks, 1 month of storage\n");
	assert_has(t, "total:         26.76 USD\n");
	assert_has(t, "     64KiB      12288000 writes      122.88\n");
	free(t);
	t = CAPTURE(&rc, cost_fmt_upload_json(f, &rep));
	assert_int_equal(rc, 0);
	assert_has(t, "\"write_per_10k\": 0.1,");
	assert_has(t, "\"chunk\": 524288,");
	assert_has(t, "\"transaction_cost\": 122.88");
	free(t);
}

/* The model's codes and figures, worded as every output of model, plan and cost prints them. */
static void words(void **state)
{
	struct cat_family_caps nvme = {.column = "Premium SSD v2 and Ultra Disk",
				       .controller = "nvme"}, gcp = {.family = "pd-ssd"};
	char b[256];

	(void)state;
	assert_string_equal(model_words_note(&(struct model_note){.kind = MODEL_NOTE_NO_VM_LIMIT,
		.vm = "n4-standard-2", .family = "hyperdisk"}, b, sizeof(b)),
		"n4-standard-2 publishes no per-VM limit for hyperdisk disks: none is applied");
	assert_string_equal(model_words_note(&(struct model_note){
		.kind = MODEL_NOTE_NO_CACHED_LIMIT, .vm = "DS2"}, b, sizeof(b)),
		"DS2 publishes no cached limit: host-cache hits are counted at its uncached limit");
	assert_string_equal(model_words_note(&(struct model_note){
		.kind = MODEL_NOTE_WS_OVER_VOLUME, .a = 2048, .b = 1024}, b, sizeof(b)),
		"the working set (2048 GiB) is larger than the volume (1024 GiB)");
	assert_has(model_words_note(&(struct model_note){.kind = MODEL_NOTE_HITS_AT_DISK}, b,
				    sizeof(b)), "2015 rule: ");
	/* A stripe's pace, whole or set by some members, with what the figure is. */
	assert_string_equal(model_words_detail(&(struct model_detail){
		.kind = MODEL_DETAIL_DISK_IOPS, .name = "P10", .n = 4, .k = 2, .a = 500}, b,
		sizeof(b)), "2 x P10 set the pace of 4 members: 500 IOPS each");
	assert_string_equal(model_words_detail(&(struct model_detail){
		.kind = MODEL_DETAIL_DISK_IOPS, .name = "P30", .n = 2, .k = 2, .a = 5000,
		.flags = MODEL_DETAIL_BURST | MODEL_DETAIL_HITS_SPARE}, b, sizeof(b)),
		"2 x P30: 5000 IOPS each (burst) (host-cache hits spare the disks)");
	assert_string_equal(model_words_detail(&(struct model_detail){
		.kind = MODEL_DETAIL_VM_IOPS, .name = "D16s_v6", .a = 25600}, b, sizeof(b)),
		"D16s_v6 uncached: 25600 IOPS");
	assert_string_equal(model_words_detail(&(struct model_detail){
		.kind = MODEL_DETAIL_VM_MBPS, .name = "D16s_v6", .column = &nvme, .a = 1200,
		.unit = "MB/s", .flags = MODEL_DETAIL_BURST}, b, sizeof(b)),
		"D16s_v6 Premium SSD v2 and Ultra Disk over NVMe: 1200 MB/s (VM burst)");
	assert_string_equal(model_words_detail(&(struct model_detail){
		.kind = MODEL_DETAIL_VM_IOPS, .name = "n2-standard-8", .column = &gcp, .a = 15000,
		.b = 15000, .flags = MODEL_DETAIL_READ_WRITE}, b, sizeof(b)),
		"n2-standard-8 with pd-ssd: 15000 read / 15000 write IOPS");
	assert_string_equal(model_words_detail(&(struct model_detail){
		.kind = MODEL_DETAIL_QUEUE, .n = 8, .k = 32, .a = 2.5}, b, sizeof(b)),
		"8 threads x 32 outstanding at 2.500 ms each");
	assert_string_equal(model_words_detail(&(struct model_detail){
		.kind = MODEL_DETAIL_POOL_IOPS, .name = "pd-balanced", .a = 3000, .b = 6, .c = 20},
		b, sizeof(b)),
		"pd-balanced: 3000 IOPS + 6 per GiB x 20 GiB, shared by the VM's pd-balanced disks");
	/* What gave the host cache's hits. */
	assert_string_equal(model_words_hit(&(struct model_hit){.basis = MODEL_HIT_FITS,
		.working_set = 1073741824.0, .cache = 86 * 1073741824.0}, b, sizeof(b)),
		"working set 1 GiB fits the 86 GiB host cache: reads hit after the first pass");
	assert_string_equal(model_words_hit(&(struct model_hit){.basis = MODEL_HIT_NO_WS,
		.uncached = true}, b, sizeof(b)), "no host cache");
	assert_string_equal(model_words_hit(&(struct model_hit){.basis = MODEL_HIT_NO_WS}, b,
		sizeof(b)), "no working set given: a cold cache");
	assert_string_equal(model_words_hit(&(struct model_hit){.basis = MODEL_HIT_UNKNOWN,
		.working_set = 1073741824.0}, b, sizeof(b)),
		"unknown: the VM publishes no host-cache size to hold the 1 GiB working set; none "
		"assumed");
	assert_has(model_words_hit(&(struct model_hit){.basis = MODEL_HIT_SHARE,
		.working_set = 860 * 1073741824.0, .cache = 86 * 1073741824.0, .dist = DIST_ZIPF,
		.param = 1.2}, b, sizeof(b)), "the share of zipf:1.2 random reads that falls in its "
		"hottest 86 GiB");
	/* Cost lines: prices as written, derived quantities to the millionth. */
	assert_string_equal(model_words_cost(&(struct cost_line){.kind = COST_LINE_MONTH,
		.count = 2, .name = "P10", .price = 19.71}, b, sizeof(b)),
		"2 x P10 at 19.71 per month");
	assert_string_equal(model_words_cost(&(struct cost_line){.kind = COST_LINE_MBPS,
		.count = 1, .name = "gp3", .a = 104.8576, .b = 131.072, .c = 100, .mib = true,
		.price = 0.04}, b, sizeof(b)),
		"1 x gp3: 104.8576 MB/s (100 MiB/s) above 131.072 x 0.04 per MB/s");
	assert_string_equal(model_words_cost(&(struct cost_line){.kind = COST_LINE_OPS,
		.count = 2, .name = "S4", .a = 20, .b = 4, .c = 730, .capped = true,
		.price = 0.0005}, b, sizeof(b)),
		"2 x S4: 20 IOPS (4 ops each) x 730 h of operations (capped) x 0.0005 per 10k");
	assert_string_equal(model_words_cost(&(struct cost_line){.kind = COST_LINE_VM_HOURS,
		.name = "D4s_v5", .a = 730, .price = 0.192}, b, sizeof(b)),
		"D4s_v5: 730 h x 0.192 per hour");
	/* Cut where the outputs always cut a line. */
	assert_int_equal(strlen(model_words_cost(&(struct cost_line){.kind = COST_LINE_OPS,
		.count = 2, .name = "a-disk-type-with-a-very-long-name", .a = 123456.5, .b = 16,
		.c = 730, .capped = true, .price = 0.0005}, b, MODEL_WORDS_COST)),
		MODEL_WORDS_COST - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(catalog_show_text),
		cmocka_unit_test(catalog_show_json),
		cmocka_unit_test(prediction),
		cmocka_unit_test(upload),
		cmocka_unit_test(words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
