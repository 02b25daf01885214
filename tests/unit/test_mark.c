/*
 * iorate mark's pure parts: the test list of every profile and preset (src/cmd/mark_suite.c),
 * a run's figures in each unit and a test's score, best or mean (src/stats/mark.c), and
 * what the text and CSV say of them (src/report/mark_fmt.c).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cmd/mark_suite.h"
#include "report/mark_fmt.h"

/* "SEQ1M Q8T1" says what the test is: its fields must say the same. */
static void assert_named_right(const struct mark_test *t)
{
	char name[48], bs[24];

	if (t->bs >= 1u << 20)
		snprintf(bs, sizeof(bs), "%lluM", (unsigned long long)(t->bs >> 20));
	else
		snprintf(bs, sizeof(bs), "%lluK", (unsigned long long)(t->bs >> 10));
	snprintf(name, sizeof(name), "%s%s Q%uT%u", t->seq ? "SEQ" : "RND", bs, t->depth,
		 t->threads);
	assert_string_equal(t->name, name);
}

static void assert_suite(enum mark_profile p, enum mark_preset s, const char *want)
{
	const struct mark_test *t[MARK_MAX_TESTS + 1];
	unsigned n = mark_suite_tests(p, s, t);
	char got[256] = "";

	assert_in_range(n, 1, MARK_MAX_TESTS);
	assert_null(t[n]);
	for (unsigned i = 0; i < n; i++) {
		assert_named_right(t[i]);
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s", i ? ", " : "",
			 t[i]->name);
	}
	assert_string_equal(got, want);
}

/* CrystalDiskMark 9.0.1's and KDiskMark 3.3's lists, profile by preset. */
static void test_profiles(void **state)
{
	static const char *const std_default = "SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1";

	assert_suite(MARK_PROFILE_DEFAULT, MARK_PRESET_STANDARD, std_default);
	assert_suite(MARK_PROFILE_DEFAULT, MARK_PRESET_NVME,
		     "SEQ1M Q8T1, SEQ128K Q32T1, RND4K Q32T16, RND4K Q1T1");
	assert_suite(MARK_PROFILE_DEFAULT, MARK_PRESET_FLASH, std_default);
	assert_suite(MARK_PROFILE_PEAK, MARK_PRESET_STANDARD, "SEQ1M Q8T1, RND4K Q32T1");
	assert_suite(MARK_PROFILE_PEAK, MARK_PRESET_NVME, "SEQ1M Q8T1, RND4K Q32T16");
	assert_suite(MARK_PROFILE_PEAK, MARK_PRESET_FLASH, "SEQ1M Q8T1, RND4K Q32T1");
	for (int s = 0; s < MARK_NPRESETS; s++) {
		assert_suite(MARK_PROFILE_REAL, s, "SEQ1M Q1T1, RND4K Q1T1");
		assert_suite(MARK_PROFILE_DEMO, s, "SEQ1M Q8T1");
	}
}

static void test_names_and_presets(void **state)
{
	assert_int_equal(mark_profile_find("default"), MARK_PROFILE_DEFAULT);
	assert_int_equal(mark_profile_find("peak"), MARK_PROFILE_PEAK);
	assert_int_equal(mark_profile_find("real"), MARK_PROFILE_REAL);
	assert_int_equal(mark_profile_find("demo"), MARK_PROFILE_DEMO);
	assert_int_equal(mark_profile_find("nvme"), -1); /* a preset, not a profile */
	assert_int_equal(mark_preset_find("nvme"), MARK_PRESET_NVME);
	assert_int_equal(mark_preset_find("Default"), -1);
	assert_false(mark_profiles[MARK_PROFILE_DEMO].has_mix);
	assert_true(mark_profiles[MARK_PROFILE_REAL].has_mix);
	/* Flash Memory: 1 s runs, 30 s pauses; the others CrystalDiskMark's 5 s and 5 s. */
	assert_int_equal(mark_presets[MARK_PRESET_FLASH].measure_ns, 1000000000ull);
	assert_int_equal(mark_presets[MARK_PRESET_FLASH].pause_ns, 30000000000ull);
	assert_int_equal(mark_presets[MARK_PRESET_STANDARD].measure_ns, 5000000000ull);
	assert_int_equal(mark_presets[MARK_PRESET_NVME].pause_ns, 5000000000ull);
}

/* A read run of `bytes` in `s` seconds, `ios` I/Os timed at `lat_ns` each. */
static struct mark_run reads(double s, uint64_t ios, uint64_t bytes, uint64_t lat_ns)
{
	return (struct mark_run){.seconds = s, .ios = {ios, 0}, .bytes = {bytes, 0},
				 .lat_n = {ios, 0}, .lat_sum_ns = {ios * lat_ns, 0}};
}

