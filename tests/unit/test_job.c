#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/job.h"
#include "util/field.h"
#include "core/stats.h"
#include "core/worker.h"

static void defaults_validate(void **state)
{
	struct job j;
	char err[256];

	job_init(&j);
	assert_int_equal(j.bs, 4096);
	assert_int_equal(j.threads, 1);
	assert_int_equal(j.depth, 1);
	assert_int_equal(j.cache, CACHE_DIRECT);
	/* No target yet. */
	assert_int_equal(job_validate(&j, err, sizeof(err)), -22);
	assert_non_null(strstr(err, "no target"));
	job_add_target(&j, "/tmp/x");
	assert_int_equal(job_validate(&j, err, sizeof(err)), 0);
	job_release(&j);
}

/* The core names fields; spelled as iorate run spells them, the message reads as the user sees it. */
static void spelled(char *err, size_t len)
{
	char tmp[256];

	field_expand(tmp, sizeof(tmp), err, NULL);
	memcpy(err, tmp, len < sizeof(tmp) ? len : sizeof(tmp));
	err[len - 1] = '\0';
}

static void expect_invalid(struct job *j, const char *needle)
{
	char err[256] = "";

	assert_int_equal(job_validate(j, err, sizeof(err)), -22);
	spelled(err, sizeof(err));
	if (!strstr(err, needle))
		fail_msg("error '%s' does not mention '%s'", err, needle);
}

static void refusals(void **state)
{
	struct job j;

	job_init(&j);
	job_add_target(&j, "t");
	j.depth = 8;
	strcpy(j.engine, "sync");
	expect_invalid(&j, "uring");
	j.depth = 1;
	j.bs = 1000;
	expect_invalid(&j, "512");
	j.cache = CACHE_BUFFERED;
	char err[64];
	assert_int_equal(job_validate(&j, err, sizeof(err)), 0);
	j.bs = 0;
	expect_invalid(&j, "--bs");
	j.bs = 4096;
	j.write_pct = 101;
	expect_invalid(&j, "--write");
	j.write_pct = 0;
	j.time_ns = 0;
	expect_invalid(&j, "--time");
	job_release(&j);
}

/* One refusal of job_validate(): the job as set, its message exactly as iorate run spells it. */
struct refusal {
	const char *name;
	void (*set)(struct job *j);
	const char *msg;
};

static void set_steady_time_alone(struct job *j)
{
	j->steady_dur_ns = 2000000000ull;
}

static void set_steady_ramp_alone(struct job *j)
{
	j->steady_ramp_ns = 1000000000ull;
}

static void set_steady_interval_alone(struct job *j)
{
	j->steady_interval_ns = 1000000000ull;
}

static void set_steady_lat_no_latency(struct job *j)
{
	j->steady = STEADY_LAT;
	j->steady_dur_ns = 4000000000ull;
	j->no_latency = true;
}

static void set_steady_no_window(struct job *j)
{
	j->steady = STEADY_LAT;
}

static void set_steady_interval_fraction(struct job *j)
{
	j->steady = STEADY_LAT;
	j->steady_dur_ns = 3000000000ull;
	j->steady_interval_ns = 1500000000ull;
}

static void set_steady_one_interval(struct job *j)
{
	j->steady = STEADY_LAT;
	j->steady_dur_ns = 1000000000ull;
}

static void set_steady_partial_interval(struct job *j)
{
	j->steady = STEADY_LAT;
	j->steady_dur_ns = 5000000000ull;
	j->steady_interval_ns = 2000000000ull;
}

static void set_cmdprio_class_alone(struct job *j)
{
	j->cmdprio.class_set = true;
}

static void set_lat_window_alone(struct job *j)
{
	j->lat_window_ns = 1000000000ull;
}

static void set_lat_pct_alone(struct job *j)
{
	j->lat_pct = 99;
}

static void set_lat_run_alone(struct job *j)
{
	j->lat_run = true;
}

static void set_lat_pct_range(struct job *j)
{
	j->lat_target_ns = 1000000;
	j->lat_pct = 101;
}

static void set_lat_no_latency(struct job *j)
{
	j->lat_target_ns = 1000000;
	j->no_latency = true;
}

static void set_lat_rate(struct job *j)
{
	j->lat_target_ns = 1000000;
	j->rate_iops = 100;
}

static void set_seq_stride_alone(struct job *j)
{
	j->seq_stride = true;
}

static void set_flow_id_alone(struct job *j)
{
	j->flow_id = 2;
}

static void set_flow_sleep_alone(struct job *j)
{
	j->flow_sleep_ns = 1000;
}

static void set_flow_weight(struct job *j)
{
	j->flow = 1001;
}

static void set_spr_op_alone(struct job *j)
{
	j->spr_op = 0.1;
}

static void set_spr_regions_alone(struct job *j)
{
	j->spr_regions = 4;
}

static void set_spr_cs_alone(struct job *j)
{
	j->spr_cache = 4096;
}

static void set_spr_op_range(struct job *j)
{
	j->sprandom = true;
	j->spr_op = 1;
	j->write_pct = 100;
}

static void set_spr_reads(struct job *j)
{
	j->sprandom = true;
	j->spr_op = 0.1;
}

static void set_spr_threads(struct job *j)
{
	j->sprandom = true;
	j->spr_op = 0.1;
	j->write_pct = 100;
	j->threads = 2;
}

static void set_spr_verify(struct job *j)
{
	j->sprandom = true;
	j->spr_op = 0.1;
	j->write_pct = 100;
	j->verify = true;
}

static void set_spr_dist(struct job *j)
{
	j->sprandom = true;
	j->spr_op = 0.1;
	j->write_pct = 100;
	j->dist = DIST_PARETO;
	j->dist_param = 0.5;
}

static void set_zone_capacity_alone(struct job *j)
{
	j->zone_capacity = 65536;
}

