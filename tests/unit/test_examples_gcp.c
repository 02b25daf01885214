/*
 * Google's Persistent Disk and Hyperdisk rules, each row naming its page: "About Persistent Disk
 * performance" (cloud.google.com/compute/docs/disks/performance, in Google's own transcription,
 * GoogleCloudPlatform/gcpdiag disk_performance_benchmark limits_per_gb.json and n-family.json,
 * 2024-08-08), "About Hyperdisk Balanced", "About Hyperdisk Extreme" and "About Hyperdisk
 * Throughput" (cloud.google.com/compute/docs/disks/hd-types/, undated); the E2, N1 and C2
 * rows from the same page's transcription (e-, n-, c-family.json, 2024-08-08). No worked
 * example of Google's own was found, so the rows are the tables' figures applied as the page
 * says: the baseline once per VM.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model_helpers.h"
#include "report/model_words.h"
#include "util/field.h"

#define PERGIB "About Persistent Disk performance (per-GiB limits and baseline per VM)"
#define PERVM "About Persistent Disk performance (limits by machine type and vCPUs)"
#define HDB "About Hyperdisk Balanced"
#define HDX "About Hyperdisk Extreme"
#define HDT "About Hyperdisk Throughput"

struct row {
	const char *page, *vm, *spec;
	uint64_t bs;
	unsigned write_pct;
	double want;                    /* IOPS, or MiB/s for bs >= 1 MiB */
	const char *binding;
};

