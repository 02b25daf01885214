/*
 * The figures of the 2015 posts (docs/sources.md) against the model, each with the tolerance it
 * meets (docs/model.md holds the same table with every error): the normalian post's
 * CrystalDiskMark table, the A4 DiskSpd post's stripes, the L-series post's local SSD and the
 * DS14 SQLIO post. Where they come from a cache, test_attribute.c says so.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model_helpers.h"

/* CrystalDiskMark 3.0.3's eight tests: QD1 unless said; MB/s (10^6 B/s) or IOPS as printed. */
enum cdm { SEQ_R, SEQ_W, R512_R, R512_W, R4K_R1, R4K_W1, R4K_R32, R4K_W32 };

static const struct {
	uint64_t bs;
	bool seq;
	unsigned write_pct, depth;
	bool mbps;
} cdm_tests[] = {
	[SEQ_R] = {1 << 20, true, 0, 1, true}, [SEQ_W] = {1 << 20, true, 100, 1, true},
	[R512_R] = {512 << 10, false, 0, 1, true}, [R512_W] = {512 << 10, false, 100, 1, true},
	[R4K_R1] = {4096, false, 0, 1, false}, [R4K_W1] = {4096, false, 100, 1, false},
	[R4K_R32] = {4096, false, 0, 32, false}, [R4K_W32] = {4096, false, 100, 32, false},
};

struct cdm_row {
	const char *vm, *disks;
	enum cdm test;
	double measured;
	double tol_pct;
};

/*
 * The 2015 normalian post: every disk attached with the ReadOnly host cache and a 100 MB test
 * file (CrystalDiskMark's "Test : 100 MB ... (x5)"): the working set fits the VM's host cache
 * (86 GiB on DS2, 576 GiB on DS14), so the model, warm as by default, has every read hit; no
 * read-hit ratio is given.
 */
#define CDM_TEST_FILE (100.0 * 1024 * 1024)
static const struct cdm_row normalian[] = {
	/* DS2 + P10, CrystalDiskMark 3.0.3, 100 MB file x5 */
	{"DS2", "P10", SEQ_R, 66.587, 1},
	{"DS2", "P10", SEQ_W, 39.15, 10},
	{"DS2", "P10", R512_R, 67.051, 1},
	{"DS2", "P10", R512_W, 34.97, 5},
	{"DS2", "P10", R4K_R1, 511.9, 3},
	{"DS2", "P10", R4K_W1, 406.2, 10},
	{"DS2", "P10", R4K_R32, 510.1, 2},
	{"DS2", "P10", R4K_W32, 510.1, 2},
	/* DS2 + P30 (1,023 GB), CrystalDiskMark 3.0.3, 100 MB file x5 */
	{"DS2", "P30", SEQ_R, 66.587, 1},
	{"DS2", "P30", SEQ_W, 40.273, 10},
	{"DS2", "P30", R512_R, 67.04, 1},
	{"DS2", "P30", R512_W, 35.62, 10},
	{"DS2", "P30", R4K_R1, 5114, 3},
	{"DS2", "P30", R4K_W1, 407.7, 10},
	{"DS2", "P30", R4K_R32, 5101.6, 2},
	{"DS2", "P30", R4K_W32, 5113.1, 3},
	/* DS2 + P30 (600 GB), CrystalDiskMark 3.0.3, 100 MB file x5 */
	{"DS2", "P30", SEQ_R, 66.576, 1},
	{"DS2", "P30", SEQ_W, 40.191, 10},
	{"DS2", "P30", R512_R, 67.04, 1},
	{"DS2", "P30", R512_W, 35.677, 10},
	{"DS2", "P30", R4K_R1, 5112.3, 3},
	{"DS2", "P30", R4K_W1, 394.4, 3},
	{"DS2", "P30", R4K_R32, 5100.9, 2},
	{"DS2", "P30", R4K_W32, 5100.5, 2},
	/* DS2 + 2 x P30, CrystalDiskMark 3.0.3, 100 MB file x5 */
	{"DS2", "2xP30", SEQ_R, 67.109, 1},
	{"DS2", "2xP30", SEQ_W, 66.905, 1},
	{"DS2", "2xP30", R512_R, 67.04, 1},
	{"DS2", "2xP30", R512_W, 57.867, 1},
	{"DS2", "2xP30", R4K_R1, 8173, 3},
	{"DS2", "2xP30", R4K_W1, 387.6, 1},
	{"DS2", "2xP30", R4K_R32, 8184.7, 3},
	{"DS2", "2xP30", R4K_W32, 8159.2, 2},
	/* DS14 + 2 x P30, CrystalDiskMark 3.0.3, 100 MB file x5 */
	{"DS14", "2xP30", SEQ_R, 408.735, 3},
	{"DS14", "2xP30", SEQ_W, 106.377, 10},
	{"DS14", "2xP30", R512_R, 408.468, 3},
	{"DS14", "2xP30", R512_W, 56.95, 2},
	{"DS14", "2xP30", R4K_R1, 9938.4, 5},
	{"DS14", "2xP30", R4K_W1, 358.6, 10},
	{"DS14", "2xP30", R4K_R32, 10142.2, 2},
	{"DS14", "2xP30", R4K_W32, 10103, 2},
};