static void set_max_open_alone(struct job *j)
{
	j->max_open_zones = 4;
}

static void set_job_max_open_alone(struct job *j)
{
	j->job_max_open_zones = 4;
}

static void set_read_beyond_alone(struct job *j)
{
	j->read_beyond_wp = true;
}

static void set_reset_freq_alone(struct job *j)
{
	j->zone_reset_frequency = 0.5;
}

static void set_zbd_no_size(struct job *j)
{
	j->zbd = true;
}

static void set_zbd_range(struct job *j)
{
	j->zbd = true;
	j->zone_size = 1048576;
	j->zone_range = 65536;
}

static void set_zbd_capacity(struct job *j)
{
	j->zbd = true;
	j->zone_size = 1048576;
	j->zone_capacity = 2097152;
}

static void set_zbd_io_fit(struct job *j)
{
	j->zbd = true;
	j->zone_size = 1048576;
	j->zone_capacity = 2048;
}

static void set_zbd_threshold(struct job *j)
{
	j->zbd = true;
	j->zone_size = 1048576;
	j->zone_reset_threshold = 1.5;
}

static void set_zbd_frequency(struct job *j)
{
	j->zbd = true;
	j->zone_size = 1048576;
	j->zone_reset_frequency = -0.5;
}

static void set_zbd_until_full(struct job *j)
{
	j->zbd = true;
	j->zone_size = 1048576;
	j->until_full = true;
	j->pattern = PATTERN_SEQUENTIAL;
	j->write_pct = 100;
}

static void set_zbd_mixed(struct job *j)
{
	j->zbd = true;
	j->zone_size = 1048576;
	j->random_pct = 50;
}

static void set_zbd_dist(struct job *j)
{
	j->zbd = true;
	j->zone_size = 1048576;
	j->dist = DIST_PARETO;
	j->dist_param = 0.5;
}

static void set_rewind_random(struct job *j)
{
	j->rewind = 8192;
}

static void set_zone_range_alone(struct job *j)
{
	j->zone_range = 65536;
}

static void set_zone_skip_alone(struct job *j)
{
	j->zone_skip = 65536;
}

static void set_zone_too_small(struct job *j)
{
	j->zone_size = 1048576;
	j->zone_range = 2048;
}

static void set_until_full_random(struct job *j)
{
	j->until_full = true;
}

static void set_strided_gap(struct job *j)
{
	j->zone_size = 1048576;
	j->pattern = PATTERN_SEQUENTIAL;
	j->skip = 4096;
}

static void set_zipf_one(struct job *j)
{
	j->dist = DIST_ZIPF;
	j->dist_param = 1;
}

static void set_pareto_one(struct job *j)
{
	j->dist = DIST_PARETO;
	j->dist_param = 1;
}

static void set_normal_zero(struct job *j)
{
	j->dist = DIST_NORMAL;
	j->dist_param = 0;
}

static void set_zoned_none(struct job *j)
{
	j->dist = DIST_ZONED;
}

static void set_zoned_abs_none(struct job *j)
{
	j->dist = DIST_ZONED_ABS;
}

static void set_thread_stride_random(struct job *j)
{
	j->thread_stride = 4096;
}

static void set_random_pct_range(struct job *j)
{
	j->random_pct = 101;
}

static void set_verify_block_small(struct job *j)
{
	j->verify = true;
	j->verify_block = 256;
}

static void set_verify_block_divides(struct job *j)
{
	j->verify = true;
	j->verify_block = 8192;
}

/* Options that belong to another and come without it, and values out of range: each refused
 * with its own message, naming the option as the user typed it. */
