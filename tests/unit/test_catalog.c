#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <jansson.h>

#include "model_helpers.h"
#include "report/catalog_fmt.h"

#define PER(f) offsetof(struct cat_price, f)

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
	p = catalog_find_price(&cat, "aws", "vm", "m5.large", "us-east-1", NULL);
	assert_non_null(p);
	assert_within(p->per_hour, 0.096, 0.01);
	p = catalog_find_price(&cat, "aws", "disk", "gp3", NULL, NULL);
	assert_within(p->per_mbps_month, 0.04 / 1.048576, 0.1);
	p = catalog_find_price(&cat, "gcp", "disk", "pd-balanced", "us-central1", NULL);
	assert_within(p->per_gib_month, 0.10, 0.01);
	assert_null(catalog_find_price(&cat, "gcp", "disk", "pd-balanced", "eastus", NULL));
	/* Premium SSD v2: capacity, and IOPS and MB/s above the free 3,000 and 125. */
	p = catalog_find_price(&cat, "azure", "disk", "pv2", "eastus", NULL);
	assert_non_null(p);
	assert_within(p->per_iops_month, 0.000007 * 730, 0.001);
	assert_within(p->per_mbps_month, 0.000055 * 730, 0.001);

	/* Spot checks of the records added later, and of what stays unpriced. */
	static const struct {
		const char *catalog, *kind, *name, *region;
		size_t field;
		double value, pct;
	} spot[] = {
		{"azure", "vm", "D16s_v5", "eastus", PER(per_hour), 0.768, 0.01},
		{"azure", "vm", "E96s_v5", "eastus", PER(per_hour), 6.048, 0.01}, /* 730 h $4,415.04 */
		{"azure", "disk", "P40", "eastus", PER(per_month), 259.0457, 0.01},
		{"azure", "disk", "S10", "eastus", PER(per_month), 5.89, 0.01},
		{"aws", "vm", "m6i.xlarge", "us-east-1", PER(per_hour), 0.192, 0.01},
		/* AWS's generated price table prices every instance type, m7i and r5b too. */
		{"aws", "vm", "m7i.metal-24xl", "us-east-1", PER(per_hour), 5.32224, 0.001},
		{"aws", "vm", "r5b.large", "us-east-1", PER(per_hour), 0.149, 0.001},
		{"azure", "disk", "P70", "eastus", PER(per_month), 1802.06, 0.001},
		{"azure", "vm", "E104is_v5", "eastus", PER(per_hour), 7.207, 0.001},
		{"gcp", "vm", "c3d-standard-360", "us-central1", PER(per_hour), 16.34364, 0.001},
		{"gcp", "disk", "hyperdisk-extreme", "us-central1", PER(per_iops_month), 0.032, 0.001},
	};
	for (size_t i = 0; i < sizeof(spot) / sizeof(spot[0]); i++) {
		p = catalog_find_price(&cat, spot[i].catalog, spot[i].kind, spot[i].name,
				       spot[i].region, NULL);
		assert_non_null(p);
		assert_within(*(const double *)((const char *)p + spot[i].field), spot[i].value,
			      spot[i].pct);
	}
	/* Every built-in VM size of today's catalogs has a price; these disk types have none. */
	for (size_t i = 0; i < cat.nvms; i++)
		if (strcmp(cat.vms[i].catalog, "azure-2015"))
			assert_non_null(catalog_find_price(&cat, cat.vms[i].catalog, "vm",
							   cat.vms[i].name, NULL, NULL));
	/* How Azure counts billed operations is the disk type's: 16 KiB (HDD), 256 KiB (SSD). */
	assert_within(catalog_find_disk(&cat, "azure", "S6")->ops_per_hour_max, 858000, 0.001);
	assert_within(catalog_find_disk(&cat, "azure", "S80")->ops_per_io_max, 16, 0.001);
	assert_within(catalog_find_disk(&cat, "azure", "S30")->ops_unit_kib, 16, 0.001);
	assert_within(catalog_find_disk(&cat, "azure", "E30")->ops_unit_kib, 256, 0.001);
	assert_true(catalog_find_disk(&cat, "azure", "E30")->ops_per_hour_max == 0);
	/* Hyperdisk Balanced bills above its free 3,000 IOPS and 140 MiB/s; Throughput every MiB/s. */
	const struct cat_price *hdb = catalog_find_price(&cat, "gcp", "disk", "hyperdisk-balanced",
							 NULL, NULL);
	assert_non_null(hdb);
	assert_within(hdb->per_iops_month, 0.005, 0.001);
	assert_within(hdb->per_mbps_month * 1.048576, 0.04, 0.01);
	const struct cat_price *hdt = catalog_find_price(&cat, "gcp", "disk",
							 "hyperdisk-throughput", NULL, NULL);
	assert_non_null(hdt);
	assert_within(hdt->per_gib_month, 0.005, 0.001);
	assert_within(hdt->per_mbps_month * 1.048576, 0.25, 0.001);
	assert_true(hdt->per_iops_month == 0);
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
	/* A price's IOPS steps: ascending bounds above 0, and a price below the first. */
	static const char *const steps[] = {
		"[[64000, 0.03], [32000, 0.04]]", "[[0, 0.04]]", "[[32000]]", "[]",
		"[[1, 1], [2, 1], [3, 1], [4, 1]]", "[[32000, -1]]", "{}",
	};
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		char text[256];

		snprintf(text, sizeof(text), "{\"catalog\": \"x\", \"prices\": [{\"kind\": \"disk\", "
			 "\"name\": \"d\", \"per_iops_month\": 0.06, \"per_iops_month_above\": %s, "
			 "\"source\": \"s\", \"date\": \"d\"}]}", steps[i]);
		assert_int_equal(catalog_load_text(&c, "p.json", text, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "'per_iops_month_above'"));
		catalog_release(&c);
	}
	/* A '*' ends a max_disks_by_type key or is refused. */
	assert_int_equal(catalog_load_text(&c, "v.json", "{\"catalog\": \"x\", \"vms\": [{"
		"\"name\": \"v\", \"max_disks_by_type\": {\"hyper*disk\": 3}, \"source\": \"s\", "
		"\"date\": \"d\"}]}", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "'*' may only end a key"));
	catalog_release(&c);
	/* Without the first step's price, the steps are refused too. */
	assert_int_equal(catalog_load_text(&c, "p.json", "{\"catalog\": \"x\", \"prices\": [{"
		"\"kind\": \"disk\", \"name\": \"d\", \"per_iops_month_above\": [[32000, 0.04]], "
		"\"source\": \"s\", \"date\": \"d\"}]}", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "needs rows and a per_iops_month"));
	catalog_release(&c);
	assert_int_equal(catalog_load_text(&c, "p.json", "{\"catalog\": \"x\", \"prices\": [{"
		"\"kind\": \"disk\", \"name\": \"d\", \"per_iops_month\": 0.06, "
		"\"per_iops_month_above\": [[32000, 0.04], [64000, 0.03]], \"source\": \"s\", "
		"\"date\": \"d\"}]}", err, sizeof(err)), 0);
	assert_int_equal(c.prices[0].niops_above, 2);
	assert_within(c.prices[0].iops_above[1].price, 0.03, 0.001);
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

