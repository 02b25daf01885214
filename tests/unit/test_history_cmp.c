/*
 * 'iorate history compare' and the list's limits: the noise test (src/stats/noise.c,
 * Welch's test in src/stats/welch.c) on constructed series, the parameters that differ
 * (history_diff.c), named by the options of 'iorate run' that set them, and the caps, open
 * loop and profile in each listing.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "result/result_json.h"
#include "report/history_fmt.h"
#include "result/result_set.h"
#include "stats/diff.h"
#include "stats/welch.h"

/* cmocka 1.1.5 (Debian 12) has no assert_double_equal. */
#define assert_near(a, b, eps) near_at((a), (b), (eps), #a, __FILE__, __LINE__)

static void near_at(double a, double b, double eps, const char *expr, const char *file, int line)
{
	if (!(fabs(a - b) <= eps))
		fail_msg("%s:%d: %s = %.17g, expected %.17g within %g", file, line, expr, a, b,
			 eps);
}

/* A fixed-seed generator (xorshift64*), so every run of the tests draws the same series. */
static uint64_t rng_state;

static double uniform01(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (double)((rng_state * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

/* A normal deviate (Box-Muller). */
static double normal(double mean, double sd)
{
	double u = uniform01(), v = uniform01();

	return mean + sd * sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

/*
 * A run of one job on one target whose series has n seconds of reads, second i with ios[i]
 * 4 KiB I/Os and a p99 of p99_us[i] (NULL: 100 us); the run's counters are the series' sums.
 */
static void make_run(struct result *r, const uint64_t *ios, const double *p99_us, unsigned n)
{
	result_init(r);
	r->job.bs = 4096;
	r->job.time_ns = (uint64_t)n * 1000000000ull;
	r->job.threads = 1;
	r->job.depth = 1;
	r->job.command_line = strdup("iorate run x");
	strcpy(r->job.origin, "run");
	strcpy(r->engine, "null");
	strcpy(r->version, "1.0");
	strcpy(r->host.hostname, "alpha");
	strcpy(r->host.kernel, "Linux 6.1.0");
	r->start_unix_ms = 1700000000000ull;
	r->seconds = n;
	r->started = true;
	r->ntargets = 1;
	r->targets = calloc(1, sizeof(*r->targets));
	assert_non_null(r->targets);
	dir_stats_init(&r->targets[0].read);
	dir_stats_init(&r->targets[0].write);
	dir_stats_init(&r->targets[0].trim);
	r->targets[0].path = strdup("x");
	r->targets[0].size = 1 << 20;
	assert_int_equal(job_add_target(&r->job, "x"), 0);
	r->series = calloc(n ? n : 1, sizeof(*r->series));
	assert_non_null(r->series);
	r->nseries = n;
	for (unsigned i = 0; i < n; i++) {
		r->series[i] = (struct series_point){.t = i + 1, .seconds = 1, .read_ios = ios[i],
			.read_bytes = ios[i] * 4096,
			.p99_ns = (uint64_t)((p99_us ? p99_us[i] : 100) * 1000),
			.lat_mean_ns = (uint64_t)((p99_us ? p99_us[i] : 100) * 500),
			.credit_iops = -1, .credit_mbps = -1};
		for (uint64_t k = 0; k < ios[i] / 1000; k++)
			dir_stats_add(&r->targets[0].read, 4096, 100000);
	}
	dir_stats_merge(&r->read, &r->targets[0].read);
}

/* n seconds of IOPS drawn from a normal distribution. */
static void draw(uint64_t *ios, unsigned n, double mean, double sd)
{
	for (unsigned i = 0; i < n; i++)
		ios[i] = (uint64_t)llround(normal(mean, sd));
}

/* The figure {direction, metric} of a 'compare --json' object. */
static json_t *figure(json_t *c, const char *dir, const char *metric)
{
	size_t i;
	json_t *f;

	json_array_foreach(json_object_get(c, "figures"), i, f)
		if (!strcmp(json_string_value(json_object_get(f, "direction")), dir) &&
		    !strcmp(json_string_value(json_object_get(f, "metric")), metric))
			return f;
	fail_msg("no figure %s %s", dir, metric);
	return NULL;
}

static json_t *compare(const struct result *a, const struct result *b)
{
	struct result_set sa, sb;
	json_t *c;

	assert_int_equal(result_set_view(&sa, a, 1), 0);
	assert_int_equal(result_set_view(&sb, b, 1), 0);
	struct history_row ra = {.id = 1, .run = &sa}, rb = {.id = 2, .run = &sb};
	c = report_history_compare_json(&ra, &rb);
	assert_non_null(c);
	result_set_release(&sa);
	result_set_release(&sb);
	return c;
}

/* Welch's test against p-values computed independently (Student's t density integrated). */
static void test_welch_known(void **state)
{
	const double a[] = {1, 2, 3, 4, 5}, b[] = {3, 4, 5, 6, 7}, c[] = {2, 4, 9, 11};
	const double d[] = {10, 11, 9, 10.5, 9.5, 10.2}, e[] = {14, 13.5, 14.2, 13.8};
	const double same[] = {7, 7, 7}, other[] = {8, 8, 8};
	double p;

	/* t = 2 with 8 degrees of freedom. */
	assert_int_equal(stats_welch_p(a, 5, b, 5, &p), 0);
	assert_near(p, 0.0805162379572, 1e-9);
	/* Unequal sizes and variances: t = 1.578, 3.68 degrees of freedom. */
	assert_int_equal(stats_welch_p(a, 5, c, 4, &p), 0);
	assert_near(p, 0.195654021779, 1e-9);
	assert_int_equal(stats_welch_p(c, 4, a, 5, &p), 0);
	assert_near(p, 0.195654021779, 1e-9);
	/* Far apart: t = 11.76 with 7.16 degrees of freedom. */
	assert_int_equal(stats_welch_p(d, 6, e, 4, &p), 0);
	assert_near(p, 6.1321599e-06, 1e-11);
	/* No variance at all: equal means are the same, others beyond any noise. */
	assert_int_equal(stats_welch_p(same, 3, same, 3, &p), 0);
	assert_near(p, 1, 0);
	assert_int_equal(stats_welch_p(same, 3, other, 3, &p), 0);
	assert_near(p, 0, 0);
	assert_int_equal(stats_welch_p(a, 1, b, 5, &p), -EDOM);
}

/*
 * Two runs drawn from one distribution are within noise, for this fixed seed; a shift of ten
 * standard deviations is beyond it, as is a p99 that tripled; a run of 2 s is not tested.
 */
static void test_noise_constructed(void **state)
{
	uint64_t x[30], y[30], z[30];
	double lat[30], lat3[30];
	struct result a, b, c, s;
	json_t *j;

	rng_state = 0x9e3779b97f4a7c15ull;
	draw(x, 30, 20000, 400);
	draw(y, 30, 20000, 400);
	draw(z, 30, 24000, 400);
	for (unsigned i = 0; i < 30; i++) {
		lat[i] = normal(80, 5);
		lat3[i] = normal(240, 15);
	}
	make_run(&a, x, lat, 30);
	make_run(&b, y, NULL, 30);
	for (unsigned i = 0; i < 30; i++) {
		b.series[i].p99_ns = (uint64_t)(normal(80, 5) * 1000);
		b.series[i].lat_mean_ns = (uint64_t)(normal(80, 5) * 500);
	}
	make_run(&c, z, lat3, 30);
	make_run(&s, z, lat3, 2);

	j = compare(&a, &b);
	for (int k = 0; k < 2; k++) {
		json_t *f = figure(j, k ? "total" : "read", "iops");

		assert_true(json_is_false(json_object_get(f, "beyond_noise")));
		assert_true(json_number_value(json_object_get(f, "p")) >= 0.01);
		assert_int_equal(json_integer_value(json_object_get(f, "samples_a")), 30);
	}
	assert_true(json_is_false(json_object_get(figure(j, "total", "p99_us"), "beyond_noise")));
	assert_true(json_is_false(json_object_get(figure(j, "read", "mibps"), "beyond_noise")));
	/* The mean latency per interval is tested as p99 is; both runs only read, so the read
	 * figures have the total's verdicts. */
	assert_true(json_is_false(json_object_get(figure(j, "total", "mean_us"), "beyond_noise")));
	assert_int_equal(json_integer_value(json_object_get(figure(j, "total", "mean_us"),
							    "samples_b")), 30);
	for (int k = 0; k < 2; k++) {
		const char *m = k ? "p99_us" : "mean_us";
		assert_true(json_is_false(json_object_get(figure(j, "read", m), "beyond_noise")));
		assert_near(json_number_value(json_object_get(figure(j, "read", m), "p")),
			    json_number_value(json_object_get(figure(j, "total", m), "p")), 0);
	}
	assert_near(json_number_value(json_object_get(json_object_get(j, "noise_test"),
						      "threshold")), 0.01, 0);
	json_decref(j);

	j = compare(&a, &c);
	assert_true(json_is_true(json_object_get(figure(j, "total", "iops"), "beyond_noise")));
	assert_true(json_number_value(json_object_get(figure(j, "total", "iops"), "p")) < 1e-9);
	assert_true(json_is_true(json_object_get(figure(j, "read", "mibps"), "beyond_noise")));
	assert_true(json_is_true(json_object_get(figure(j, "total", "p99_us"), "beyond_noise")));
	assert_true(json_is_true(json_object_get(figure(j, "total", "mean_us"), "beyond_noise")));
	assert_true(json_is_true(json_object_get(figure(j, "read", "mean_us"), "beyond_noise")));
	json_decref(j);

	/* A run that also wrote: latency per interval is of both directions, so a direction's
	 * is not tested; the total's still is. */
	for (unsigned i = 0; i < 30; i++) {
		c.series[i].write_ios = 100;
		c.series[i].write_bytes = 100 * 4096;
		dir_stats_add(&c.targets[0].write, 4096, 100000);
	}
	dir_stats_merge(&c.write, &c.targets[0].write);
	j = compare(&a, &c);
	for (int k = 0; k < 2; k++) {
		const char *m = k ? "p99_us" : "mean_us";
		assert_string_equal(json_string_value(json_object_get(figure(j, "read", m),
								      "untested")),
				    "no values per interval");
		assert_true(json_is_true(json_object_get(figure(j, "total", m), "beyond_noise")));
	}
	json_decref(j);

	j = compare(&a, &s);
	assert_true(json_is_null(json_object_get(figure(j, "total", "iops"), "beyond_noise")));
	assert_string_equal(json_string_value(json_object_get(figure(j, "total", "iops"),
							      "untested")), "too few intervals");
	assert_int_equal(json_integer_value(json_object_get(figure(j, "total", "iops"),
							    "samples_b")), 2);
	json_decref(j);
	result_release(&a);
	result_release(&b);
	result_release(&c);
	result_release(&s);
}

/* The last, partial second of a run does not count: a sliver of 0.1 s has a rate of its own. */
static void test_noise_partial_second(void **state)
{
	const uint64_t ios[4] = {1000, 1010, 990, 5};
	struct result a;
	struct result_set s;

	make_run(&a, ios, NULL, 4);
	a.series[3].seconds = 0.1;
	assert_int_equal(result_set_view(&s, &a, 1), 0);
	struct history_row ra = {.id = 1, .run = &s};
	json_t *c = report_history_compare_json(&ra, &ra);

	assert_int_equal(json_integer_value(json_object_get(figure(c, "total", "iops"),
							    "samples_a")), 3);
	assert_near(json_number_value(json_object_get(figure(c, "total", "iops"), "p")), 1, 0);
	json_decref(c);
	result_set_release(&s);
	result_release(&a);
}

/*
 * A series of 100 ms against one of 1 s: the finer one's points are added up ten at a time, so
 * both runs' values span a second (the same I/Os per second: within noise, p = 1); p99 per
 * interval does not add up, and a run of 100 ms points against itself is tested per point.
 */
static void test_noise_finer_series(void **state)
{
	uint64_t fine[30], coarse[3] = {10000, 10100, 9900};
	struct result a, b;
	struct result_set sa, sb;

	for (unsigned i = 0; i < 30; i++)
		fine[i] = coarse[i / 10] / 10;
	make_run(&a, fine, NULL, 30);
	a.interval_ns = 100000000ull;
	for (unsigned i = 0; i < 30; i++)
		a.series[i].t = (i + 1) * 0.1, a.series[i].seconds = 0.1;
	make_run(&b, coarse, NULL, 3);
	assert_int_equal(result_set_view(&sa, &a, 1), 0);
	assert_int_equal(result_set_view(&sb, &b, 1), 0);
	struct history_row ra = {.id = 1, .run = &sa}, rb = {.id = 2, .run = &sb};
	json_t *c = report_history_compare_json(&ra, &rb), *f = figure(c, "total", "iops");

	assert_int_equal(json_integer_value(json_object_get(f, "samples_a")), 3);
	assert_int_equal(json_integer_value(json_object_get(f, "samples_b")), 3);
	assert_near(json_number_value(json_object_get(f, "p")), 1, 1e-9);
	assert_string_equal(json_string_value(json_object_get(figure(c, "total", "p99_us"),
							      "untested")),
			    "different intervals: p99 per interval does not add up");
	assert_near(json_number_value(json_object_get(json_object_get(c, "noise_test"),
						      "interval_s")), 1, 0);
	json_decref(c);
	c = report_history_compare_json(&ra, &ra);
	f = figure(c, "total", "iops");
	assert_int_equal(json_integer_value(json_object_get(f, "samples_a")), 30);
	assert_near(json_number_value(json_object_get(json_object_get(c, "noise_test"),
						      "min_interval_s")), 0.05, 1e-12);
	json_decref(c);
	result_set_release(&sa);
	result_set_release(&sb);
	result_release(&a);
	result_release(&b);
}

/*
 * Half a second of 100 ms points, as a run measured them (their seconds add up, in floating
 * point, to a rounding under 0.5), is one value at 1 s: a value needs half an interval.
 */
static void test_noise_half_interval(void **state)
{
	static const double secs[5] = {0.106888883, 0.095993942, 0.100008043, 0.099998587,
				       0.097110545};
	uint64_t fine[5] = {1000, 1000, 1000, 1000, 1000}, coarse[1] = {10000};
	struct result a, b;
	struct result_set sa, sb;

	make_run(&a, fine, NULL, 5);
	a.interval_ns = 100000000ull;
	for (unsigned i = 0; i < 5; i++)
		a.series[i].seconds = secs[i];
	make_run(&b, coarse, NULL, 1);
	b.series[0].seconds = 0.5;
	assert_int_equal(result_set_view(&sa, &a, 1), 0);
	assert_int_equal(result_set_view(&sb, &b, 1), 0);
	struct history_row ra = {.id = 1, .run = &sa}, rb = {.id = 2, .run = &sb};
	json_t *c = report_history_compare_json(&ra, &rb), *f = figure(c, "total", "iops");

	assert_int_equal(json_integer_value(json_object_get(f, "samples_a")), 1);
	assert_int_equal(json_integer_value(json_object_get(f, "samples_b")), 1);
	assert_string_equal(json_string_value(json_object_get(f, "untested")), "too few intervals");
	json_decref(c);
	result_set_release(&sa);
	result_set_release(&sb);
	result_release(&a);
	result_release(&b);
}

/* A run of several jobs: its total's seconds are each group's jobs' seconds added. */
static void test_noise_several_jobs(void **state)
{
	uint64_t x[10], y[10];
	struct result *j = calloc(2, sizeof(*j)), *k = calloc(2, sizeof(*k));
	struct result_set a, b;

	assert_non_null(j);
	assert_non_null(k);
	rng_state = 42;
	for (unsigned i = 0; i < 2; i++) {
		draw(x, 10, 5000, 100);
		draw(y, 10, 9000, 100);
		make_run(&j[i], x, NULL, 10);
		make_run(&k[i], y, NULL, 10);
	}
	assert_int_equal(result_set_take(&a, j, 2), 0);
	assert_int_equal(result_set_take(&b, k, 2), 0);
	struct history_row ra = {.id = 1, .run = &a}, rb = {.id = 2, .run = &b};
	json_t *c = report_history_compare_json(&ra, &rb);
	json_t *f = figure(c, "total", "iops");

	assert_int_equal(json_integer_value(json_object_get(f, "samples_a")), 10);
	assert_true(json_is_true(json_object_get(f, "beyond_noise")));
	assert_true(json_is_null(json_object_get(figure(c, "total", "p99_us"), "beyond_noise")));
	json_decref(c);
	result_set_release(&a);
	result_set_release(&b);
}

/* Whether the differences of a and b hold line. */
static bool has_line(json_t *c, const char *line)
{
	size_t i;
	json_t *v;

	json_array_foreach(json_object_get(c, "differences"), i, v)
		if (!strcmp(json_string_value(v), line))
			return true;
	return false;
}

static void expect(json_t *c, const char *line)
{
	if (!has_line(c, line)) {
		char *s = json_dumps(json_object_get(c, "differences"), JSON_INDENT(1));

		fail_msg("no difference \"%s\" in %s", line, s);
	}
}

/* The complaint of a new user: caps, bursts, the open loop and the warm-up were not listed. */
static void test_diff_caps_and_more(void **state)
{
	const uint64_t ios[3] = {1000, 1000, 1000};
	struct result a, b;
	json_t *c;

	make_run(&a, ios, NULL, 3);
	make_run(&b, ios, NULL, 3);
	b.job.cap = (struct job_caps){.iops = 1000, .mbps = 104.8576, .burst_iops = 3500,
				      .burst_mbps = 170, .burst_seconds = 1800};
	b.job.vm_cap.mbps = 48;
	b.job.rate_iops = 500;
	b.job.arrival = ARRIVAL_POISSON;
	b.job.warmup_ns = 2500000000ull;
	b.job.cooldown_ns = 1000000;
	b.job.emulate = strdup("azure-2015:DS2+P30");
	b.job.cap_io_unit = 256 << 10;
	strcpy(b.engine, "uring");
	b.job.cache = CACHE_BUFFERED;
	b.job.bs = 8192;
	assert_int_equal(job_parse_bssplit(&b.job, "4k/70:64k/30", &(const char *){NULL}), 0);
	assert_int_equal(job_parse_dist(&b.job, "zipf:1.2", &(const char *){NULL}), 0);
	b.job.threads = 4;
	b.job.depth = 32;
	b.job.write_pct = 30;
	b.job.pattern = PATTERN_SEQUENTIAL;
	b.job.shared_threads = true;
	b.job.invalidate = !a.job.invalidate;
	b.job.thinktime_ns = 2000000;
	strcpy(b.host.kernel, "Linux 6.12.0");
	strcpy(b.host.hostname, "beta");
	strcpy(b.version, "1.1");
	strcpy(b.targets[0].device, "nvme0n1");
	c = compare(&a, &b);
	expect(c, "--cap-iops: off -> 1000");
	expect(c, "--cap-mbps/--cap-mibps: off -> 104.8576 MB/s (100 MiB/s)");
	expect(c, "--burst-iops: off -> 3500");
	expect(c, "--burst-mbps: off -> 170 MB/s");
	expect(c, "--burst-seconds: off -> 1800");
	expect(c, "--vm-cap-mbps/--vm-cap-mibps: off -> 48 MB/s");
	expect(c, "--rate-iops: off -> 500");
	expect(c, "--arrival: closed -> poisson");
	expect(c, "--warmup: 0s -> 2500ms");
	expect(c, "--cooldown: 0s -> 1ms");
	expect(c, "--emulate: - -> azure-2015:DS2+P30");
	expect(c, "--cap-io-unit: 0B -> 256KiB");
	expect(c, "--engine: null -> uring");
	expect(c, "--cache: direct -> buffered");
	expect(c, "--bs: 4KiB -> 8KiB");
	expect(c, "--bssplit (reads): - -> 4KiB/70:64KiB/30");
	expect(c, "--distribution: uniform -> zipf");
	expect(c, "--distribution (parameter): 0 -> 1.2");
	expect(c, "--threads: 1 -> 4");
	expect(c, "--depth: 1 -> 32");
	expect(c, "--write: 0% -> 30%");
	expect(c, "--random/--sequential: random -> sequential");
	expect(c, "--shared-threads: no -> yes");
	expect(c, a.job.invalidate ? "page cache dropped first (--no-invalidate): yes -> no"
				   : "page cache dropped first (--no-invalidate): no -> yes");
	expect(c, "--thinktime: 0s -> 2ms");
	expect(c, "kernel: Linux 6.1.0 -> Linux 6.12.0");
	expect(c, "host: alpha -> beta");
	expect(c, "iorate version: 1.0 -> 1.1");
	expect(c, "target 1 device: - -> nvme0n1");
	/* Seconds are compared once, as the exact nanoseconds; a chosen seed is not a change. */
	for (size_t i = 0; i < json_array_size(json_object_get(c, "differences")); i++) {
		const char *l = json_string_value(json_array_get(json_object_get(c, "differences"),
								 i));
		assert_null(strstr(l, "params.warmup"));
		assert_null(strstr(l, "seed"));
		assert_null(strstr(l, "engine_why"));
	}
	/* The same as objects: the JSON path, the option, both values as the run's JSON holds. */
	json_t *ch = json_array_get(json_object_get(c, "changes"), 0);
	assert_string_equal(json_string_value(json_object_get(ch, "key")), "host.hostname");
	assert_true(json_is_null(json_object_get(ch, "option")));
	size_t i;
	bool seen = false;
	json_array_foreach(json_object_get(c, "changes"), i, ch) {
		if (strcmp(json_string_value(json_object_get(ch, "key")), "params.cap.iops"))
			continue;
		seen = true;
		assert_string_equal(json_string_value(json_object_get(ch, "option")), "--cap-iops");
		assert_near(json_number_value(json_object_get(ch, "b")), 1000, 0);
	}
	assert_true(seen);
	json_decref(c);
	result_release(&a);
	result_release(&b);
}

/* Seeds: two chosen at random are no difference; a given one is, the other said chosen. */
static void test_diff_seed(void **state)
{
	const uint64_t ios[3] = {1000, 1000, 1000};
	struct result a, b;
	json_t *c;

	make_run(&a, ios, NULL, 3);
	make_run(&b, ios, NULL, 3);
	a.job.seed = 11;
	b.job.seed = 12;
	c = compare(&a, &b);
	assert_int_equal(json_array_size(json_object_get(c, "differences")), 0);
	json_decref(c);
	b.job.seed_set = true;
	c = compare(&a, &b);
	expect(c, "--seed: 11 (chosen at random) -> 12");
	assert_int_equal(json_array_size(json_object_get(c, "differences")), 1);
	json_decref(c);
	result_release(&a);
	result_release(&b);
}

/*
 * The walk is generic: a field the table does not know is compared and named by its path; a
 * real that differs beyond ten digits is printed exactly; an element only one side has is said.
 */
static void test_diff_generic(void **state)
{
	json_t *a = json_pack("{s:{s:i,s:i,s:f,s:I,s:f},s:[{s:s},{s:s}]}", "params", "future_knob",
			      1, "bs", 4096, "time", 1.0, "time_ns", (json_int_t)1000000000,
			      "rate_iops", 1000.0000000001, "targets", "device", "sda", "device",
			      "sdb");
	json_t *b = json_pack("{s:{s:i,s:i,s:f,s:I,s:f,s:b},s:[{s:s}]}", "params", "future_knob",
			      2, "bs", 4096, "time", 2.0, "time_ns", (json_int_t)2000000000,
			      "rate_iops", 1000.0000000002, "only_b", 1, "targets", "device",
			      "sdc");
	struct report_diff d = {.text = json_array(), .changes = json_array(), .ida = 7, .idb = 9};
	const char *want[] = {"job 3: params.future_knob: 1 -> 2", "job 3: --time: 1s -> 2s",
			      "job 3: --rate-iops: 1000.0000000001 -> 1000.0000000002",
			      "job 3: params.only_b: - -> yes", "job 3: target 1 device: sda -> sdc",
			      "job 3: target 2: only in run 7"};
	struct stats_diff s = {0};

	assert_int_equal(stats_json_diff(a, b, 3, &s), 0);
	assert_int_equal(report_history_diff_words(&d, &s), 0);
	stats_diff_free(&s);
	assert_int_equal(json_array_size(d.text), sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_string_equal(json_string_value(json_array_get(d.text, i)), want[i]);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(d.changes, 0), "job")),
			 3);
	assert_string_equal(json_string_value(json_object_get(json_array_get(d.changes, 0),
							      "key")), "params.future_knob");
	json_decref(a);
	json_decref(b);
	json_decref(d.text);
	json_decref(d.changes);
}

/* Every path to a leaf under o: "params.cap.iops", ... (arrays are leaves). */
static void leaves(const json_t *o, const char *pfx, void (*fn)(const char *key))
{
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)o, k, v) {
		char key[256];

		snprintf(key, sizeof(key), "%s.%s", pfx, k);
		if (json_is_object(v))
			leaves(v, key, fn);
		else
			fn(key);
	}
}