static void refusals_exact(void **state)
{
	static const struct refusal rows[] = {
		{.name = "steady_time_alone", .set = set_steady_time_alone,
		 .msg = "--steady-time: of no effect without --steady"},
		{.name = "steady_ramp_alone", .set = set_steady_ramp_alone,
		 .msg = "--steady-ramp: of no effect without --steady"},
		{.name = "steady_interval_alone", .set = set_steady_interval_alone,
		 .msg = "--steady-interval: of no effect without --steady"},
		{.name = "steady_lat_no_latency", .set = set_steady_lat_no_latency,
		 .msg = "--steady: lat and lat_slope judge latencies, which --no-latency does not "
			"keep"},
		{.name = "steady_no_window", .set = set_steady_no_window,
		 .msg = "--steady: needs a window (--steady-time)"},
		{.name = "steady_interval_fraction", .set = set_steady_interval_fraction,
		 .msg = "--steady-interval: must be whole seconds (the series is per second)"},
		{.name = "steady_one_interval", .set = set_steady_one_interval,
		 .msg = "--steady-time: must be a whole number of at least two intervals (1 s "
			"each)"},
		{.name = "steady_partial_interval", .set = set_steady_partial_interval,
		 .msg = "--steady-time: must be a whole number of at least two intervals (2 s "
			"each)"},
		{.name = "cmdprio_class_alone", .set = set_cmdprio_class_alone,
		 .msg = "--cmdprio-class: of no effect without --cmdprio or --cmdprio-split"},
		{.name = "lat_window_alone", .set = set_lat_window_alone,
		 .msg = "--latency-window: of no effect without --latency-target"},
		{.name = "lat_pct_alone", .set = set_lat_pct_alone,
		 .msg = "--latency-percentile: of no effect without --latency-target"},
		{.name = "lat_run_alone", .set = set_lat_run_alone,
		 .msg = "--latency-run: of no effect without --latency-target"},
		{.name = "lat_pct_range", .set = set_lat_pct_range,
		 .msg = "--latency-percentile: a percent above 0, at most 100"},
		{.name = "lat_no_latency", .set = set_lat_no_latency,
		 .msg = "--latency-target: not with --no-latency (it times every I/O)"},
		{.name = "lat_rate", .set = set_lat_rate,
		 .msg = "--latency-target: not with --rate-iops (an open loop does not keep a "
			"queue depth)"},
		{.name = "seq_stride_alone", .set = set_seq_stride_alone,
		 .msg = "--sequence-stride: of no effect without --distribution sequence"},
		{.name = "flow_id_alone", .set = set_flow_id_alone,
		 .msg = "--flow-id: of no effect without --flow"},
		{.name = "flow_sleep_alone", .set = set_flow_sleep_alone,
		 .msg = "--flow-sleep: of no effect without --flow"},
		{.name = "flow_weight", .set = set_flow_weight,
		 .msg = "--flow: a weight is 1 to 1000"},
		{.name = "spr_op_alone", .set = set_spr_op_alone,
		 .msg = "--spr-op: of no effect without --sprandom"},
		{.name = "spr_regions_alone", .set = set_spr_regions_alone,
		 .msg = "--spr-num-regions: of no effect without --sprandom"},
		{.name = "spr_cs_alone", .set = set_spr_cs_alone,
		 .msg = "--spr-cs: of no effect without --sprandom"},
		{.name = "spr_op_range", .set = set_spr_op_range,
		 .msg = "--spr-op: over-provisioning is a fraction above 0 and below 1"},
		{.name = "spr_reads", .set = set_spr_reads,
		 .msg = "--sprandom: needs random writes only (--write 100)"},
		{.name = "spr_threads", .set = set_spr_threads,
		 .msg = "--sprandom: one thread on one target (a pass is one sequence of writes)"},
		{.name = "spr_verify", .set = set_spr_verify,
		 .msg = "--sprandom: with --verify is not supported by iorate"},
		{.name = "spr_dist", .set = set_spr_dist,
		 .msg = "--sprandom: with --distribution is not supported by iorate"},
		{.name = "zone_capacity_alone", .set = set_zone_capacity_alone,
		 .msg = "--zone-capacity: of no effect without --zbd"},
		{.name = "max_open_alone", .set = set_max_open_alone,
		 .msg = "--max-open-zones: of no effect without --zbd"},
		{.name = "job_max_open_alone", .set = set_job_max_open_alone,
		 .msg = "--job-max-open-zones: of no effect without --zbd"},
		{.name = "read_beyond_alone", .set = set_read_beyond_alone,
		 .msg = "--read-beyond-wp: of no effect without --zbd"},
		{.name = "reset_freq_alone", .set = set_reset_freq_alone,
		 .msg = "--zone-reset-frequency: of no effect without --zbd"},
		{.name = "zbd_no_size", .set = set_zbd_no_size,
		 .msg = "--zbd: needs --zone-size"},
		{.name = "zbd_range", .set = set_zbd_range,
		 .msg = "--zone-range: emulated zones are --zone-size long"},
		{.name = "zbd_capacity", .set = set_zbd_capacity,
		 .msg = "--zone-capacity: more than --zone-size"},
		{.name = "zbd_io_fit", .set = set_zbd_io_fit,
		 .msg = "--zbd: an I/O of 4096 bytes does not fit a zone's 2048 writable bytes"},
		{.name = "zbd_threshold", .set = set_zbd_threshold,
		 .msg = "--zone-reset-threshold: a fraction from 0 to 1"},
		{.name = "zbd_frequency", .set = set_zbd_frequency,
		 .msg = "--zone-reset-frequency: a fraction from 0 to 1"},
		{.name = "zbd_until_full", .set = set_zbd_until_full,
		 .msg = "--until-full: needs sequential writes (--sequential --write 100), "
			"without zones, gaps or shared threads"},
		{.name = "zbd_mixed", .set = set_zbd_mixed,
		 .msg = "--zbd: emulated zones with mixed patterns are not supported by iorate"},
		{.name = "zbd_dist", .set = set_zbd_dist,
		 .msg = "--zbd: emulated zones with --distribution are not supported by iorate"},
		{.name = "rewind_random", .set = set_rewind_random,
		 .msg = "--gap: a negative gap needs sequential I/O (--sequential)"},
		{.name = "zone_range_alone", .set = set_zone_range_alone,
		 .msg = "--zone-range: of no effect without --zone-size"},
		{.name = "zone_skip_alone", .set = set_zone_skip_alone,
		 .msg = "--zone-skip: of no effect without --zone-size"},
		{.name = "zone_too_small", .set = set_zone_too_small,
		 .msg = "--zone-range: a zone of 2048 bytes cannot hold an I/O of 4096"},
		{.name = "until_full_random", .set = set_until_full_random,
		 .msg = "--until-full: needs sequential writes (--sequential --write 100), "
			"without zones, gaps or shared threads"},
		{.name = "strided_gap", .set = set_strided_gap,
		 .msg = "--zone-size: strided zones with --gap are not supported by iorate"},
		{.name = "zipf_one", .set = set_zipf_one,
		 .msg = "--distribution: zipf's theta must be above 0 and not 1"},
		{.name = "pareto_one", .set = set_pareto_one,
		 .msg = "--distribution: pareto's h must be between 0 and 1"},
		{.name = "normal_zero", .set = set_normal_zero,
		 .msg = "--distribution: normal's deviation must be from 0 to 100%"},
		{.name = "zoned_none", .set = set_zoned_none,
		 .msg = "--distribution: zones' accesses and sizes must each add up to 100%"},
		{.name = "zoned_abs_none", .set = set_zoned_abs_none,
		 .msg = "--distribution: zones' accesses must add up to 100%"},
		{.name = "thread_stride_random", .set = set_thread_stride_random,
		 .msg = "--thread-stride: needs sequential threads that each sweep the region "
			"(--sequential --seq-threads each)"},
		{.name = "random_pct_range", .set = set_random_pct_range,
		 .msg = "--random-pct: must be from 0 to 100 percent"},
		{.name = "verify_block_small", .set = set_verify_block_small,
		 .msg = "--verify-block: must be a multiple of 512 bytes, at least 512"},
		{.name = "verify_block_divides", .set = set_verify_block_divides,
		 .msg = "--verify-block: 8192 bytes must divide every block size, --align, --gap, "
			"--thread-stride and --offset"},
	};
	char err[256];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct job j;

		job_init(&j);
		job_add_target(&j, "t");
		rows[i].set(&j);
		err[0] = '\0';
		if (job_validate(&j, err, sizeof(err)) != -EINVAL)
			fail_msg("%s: not refused (%s)", rows[i].name, err);
		spelled(err, sizeof(err));
		if (strcmp(err, rows[i].msg))
			fail_msg("%s: \"%s\", not \"%s\"", rows[i].name, err, rows[i].msg);
		job_release(&j);
	}
}