static const struct row rows[] = {
	/* pd-balanced: 3,000 IOPS and 140 MiB/s per VM, + 6 IOPS and 0.28 MiB/s per GiB. */
	{PERGIB, "n2-standard-4", "pd-balanced:100GiB", 4096, 0, 3600, "disk_iops"},
	{PERGIB, "n2-standard-4", "pd-balanced:100GiB", 1 << 20, 0, 168, "disk_mbps"},
	{PERGIB, "n2-standard-4", "2xpd-balanced:50GiB", 4096, 0, 3600, "disk_iops"},
	/* pd-ssd: 6,000 and 240 per VM, + 30 IOPS and 0.48 MiB/s per GiB. */
	{PERGIB, "n2-standard-4", "pd-ssd:10GiB", 4096, 0, 6300, "disk_iops"},
	{PERGIB, "n2-standard-4", "4xpd-ssd:10GiB", 4096, 0, 7200, "disk_iops"},
	{PERGIB, "n2-standard-8", "pd-ssd:1000GiB", 1 << 20, 0, 720, "disk_mbps"},
	/* pd-standard: 0.75 read and 1.5 write IOPS per GiB, 0.12 MiB/s per GiB, no baseline. */
	{PERGIB, "n2-standard-16", "pd-standard:1000GiB", 4096, 0, 750, "disk_iops"},
	{PERGIB, "n2-standard-16", "pd-standard:1000GiB", 4096, 100, 1500, "disk_iops"},
	{PERGIB, "n2-standard-16", "pd-standard:1000GiB", 1 << 20, 0, 120, "disk_mbps"},
	/* The VM's cap by disk type and vCPUs. */
	{PERVM, "n2-standard-8", "pd-ssd:1000GiB", 4096, 0, 15000, "vm_uncached_iops"},
	{PERVM, "n2-standard-16", "pd-ssd:1000GiB", 4096, 0, 25000, "vm_uncached_iops"},
	{PERVM, "n2-standard-16", "pd-balanced:5000GiB", 4096, 0, 20000, "vm_uncached_iops"},
	{PERVM, "n2-standard-64", "pd-ssd:4000GiB", 4096, 0, 100000, NULL},
	{PERVM, "n2-standard-2", "pd-standard:10000GiB", 4096, 0, 3000, "vm_uncached_iops"},
	{PERVM, "n2-standard-8", "pd-standard:10000GiB", 1 << 20, 100, 400, "vm_uncached_mbps"},
	{PERVM, "n2-standard-8", "pd-standard:10000GiB", 1 << 20, 0, 800, "vm_uncached_mbps"},
	/* E2 (gcpdiag e-family.json), N1 and C2 (n- and c-family.json) machine types. */
	{PERVM " (E2)", "e2-standard-2", "pd-ssd:4000GiB", 4096, 0, 15000, "vm_uncached_iops"},
	{PERVM " (E2)", "e2-standard-16", "pd-balanced:10000GiB", 4096, 0, 20000,
	 "vm_uncached_iops"},
	{PERVM " (E2)", "e2-standard-32", "pd-ssd:4000GiB", 4096, 100, 60000, "vm_uncached_iops"},
	{PERVM " (E2)", "e2-standard-32", "pd-balanced:10000GiB", 1 << 20, 100, 1000,
	 "vm_uncached_mbps"},
	{PERVM " (E2)", "e2-standard-32", "pd-balanced:10000GiB", 1 << 20, 0, 1200, NULL},
	{PERVM " (E2)", "e2-standard-8", "pd-standard:10000GiB", 4096, 0, 5000, "vm_uncached_iops"},
	{PERVM " (E2)", "e2-medium", "pd-ssd:3000GiB", 4096, 0, 12000, "vm_uncached_iops"},
	{PERVM " (E2)", "e2-medium", "pd-ssd:3000GiB", 4096, 100, 10000, "vm_uncached_iops"},
	{PERVM " (E2)", "e2-medium", "pd-standard:3000GiB", 4096, 0, 1000, "vm_uncached_iops"},
	{PERVM " (N1)", "n1-standard-1", "pd-ssd:4000GiB", 1 << 20, 100, 204, "vm_uncached_mbps"},
	{PERVM " (N1)", "n1-standard-96", "pd-ssd:4000GiB", 4096, 0, 100000, NULL},
	{PERVM " (C2)", "c2-standard-4", "pd-balanced:4000GiB", 4096, 0, 4000, "vm_uncached_iops"},
	/* Hyperdisk Balanced: its own 3,000 IOPS and 140 MiB/s per volume, up to 160,000 and
	 * 2,400, at most 500 IOPS per GiB (the free ones too: 2,000 at 4 GiB) and IOPS / 4 MiB/s;
	 * no per-VM limit found, so none applies. */
	{HDB, "c3-standard-8", "2xhyperdisk-balanced:100GiB", 4096, 0, 6000, "disk_iops"},
	{HDB, "c3-standard-8", "hyperdisk-balanced:4GiB", 4096, 0, 2000, "disk_iops"},
	{HDB, "c3-standard-8", "hyperdisk-balanced:4GiB", 1 << 20, 0, 140, "disk_mbps"},
	{HDB, "c3-standard-8", "hyperdisk-balanced:320GiB:iops=160000:mbps=2400", 4096, 0, 160000,
	 "disk_iops"},
	{HDB, "c3-standard-8", "hyperdisk-balanced:100GiB:iops=4000:mbps=1000", 1 << 20, 0, 1000,
	 "disk_mbps"},
	/* Without mbps=, the least that many IOPS need: 160,000 / 256 = 625 MiB/s. */
	{HDB, "c3-standard-8", "hyperdisk-balanced:320GiB:iops=160000", 1 << 20, 0, 625,
	 "disk_mbps"},
	/* Hyperdisk Extreme: IOPS provisioned (up to 1,200 per GiB), 250 MiB/s per 1,000 IOPS up
	 * to 5,000 MiB/s. */
	{HDX, "c3-standard-88", "hyperdisk-extreme:64GiB:iops=20000", 4096, 0, 20000, "disk_iops"},
	{HDX, "c3-standard-88", "hyperdisk-extreme:64GiB:iops=4000", 1 << 20, 0, 1000, "disk_mbps"},
	{HDX, "c3-standard-88", "hyperdisk-extreme:1TiB:iops=350000", 1 << 20, 0, 5000, "disk_mbps"},
	/* Hyperdisk Throughput: MiB/s provisioned, 4 IOPS each, up to 9,600 IOPS. */
	{HDT, "n2-standard-8", "hyperdisk-throughput:2TiB:mbps=100", 4096, 0, 400, "disk_iops"},
	{HDT, "n2-standard-8", "hyperdisk-throughput:2TiB:mbps=100", 1 << 20, 0, 100, "disk_mbps"},
	{HDT, "n2-standard-8", "hyperdisk-throughput:27TiB:mbps=2400", 4096, 0, 9600, "disk_iops"},
	/* At most 90 MiB/s per TiB, which is what a volume given no mbps= gets. */
	{HDT, "n2-standard-8", "hyperdisk-throughput:2TiB", 1 << 20, 0, 180, "disk_mbps"},
	{HDT, "n2-standard-8", "hyperdisk-throughput:10TiB", 1 << 20, 0, 900, "disk_mbps"},
};