static void named_by_an_option(const char *key)
{
	static const char *const outcomes[] = {"params.engine_why", "params.seed_set",
					       "params.time", "params.warmup", "params.cooldown"};
	const char *label, *opt = report_history_option(key, &label);

	for (size_t i = 0; i < sizeof(outcomes) / sizeof(outcomes[0]); i++)
		if (!strcmp(key, outcomes[i]))
			return;
	if (!opt && !label)
		fail_msg("%s: history_diff.c names no option (nor a label) for it", key);
	if (!opt)
		return;
	if (!options_find(&cmd_run, opt))
		fail_msg("%s: --%s is not an option of 'iorate run'", key, opt);
}

/* The table that names fields is complete for today's params, and its options exist. */
static void test_diff_names_are_options(void **state)
{
	const uint64_t ios[1] = {1};
	struct result r;
	json_t *o;

	make_run(&r, ios, NULL, 1);
	o = result_to_json(&r);
	assert_non_null(o);
	leaves(json_object_get(o, "params"), "params", named_by_an_option);
	json_decref(o);
	result_release(&r);
}

/* Caps, the open loop and the profile in each listing, compactly in the text one. */
static void test_list_limits(void **state)
{
	const uint64_t ios[3] = {1000, 1000, 1000};
	struct result a;
	struct result_set s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *o;

	make_run(&a, ios, NULL, 3);
	a.job.cap.iops = 1000;
	a.job.vm_cap = (struct job_caps){.mbps = 104.8576, .burst_mbps = 200, .burst_seconds = 60};
	a.job.rate_iops = 500;
	a.job.arrival = ARRIVAL_POISSON;
	assert_int_equal(result_set_view(&s, &a, 1), 0);
	struct history_row row = {.id = 3, .run = &s};
	assert_non_null(f);
	report_history_list_head(f);
	report_history_list_row(f, &row);
	a.job.emulate = strdup("azure-2015:DS2+P30");
	a.job.rate_iops = 0;
	report_history_list_row(f, &row);
	report_history_csv_head(f);
	report_history_csv_row(f, &row);
	fclose(f);
	assert_non_null(strstr(buf, " LIMITS "));
	assert_non_null(strstr(buf, "  cap 1000/s vm 104.9MB/s+burst open 500/s~ x\n"));
	assert_non_null(strstr(buf, "  azure-2015:DS2+P30 x\n"));
	assert_non_null(strstr(buf, ",rate_iops,arrival,emulate\n"));
	assert_non_null(strstr(buf, ",1,1000,0,0,0,0,0,104.8576,0,200,60,0,poisson,"
				    "azure-2015:DS2+P30\n"));
	o = report_history_run_json(&row);
	json_t *p = json_object_get(o, "params");
	assert_near(json_number_value(json_object_get(json_object_get(p, "cap"), "iops")), 1000, 0);
	assert_near(json_number_value(json_object_get(json_object_get(p, "vm_cap"), "mbps")),
		    104.8576, 0);
	assert_string_equal(json_string_value(json_object_get(p, "emulate")),
			    "azure-2015:DS2+P30");
	assert_string_equal(json_string_value(json_object_get(p, "arrival")), "poisson");
	json_decref(o);
	free(buf);
	result_set_release(&s);
	result_release(&a);
}