/* Mixes and distributions that cannot be drawn are refused, each with its reason. */
static void shape_refusals(void **state)
{
	struct job j;
	char err[256];

	job_init(&j);
	job_add_target(&j, "t");
	j.bs_read[0] = (struct job_bs){4096, 60};
	j.bs_read[1] = (struct job_bs){65536, 30};
	j.nbs_read = 2;
	expect_invalid(&j, "add up to 90%");
	j.bs_read[1].pct = 40;
	assert_int_equal(job_validate(&j, err, sizeof(err)), 0);
	j.bs_read[1].bs = 1000;
	expect_invalid(&j, "multiples of 512");
	j.bs_read[1].bs = 65536;
	/* The memory estimate counts the largest block of the mix. */
	assert_int_equal(job_max_bs(&j), 65536);
	j.dist = DIST_ZIPF;
	j.dist_param = 1;
	expect_invalid(&j, "theta");
	j.dist_param = 1.2;
	assert_int_equal(job_validate(&j, err, sizeof(err)), 0);
	j.dist = DIST_PARETO;
	expect_invalid(&j, "between 0 and 1");
	j.dist_param = 0.2;
	assert_int_equal(job_validate(&j, err, sizeof(err)), 0);
	j.dist = DIST_NORMAL;
	j.dist_param = 0;
	expect_invalid(&j, "deviation");
	j.dist = DIST_ZONED;
	j.zones[0] = (struct job_zone){60, 10};
	j.zones[1] = (struct job_zone){30, 90};
	j.nzones = 2;
	expect_invalid(&j, "add up to 100%");
	j.zones[1].access_pct = 40;
	assert_int_equal(job_validate(&j, err, sizeof(err)), 0);
	j.dist = DIST_ZONED_ABS;
	j.zones[0] = (struct job_zone){.access_pct = 60, .size_bytes = 0};
	j.zones[1] = (struct job_zone){.access_pct = 40, .size_bytes = 4096};
	expect_invalid(&j, "only the last zone");
	j.zones[0].size_bytes = 1 << 20;
	assert_int_equal(job_validate(&j, err, sizeof(err)), 0);
	j.thread_stride = 4096;
	expect_invalid(&j, "--thread-stride: needs sequential threads");
	j.pattern = PATTERN_SEQUENTIAL;
	j.seq_per_thread = true;
	assert_int_equal(job_validate(&j, err, sizeof(err)), 0);
	j.random_pct = 101;
	expect_invalid(&j, "0 to 100");
	job_release(&j);
}

/* fio's written forms of a size mix and a distribution. */
static void shape_forms(void **state)
{
	struct job j;
	const char *why = NULL;

	job_init(&j);
	assert_int_equal(job_parse_bssplit(&j, "2k/50:4k/50,4k/90:8k/10", &why), 0);
	assert_int_equal(j.nbs_read, 2);
	assert_int_equal(j.nbs_write, 2);
	assert_int_equal(j.bs_read[0].bs, 2048);
	assert_int_equal(j.bs_write[1].bs, 8192);
	assert_int_equal(j.bs_write[1].pct, 10);
	/* One mix serves both directions; sizes without a share split what is left. */
	assert_int_equal(job_parse_bssplit(&j, "4k/10:8k/:16k/", &why), 0);
	assert_int_equal(j.nbs_write, 3);
	assert_int_equal(j.bs_read[1].pct, 45);
	assert_int_equal(j.bs_read[2].pct, 45);
	assert_int_equal(job_parse_bssplit(&j, "4k/:8k/:16k/", &why), 0);
	assert_int_equal(j.bs_read[0].pct + j.bs_read[1].pct + j.bs_read[2].pct, 100);
	/* A comma with nothing before it: reads keep the job's one size. */
	assert_int_equal(job_parse_bssplit(&j, ",64k/100", &why), 0);
	assert_int_equal(j.nbs_read, 0);
	assert_int_equal(j.nbs_write, 1);
	assert_int_equal(job_parse_bssplit(&j, "4k/60:8k/60", &why), -EINVAL);
	assert_non_null(strstr(why, "more than 100%"));
	assert_int_equal(job_parse_bssplit(&j, "4q/100", &why), -EINVAL);
	assert_int_equal(job_parse_bssplit(&j, "4k/100,8k/100,1m/100", &why), -EINVAL);
	assert_int_equal(job_parse_bssplit(&j, ",", &why), -EINVAL);

	assert_int_equal(job_parse_dist(&j, "zipf", &why), 0);
	assert_int_equal(j.dist, DIST_ZIPF);
	assert_true(j.dist_param == 1.2);
	assert_int_equal(job_parse_dist(&j, "pareto:0.9", &why), 0);
	assert_true(j.dist == DIST_PARETO && j.dist_param == 0.9);
	assert_int_equal(job_parse_dist(&j, "zoned:60/10:30/20:10/70", &why), 0);
	assert_int_equal(j.nzones, 3);
	assert_true(j.zones[2].access_pct == 10 && j.zones[2].size_pct == 70);
	assert_int_equal(job_parse_dist(&j, "uniform", &why), 0);
	assert_int_equal(j.dist, DIST_UNIFORM);
	assert_int_equal(job_parse_dist(&j, "zoned", &why), -EINVAL);
	assert_int_equal(job_parse_dist(&j, "zipf:x", &why), -EINVAL);
	assert_int_equal(job_parse_dist(&j, "uniform:1", &why), -EINVAL);
	assert_int_equal(job_parse_dist(&j, "zoned_abs:60/10M:40/0", &why), 0);
	assert_int_equal(j.dist, DIST_ZONED_ABS);
	assert_int_equal(j.zones[0].size_bytes, 10 << 20);
	assert_int_equal(j.zones[1].size_bytes, 0);
	assert_int_equal(job_parse_dist(&j, "zoned_abs:60/10%", &why), -EINVAL);
	assert_int_equal(job_parse_dist(&j, "lognormal:1", &why), -EINVAL);
	assert_non_null(strstr(why, "not a distribution"));
	job_release(&j);
}