/* Each unit from the same counts: 10^6, 2^20, and fio's whole KiB/s over 1000. */
static void test_units(void **state)
{
	struct mark_run r = reads(10, 1000, 10240000000ull + 10230, 2000);
	struct mark_figures f;

	mark_run_figures(&r, &f);
	assert_true(f.mbps == 1024.001023);
	assert_true(f.kdiskmark_mbps == 1000.0); /* 1,024,001,023 B/s: 1,000,000 whole KiB/s */
	assert_true(f.iops == 100.0);
	assert_true(f.lat_mean_us == 2.0);
	r = reads(2, 6, 6291456, 1000); /* 3 MiB/s */
	mark_run_figures(&r, &f);
	assert_true(f.mibps == 3.0);
	assert_true(mark_rate(&f, MARK_UNITS_IEC) == 3.0);
	assert_true(mark_rate(&f, MARK_UNITS_SI) == f.mbps);
	assert_true(mark_rate(&f, MARK_UNITS_KDISKMARK) == f.kdiskmark_mbps);
	assert_true(f.kdiskmark_mbps == 3.072);
}

/* A Mix run counts its reads and writes together, its latency over both. */
static void test_mix_run(void **state)
{
	struct mark_run r = {.seconds = 1, .ios = {7, 3}, .bytes = {7000000, 3000000},
			     .lat_n = {7, 3}, .lat_sum_ns = {7000, 9000}};
	struct mark_figures f;

	mark_run_figures(&r, &f);
	assert_true(f.mbps == 10.0);
	assert_true(f.iops == 10.0);
	assert_true(f.lat_mean_us == 1.6);
	/* Nothing timed: no latency, not 0. */
	r.lat_n[0] = r.lat_n[1] = 0;
	mark_run_figures(&r, &f);
	assert_true(isnan(f.lat_mean_us));
}

/*
 * Best: each figure the best of any run, so the latency may be another run's than the MB/s
 * (both tools keep the lowest latency seen). Mean: each figure averaged.
 */
static void test_score(void **state)
{
	struct mark_run runs[3] = {
		reads(2, 40, 4000000, 3000), /* 2 MB/s, 20 IOPS, 3 us */
		reads(1, 30, 3000000, 5000), /* 3 MB/s, 30 IOPS, 5 us: the best throughput */
		reads(1, 10, 1000000, 4000), /* 1 MB/s, 10 IOPS, 4 us */
	};
	struct mark_figures f;

	mark_score_runs(runs, 3, MARK_SCORE_BEST, &f);
	assert_true(f.mbps == 3.0);
	assert_true(f.iops == 30.0);
	assert_true(f.lat_mean_us == 3.0);
	assert_int_equal(mark_best_run(runs, 3), 1);
	mark_score_runs(runs, 3, MARK_SCORE_MEAN, &f);
	assert_true(f.mbps == 2.0);
	assert_true(f.iops == 20.0);
	assert_true(f.lat_mean_us == 4.0);
	/* Two runs: the mean of 2 and 3 MB/s is 2.5, whichever order. */
	mark_score_runs(runs, 2, MARK_SCORE_MEAN, &f);
	assert_true(f.mbps == 2.5);
	assert_true(f.lat_mean_us == 4.0);
	/* A run that timed nothing leaves the latency to the others. */
	runs[0].lat_n[0] = 0;
	mark_score_runs(runs, 3, MARK_SCORE_MEAN, &f);
	assert_true(f.lat_mean_us == 4.5);
	mark_score_runs(runs, 3, MARK_SCORE_BEST, &f);
	assert_true(f.lat_mean_us == 4.0);
	/* No runs: zeros and no latency. */
	mark_score_runs(runs, 0, MARK_SCORE_BEST, &f);
	assert_true(f.mbps == 0 && f.iops == 0 && isnan(f.lat_mean_us));
	mark_score_runs(runs, 0, MARK_SCORE_MEAN, &f);
	assert_true(f.mbps == 0 && isnan(f.lat_mean_us));
	/* Equal runs: the first is the best. */
	runs[2] = runs[1];
	assert_int_equal(mark_best_run(runs, 3), 1);
	assert_int_equal(mark_best_run(runs, 0), 0);
}

/* A table of one test (RND4K Q1T1) whose read ran twice; no write, a Mix of 60% reads. */
struct fixture {
	const struct mark_test *tests[MARK_MAX_TESTS + 1];
	struct mark_cell cell[MARK_MAX_TESTS][MARK_NDIRS];
	struct job job;
	struct mark_table t;
};

static struct fixture *fixture(void)
{
	struct fixture *x = calloc(1, sizeof(*x));

