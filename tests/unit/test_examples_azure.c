/*
 * The worked examples of Microsoft's disk pages, each row naming its page: "Virtual machine and
 * disk performance" (MicrosoftDocs/azure-compute-docs disks-performance.md, ms.date 09/09/2026)
 * and "Azure managed disk types" (disks-types.md, ms.date 08/11/2026); and the size pages'
 * columns (azure-compute-docs articles/virtual-machines/sizes/): "Dsv6 sizes series"
 * (dsv6-series.md, ms.date 07/29/2024), "Ebdsv5 and Ebsv5 series" (ebdsv5-ebsv5-series.md,
 * ms.date 07/08/2024), "Dsv3 size series" (dsv3-series.md, ms.date 09/24/2024), "Lsv3 size
 * series" (lsv3-series.md, ms.date 07/31/2024).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model_helpers.h"
#include "model/attribute.h"
#include "report/model_words.h"

#define PERF "Virtual machine and disk performance"
#define TYPES "Azure managed disk types"
#define DSV6 "Dsv6 sizes series"
#define EBSV5 "Ebdsv5 and Ebsv5 series"
#define DSV3 "Dsv3 size series"
#define LSV3 "Lsv3 size series"

struct row {
	const char *page, *vm;
	const char *specs[3];
	double read_hit;
	uint64_t bs;
	double want_iops, want_mbps;    /* 0: not checked */
	const char *binding;
	unsigned write_pct;             /* 0 unless given */
	const char *controller;         /* NULL: the size's default */
	const char *detail;             /* words the binding limit's detail holds; NULL: unchecked */
};