/* continue_on_error's kinds and ignore_error's lists of errnos, as fio writes them. */
static void error_forms(void **state)
{
	struct job j;
	const char *why = NULL;
	char err[256];

	job_init(&j);
	assert_int_equal(job_errno_parse("ENOSPC"), ENOSPC);
	assert_int_equal(job_errno_parse("122"), 122);
	assert_int_equal(job_errno_parse("ENOTHING"), 0);
	assert_int_equal(job_errno_parse("0"), 0);
	assert_int_equal(job_parse_continue(&j, "io", &why), 0);
	assert_int_equal(j.continue_on, JOB_CONT_READ | JOB_CONT_WRITE);
	assert_int_equal(job_parse_continue(&j, "0", &why), 0);
	assert_int_equal(j.continue_on, 0);
	assert_int_equal(job_parse_continue(&j, "often", &why), -EINVAL);
	assert_int_equal(job_parse_ignore_error(&j, "EAGAIN,ENOSPC:122,EILSEQ", &why), 0);
	assert_int_equal(j.nignore[0], 1);
	assert_int_equal(j.ignore_errno[0][0], EAGAIN);
	assert_int_equal(j.nignore[1], 2);
	assert_int_equal(j.ignore_errno[1][1], 122);
	/* An empty list leaves that direction to the defaults (EIO, EILSEQ). */
	assert_int_equal(job_parse_ignore_error(&j, ",ENOSPC", &why), 0);
	assert_int_equal(j.nignore[0], 0);
	assert_int_equal(job_parse_ignore_error(&j, "EIO,EIO,EIO,EIO", &why), -EINVAL);
	assert_int_equal(job_parse_ignore_error(&j, "E1:E2", &why), -EINVAL);
	assert_int_equal(job_parse_ignore_error(&j, "1:2:3:4:5:6:7:8:9", &why), -EINVAL);
	/* A list without continue_on_error for reads or writes is bad usage. */
	job_add_target(&j, "x");
	assert_int_equal(job_parse_ignore_error(&j, ",ENOSPC", &why), 0);
	j.continue_on = JOB_CONT_VERIFY;
	assert_int_equal(job_validate(&j, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "of no effect without"));
	j.continue_on = JOB_CONT_WRITE;
	assert_int_equal(job_validate(&j, err, sizeof(err)), 0);
	job_release(&j);
}

static void ioprio_forms(void **state)
{
	struct job j;
	const char *why = NULL;
	char b[16];

	job_init(&j);
	assert_string_equal(job_ioprio_name(&j, b, sizeof(b)), "");
	assert_int_equal(job_parse_ioprio(&j, "idle", &why), 0);
	assert_true(j.ioprio_class == JOB_IOPRIO_IDLE && j.ioprio_level == 4);
	assert_int_equal(job_parse_ioprio(&j, "rt:0", &why), 0);
	assert_string_equal(job_ioprio_name(&j, b, sizeof(b)), "rt:0");
	assert_int_equal(job_parse_ioprio(&j, "be:7", &why), 0);
	assert_true(j.ioprio_class == JOB_IOPRIO_BE && j.ioprio_level == 7);
	assert_int_equal(job_parse_ioprio(&j, "be:8", &why), -EINVAL);
	assert_int_equal(job_parse_ioprio(&j, "bee", &why), -EINVAL);
	assert_int_equal(job_parse_ioprio(&j, "rt:", &why), -EINVAL);
	job_release(&j);
}