	mark_suite_tests(MARK_PROFILE_REAL, MARK_PRESET_STANDARD, x->tests);
	x->tests[0] = x->tests[1];
	x->tests[1] = NULL;
	struct mark_cell *c = &x->cell[0][MARK_READ];
	c->done = true;
	c->nruns = 2;
	c->runs[0] = reads(1, 250, 1024000, 4000);   /* 1.024 MB/s, exactly 1 KDiskMark MB/s */
	c->runs[1] = reads(1, 500, 2048000, 2000);   /* twice that */
	c->best_run = 1;
	result_init(&c->best);
	job_init(&x->job);
	x->job.size = 8u << 20;
	x->t = (struct mark_table){.profile = "real", .title = "Real World Performance",
				   .preset = "standard", .tests = x->tests,
				   .cell = (const struct mark_cell(*)[MARK_NDIRS])x->cell,
				   .read_only = true, .mix = true, .mix_read_pct = 60,
				   .base = &x->job, .path = "f", .fs_use = "[f]", .engine = "null",
				   .kernel = "Linux", .runs = 2, .measure_ns = 1000000000ull};
	return x;
}

static void fixture_free(struct fixture *x)
{
	result_release(&x->cell[0][MARK_READ].best);
	job_release(&x->job);
	free(x);
}

static char *print(int (*fmt)(FILE *, const struct mark_table *), const struct mark_table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(fmt(f, t), 0);
	fclose(f);
	return buf;
}

/* The text says which score and unit its figures are, and skips what was not asked. */
static void test_text(void **state)
{
	struct fixture *x = fixture();
	char *s = print(mark_fmt_text, &x->t);

	assert_non_null(strstr(s, ": CrystalDiskMark's and KDiskMark's tests\n"));
	assert_non_null(strstr(s, "* MB/s = 1,000,000 bytes/s"));
	assert_non_null(strstr(s, "* Score: the best of 2 runs (highest MB/s and IOPS, lowest "
				  "latency), as CrystalDiskMark\n"));
	assert_non_null(strstr(s, "[Read]\n  RND    4KiB (Q=  1, T= 1):     2.048 MB/s [    500.0 "
				  "IOPS] <     2.00 us>\n"));
	assert_non_null(strstr(s, "[Write]\n  RND    4KiB (Q=  1, T= 1): (skipped)\n"));
	assert_non_null(strstr(s, "[Mix] Read 60% / Write 40%\n  RND    4KiB (Q=  1, T= 1): "
				  "(skipped)\n"));
	assert_non_null(strstr(s, "Profile: Real World Performance + Mix\n"));
	free(s);
	x->t.score = MARK_SCORE_MEAN;
	x->t.units = MARK_UNITS_KDISKMARK;
	x->t.mix = false;
	s = print(mark_fmt_text, &x->t);
	assert_non_null(strstr(s, "* MB/s* = 1,024,000 bytes/s"));
	assert_non_null(strstr(s, "* Score: the mean of 2 runs (MB/s*, IOPS, latency), as "
				  "KDiskMark's Default profile\n"));
	assert_non_null(strstr(s, "(Q=  1, T= 1):     1.500 MB/s* [    375.0 IOPS] <     3.00 "
				  "us>"));
	assert_null(strstr(s, "[Mix]"));
	free(s);
	x->t.units = MARK_UNITS_IEC;
	s = print(mark_fmt_text, &x->t);
	assert_non_null(strstr(s, "* MiB/s = 1,048,576 bytes/s\n"));
	assert_non_null(strstr(s, " MiB/s ["));
	free(s);
	fixture_free(x);
}

/* CSV: every unit in its own column, the score named, the write share per direction. */
static void test_csv(void **state)
{
	struct fixture *x = fixture();
	char *s;

	x->cell[0][MARK_MIX] = x->cell[0][MARK_READ];
	result_init(&x->cell[0][MARK_MIX].best);
	x->cell[0][MARK_MIX].runs[1].ios[1] = 100;
	s = print(mark_fmt_csv, &x->t);
	assert_string_equal(s, "profile,preset,test,direction,pattern,bs,queue_depth,threads,"
			    "write_pct,score,runs,best_run,mbps,mibps,kdiskmark_mbps,iops,"
			    "lat_mean_us\n"
			    "real,standard,RND4K Q1T1,read,random,4096,1,1,0,best,2,2,2.048,1.953,"
			    "2.000,500.0,2.00\n"
			    "real,standard,RND4K Q1T1,mix,random,4096,1,1,40,best,2,2,2.048,1.953,"
			    "2.000,600.0,2.00\n");
	free(s);
	result_release(&x->cell[0][MARK_MIX].best);
	fixture_free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profiles),
		cmocka_unit_test(test_names_and_presets),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_mix_run),
		cmocka_unit_test(test_score),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_csv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