static const struct row rows[] = {
	/* Disk I/O capping: an E30 OS disk and two E30 data disks (500 IOPS each) on a D8s_v3
	 * asked for 10,000 IOPS serve 1,500. */
	{PERF " (disk I/O capping)", "D8s_v3", {"3xE30"}, 0, 4096, 1500, 0, "disk_iops"},
	/* VM I/O capping: three P30 (5,000 each) on a D8s_v3 (12,800 uncached) asked 15,000. */
	{PERF " (VM I/O capping)", "D8s_v3", {"3xP30"}, 0, 4096, 12800, 0, "vm_uncached_iops"},
	/* Cached limit: three P30 with read/write caching serve 16,000 from the cache, above the
	 * 15,000 of the disks, because a hit does not count at the disk. */
	{PERF " (cached limit)", "D8s_v3", {"3xP30:cache=readwrite"}, 100, 4096, 16000, 0,
	 "vm_cached_iops"},
	/* Cached and uncached limits add: three cached P30 and two uncached serve all 25,000. */
	{PERF " (combined uncached and cached limits)", "D8s_v3",
	 {"3xP30:cache=readwrite", "2xP30:cache=none"}, 100, 4096, 25000, 0, "disk_iops"},
	/* Host caching: a ReadWrite write is cached now and written to the disk when flushed, so
	 * it counts at the uncached limit as well: all-write 4 KiB on three P30 stays at 12,800. */
	{PERF " (host caching: ReadWrite writes)", "D8s_v3", {"3xP30:cache=readwrite"}, 0, 4096,
	 12800, 0, "vm_uncached_iops", 100},
	/* D2s_v3 + P30: 3,200 IOPS uncached (the table: 48 MBps; the figure's text says 32). */
	{PERF " (D2s_v3 figure) and the Dsv3 table", "D2s_v3", {"P30"}, 0, 4096, 3200, 0,
	 "vm_uncached_iops"},
	{PERF " (D2s_v3 figure) and the Dsv3 table", "D2s_v3", {"P30"}, 0, 1 << 20, 0, 48,
	 "vm_uncached_mbps"},
	/* ...and 4,000 IOPS cached (with every read a hit). */
	{PERF " (D2s_v3 figure)", "D2s_v3", {"P30:cache=readonly"}, 100, 4096, 4000, 0,
	 "vm_cached_iops"},
	/* Premium SSD: a P50 provisions 7,500 IOPS and 250 MB/s. */
	{TYPES " (Premium SSD)", "D64s_v3", {"P50"}, 0, 4096, 7500, 0, "disk_iops"},
	{TYPES " (Premium SSD)", "D64s_v3", {"P50"}, 0, 1 << 20, 0, 250, "disk_mbps"},
	/* Premium SSD v2: 500 IOPS per GiB after 6 GiB (8 GiB: 4,000; 10: 5,000; 160: 80,000). */
	{TYPES " (Premium SSD v2)", "E104is_v5", {"pv2:8GiB:iops=4000"}, 0, 4096, 4000, 0, NULL},
	{TYPES " (Premium SSD v2)", "E104is_v5", {"pv2:10GiB:iops=5000"}, 0, 4096, 5000, 0, NULL},
	{TYPES " (Premium SSD v2)", "E104is_v5", {"pv2:160GiB:iops=80000:mbps=2000"}, 0, 4096, 80000, 0,
	 NULL},
	/* ...0.25 MB/s per IOPS: 3,000 IOPS 750 MB/s, 4,000 1,000, 8,000 2,000 (the maximum). */
	{TYPES " (Premium SSD v2)", "E104is_v5", {"pv2:100GiB:iops=3000:mbps=750"}, 0, 1 << 20, 0,
	 750, NULL},
	{TYPES " (Premium SSD v2)", "E104is_v5", {"pv2:100GiB:iops=4000:mbps=1000"}, 0, 1 << 20, 0,
	 1000, NULL},
	{TYPES " (Premium SSD v2)", "E104is_v5", {"pv2:100GiB:iops=8000:mbps=2000"}, 0, 1 << 20, 0,
	 2000, NULL},
	/* Ultra Disk: a 4 GiB disk provisions up to 4,000 IOPS and 1,000 MB/s. */
	{TYPES " (Ultra Disk)", "E104is_v5", {"ultra:4GiB:iops=4000:mbps=1000"}, 0, 1 << 20, 0,
	 1000, NULL},
	{TYPES " (Ultra Disk)", "E104is_v5", {"ultra:4GiB:iops=4000:mbps=1000"}, 0, 4096, 4000, 0,
	 NULL},
	/* Dsv6: two Premium SSD v2 of 20,000 IOPS meet the Premium SSD v2 and Ultra Disk column
	 * (33,333 IOPS, 992 MBps), not the Premium SSD one (25,600, 848)... */
	{.page = DSV6, .vm = "D16s_v6", .specs = {"2xpv2:64GiB:iops=20000:mbps=1000"}, .bs = 4096,
	 .want_iops = 33333, .binding = "vm_uncached_iops", .detail = "Premium SSD v2 and Ultra"},
	{.page = DSV6, .vm = "D16s_v6", .specs = {"2xpv2:64GiB:iops=20000:mbps=1000"},
	 .bs = 1 << 20, .want_mbps = 992, .binding = "vm_uncached_mbps"},
	{.page = DSV6, .vm = "D16s_v6", .specs = {"ultra:64GiB:iops=40000:mbps=1500"}, .bs = 4096,
	 .want_iops = 33333, .binding = "vm_uncached_iops"},
	/* ...which Premium SSD still meets: four P50 (30,000) give 25,600. */
	{.page = DSV6, .vm = "D16s_v6", .specs = {"4xP50"}, .bs = 4096, .want_iops = 25600,
	 .binding = "vm_uncached_iops", .detail = "D16s_v6 uncached"},
	/* Ebsv5: ten P50 (75,000 IOPS) on an E16bs_v5 give 48,400 over SCSI, 66,000 over NVMe. */
	{.page = EBSV5 " (SCSI)", .vm = "E16bs_v5", .specs = {"10xP50"}, .bs = 4096,
	 .want_iops = 48400, .binding = "vm_uncached_iops", .detail = "E16bs_v5 uncached"},
	{.page = EBSV5 " (SCSI)", .vm = "E16bs_v5", .specs = {"10xP50"}, .bs = 4096,
	 .want_iops = 48400, .binding = "vm_uncached_iops", .controller = "scsi"},
	{.page = EBSV5 " (NVMe)", .vm = "E16bs_v5", .specs = {"10xP50"}, .bs = 4096,
	 .want_iops = 66000, .binding = "vm_uncached_iops", .controller = "nvme",
	 .detail = "Premium SSD over NVMe"},
	{.page = EBSV5 " (NVMe)", .vm = "E16bs_v5", .specs = {"10xP50"}, .bs = 1 << 20,
	 .want_mbps = 1800, .binding = "vm_uncached_mbps", .controller = "nvme"},
	/* ...and Premium SSD v2 of 320,000 IOPS: 64,800 over SCSI, 88,400 over NVMe. */
	{.page = EBSV5 " (SCSI)", .vm = "E16bs_v5", .specs = {"4xpv2:160GiB:iops=80000"},
	 .bs = 4096, .want_iops = 64800, .binding = "vm_uncached_iops",
	 .detail = "Premium SSD v2 and Ultra Disk over SCSI"},
	{.page = EBSV5 " (NVMe)", .vm = "E16bs_v5", .specs = {"4xpv2:160GiB:iops=80000"},
	 .bs = 4096, .want_iops = 88400, .binding = "vm_uncached_iops", .controller = "nvme",
	 .detail = "Premium SSD v2 and Ultra Disk over NVMe"},
	/* E112ibs_v5 is NVMe only: its default is that table's. */
	{.page = EBSV5 " (NVMe)", .vm = "E112ibs_v5", .specs = {"8xpv2:160GiB:iops=80000:mbps=2000"},
	 .bs = 4096, .want_iops = 400000, .binding = "vm_uncached_iops"},
	/* Lsv3: the Premium SSD v2 and Ultra Disk column is the Premium SSD one. */
	{.page = LSV3, .vm = "L8s_v3", .specs = {"pv2:64GiB:iops=20000"}, .bs = 4096,
	 .want_iops = 12800, .binding = "vm_uncached_iops"},
};