/* Priorities per I/O: each form parses, writes back as it parses, and bad ones are refused. */
static void cmdprio_forms(void **state)
{
	struct job j, k;
	const char *why = NULL;
	char b[3][512];

	job_init(&j);
	assert_false(j.cmdprio.on);
	assert_int_equal(job_parse_cmdprio(&j, "30", &why), 0);
	assert_true(j.cmdprio.on && j.cmdprio.pct[0] == 30 && j.cmdprio.pct[1] == 30);
	assert_int_equal(job_parse_cmdprio(&j, "0,100", &why), 0);
	assert_string_equal(job_cmdprio_str(&j, 0, b[0], sizeof(b[0])), "0,100");
	assert_string_equal(job_cmdprio_str(&j, 1, b[1], sizeof(b[1])), "");
	assert_int_equal(job_parse_cmdprio_class(&j, "idle:7,be", &why), 0);
	assert_int_equal(j.cmdprio.ioprio[0], JOB_IOPRIO(JOB_IOPRIO_IDLE, 7));
	assert_int_equal(j.cmdprio.ioprio[1], JOB_IOPRIO(JOB_IOPRIO_BE, 0));
	assert_string_equal(job_cmdprio_str(&j, 1, b[1], sizeof(b[1])), "idle:7,be:0");
	static const char *const bad_share[] = {"101", "1,2,3", "", "x", "-1"};
	for (size_t i = 0; i < sizeof(bad_share) / sizeof(*bad_share); i++)
		assert_int_equal(job_parse_cmdprio(&j, bad_share[i], &why), -EINVAL);
	assert_int_equal(job_parse_cmdprio_class(&j, "rt:8", &why), -EINVAL);
	assert_int_equal(job_parse_cmdprio_class(&j, "none", &why), -EINVAL);

	/* A split: one list for both directions; entries of one size share up to 100. */
	assert_int_equal(job_parse_cmdprio_split(&j, "4k/10:64k/25/rt/1:64k/75/idle/2", &why), 0);
	assert_int_equal(j.cmdprio.nsplit[1], 3);
	assert_int_equal(j.cmdprio.split[1][1].bs, 65536);
	assert_int_equal(j.cmdprio.split[1][2].ioprio, JOB_IOPRIO(JOB_IOPRIO_IDLE, 2));
	assert_int_equal(j.cmdprio.split[1][0].ioprio, 0);
	job_cmdprio_str(&j, 2, b[2], sizeof(b[2]));
	assert_string_equal(b[2], "4096/10:65536/25/rt/1:65536/75/idle/2,"
			    "4096/10:65536/25/rt/1:65536/75/idle/2");
	/* What it writes parses back to the same. */
	job_init(&k);
	assert_int_equal(job_parse_cmdprio_split(&k, b[2], &why), 0);
	assert_memory_equal(&k.cmdprio.split, &j.cmdprio.split, sizeof(j.cmdprio.split));
	job_release(&k);
	static const char *const bad_split[] = {"64k/60:64k/50", "64k", "64k/10/rt/8", "/10",
						"0/10", "4k/10/xx", "4k/10,"};
	for (size_t i = 0; i < sizeof(bad_split) / sizeof(*bad_split); i++)
		assert_int_equal(job_parse_cmdprio_split(&j, bad_split[i], &why), -EINVAL);
	job_release(&j);
}

/* The bytes a pattern stands for, as 0xHEX. */
static const char *pattern_of(const char *spec, char *buf, size_t len)
{
	struct job j;
	const char *why;

	job_init(&j);
	if (job_parse_pattern(&j, spec, &why))
		snprintf(buf, len, "refused");
	else
		job_pattern_hex(&j, buf, len);
	return buf;
}

/* fio's buffer_pattern forms, with the bytes its documentation gives for them. */
static void data_pattern_forms(void **state)
{
	char b[80];

	assert_string_equal(pattern_of("\"abcd\"", b, sizeof(b)), "0x61626364");
	assert_string_equal(pattern_of("-1024", b, sizeof(b)), "0x00fcffff");
	assert_string_equal(pattern_of("66", b, sizeof(b)), "0x42");
	assert_string_equal(pattern_of("0", b, sizeof(b)), "0x00");
	assert_string_equal(pattern_of("0xFF0X1", b, sizeof(b)), "0xff01");
	assert_string_equal(pattern_of("\"123\"0xFFeeCC", b, sizeof(b)), "0x313233ffeecc");
	assert_string_equal(pattern_of("-100xab\"1\"", b, sizeof(b)), "0xf6ffffffab31");
	assert_string_equal(pattern_of("0xdeadface\"ab\"-12", b, sizeof(b)),
			    "0xdeadface6162f4ffffff");
	assert_string_equal(pattern_of("0xf00", b, sizeof(b)), "0x0f00");
	/* Refused: nothing, an open quote, a file, a number beyond 32 bits, stray text. */
	assert_string_equal(pattern_of("", b, sizeof(b)), "refused");
	assert_string_equal(pattern_of("\"ab", b, sizeof(b)), "refused");
	assert_string_equal(pattern_of("'file'", b, sizeof(b)), "refused");
	assert_string_equal(pattern_of("4294967296", b, sizeof(b)), "refused");
	assert_string_equal(pattern_of("0x", b, sizeof(b)), "refused");
	assert_string_equal(pattern_of("12 ab", b, sizeof(b)), "refused");
}

/* What writes carry: verified writes carry their own blocks; the dedupe options need --dedupe. */
static void data_checks(void **state)
{
	struct job j;
	char err[256];

	job_init(&j);
	job_add_target(&j, "/tmp/x");
	assert_int_equal(j.compress_chunk, 512);
	j.compress_pct = 50;
	j.dedupe_pct = 20;
	j.dedupe_set_pct = 10;
	j.dedupe_global = true;
	assert_int_equal(job_validate(&j, err, sizeof(err)), 0);
	j.verify = 1;
	assert_int_equal(job_validate(&j, err, sizeof(err)), -EINVAL);
	spelled(err, sizeof(err));
	assert_non_null(strstr(err, "--verify: verified writes carry their own blocks"));
	j.verify = 0;
	j.dedupe_pct = 0;
	assert_int_equal(job_validate(&j, err, sizeof(err)), -EINVAL);
	spelled(err, sizeof(err));
	assert_string_equal(err, "--dedupe-set: of no effect without --dedupe");
	j.dedupe_pct = 101;
	assert_int_equal(job_validate(&j, err, sizeof(err)), -EINVAL);
	job_release(&j);
}

/* A backward sweep needs sequential I/O; a strided zone must hold the largest I/O. */
static void zone_checks(void **state)
{
	struct job j;

	job_init(&j);
	job_add_target(&j, "/tmp/x");
	j.rewind = 8192;
	expect_invalid(&j, "--gap: a negative gap needs sequential I/O (--sequential)");
	j.pattern = PATTERN_SEQUENTIAL;
	char err[256];
	assert_int_equal(job_validate(&j, err, sizeof(err)), 0);
	j.zone_size = 1 << 20;
	expect_invalid(&j, "--zone-size: strided zones with --gap are not supported");
	j.rewind = 0;
	j.zone_range = 2048;
	expect_invalid(&j, "--zone-range: a zone of 2048 bytes cannot hold an I/O of 4096");
	j.zone_size = 0;
	expect_invalid(&j, "--zone-range: of no effect without --zone-size");
	/* --until-full: sequential writes, and it ends a job without a time. */
	j.zone_range = 0;
	j.until_full = true;
	j.time_ns = 0;
	expect_invalid(&j, "--until-full: needs sequential writes");
	j.write_pct = 100;
	assert_int_equal(job_validate(&j, err, sizeof(err)), 0);
	job_release(&j);
}