/* Whether a key names a throughput figure of an entry (its value in MB/s or MiB/s). */
static bool rate_key(const char *key)
{
	return strstr(key, "mbps") != NULL && strcmp(key, "units");
}

/* Every throughput figure of every built-in entry says its unit, as its source means it. */
static void test_units_recorded(void **state)
{
	unsigned checked = 0;

	for (size_t i = 0; i < cat.nroots; i++) {
		json_t *root = cat.roots[i], *list, *e, *v;
		const char *lists[] = {"disks", "vms"}, *key;
		size_t k;

		for (unsigned l = 0; l < 2; l++) {
			list = json_object_get(root, lists[l]);
			json_array_foreach(list, k, e) {
				json_t *u = json_object_get(e, "units");

				json_object_foreach(e, key, v) {
					if (!rate_key(key))
						continue;
					checked++;
					if (!json_is_string(u) && !(json_is_object(u) &&
					    (json_object_get(u, key) || json_object_get(u, "default"))))
						fail_msg("%s: no unit for '%s'", json_string_value(
							 json_object_get(e, "name")), key);
				}
			}
		}
	}
	/* Series give their rows' unit once, for all of them. */
	for (size_t i = 0; i < cat.nroots; i++) {
		json_t *sr;
		size_t k;

		json_array_foreach(json_object_get(cat.roots[i], "series"), k, sr)
			if (!json_is_string(json_object_get(sr, "units")))
				fail_msg("series %s: no unit",
					 json_string_value(json_object_get(sr, "name")));
	}
	assert_true(checked > 250);
}

