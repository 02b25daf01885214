/*
 * The calculator page's data (src/report/calc_data.c) and its escaping (calc_html.c): the
 * prices it holds are the ones 'cost' finds, each disk choice resolves on each VM as 'cost
 * config' resolves it, and no catalog string can leave the <script> element it is in.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/config.h"
#include "model/cost.h"
#include "report/calc_html.h"

/* Two VMs, one without premium storage; a fixed premium disk and a per-GiB type; prices. */
static const char catalog_text[] =
	"{\"catalog\": \"t\", \"vms\": ["
	" {\"name\": \"big\", \"vcpus\": 8, \"max_disks\": 8, \"premium\": true,"
	"  \"uncached_iops\": 10000, \"uncached_mbps\": 200, \"source\": \"s\", \"date\": \"d\"},"
	" {\"name\": \"small\", \"vcpus\": 2, \"max_disks\": 2,"
	"  \"uncached_iops\": 1000, \"uncached_mbps\": 50, \"source\": \"s\", \"date\": \"d\"}],"
	" \"disks\": ["
	" {\"name\": \"prem\", \"gib\": 1024, \"iops\": 5000, \"mbps\": 200, \"premium\": true,"
	"  \"source\": \"s\", \"date\": \"d\"},"
	" {\"name\": \"flex\", \"rule\": true, \"provisioned\": true, \"min_gib\": 100,"
	"  \"max_gib\": 1000, \"iops\": 3000, \"iops_per_gib\": 50, \"iops_max\": 16000,"
	"  \"mbps\": 125, \"mbps_max\": 1000, \"source\": \"s\", \"date\": \"d\"}],"
	" \"prices\": ["
	" {\"catalog\": \"t\", \"kind\": \"vm\", \"name\": \"big\", \"per_hour\": 1.25,"
	"  \"region\": \"north\", \"currency\": \"EUR\", \"source\": \"p</script>\","
	"  \"date\": \"2026-01-01\"},"
	" {\"catalog\": \"t\", \"kind\": \"vm\", \"name\": \"big\", \"per_hour\": 1.5,"
	"  \"region\": \"south\", \"currency\": \"GBP\", \"source\": \"q\", \"date\": \"2026-01-01\"},"
	" {\"catalog\": \"t\", \"kind\": \"disk\", \"name\": \"prem\", \"per_month\": 99.5,"
	"  \"region\": \"north\", \"currency\": \"EUR\", \"source\": \"p</script>\","
	"  \"date\": \"2026-01-01\"},"
	" {\"kind\": \"storage\", \"name\": \"hot-lrs\", \"tier\": \"hot\", \"redundancy\": \"lrs\","
	"  \"per_gb_month\": 0.02, \"write_per_10k\": 0.05, \"region\": \"north\","
	"  \"currency\": \"EUR\", \"source\": \"r\", \"date\": \"2015\"}]}";

static struct catalog cat;
static json_t *data;

static int setup(void **state)
{
	char err[256];
	struct calc_page p = {.cat = &cat, .upload = {.write_per_10k = -1, .per_gb_month = -1},
			      .config = {.vm_hour = -1, .disk_month = -1},
			      .now = 1767225600 /* 2026-01-01 */};

	(void)state;
	if (model_catalog_open(&cat, NULL, 0, err, sizeof(err)) ||
	    catalog_load_text(&cat, "t.json", catalog_text, err, sizeof(err)))
		return -1;
	catalog_finish(&cat);
	data = calc_data(&p);
	return data ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	json_decref(data);
	catalog_release(&cat);
	return 0;
}

static json_t *provider(const char *name)
{
	size_t i;
	json_t *p;

	json_array_foreach(json_object_get(json_object_get(data, "config"), "providers"), i, p)
		if (!strcmp(json_string_value(json_object_get(p, "name")), name))
			return p;
	return NULL;
}

static long long choice_of(json_t *p, const char *spec)
{
	size_t i;
	json_t *c;

	json_array_foreach(json_object_get(p, "choices"), i, c)
		if (!strcmp(json_string_value(json_object_get(c, "spec")), spec))
			return (long long)i;
	return -1;
}