/* fio's steadystate forms, and the window they need. */
static void steady_forms(void **state)
{
	struct job j;
	const char *why;
	char b[48];

	job_init(&j);
	job_add_target(&j, "/tmp/x");
	assert_int_equal(job_parse_steady(&j, "iops_slope:0.1%", &why), 0);
	assert_true(j.steady == STEADY_IOPS_SLOPE && j.steady_limit == 0.1 && j.steady_pct);
	assert_string_equal(job_steady_name(&j, b, sizeof(b)), "iops_slope:0.1%");
	assert_int_equal(job_parse_steady(&j, "bw:1048576", &why), 0);
	assert_true(j.steady == STEADY_BW && j.steady_limit == 1048576 && !j.steady_pct);
	/* A newer fio's lat: a percent, a duration, or microseconds; kept in ns. */
	assert_int_equal(job_parse_steady(&j, "lat:5%", &why), 0);
	assert_true(j.steady == STEADY_LAT && j.steady_limit == 5 && j.steady_pct);
	assert_int_equal(job_parse_steady(&j, "lat_slope:250", &why), 0);
	assert_true(j.steady == STEADY_LAT_SLOPE && j.steady_limit == 250000 && !j.steady_pct);
	assert_string_equal(job_steady_name(&j, b, sizeof(b)), "lat_slope:250000ns");
	assert_int_equal(job_parse_steady(&j, b, &why), 0);
	assert_true(j.steady_limit == 250000);
	assert_int_equal(job_parse_steady(&j, "lat:2ms", &why), 0);
	assert_true(j.steady_limit == 2000000);
	assert_int_equal(job_parse_steady(&j, "lat:fast", &why), -EINVAL);
	assert_int_equal(job_parse_steady(&j, "bw:2ms", &why), -EINVAL);
	assert_int_equal(job_parse_steady(&j, "iops", &why), -EINVAL);
	assert_int_equal(job_parse_steady(&j, "iops:%", &why), -EINVAL);
	assert_int_equal(job_parse_steady(&j, "iops:-1", &why), -EINVAL);
	expect_invalid(&j, "--steady: needs a window (--steady-time)");
	j.steady_dur_ns = 30000000000ull;
	j.steady_interval_ns = 7000000000ull;
	expect_invalid(&j, "--steady-time: must be a whole number of at least two intervals");
	j.steady_interval_ns = 1500000000ull;
	expect_invalid(&j, "--steady-interval: must be whole seconds");
	j.steady_interval_ns = 10000000000ull;
	char err[256];
	assert_int_equal(job_validate(&j, err, sizeof(err)), 0);
	j.steady = STEADY_NONE;
	expect_invalid(&j, "--steady-time: of no effect without --steady");
	job_release(&j);
}

static void command_line_quoting(void **state)
{
	struct job j;
	char *argv[] = {"iorate", "run", "-b", "64k", "my file", "it's", ""};

	job_init(&j);
	assert_int_equal(job_set_command_line(&j, NULL, 7, argv), 0);
	assert_string_equal(j.command_line, "iorate run -b 64k 'my file' 'it'\\''s' ''");
	/* With a program name in front of a subcommand's own argv. */
	assert_int_equal(job_set_command_line(&j, "my iorate", 3, argv + 1), 0);
	assert_string_equal(j.command_line, "'my iorate' run -b 64k");
	job_release(&j);
}

static void copy_is_deep(void **state)
{
	struct job a, b;
	char *argv[] = {"iorate", "run"};

	job_init(&a);
	job_add_target(&a, "one");
	job_add_target(&a, "two");
	job_set_command_line(&a, NULL, 2, argv);
	assert_int_equal(job_copy(&b, &a), 0);
	job_release(&a);
	assert_int_equal(b.ntargets, 2);
	assert_string_equal(b.targets[1], "two");
	assert_string_equal(b.command_line, "iorate run");
	job_release(&b);
}

static void names(void **state)
{
	enum job_cache c;

	assert_int_equal(job_cache_parse("buffered", &c), 0);
	assert_int_equal(c, CACHE_BUFFERED);
	assert_string_equal(job_cache_name(c), "buffered");
	assert_int_equal(job_cache_parse("writethrough", &c), 0);
	assert_string_equal(job_cache_name(c), "writethrough");
	assert_int_equal(job_cache_parse("fast", &c), -22);
	assert_string_equal(job_pattern_name(PATTERN_SEQUENTIAL), "sequential");
}

#define MiB (1ull << 20)