/* The "<prefix>_source" of e that a figure's name falls under (catalog show's rule), or NULL. */
static const char *own_source(json_t *e, const char *figure)
{
	const char *key, *best = NULL;
	size_t best_len = 0;
	json_t *v;

	json_object_foreach(e, key, v) {
		size_t n = strlen(key);

		if (n <= 7 || strcmp(key + n - 7, "_source") || !json_is_string(v))
			continue;
		n -= 7;
		if (n > best_len && !strncmp(figure, key, n) && (figure[n] == '_' || !figure[n]))
			best = key, best_len = n;
	}
	return best;
}

/* The source number catalog show gives a figure ("  name  value  unit  [n]"), 0: no row. */
static unsigned shown_source(const char *text, const char *figure)
{
	size_t n = strlen(figure);

	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *end = strchr(l, '\n'), *b;

		if (strncmp(l, "  ", 2) || strncmp(l + 2, figure, n) || l[2 + n] != ' ')
			continue;
		end = end ? end : l + strlen(l);
		for (b = end; b > l && b[-1] != '['; b--)
			;
		return b > l ? (unsigned)strtoul(b, NULL, 10) : 0;
	}
	return 0;
}

/*
 * catalog show puts each figure to its own source: one with a "<prefix>_source" is never put to
 * the entry's "source" ([1]), and figures no provider publishes (latencies, a request's transfer
 * rate, a temp disk's latency: calibrations and estimates) always have a source of their own.
 */
static void test_figures_own_sources(void **state)
{
	static const char *const unpublished[] = {"latency_read_ms", "latency_write_ms",
		"latency_cached_ms", "transfer_mbps", "transfer_cached_mbps", "local_latency_ms"};
	unsigned checked = 0;

	(void)state;
	for (size_t i = 0; i < cat.nroots; i++) {
		const char *cname = json_string_value(json_object_get(cat.roots[i], "catalog"));

		for (unsigned l = 0; l < 2; l++) {
			json_t *e, *v;
			const char *key;
			size_t k;

			json_array_foreach(json_object_get(cat.roots[i], l ? "vms" : "disks"), k, e) {
				const char *name = json_string_value(json_object_get(e, "name"));
				struct catalog_show_report r = {.catalog = &cat,
					.vm = l ? catalog_find_vm(&cat, cname, name) : NULL,
					.disk = l ? NULL : catalog_find_disk(&cat, cname, name)};
				char *t = NULL;
				size_t len = 0;
				FILE *f = open_memstream(&t, &len);

				assert_non_null(f);
				assert_int_equal(catalog_fmt_show_text(f, &r), 0);
				fclose(f);
				json_object_foreach(e, key, v) {
					for (size_t u = 0; u < sizeof(unpublished) / sizeof(*unpublished); u++)
						if (!strcmp(key, unpublished[u]) && !own_source(e, key))
							fail_msg("%s:%s: '%s' has no source of its own", cname,
								 name, key);
					if (!json_is_number(v) || !own_source(e, key))
						continue;
					checked++;
					if (shown_source(t, key) < 2)
						fail_msg("%s:%s: '%s' is shown as [%u], not its own %s", cname,
							 name, key, shown_source(t, key), own_source(e, key));
				}
				free(t);
			}
		}
	}
	assert_true(checked > 100);
}