/* Beyond what the pages allow: each refusal names the rule. */
static const struct {
	const char *page, *vm, *spec, *says;
} refused[] = {
	{TYPES " (Premium SSD v2)", "E104is_v5", "pv2:8GiB:iops=4001", "at least 9 GiB"},
	{TYPES " (Premium SSD v2)", "E104is_v5", "pv2:100GiB:iops=3000:mbps=751", "at most 750"},
	{TYPES " (Ultra Disk)", "E104is_v5", "ultra:4GiB:iops=4001", "at least 5 GiB"},
	{TYPES " (Ultra Disk)", "E104is_v5", "ultra:4GiB:iops=4000:mbps=1001", "at most 1000"},
	{PERF " (host caching)", "L8s_v3", "P30:cache=readonly", "host caching"},
};

static unsigned nspecs(const struct row *r)
{
	unsigned n = 0;

	while (n < 3 && r->specs[n])
		n++;
	return n;
}

/* A row's configuration (its controller too), predicted. */
static struct model_result predict_row(const struct row *r)
{
	struct model_workload w = {.bs = r->bs, .write_pct = r->write_pct, .threads = 1,
				   .depth = 1024};
	struct model_config m;
	struct model_result p;
	char err[256];

	if (model_config_resolve(&cat, r->vm, NULL, (char *const *)r->specs, nspecs(r),
				 MODEL_CACHE_DEFAULT, &m, err, sizeof(err)))
		fail_msg("%s: %s", r->vm, err);
	m.read_hit = r->read_hit;
	m.controller = r->controller;
	if (model_check_controller(&m, err, sizeof(err)))
		fail_msg("%s: %s", r->vm, err);
	assert_int_equal(model_predict(&m, &w, 0, &p), 0);
	return p;
}

static void test_azure_examples(void **state)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct model_result p = predict_row(r);
		char d[MODEL_WORDS_DETAIL];

		if ((r->want_iops && fabs(p.iops - r->want_iops) > r->want_iops * 1e-6) ||
		    (r->want_mbps && fabs(p.mbps - r->want_mbps) > r->want_mbps * 1e-6))
			fail_msg("%s: %s + %s: %.1f IOPS %.2f MB/s, the page says %g IOPS %g MB/s",
				 r->page, r->vm, r->specs[0], p.iops, p.mbps, r->want_iops,
				 r->want_mbps);
		if (r->binding && strcmp(p.binding, r->binding))
			fail_msg("%s: %s + %s: bound by %s, not %s", r->page, r->vm, r->specs[0],
				 p.binding, r->binding);
		if (r->detail && !strstr(model_words_detail(&p.limits[p.binding_limit].detail, d, sizeof(d)), r->detail))
			fail_msg("%s: %s + %s: bound by '%s', which does not say '%s'", r->page,
				 r->vm, r->specs[0], model_words_detail(&p.limits[p.binding_limit].detail, d, sizeof(d)), r->detail);
	}
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		char err[256];

		if (!strstr(refusal(refused[i].vm, refused[i].spec, err, sizeof(err)),
			    refused[i].says))
			fail_msg("%s: %s: '%s' does not say '%s'", refused[i].page, refused[i].spec,
				 err, refused[i].says);
	}
}