/* The text: each figure with its ratio and verdict, the test named, the differences. */
static void test_compare_text(void **state)
{
	uint64_t x[10], y[10];
	struct result a, b;
	struct result_set sa, sb;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	rng_state = 7;
	draw(x, 10, 40000000, 1000000);
	for (unsigned i = 0; i < 10; i++)
		y[i] = 1000;
	make_run(&a, x, NULL, 10);
	make_run(&b, y, NULL, 10);
	b.job.cap.iops = 1000;
	assert_int_equal(result_set_view(&sa, &a, 1), 0);
	assert_int_equal(result_set_view(&sb, &b, 1), 0);
	struct history_row ra = {.id = 4, .run = &sa}, rb = {.id = 5, .run = &sb};
	assert_non_null(f);
	report_history_compare_text(f, &ra, &rb);
	fclose(f);
	assert_non_null(strstr(buf, "ratio  beyond noise?\n"));
	assert_non_null(strstr(buf, "\ntotal IOPS "));
	assert_non_null(strstr(buf, "  yes  p < 0.0001\n"));
	assert_non_null(strstr(buf, "Welch's t-test (two-sided)"));
	assert_non_null(strstr(buf, "p < 0.01"));
	assert_non_null(strstr(buf, "\nthe runs differ in:\n  --cap-iops: off -> 1000\n"));
	free(buf);
	result_set_release(&sa);
	result_set_release(&sb);
	result_release(&a);
	result_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_welch_known),
		cmocka_unit_test(test_noise_constructed),
		cmocka_unit_test(test_noise_partial_second),
		cmocka_unit_test(test_noise_several_jobs),
		cmocka_unit_test(test_noise_finer_series),
		cmocka_unit_test(test_noise_half_interval),
		cmocka_unit_test(test_diff_caps_and_more),
		cmocka_unit_test(test_diff_seed),
		cmocka_unit_test(test_diff_generic),
		cmocka_unit_test(test_diff_names_are_options),
		cmocka_unit_test(test_list_limits),
		cmocka_unit_test(test_compare_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