/* Microsoft's tables, not a blog's: G2 and G5; the DS caps of 2015 in MiB/s, the GS in MB/s. */
static void test_azure_2015_sizes(void **state)
{
	const struct cat_vm *g2 = catalog_find_vm(&cat, "azure-2015", "G2");
	const struct cat_vm *g5 = catalog_find_vm(&cat, "azure-2015", "G5");
	const struct cat_vm *ds2 = catalog_find_vm(&cat, "azure-2015", "DS2");
	const struct cat_vm *gs2 = catalog_find_vm(&cat, "azure-2015", "GS2");

	assert_int_equal(g2->vcpus, 4);
	assert_within(g2->mem_gib, 56, 0.01);
	assert_int_equal(g2->max_disks, 8);
	assert_within(g2->local_iops, 12000, 0.01);
	assert_int_equal(g5->vcpus, 32);
	assert_int_equal(g5->max_disks, 64);
	assert_within(g5->local_mbps, 1500, 0.01);
	assert_within(g5->local_write_mbps, 750, 0.01);
	assert_true(ds2->uncached_mib && ds2->cached_mib);
	assert_within(ds2->uncached_mbps, 64 * 1.048576, 0.01);
	assert_false(gs2->uncached_mib);
	assert_within(gs2->uncached_mbps, 250, 0.01);
}

/* "units" per figure: an object of units by figure, and its refusals. */
static void test_units_object(void **state)
{
	struct catalog c = {0};
	char err[256];

	assert_int_equal(catalog_load_text(&c, "u.json", "{\"catalog\": \"x\", \"vms\": [{"
		"\"name\": \"V\", \"uncached_mbps\": 100, \"cached_mbps\": 100, \"units\": "
		"{\"default\": \"MB/s\", \"cached_mbps\": \"MiB/s\"}, \"source\": \"s\", "
		"\"date\": \"d\"}]}", err, sizeof(err)), 0);
	assert_within(c.vms[0].uncached_mbps, 100, 0.001);
	assert_within(c.vms[0].cached_mbps, 104.8576, 0.001);
	catalog_release(&c);
	assert_int_equal(catalog_load_text(&c, "u.json", "{\"catalog\": \"x\", \"vms\": [{"
		"\"name\": \"V\", \"units\": {\"vcpus\": \"MiB/s\"}, \"source\": \"s\", "
		"\"date\": \"d\"}]}", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "'vcpus' is not a throughput figure"));
	catalog_release(&c);
	assert_int_equal(catalog_load_text(&c, "u.json", "{\"catalog\": \"x\", \"vms\": [{"
		"\"name\": \"V\", \"units\": \"GB/s\", \"source\": \"s\", \"date\": \"d\"}]}",
		err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "field 'units'"));
	catalog_release(&c);
}

/* The caps a series' rules give a vCPU count, for one family (NULL: none). */
static const struct cat_family_caps *rule(const struct cat_series *s, unsigned vcpus,
					  const char *family)
{
	for (size_t k = 0; k < s->nrows; k++)
		if (vcpus >= s->rows[k].vcpus_min && vcpus <= s->rows[k].vcpus_max &&
		    !strcmp(s->rows[k].caps.family, family))
			return &s->rows[k].caps;
	return NULL;
}

/*
 * The n2 series' rules say what every built-in n2 entry says for its vCPU count: two
 * transcriptions of one table agree, so an imported n2 machine type is modelled as a built-in one.
 */
static void test_series_agree(void **state)
{
	unsigned checked = 0;

	for (size_t i = 0; i < cat.nvms; i++) {
		const struct cat_vm *v = &cat.vms[i];
		const struct cat_series *s = catalog_find_series(&cat, v->catalog, v->name);

		/* e2-medium has a row of its own on Google's page, not its vCPU count's. */
		if (!s || v->series || !strcmp(v->name, "e2-medium"))
			continue;
		for (unsigned k = 0; k < v->nfcaps; k++) {
			const struct cat_family_caps *r = rule(s, v->vcpus, v->fcaps[k].family);
			double wi = v->fcaps[k].write_iops ?: v->fcaps[k].iops;
			double wm = v->fcaps[k].write_mbps ?: v->fcaps[k].mbps;

			if (!r)
				fail_msg("%s: no %s rule for %s", v->name, s->name,
					 v->fcaps[k].family);
			assert_within(r->iops, v->fcaps[k].iops, 1e-9);
			assert_within(r->mbps, v->fcaps[k].mbps, 1e-9);
			assert_within(r->write_iops ?: r->iops, wi, 1e-9);
			assert_within(r->write_mbps ?: r->mbps, wm, 1e-9);
			checked++;
		}
	}
	assert_true(checked >= 18);
}