static void test_gcp_rules(void **state)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		const char *specs[1] = {r->spec};
		struct model_result p = predict_groups(r->vm, specs, 1, 0,
			(struct model_workload){r->bs, r->write_pct, false, 1, 4096});
		double got = r->bs >= (1 << 20) ? p.mbps / MIB : p.iops;

		if (fabs(got - r->want) > r->want * 1e-6)
			fail_msg("%s: %s + %s, %u%% writes: %g, the page gives %g", r->page, r->vm,
				 r->spec, r->write_pct, got, r->want);
		if (r->binding && strcmp(p.binding, r->binding))
			fail_msg("%s: %s + %s: bound by %s, not %s", r->page, r->vm, r->spec, p.binding,
				 r->binding);
	}
}

/* Hyperdisk: beyond the per-volume maximum is refused; the missing VM limit is said. */
/* Resolves n groups of specs on vm: 0, or -EINVAL with the refusal in err. */
static int groups_on(const char *vm, char **specs, unsigned n, char *err, size_t len)
{
	struct model_config m;

	return model_config_resolve(&cat, vm, NULL, specs, n, MODEL_CACHE_DEFAULT, &m, err, len);
}

/*
 * What each machine type takes, by disk type ('General-purpose machine family for Compute
 * Engine'): C3 at 4 vCPUs at most 16 Hyperdisk Balanced, no Hyperdisk Extreme below 88 vCPUs,
 * no pd-standard; N2 no Hyperdisk Balanced. Groups of one type add up.
 */
static void test_type_limits(void **state)
{
	char err[256];
	char *two[2] = {"10xhyperdisk-balanced:100GiB", "6xhyperdisk-balanced:100GiB"};

	assert_string_equal(refusal("c3-standard-4", "17xhyperdisk-balanced:100GiB", err,
				    sizeof(err)), FIELD("disk") ": 17 hyperdisk-balanced disks, but "
			    "c3-standard-4 takes at most 16");
	assert_int_equal(groups_on("c3-standard-4", two, 2, err, sizeof(err)), 0);
	two[1] = "7xhyperdisk-balanced:100GiB";
	assert_int_not_equal(groups_on("c3-standard-4", two, 2, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "17 hyperdisk-balanced disks"));
	/* Hyperdisk volumes of every type together: at most 24 on C3 at 4 vCPUs. */
	two[0] = "16xhyperdisk-balanced:100GiB";
	two[1] = "8xhyperdisk-throughput:2TiB";
	assert_int_equal(groups_on("c3-standard-4", two, 2, err, sizeof(err)), 0);
	two[1] = "9xhyperdisk-throughput:2TiB";
	assert_int_not_equal(groups_on("c3-standard-4", two, 2, err, sizeof(err)), 0);
	assert_string_equal(err, FIELD("disk") ": 25 hyperdisk-* disks together, but "
			    "c3-standard-4 takes at most 24");
	/* And at most 257 TiB of Hyperdisk below 32 vCPUs ('About Google Cloud Hyperdisk'). */
	two[0] = "16xhyperdisk-balanced:16TiB";
	assert_int_equal(groups_on("c3-standard-4", two, 1, err, sizeof(err)), 0);
	two[1] = "hyperdisk-throughput:2TiB";
	assert_int_not_equal(groups_on("c3-standard-4", two, 2, err, sizeof(err)), 0);
	assert_string_equal(err, FIELD("disk") ": 264192 GiB of hyperdisk-* disks together, but "
			    "c3-standard-4 takes at most 263168 GiB");
	assert_int_equal(groups_on("c3-standard-44", two, 2, err, sizeof(err)), 0);
	/* A type's own limit and its family's: the least of them is what plan may use. */
	assert_int_equal(catalog_vm_type_max(catalog_find_vm(&cat, "gcp", "c3-standard-4"),
					     "hyperdisk-throughput"), 24);
	assert_int_equal(catalog_vm_type_max(catalog_find_vm(&cat, "gcp", "c3-standard-4"),
					     "hyperdisk-balanced"), 16);
	assert_int_equal(catalog_vm_type_max(catalog_find_vm(&cat, "gcp", "c3-standard-4"),
					     "pd-ssd"), UINT_MAX);
	assert_string_equal(refusal("c3-standard-44", "hyperdisk-extreme:64GiB", err, sizeof(err)),
			    FIELD("disk") ": c3-standard-44 takes no hyperdisk-extreme disks");
	disk_of("c3-standard-88", "8xhyperdisk-extreme:64GiB");
	assert_non_null(strstr(refusal("c3-standard-88", "9xhyperdisk-extreme:64GiB", err,
				       sizeof(err)), "takes at most 8"));
	assert_non_null(strstr(refusal("c3d-standard-4", "pd-standard:100GiB", err, sizeof(err)),
			       "takes no pd-standard"));
	assert_non_null(strstr(refusal("n2-standard-8", "hyperdisk-balanced:100GiB", err,
				       sizeof(err)), "takes no hyperdisk-balanced"));
	disk_of("n2-standard-8", "32xhyperdisk-throughput:2TiB");
	assert_non_null(strstr(refusal("n2-standard-8", "33xhyperdisk-throughput:2TiB", err,
				       sizeof(err)), "takes at most 32"));
}