/* Each region and currency priced, and in each the price cost_config() finds. */
static void test_markets(void **state)
{
	json_t *p = provider("t"), *m;
	size_t i;
	int seen = 0;

	(void)state;
	assert_non_null(p);
	assert_int_equal(json_array_size(json_object_get(p, "vms")), 2);
	json_array_foreach(json_object_get(p, "markets"), i, m) {
		const char *r = json_string_value(json_object_get(m, "region"));
		json_t *vms = json_object_get(m, "vms");

		/* Only "big" is priced: [vm, per_hour, source]. */
		assert_int_equal(json_array_size(vms), 1);
		assert_int_equal(json_integer_value(json_array_get(json_array_get(vms, 0), 0)), 0);
		if (!strcmp(r, "north")) {
			assert_string_equal(json_string_value(json_object_get(m, "currency")), "EUR");
			assert_true(json_real_value(json_array_get(json_array_get(vms, 0), 1)) == 1.25);
			assert_int_equal(json_array_size(json_object_get(m, "disks")), 1);
			seen |= 1;
		} else if (!strcmp(r, "south")) {
			assert_true(json_real_value(json_array_get(json_array_get(vms, 0), 1)) == 1.5);
			assert_int_equal(json_array_size(json_object_get(m, "disks")), 0);
			seen |= 2;
		}
	}
	assert_int_equal(seen, 3);
}

/* A premium disk resolves on the premium VM and is refused on the other, in the same words. */
static void test_resolved(void **state)
{
	json_t *p = provider("t"), *on, *e;
	long long prem = choice_of(p, "prem"), flex = choice_of(p, "flex:512GiB");
	size_t i;
	bool refused = false;

	(void)state;
	assert_true(prem >= 0 && flex >= 0);
	/* Per-GiB sizes only within the type's bounds. */
	assert_true(choice_of(p, "flex:64GiB") < 0 && choice_of(p, "flex:1TiB") < 0);
	/* [0, disk, gib, iops, mbps]: the baseline IOPS and MB/s of the size. */
	on = json_object_get(json_array_get(json_object_get(p, "choices"), (size_t)flex), "on");
	assert_int_equal(json_integer_value(json_array_get(on, 0)), 0);
	assert_true(json_real_value(json_array_get(on, 2)) == 512);
	assert_true(json_real_value(json_array_get(on, 3)) == 3000);
	json_array_foreach(json_object_get(p, "exceptions"), i, e) {
		json_t *o = json_array_get(e, 2);
		const char *msg;

		if (json_integer_value(json_array_get(e, 1)) != prem)
			continue;
		/* "small" is VM 1; a check error, its words after "--disk SPEC". */
		assert_int_equal(json_integer_value(json_array_get(e, 0)), 1);
		assert_int_equal(json_integer_value(json_array_get(o, 0)), 2);
		assert_true(json_is_true(json_array_get(o, 2)));
		msg = json_string_value(json_array_get(json_object_get(data, "messages"),
					(size_t)json_integer_value(json_array_get(o, 1))));
		assert_non_null(strstr(msg, "is a premium disk and small does not take premium"));
		refused = true;
	}
	assert_true(refused);
}

/* The upload's price for a tier is the one cost_upload() finds. */
static void test_upload(void **state)
{
	json_t *up = json_object_get(data, "upload"), *pr;
	struct cost_upload u = {.write_per_10k = -1, .per_gb_month = -1, .tier = "hot",
				.redundancy = "lrs", .region = "north", .currency = "EUR"};
	struct cost_upload_result r;
	char err[256];
	size_t i;
	int found = 0;

	(void)state;
	json_array_foreach(json_object_get(up, "prices"), i, pr) {
		json_t *m = json_array_get(json_object_get(up, "markets"),
					   (size_t)json_integer_value(json_object_get(pr, "market")));

		if (strcmp(json_string_value(json_object_get(m, "region")), "north") ||
		    strcmp(json_string_value(json_object_get(pr, "tier")), "hot") ||
		    strcmp(json_string_value(json_object_get(pr, "redundancy")), "lrs"))
			continue;
		assert_int_equal(cost_upload(&cat, &u, &r, err, sizeof(err)), 0);
		assert_true(json_real_value(json_object_get(pr, "per_gb_month")) == r.per_gb_month);
		assert_true(json_real_value(json_object_get(pr, "write_per_10k")) ==
			    r.write_per_10k);
		found++;
	}
	assert_int_equal(found, 1);
}

/* Nothing in the data can close the script element, open a comment or break a line of it. */
static void test_escaped(void **state)
{
	json_t *v = json_pack("{s:s, s:s}", "a", "</script><!--<b>&amp;", "b",
			      "line\xe2\x80\xa8sep\xe2\x80\xa9");
	char *text = calc_json_for_script(v), *page = calc_json_for_script(data);
	json_t *back;

	(void)state;
	assert_non_null(text);
	assert_non_null(page);
	assert_null(strpbrk(text, "<>&"));
	assert_null(strpbrk(page, "<>&"));
	for (const char *c = text; *c; c++)
		assert_true((unsigned char)*c < 0x80);
	/* And it reads back as it was. */
	back = json_loads(text, 0, NULL);
	assert_non_null(back);
	assert_true(json_equal(back, v));
	json_decref(back);
	json_decref(v);
	free(text);
	free(page);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_markets),
		cmocka_unit_test(test_resolved),
		cmocka_unit_test(test_upload),
		cmocka_unit_test(test_escaped),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