/* A VM without caps of its own gets its series' for its vCPU count, citing the rules. */
static void test_series_applied(void **state)
{
	struct catalog c = {0};
	const struct cat_family_caps *fc;
	const struct cat_vm *v;
	char err[256];

	assert_int_equal(catalog_load_builtin(&c, err, sizeof(err)), 0);
	assert_int_equal(catalog_load_text(&c, "mine.json", "{\"catalog\": \"gcp\", \"vms\": ["
		"{\"name\": \"c3d-highmem-30\", \"vcpus\": 30, \"source\": \"s\", \"date\": \"d\"},"
		"{\"name\": \"c3-standard-5\", \"vcpus\": 5, \"source\": \"s\", \"date\": \"d\"},"
		"{\"name\": \"x9-standard-4\", \"vcpus\": 4, \"source\": \"s\", \"date\": \"d\"}]}",
		err, sizeof(err)), 0);
	catalog_finish(&c);
	v = catalog_find_vm(&c, "gcp", "c3d-highmem-30");
	assert_string_equal(v->series, "c3d");
	fc = catalog_vm_family_caps(v, "pd-ssd");
	assert_non_null(fc);
	assert_within(fc->iops, 50000, 1e-9);
	assert_within(fc->mbps, 1200 * MIB, 1e-9);
	assert_non_null(strstr(fc->source, "c-family.json"));
	/* C3 rows are for the counts Google lists; 5 vCPUs is none of them. */
	assert_int_equal(catalog_find_vm(&c, "gcp", "c3-standard-5")->nfcaps, 0);
	assert_null(catalog_find_vm(&c, "gcp", "x9-standard-4")->series);
	catalog_release(&c);
}

/* Spot checks of the current families against their pages (docs/catalog.md, "Where each..."). */
static void test_current_families(void **state)
{
	const struct cat_vm *v;
	const struct cat_family_caps *fc;

	v = catalog_find_vm(&cat, "azure", "Standard_D8ds_v5");	/* ddsv5-series.md */
	assert_int_equal(v->max_disks, 16);
	assert_within(v->uncached_iops, 12800, 1e-9);
	assert_within(v->local_iops, 38000, 1e-9);
	assert_within(v->local_gib, 300, 1e-9);
	v = catalog_find_vm(&cat, "azure", "E104ids_v5");	/* edsv5-series.md */
	assert_int_equal(v->max_disks, 64);
	assert_within(v->uncached_mbps, 4000, 1e-9);
	v = catalog_find_vm(&cat, "azure", "E16bs_v5");	/* ebdsv5-ebsv5-series.md, SCSI */
	assert_within(v->uncached_iops, 48400, 1e-9);
	assert_within(v->burst_mbps, 2000, 1e-9);
	v = catalog_find_vm(&cat, "azure", "D192s_v6");	/* dsv6-series.md */
	assert_within(v->uncached_mbps, 12000, 1e-9);
	assert_int_equal(v->vcpus, 192);
	v = catalog_find_vm(&cat, "aws", "m6i.32xlarge");	/* ebs-optimized.md */
	assert_within(v->uncached_iops, 160000, 1e-9);
	assert_within(v->uncached_mbps, 5000, 1e-9);
	assert_int_equal(v->vcpus, 128);
	v = catalog_find_vm(&cat, "aws", "r5b.large");
	assert_int_equal(v->vcpus, 2);
	assert_within(v->mem_gib, 16, 1e-9);
	assert_true(v->block_express);
	v = catalog_find_vm(&cat, "aws", "c6i.large");
	assert_within(v->burst_iops, 40000, 1e-9);
	assert_within(v->burst_seconds, 1800, 1e-9);
	v = catalog_find_vm(&cat, "aws", "i4i.large");	/* 1 x 468 GB */
	assert_within(v->local_gib, 468e9 / 1073741824.0, 1e-9);
	v = catalog_find_vm(&cat, "gcp", "c3d-standard-180");	/* c-family.json, C3D */
	fc = catalog_vm_family_caps(v, "pd-ssd");
	assert_within(fc->iops, 80000, 1e-9);
	assert_within(fc->mbps, 2200 * MIB, 1e-9);
	assert_null(catalog_vm_family_caps(v, "pd-standard"));
}