/*
 * N4 and C4 take Hyperdisk only, so many volumes by machine type ('General-purpose machine
 * family for Compute Engine', docs.cloud.google.com, read 2026-12-07); Google's per-VM Hyperdisk
 * IOPS and MiB/s for them were not read, so none applies and the model says so.
 */
static void test_n4_c4(void **state)
{
	const char *specs[1] = {"hyperdisk-balanced:1TiB:iops=50000:mbps=1000"};
	struct model_result p = predict_groups("n4-standard-2", specs, 1, 0,
		(struct model_workload){4096, 0, false, 1, 4096});
	char err[256], note[MODEL_WORDS_NOTE];

	assert_true(fabs(p.iops - 50000) < 1e-6);
	assert_string_equal(p.binding, "disk_iops");
	assert_int_equal(p.notes[0].kind, MODEL_NOTE_NO_VM_LIMIT);
	assert_non_null(strstr(model_words_note(&p.notes[0], note, sizeof(note)),
			       "no per-VM limit for hyperdisk-balanced"));
	disk_of("n4-standard-8", "16xhyperdisk-balanced:100GiB");
	assert_string_equal(refusal("n4-standard-8", "17xhyperdisk-balanced:100GiB", err,
				    sizeof(err)), FIELD("disk") ": 17 data disks, but n4-standard-8 takes "
			    "at most 16");
	disk_of("n4-standard-16", "32xhyperdisk-balanced:100GiB");
	assert_non_null(strstr(refusal("n4-standard-16", "hyperdisk-extreme:64GiB", err,
				       sizeof(err)), "takes no hyperdisk-extreme"));
	assert_non_null(strstr(refusal("n4-standard-4", "pd-balanced:100GiB", err, sizeof(err)),
			       "takes no pd-* disks"));
	assert_non_null(strstr(refusal("c4-standard-2", "9xhyperdisk-balanced:100GiB", err,
				       sizeof(err)), "c4-standard-2 takes at most 8"));
	assert_non_null(strstr(refusal("c4-standard-48", "hyperdisk-extreme:64GiB", err,
				       sizeof(err)), "takes no hyperdisk-extreme"));
	disk_of("c4-standard-96", "8xhyperdisk-extreme:64GiB");
	assert_non_null(strstr(refusal("c4-standard-96", "9xhyperdisk-extreme:64GiB", err,
				       sizeof(err)), "takes at most 8"));
	assert_non_null(strstr(refusal("c4-standard-8", "pd-ssd:100GiB", err, sizeof(err)),
			       "takes no pd-* disks"));
	assert_int_equal(catalog_find_vm(&cat, "gcp", "c4-standard-288")->vcpus, 288);
	/* E2, N1 and C2 take Persistent Disk only, so many (C2: 128 with the boot disk). */
	assert_non_null(strstr(refusal("e2-standard-2", "hyperdisk-balanced:100GiB", err,
				       sizeof(err)), "takes no hyperdisk-* disks"));
	assert_non_null(strstr(refusal("n1-standard-8", "hyperdisk-throughput:2TiB", err,
				       sizeof(err)), "takes no hyperdisk-* disks"));
	assert_non_null(strstr(refusal("e2-medium", "17xpd-balanced:10GiB", err, sizeof(err)),
			       "e2-medium takes at most 16"));
	assert_non_null(strstr(refusal("c2-standard-4", "128xpd-balanced:10GiB", err, sizeof(err)),
			       "c2-standard-4 takes at most 127"));
	assert_non_null(strstr(refusal("e2-medium", "2xpd-balanced:2TiB", err, sizeof(err)),
			       "takes at most 3072 GiB"));
	/*
	 * c4-*-192 and c4-*-288 have per-VM Hyperdisk caps from third-party notes citing Google's
	 * limits page (confidence C): four Hyperdisk Balanced of 160,000 IOPS give 320,000.
	 */
	const char *four[1] = {"4xhyperdisk-balanced:1TiB:iops=160000:mbps=2400"};
	struct model_result q = predict_groups("c4-standard-192", four, 1, 0,
		(struct model_workload){4096, 0, false, 1, 65536});

	assert_true(fabs(q.iops - 320000) < 1e-6);
	assert_string_equal(q.binding, "vm_uncached_iops");
	/* Six of 2,400 MiB/s: 10,000 MiB/s on c4-*-192, 12,500 on c4-*-288. */
	four[0] = "6xhyperdisk-balanced:1TiB:iops=160000:mbps=2400";
	q = predict_groups("c4-standard-192", four, 1, 0,
		(struct model_workload){1 << 20, 0, true, 1, 4096});
	assert_true(fabs(q.mbps - 10000 * MIB) < 1e-6);
	q = predict_groups("c4-standard-288", four, 1, 0,
		(struct model_workload){1 << 20, 0, true, 1, 4096});
	assert_true(fabs(q.mbps - 12500 * MIB) < 1e-6);
	assert_true(catalog_find_vm(&cat, "gcp", "c4-standard-2")->mem_gib == 7);
}