/*
 * VM bursting (Dsv3 size series: D8s_v3 12,800 IOPS, 192 MBps, burst 16,000 and 400 for up to
 * 30 minutes): four P30 (20,000 IOPS) start at the VM's burst, a full bucket lasting exactly
 * its 30 minutes at the burst rate, then hold its 12,800. Three P30 (15,000) drain it slower:
 * 1,800 s x 3,200 / 2,200 = 2,618 s.
 */
static void test_vm_burst(void **state)
{
	static const struct {
		const char *spec;
		double iops, burst_iops, burst_s;
	} cases[] = {
		{"4xP30", 12800, 16000, 1800},
		{"3xP30", 12800, 15000, 1800.0 * 3200 / 2200},
	};
	struct model_workload w = {.bs = 4096, .threads = 1, .depth = 1024};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct model_config m;
		struct model_result r;
		char err[256], *specs[1] = {(char *)cases[i].spec};

		assert_int_equal(model_config_resolve(&cat, "D8s_v3", NULL, specs, 1,
						      MODEL_CACHE_DEFAULT, &m, err, sizeof(err)), 0);
		assert_int_equal(model_predict(&m, &w, 3600, &r), 0);
		assert_within(r.iops, cases[i].iops, 1e-6);
		assert_true(r.bursts);
		assert_within(r.burst_iops, cases[i].burst_iops, 1e-6);
		assert_within(r.burst_seconds, cases[i].burst_s, 1e-6);
		/* The timeline: at the burst until the bucket is empty, then sustained. */
		assert_int_equal(r.nphases, 2);
		assert_within(r.phases[0].end_s, cases[i].burst_s, 1e-6);
		assert_within(r.phases[1].iops, cases[i].iops, 1e-6);
	}
	/* 1 MiB reads burst on throughput: 400 MBps for 1,800 s x 208 / 208 = 30 minutes. */
	struct model_config m;
	struct model_result r;
	char err[256], *specs[1] = {(char *)"4xP30"};

	w.bs = 1000000;
	assert_int_equal(model_config_resolve(&cat, "D8s_v3", NULL, specs, 1, MODEL_CACHE_DEFAULT,
					      &m, err, sizeof(err)), 0);
	assert_int_equal(model_predict(&m, &w, 0, &r), 0);
	assert_within(r.mbps, 192, 1e-6);
	assert_within(r.burst_mbps, 400, 1e-6);
	assert_within(r.burst_seconds, 1800, 1e-6);
	assert_string_equal(r.burst_binding, "vm_uncached_mbps");
}

/*
 * explain's attribution of the same D8s_v3 + 4 x P30: a 10-minute run at 16,000 IOPS sat at the
 * VM's burst the whole run; an hour's average (30 minutes at 16,000, then 12,800) at the
 * sustained cap.
 */
static void test_vm_burst_explained(void **state)
{
	struct model_workload w = {.bs = 4096, .threads = 1, .depth = 1024};
	struct model_attribution a;
	struct model_config m;
	char err[256], *specs[1] = {(char *)"4xP30"};

	assert_int_equal(model_config_resolve(&cat, "D8s_v3", NULL, specs, 1, MODEL_CACHE_DEFAULT,
					      &m, err, sizeof(err)), 0);
	assert_int_equal(model_attribute(&m, &w, 600, 16000, 0.05, &a), 0);
	assert_int_equal(a.origin, MODEL_AT_LIMIT);
	assert_string_equal(a.limit, "VM burst (vm_uncached_iops)");
	assert_int_equal(model_attribute(&m, &w, 3600, 14400, 0.05, &a), 0);
	assert_int_equal(a.origin, MODEL_AT_LIMIT);
	assert_string_equal(a.limit, "vm_uncached_iops");
}

/* A controller the size does not take, or one for a size that has no caps per controller. */
static void test_controller_refused(void **state)
{
	struct model_config m;
	char err[256], *specs[1] = {(char *)"P30"};

	assert_int_equal(model_config_resolve(&cat, "E112ibs_v5", NULL, specs, 1,
					      MODEL_CACHE_DEFAULT, &m, err, sizeof(err)), 0);
	m.controller = "scsi";
	assert_int_equal(model_check_controller(&m, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "takes no scsi controller"));
	assert_int_equal(model_config_resolve(&cat, "D16s_v6", NULL, specs, 1,
					      MODEL_CACHE_DEFAULT, &m, err, sizeof(err)), 0);
	m.controller = "nvme";
	assert_int_equal(model_check_controller(&m, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "no caps by disk controller"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_azure_examples),
		cmocka_unit_test(test_vm_burst), cmocka_unit_test(test_vm_burst_explained),
		cmocka_unit_test(test_controller_refused),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