/* Whether name is of one of the families (prefixes up to the dot or dash) listed. */
static bool of_family(const char *name, const char *const *fams)
{
	for (; *fams; fams++)
		if (!strncmp(name, *fams, strlen(*fams)))
			return true;
	return false;
}

/*
 * The AWS and GCP sizes added from AWS's EBS-optimized and volume-limit pages and Google's
 * machine-family pages: each has its figures with their units, a source for its disk limit,
 * and a price of its region; AWS's bursts last the table's 30 minutes.
 */
static void test_added_sizes(void **state)
{
	static const char *const aws[] = {"m5.16xlarge", "c5.", "r5.", "t3.", "m6a.", "c6a.",
					  "r6a.", "m6g.", "m7g.", "c7g.", "r7g.", "m7a.", "c7a.",
					  "r7a.", NULL};
	static const char *const gcp[] = {"e2-", "n1-", "c2-", "n4-", "c4-", NULL};
	unsigned naws = 0, ngcp = 0;

	for (size_t i = 0; i < cat.nvms; i++) {
		const struct cat_vm *v = &cat.vms[i];
		json_t *e = (json_t *)v->json;
		bool is_aws = !strcmp(v->catalog, "aws") && of_family(v->name, aws);
		bool is_gcp = !strcmp(v->catalog, "gcp") && of_family(v->name, gcp);

		if (!is_aws && !is_gcp)
			continue;
		if (!v->vcpus || !(v->mem_gib > 0) || !*v->source || !*v->date)
			fail_msg("%s: vCPUs, memory, source or date missing", v->name);
		if (!catalog_find_price(&cat, v->catalog, "vm", v->name, NULL, NULL))
			fail_msg("%s: no price", v->name);
		if (is_aws) {
			naws++;
			if (!(v->uncached_iops > 0) || !(v->uncached_mbps > 0) || !v->max_disks ||
			    !json_is_string(json_object_get(e, "max_disks_source")) ||
			    strcmp(json_string_value(json_object_get(e, "units")), "MB/s") ||
			    !v->nitro)
				fail_msg("%s: an EBS figure, its unit or its disk limit is missing",
					 v->name);
			if ((v->burst_iops > 0) != (v->burst_seconds == 1800) ||
			    (v->burst_iops > 0) != (v->burst_mbps > v->uncached_mbps))
				fail_msg("%s: a burst without its 30 minutes or its MB/s", v->name);
			continue;
		}
		ngcp++;
		/*
		 * Every one says how many disks of each kind it takes; E2, N1 and C2 have PD caps
		 * (their own or their series'); N4 and C4 take Hyperdisk alone.
		 */
		if (!v->ntype_max || !v->max_disks || (v->name[1] != '4' && !v->nfcaps))
			fail_msg("%s: no disk limits", v->name);
	}
	assert_int_equal(naws, 119);	/* with c5.large, r5.large, t3.large, built in before */
	assert_int_equal(ngcp, 38);
}

/*
 * Every Azure size carries each column its page gives, or a note that the page gives none:
 * Premium SSD v2 and Ultra Disk, VM burst, the cached (host cache) limit, the temp disk.
 */