static void test_hyperdisk_limits(void **state)
{
	const char *specs[1] = {"hyperdisk-balanced:100GiB"};
	struct model_result p = predict_groups("c3-standard-8", specs, 1, 0,
		(struct model_workload){4096, 0, false, 1, 64});
	char err[256], note[MODEL_WORDS_NOTE];

	/*
	 * Balanced: at most 160,000 IOPS, 500 per GiB; at least min(500 x GiB, 3,000); throughput
	 * IOPS / 256 (and 140) to IOPS / 4. Extreme: 1,200 IOPS per GiB. Throughput: its IOPS are
	 * not provisioned, its MiB/s are, at most 90 per TiB.
	 */
	static const struct {
		const char *vm, *spec, *says;
	} refused[] = {
		{"c3-standard-8", "hyperdisk-balanced:100GiB:iops=160001", "at most 160000"},
		{"c3-standard-8", "hyperdisk-balanced:100GiB:iops=50001", "need at least 101 GiB"},
		{"c3-standard-8", "hyperdisk-balanced:4GiB:iops=2001", "need at least 5 GiB"},
		{"c3-standard-8", "hyperdisk-balanced:100GiB:iops=2999", "at least 3000 IOPS"},
		{"c3-standard-8", "hyperdisk-balanced:5GiB:iops=2499", "at least 2500 IOPS"},
		{"c3-standard-8", "hyperdisk-balanced:320GiB:iops=160000:mbps=624",
		 "160000 IOPS need at least 625 MiB/s, not 624"},
		{"c3-standard-8", "hyperdisk-balanced:100GiB:iops=3000:mbps=139",
		 "at least 140 MiB/s must be provisioned"},
		{"c3-standard-8", "hyperdisk-balanced:100GiB:iops=4000:mbps=1001",
		 "allow at most 1000 MiB/s"},
		{"c3-standard-88", "hyperdisk-extreme:64GiB:iops=76801", "at least 65 GiB"},
		{"c3-standard-88", "hyperdisk-extreme:64GiB:iops=100", "at least 128 IOPS"},
		{"n2-standard-8", "hyperdisk-throughput:2TiB:iops=400", "give mbps=, not iops="},
		{"n2-standard-8", "hyperdisk-throughput:32TiB:mbps=2401", "at most 2400 MiB/s"},
		{"n2-standard-8", "hyperdisk-throughput:2TiB:mbps=181",
		 "2048 GiB of hyperdisk-throughput allow at most 180 MiB/s"},
		{"n2-standard-8", "hyperdisk-throughput:2TiB:mbps=19", "at least 20 MiB/s"},
		{"n2-standard-8", "hyperdisk-throughput:1TiB:mbps=100", "sizes go from 2048"},
	};

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		assert_non_null(strstr(refusal(refused[i].vm, refused[i].spec, err, sizeof(err)),
				       refused[i].says));
	assert_int_equal(p.nnotes, 1);
	assert_int_equal(p.notes[0].kind, MODEL_NOTE_NO_VM_LIMIT);
	assert_non_null(strstr(model_words_note(&p.notes[0], note, sizeof(note)),
			       "no per-VM limit for hyperdisk-balanced"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gcp_rules), cmocka_unit_test(test_hyperdisk_limits),
		cmocka_unit_test(test_type_limits), cmocka_unit_test(test_n4_c4),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