/* Buffers dominate; each worker adds a histogram per direction and its slots, bounded. */
static void memory_estimate(void **state)
{
	struct job j;

	job_init(&j);
	job_add_target(&j, "a");
	job_add_target(&j, "b");
	j.bs = MiB;
	j.depth = 32;
	j.threads = 4;
	uint64_t buffers = 2 * 4 * 32 * MiB, need = job_memory_needed(&j);
	/* Reads only: one histogram per worker (8) and a merged one per target of 4 threads (2). */
	assert_true(need >= buffers + 10 * sizeof(struct hist));
	assert_true(need < buffers + 11 * sizeof(struct hist) + 64 * 1024);
	assert_true(need <= buffers + 8 * 256 * 1024);
	/* Reads and writes: two each. */
	j.write_pct = 30;
	assert_true(job_memory_needed(&j) - need >= 11 * sizeof(struct hist));
	j.write_pct = 0;
	/* --trim-write trims without --trim: a trim histogram each too, made up front. */
	j.trim_write = true;
	assert_true(job_memory_needed(&j) - need >= 11 * sizeof(struct hist));
	j.trim_write = false;
	/* Workers are targets x threads: twice the threads, twice the memory. */
	j.threads = 8;
	uint64_t need8 = job_memory_needed(&j);
	assert_true(need8 < 2 * need && 2 * need - need8 < 512 * 1024);
	/* A block size that is not whole pages still takes whole pages. */
	j.threads = 1;
	j.depth = 1;
	j.bs = 512;
	assert_true(job_memory_needed(&j) >= 2 * 4096);
	/* Ten thousand targets: a thread each needs histograms each; four shared threads need a
	 * few hundred bytes per target (the estimate only reads the count of targets). */
	unsigned two = j.ntargets;
	j.bs = 4096;
	j.threads = 4;
	j.ntargets = 10000;
	uint64_t own = job_memory_needed(&j);
	j.shared_threads = true;
	uint64_t shared = job_memory_needed(&j);
	assert_true(own > 10000ull * 5 * sizeof(struct hist));
	assert_true(shared < 16ull << 20);
	/* A thread each (DiskSpd's way): its histogram is the target's, handed over, not copied. */
	j.shared_threads = false;
	j.threads = 1;
	uint64_t one = job_memory_needed(&j);
	assert_true(one > 10000ull * sizeof(struct hist) && one < 10000ull * 2 * sizeof(struct hist));
	j.threads = 4;
	j.shared_threads = true;
	assert_true(shared > 10000ull * 4 * sizeof(struct worker_target));
	j.shared_threads = false;
	j.ntargets = two;
	/* Beyond 64 bits the estimate saturates: it must still refuse, not wrap to a small one. */
	j.bs = 1ull << 30;
	j.depth = JOB_MAX_DEPTH;
	j.threads = JOB_MAX_THREADS;
	unsigned real = j.ntargets;
	j.ntargets = 1u << 20;
	assert_true(job_memory_needed(&j) == UINT64_MAX);
	j.ntargets = real;
	job_release(&j);
}

static void memory_check(void **state)
{
	struct job j;
	char err[256] = "";

	job_init(&j);
	job_add_target(&j, "a");
	j.threads = 1024;
	j.depth = 1024;
	j.bs = MiB;
	uint64_t need = job_memory_needed(&j);
	assert_int_equal(job_check_memory(&j, need, err, sizeof(err)), 0);
	assert_int_equal(job_check_memory(&j, 22ull << 30, err, sizeof(err)), -22);
	spelled(err, sizeof(err));
	assert_string_equal(err, "--threads 1024 x --depth 1024 x --bs 1MiB: needs 1.0 TiB for "
				 "buffers and histograms, more than the 22.0 GiB available");
	job_add_target(&j, "b");
	j.threads = 2;
	assert_int_equal(job_check_memory(&j, 512 * MiB, err, sizeof(err)), -22);
	spelled(err, sizeof(err));
	assert_non_null(strstr(err, "2 targets x --threads 2 x --depth 1024 x --bs 1MiB: needs "
				    "4.0 GiB"));
	assert_non_null(strstr(err, "the 512.0 MiB available"));

	/* job_validate() compares with this machine's MemAvailable: 4 PiB fits nowhere. */
	uint64_t avail;
	if (job_mem_available("/proc/meminfo", &avail)) {
		job_release(&j);
		skip();
	}
	j.threads = JOB_MAX_THREADS;
	j.depth = JOB_MAX_DEPTH;
	j.bs = 1ull << 30;
	strcpy(j.engine, "null");
	assert_int_equal(job_validate(&j, err, sizeof(err)), -22);
	assert_non_null(strstr(err, "needs"));
	job_release(&j);
}

static void meminfo(void **state)
{
	uint64_t b = 0;
	char path[] = "/tmp/test_job.meminfo.XXXXXX";

	assert_int_equal(job_mem_available_parse("MemTotal:       32768000 kB\n"
						 "MemFree:         1000 kB\n"
						 "MemAvailable:   23160012 kB\n"
						 "Buffers:          123 kB\n", &b), 0);
	assert_true(b == 23160012ull * 1024);
	/* A kernel before 3.14 has no MemAvailable: nothing to compare with. */
	assert_int_equal(job_mem_available_parse("MemTotal: 1 kB\nMemFree: 1 kB\n", &b), -ENOENT);
	assert_int_equal(job_mem_available_parse("MemAvailable: 12 MB\n", &b), -EINVAL);
	assert_int_equal(job_mem_available_parse("MemAvailable: lots\n", &b), -EINVAL);
	assert_int_equal(job_mem_available_parse("", &b), -ENOENT);
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_true(write(fd, "MemAvailable: 2048 kB\n", 22) == 22);
	close(fd);
	assert_int_equal(job_mem_available(path, &b), 0);
	assert_true(b == 2048 * 1024);
	unlink(path);
	assert_int_equal(job_mem_available(path, &b), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(refusals_exact),
		cmocka_unit_test(defaults_validate),
		cmocka_unit_test(refusals),
		cmocka_unit_test(shape_refusals),
		cmocka_unit_test(shape_forms),
		cmocka_unit_test(error_forms),
		cmocka_unit_test(ioprio_forms),
		cmocka_unit_test(cmdprio_forms),
		cmocka_unit_test(data_pattern_forms),
		cmocka_unit_test(data_checks),
		cmocka_unit_test(zone_checks),
		cmocka_unit_test(steady_forms),
		cmocka_unit_test(command_line_quoting),
		cmocka_unit_test(copy_is_deep),
		cmocka_unit_test(names),
		cmocka_unit_test(memory_estimate),
		cmocka_unit_test(memory_check),
		cmocka_unit_test(meminfo),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