static void test_azure_columns(void **state)
{
	unsigned n = 0;

	for (size_t i = 0; i < cat.nvms; i++) {
		const struct cat_vm *v = &cat.vms[i];
		const char *note = v->note ? v->note : "";
		const struct cat_family_caps *pv2 = catalog_vm_column(v, "premium-v2", NULL);

		if (strcmp(v->catalog, "azure"))
			continue;
		n++;
		if (!pv2 && !strstr(note, "no Premium SSD v2 and Ultra Disk column"))
			fail_msg("%s: no Premium SSD v2 column and no note saying so", v->name);
		/* One column for both: a row names them together. */
		assert_ptr_equal(pv2, catalog_vm_column(v, "ultra", NULL));
		if (!(v->burst_iops > 0 && v->burst_mbps > 0 && v->burst_seconds > 0) &&
		    !strstr(note, "no burst"))
			fail_msg("%s: no burst figures and no note saying so", v->name);
		if (v->cache && !(v->cached_iops > 0) && !strstr(note, "no cached"))
			fail_msg("%s: no cached limit and no note saying so", v->name);
		if (!(v->local_iops > 0) && !strstr(note, "no local temp disk"))
			fail_msg("%s: no temp disk figures and no note saying so", v->name);
	}
	assert_true(n >= 77);
	/* dsv6-series.md: D16s_v6's Premium SSD v2 and Ultra Disk column, burst included. */
	const struct cat_vm *v = catalog_find_vm(&cat, "azure", "D16s_v6");
	const struct cat_family_caps *fc = catalog_vm_column(v, "premium-v2", NULL);

	assert_within(fc->iops, 33333, 1e-9);
	assert_within(fc->mbps, 992, 1e-9);
	assert_within(fc->burst_iops, 52083, 1e-9);
	assert_within(fc->burst_mbps, 1463, 1e-9);
	assert_null(catalog_vm_column(v, "premium", NULL));
	/* ebdsv5-ebsv5-series.md: E8bds_v5 over NVMe (every family) and over SCSI (default). */
	v = catalog_find_vm(&cat, "azure", "E8bds_v5");
	assert_string_equal(v->controller, "scsi");
	assert_true(catalog_vm_takes_controller(v, "nvme"));
	assert_null(catalog_vm_column(v, "premium", NULL));
	assert_within(catalog_vm_column(v, "premium", "nvme")->iops, 33000, 1e-9);
	assert_within(catalog_vm_column(v, "standard-ssd", "nvme")->mbps, 930, 1e-9);
	assert_within(catalog_vm_column(v, "ultra", "nvme")->iops, 44200, 1e-9);
	assert_within(catalog_vm_column(v, "ultra", "scsi")->burst_iops, 60000, 1e-9);
	/* dsv3-series.md: the burst columns. */
	v = catalog_find_vm(&cat, "azure", "D16s_v3");
	assert_within(v->burst_iops, 32000, 1e-9);
	assert_within(v->burst_mbps, 800, 1e-9);
}

/* Controllers: scsi or nvme, a default among them, rows only of controllers the VM takes. */
static void test_controllers_checked(void **state)
{
	static const struct {
		const char *vm, *says;
	} bad[] = {
		{"\"controllers\": [\"ide\"], \"controller\": \"ide\"", "'controllers'"},
		{"\"controllers\": [\"scsi\"], \"controller\": \"nvme\"", "'controller'"},
		{"\"controllers\": [\"scsi\", \"nvme\"]", "needs a 'controller'"},
		{"\"caps_by_family\": [{\"family\": \"*\", \"controller\": \"nvme\", "
		 "\"iops\": 1}]", "one of the VM's 'controllers'"},
	};
	struct catalog c = {0};
	char err[256], text[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "{\"catalog\": \"x\", \"vms\": [{\"name\": \"v\", "
			 "%s, \"source\": \"s\", \"date\": \"d\"}]}", bad[i].vm);
		assert_int_equal(catalog_load_text(&c, "v.json", text, err, sizeof(err)), -EINVAL);
		if (!strstr(err, bad[i].says))
			fail_msg("%s: '%s' does not say %s", bad[i].vm, err, bad[i].says);
		catalog_release(&c);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_sources), cmocka_unit_test(test_prices),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_suggest), cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_override), cmocka_unit_test(test_units_recorded),
		cmocka_unit_test(test_azure_2015_sizes), cmocka_unit_test(test_units_object),
		cmocka_unit_test(test_series_agree), cmocka_unit_test(test_series_applied),
		cmocka_unit_test(test_current_families), cmocka_unit_test(test_figures_own_sources),
		cmocka_unit_test(test_added_sizes), cmocka_unit_test(test_azure_columns),
		cmocka_unit_test(test_controllers_checked),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
