/*
 * The worked examples of Microsoft's disk pages, each row naming its page: "Virtual machine and
 * disk performance" (MicrosoftDocs/azure-compute-docs disks-performance.md, ms.date 09/09/2026)
 * and "Azure managed disk types" (disks-types.md, ms.date 08/11/2026).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model_helpers.h"

#define PERF "Virtual machine and disk performance"
#define TYPES "Azure managed disk types"

struct row {
	const char *page, *vm;
	const char *specs[3];
	double read_hit;
	uint64_t bs;
	double want_iops, want_mbps;    /* 0: not checked */
	const char *binding;
	unsigned write_pct;             /* 0 unless given */
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

static void test_azure_examples(void **state)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct model_result p = predict_groups(r->vm, r->specs, nspecs(r), r->read_hit,
			(struct model_workload){.bs = r->bs, .write_pct = r->write_pct, .threads = 1,
						.depth = 1024});

		if ((r->want_iops && fabs(p.iops - r->want_iops) > r->want_iops * 1e-6) ||
		    (r->want_mbps && fabs(p.mbps - r->want_mbps) > r->want_mbps * 1e-6))
			fail_msg("%s: %s + %s: %.1f IOPS %.2f MB/s, the page says %g IOPS %g MB/s",
				 r->page, r->vm, r->specs[0], p.iops, p.mbps, r->want_iops,
				 r->want_mbps);
		if (r->binding && strcmp(p.binding, r->binding))
			fail_msg("%s: %s + %s: bound by %s, not %s", r->page, r->vm, r->specs[0],
				 p.binding, r->binding);
	}
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		char err[256];

		if (!strstr(refusal(refused[i].vm, refused[i].spec, err, sizeof(err)),
			    refused[i].says))
			fail_msg("%s: %s: '%s' does not say '%s'", refused[i].page, refused[i].spec,
				 err, refused[i].says);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_azure_examples),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