static void test_normalian_crystaldiskmark(void **state)
{
	for (size_t i = 0; i < sizeof(normalian) / sizeof(normalian[0]); i++) {
		const struct cdm_row *r = &normalian[i];
		char spec[32];
		const char *specs[1] = {spec};

		struct model_config m;
		struct model_result p;
		char err[256];

		snprintf(spec, sizeof(spec), "%s:cache=readonly", r->disks);
		if (model_config_resolve(&cat, r->vm, NULL, (char *const *)specs, 1,
					 MODEL_CACHE_DEFAULT, &m, err, sizeof(err)))
			fail_msg("%s: %s", r->vm, err);
		m.working_set = CDM_TEST_FILE;
		assert_int_equal(model_predict(&m, &(struct model_workload){cdm_tests[r->test].bs,
			cdm_tests[r->test].write_pct, cdm_tests[r->test].seq, 1,
			cdm_tests[r->test].depth}, 0, &p), 0);
		assert_int_equal(p.hit.basis, MODEL_HIT_FITS);
		double got = cdm_tests[r->test].mbps ? p.mbps : p.iops;

		if (fabs(got / r->measured - 1) > r->tol_pct / 100)
			fail_msg("%s + %s, test %d: model %.1f, measured %.1f (%+.1f%%, allowed %g%%)",
				 r->vm, r->disks, r->test, got, r->measured,
				 (got / r->measured - 1) * 100, r->tol_pct);
	}
}

/*
 * The 2015 A4 DiskSpd post: A4 + N standard disks, DiskSpd -t8 -o8, 8 KiB and 64 KiB. 8 KiB
 * scales at 500 IOPS a disk; 64 KiB flattens at the A4's observed 300 MB/s from 10 disks.
 */
static void test_a4_stripe(void **state)
{
	static const double iops64[] = {496.04, 987.25, 1488.08, 1983.83, 2480.03, 2978.73,
					3430.01, 4014.44, 4586.04, 4564.26, 4519.33, 4512.82,
					4430.94, 4520.81, 4644.56, 4580.07};
	static const double iops8[] = {495.91, 992.82, 1486.56, 1983.89, 2480.29, 2987.88,
				       3480.45, 3969.48, 4584.61, 4961.76, 5456.55, 6108.97,
				       6451.95, 7013.65, 7535.83, 8072.88};
	char spec[16];
	const char *specs[1] = {spec};

	for (unsigned n = 1; n <= 16; n++) {
		snprintf(spec, sizeof(spec), "%uxstandard", n);
		struct model_result r = predict_groups("A4", specs, 1, 0,
						       (struct model_workload){8192, 0, false, 8, 8});

		assert_within(r.iops, iops8[n - 1], 2);
		assert_string_equal(r.binding, "disk_iops");
		r = predict_groups("A4", specs, 1, 0, (struct model_workload){65536, 0, false, 8, 8});
		assert_within(r.iops, iops64[n - 1], n == 13 ? 4 : n == 7 ? 3 : 2);
		assert_string_equal(r.binding, n >= 10 ? "vm_uncached_mbps" : "disk_iops");
	}
}

/* The L-Series local SSD post: IOMeter workers with one outstanding I/O each. */
static void test_lseries_local(void **state)
{
	static const struct {
		const char *vm;
		unsigned threads;
		uint64_t bs;
		bool seq, mbps;
		double measured, tol_pct;
		const char *binding;
	} rows[] = {
		{"L4", 4, 4096, false, false, 20000, 1, "local_iops"},
		{"L16", 16, 4096, false, false, 80000, 1, "local_iops"},
		{"L16", 16, 32768, true, true, 800, 1, "local_mbps"},
		{"L16", 4, 4096, false, false, 45000, 10, "queue_depth"}, /* "about 45,000" */
	};
	const char *specs[1] = {"local"};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct model_result r = predict_groups(rows[i].vm, specs, 1, 0,
			(struct model_workload){rows[i].bs, 0, rows[i].seq, rows[i].threads, 1});

		assert_within(rows[i].mbps ? r.mbps : r.iops, rows[i].measured, rows[i].tol_pct);
		assert_string_equal(r.binding, rows[i].binding);
	}
}

/* The 2015 DS14 SQLIO post: P30, 8 KiB at QD8 on one thread, 5,101 IOPS in each cache mode. */
static void test_ds14_sqlio(void **state)
{
	static const char *const specs[] = {"P30:cache=none", "P30:cache=readonly",
					    "P30:cache=readwrite"};

	for (size_t i = 0; i < 3; i++) {
		struct model_result r = predict_groups("DS14", &specs[i], 1, 0,
						       (struct model_workload){8192, 0, false, 1, 8});

		assert_within(r.iops, 5101, 3);
		assert_string_equal(r.binding, "disk_iops");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalian_crystaldiskmark), cmocka_unit_test(test_a4_stripe),
		cmocka_unit_test(test_lseries_local), cmocka_unit_test(test_ds14_sqlio),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
