/*
 * result_to_json() and result_from_json() are inverses: struct -> JSON -> struct is the same
 * struct field by field, and its JSON the same text; malformed JSON is refused naming the key;
 * schema 1 (no histograms) is read with histograms that give its percentiles back.
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

#include "result/result_json.h"
#include "report/report.h"
#include "result/result_set.h"
#include "util/jsonout.h"

/* Latencies from lo, each step further: n I/Os of bs bytes over many buckets. */
static void add_ios(struct dir_stats *d, uint64_t bs, unsigned n, uint64_t lo, uint64_t step)
{
	for (unsigned i = 0; i < n; i++)
		dir_stats_add(d, bs, lo + (uint64_t)i * step);
}

static void set_target(struct target_result *t, const char *path, uint64_t size)
{
	dir_stats_init(&t->read);
	dir_stats_init(&t->write);
	dir_stats_init(&t->trim);
	t->path = path ? strdup(path) : NULL;
	t->size = size;
	t->region_len = size;
}

/* Three targets: a block device read and written, a file only read, one with no path. */
static void rich_targets(struct result *r)
{
	struct target_result *t;

	r->ntargets = 3;
	r->targets = calloc(3, sizeof(*r->targets));
	assert_non_null(r->targets);
	t = &r->targets[0];
	set_target(t, "/dev/disk/by-id/x", 1ull << 33);
	t->opened = strdup("/dev/loop3");
	strcpy(t->device, "loop3");
	t->is_blockdev = true;
	t->region_offset = 4096;
	t->region_len = (1ull << 33) - 4096;
	add_ios(&t->read, 8192, 700, 90, 37);
	add_ios(&t->write, 8192, 300, 2000, 911);
	dir_stats_add(&t->write, 8192, 1ull << 41); /* past the last bucket's start */
	t->write.errors = 2;
	t->kernel = (struct kernel_counts){.valid = true, .name = "loop3", .read_ios = 690,
		.write_ios = 301, .read_bytes = 700 * 8192, .write_bytes = 301 * 8192 + 512};
	t = &r->targets[1];
	set_target(t, "/tmp/f \"q\",1.dat", UINT64_MAX - 5); /* above 2^63: a string */
	t->created = true;
	add_ios(&t->read, 8192, 40, 15, 1);
	set_target(&r->targets[2], NULL, 0);
	for (unsigned i = 0; i < 3; i++) {
		dir_stats_merge(&r->read, &r->targets[i].read);
		dir_stats_merge(&r->write, &r->targets[i].write);
	}
	r->read.lat_sumsq = 1.0 / 3.0; /* any double comes back */
}

static void rich_job(struct job *j)
{
	j->bs = 8192;
	j->time_ns = 123456789012ull;
	j->warmup_ns = 1;
	j->cooldown_ns = 999999999;
	j->interval_ns = 250000000;
	j->threads = 3;
	j->depth = 17;
	j->batch = 4;
	j->write_pct = 30;
	j->pattern = PATTERN_SEQUENTIAL;
	j->size = 1ull << 30;
	j->offset = 4096;
	j->range = 1ull << 20;
	j->align = 512;
	j->cache = CACHE_DIRECTSYNC;
	j->fsync_every = 9;
	j->seed = UINT64_MAX - 1;
	j->seed_set = true;
	strcpy(j->engine, "uring");
	j->fill = FILL_ZERO;
	j->keep = j->force = j->no_latency = true;
	j->ios_per_thread = 5000;
	j->trace_path = strdup("/tmp/trace.log");
	j->cap = (struct job_caps){.iops = 500.5, .mbps = 60, .burst_iops = 3500,
		.burst_mbps = 170.25, .burst_seconds = 1800};
	j->vm_cap.iops = 6400;
	j->cap_io_unit = 256 << 10;
	j->rate_iops = 333.3;
	j->arrival = ARRIVAL_POISSON;
	j->exit_what = EXIT_REPORT_GROUP;
	j->report_group = 3;
	j->group_reporting = true;
	j->continue_on = JOB_CONT_WRITE | JOB_CONT_VERIFY;
	j->ignore_errno[1][0] = ENOSPC;
	j->ignore_errno[1][1] = 122;
	j->nignore[1] = 2;
	j->ioprio_class = JOB_IOPRIO_IDLE;
	j->ioprio_level = 3;
	j->compress_pct = 40;
	j->rewind = 8192;
	j->zone_size = 1 << 20;
	j->zone_range = 4 << 20;
	j->zone_skip = 3 << 20;
	j->until_full = true;
	j->steady = STEADY_IOPS_SLOPE;
	j->steady_limit = 0.25;
	j->steady_pct = true;
	j->steady_dur_ns = 30000000000ull;
	j->steady_ramp_ns = 5000000000ull;
	j->steady_interval_ns = 2000000000ull;
	j->compress_chunk = 0;
	j->dedupe_pct = 25;
	j->dedupe_set_pct = 7;
	j->dedupe_global = j->scramble = true;
	j->data_len = 3;
	memcpy(j->data_pattern, "\x00\xab\x7f", 3);
	/* iorate-mpi: the job is rank 0's, the result's targets every rank's */
	assert_int_equal(job_add_target(j, "/dev/disk/by-id/x"), 0);
	assert_int_equal(job_add_target(j, "/tmp/f \"q\",1.dat"), 0);
	j->command_line = strdup("iorate run -b 8k -w 30 '/tmp/f \"q\",1.dat'");
	strcpy(j->origin, "sweep");
}

static void rich_rest(struct result *r)
{
	r->interval_ns = 250000000;
	r->nseries = 3;
	r->series = calloc(3, sizeof(*r->series));
	assert_non_null(r->series);
	r->series[0] = (struct series_point){.t = 1, .seconds = 1, .read_ios = 400, .write_ios = 100,
		.read_bytes = 400 * 8192, .write_bytes = 100 * 8192, .p99_ns = 41000,
		.credit_iops = 99.5, .credit_mbps = -1};
	r->series[1] = (struct series_point){.t = 2, .seconds = 1, .read_ios = 340,
		.read_bytes = 340 * 8192, .credit_iops = 12.25, .credit_mbps = 0};
	r->series[2] = (struct series_point){.t = 2.1, .seconds = 0.1, .credit_iops = -1,
		.credit_mbps = -1};
	r->nranks = 2;
	r->nhosts = 2;
	r->start_skew_us = 12.5;
	r->ranks = calloc(2, sizeof(*r->ranks));
	assert_non_null(r->ranks);
	for (unsigned i = 0; i < 2; i++) {
		struct rank_result *k = &r->ranks[i];

		dir_stats_init(&k->read);
		dir_stats_init(&k->write);
		dir_stats_init(&k->trim);
		k->rank = i;
		snprintf(k->host, sizeof(k->host), "node%u", i);
		k->first_target = i ? 2 : 0;
		k->ntargets = i ? 1 : 2;
		k->seconds = 2.1 - i * 0.05;
		k->cpu = (struct cpu_usage){.ncpus = 4, .user = 3.5, .proc_system = 1.0 / 7};
	}
	dir_stats_merge(&r->ranks[0].read, &r->read);
	dir_stats_merge(&r->ranks[0].write, &r->write);
	r->ranks[1].interrupted = true;
	strcpy(r->ranks[1].error, "rank 1: /tmp/x: open: No such file or directory");
	/* The devices: loop3 with every counter, dm-2 under a file, its member without discards. */
	r->ndevices = 3;
	r->devices = calloc(3, sizeof(*r->devices));
	assert_non_null(r->devices);
	r->devices[0] = (struct device_view){.name = "loop3", .seconds = 2.1,
		.disk = {.read_ios = 690, .read_merges = 10, .read_bytes = 700 * 8192,
			 .read_ms = 77, .write_ios = 301, .write_merges = 1, .write_ms = 90,
			 .write_bytes = 301 * 8192 + 512, .in_flight = 1, .busy_ms = 2099,
			 .queue_ms = UINT64_MAX - 1, .discard_ios = 3, .discard_merges = 0,
			 .discard_bytes = 1 << 20, .discard_ms = 4, .flush_ios = 5, .flush_ms = 6,
			 .has_discard = true, .has_flush = true},
		.read_ios = 700, .write_ios = 300, .read_bytes = 700 * 8192,
		.write_bytes = 300 * 8192};
	r->devices[1] = (struct device_view){.name = "dm-2", .seconds = 2.1,
		.disk = {.read_ios = 40, .read_bytes = 40 * 8192, .has_discard = true},
		.read_ios = 40, .read_bytes = 40 * 8192};
	r->devices[2] = (struct device_view){.name = "sdb", .role = DEVICE_MEMBER, .of = "dm-2",
		.seconds = 2.1, .disk = {.read_ios = 41}, .read_ios = 40};
	result_add_note(r, "the page cache, not the device, served 90%% of reads");
	result_add_note(r, "second note");
	r->errnos[0] = (struct result_errno){.err = ENOSPC, .ios = {0, 12}};
	r->errnos[1] = (struct result_errno){.err = 0, .ios = {3, 1ull << 60}};
	r->nerrnos = 2;
	result_add_note(r, "non-ASCII: µs");
}

/* A result with every field set to something other than its default. */
static struct result *rich_result(void)
{
	struct result *r = malloc(sizeof(*r));

	assert_non_null(r);
	result_init(r);
	strcpy(r->version, "0.0.9-test");
	rich_job(&r->job);
	strcpy(r->engine, "uring");
	strcpy(r->engine_why, "uring (probe succeeded)");
	r->start_unix_ms = 1700000000123ull;
	r->seconds = 2.1;
	rich_targets(r);
	r->cpu = (struct cpu_usage){.ncpus = 8, .user = 12.5, .system = 0.1 + 0.2, .iowait = NAN,
		.idle = 90, .proc_user = 150.75, .proc_system = 3e-9};
	r->host = (struct host_info){.hostname = "box", .kernel = "Linux 6.1.0 x86_64",
		.cpu = "Test CPU @ 2.0GHz", .ncpus = 8, .mem_bytes = 17179869184ull,
		.clock = "tsc"};
	r->sched_ios_late = 17;
	r->sched_max_lag_s = 0.0125;
	r->sched_behind_s = 1e-3;
	r->started = true;
	r->interrupted = true;
	r->error = -EIO;
	strcpy(r->errmsg, "/tmp/x: read: Input/output error");
	rich_rest(r);
	return r;
}

static void free_result(struct result *r)
{
	result_release(r);
	free(r);
}

/* Doubles are equal, or both NaN (the JSON's null). */
#define same_d(a, b) assert_true(((a) == (b) && signbit(a) == signbit(b)) || \
				 (isnan(a) && isnan(b)))
#define same_s(a, b) assert_true((!(a) && !(b)) || ((a) && (b) && !strcmp((a), (b))))

static void same_dir(const struct dir_stats *a, const struct dir_stats *b)
{
	assert_int_equal(a->ios, b->ios);
	assert_int_equal(a->bytes, b->bytes);
	assert_int_equal(a->errors, b->errors);
	assert_int_equal(a->lat_n, b->lat_n);
	assert_int_equal(a->lat_sum, b->lat_sum);
	same_d(a->lat_sumsq, b->lat_sumsq);
	assert_true(a->lat_min == b->lat_min);
	assert_true(a->lat_max == b->lat_max);
	assert_true(!a->hist == !b->hist);
	if (a->hist)
		assert_memory_equal(a->hist->counts, b->hist->counts, sizeof(a->hist->counts));
}

static void same_caps(const struct job_caps *a, const struct job_caps *b)
{
	same_d(a->iops, b->iops);
	same_d(a->mbps, b->mbps);
	same_d(a->burst_iops, b->burst_iops);
	same_d(a->burst_mbps, b->burst_mbps);
	same_d(a->burst_seconds, b->burst_seconds);
}

/* Every field of the job but expect (see result/result_json.h). */
static void same_job(const struct job *a, const struct job *b)
{
	assert_true(a->bs == b->bs && a->time_ns == b->time_ns && a->warmup_ns == b->warmup_ns);
	assert_true(a->cooldown_ns == b->cooldown_ns && a->threads == b->threads);
	assert_true(a->depth == b->depth && a->batch == b->batch && a->write_pct == b->write_pct);
	assert_true(a->pattern == b->pattern && a->size == b->size && a->offset == b->offset);
	assert_true(a->range == b->range && a->align == b->align && a->cache == b->cache);
	assert_true(a->fsync_every == b->fsync_every && a->seed == b->seed);
	assert_true(a->seed_set == b->seed_set && a->fill == b->fill && a->keep == b->keep);
	assert_true(a->allow_write_device == b->allow_write_device && a->force == b->force);
	assert_true(a->no_latency == b->no_latency && a->verbose == b->verbose);
	assert_true(a->ios_per_thread == b->ios_per_thread && a->cap_io_unit == b->cap_io_unit);
	assert_true(a->arrival == b->arrival);
	same_d(a->rate_iops, b->rate_iops);
	assert_string_equal(a->engine, b->engine);
	same_s(a->trace_path, b->trace_path);
	same_s(a->command_line, b->command_line);
	assert_string_equal(a->origin, b->origin);
	same_caps(&a->cap, &b->cap);
	same_caps(&a->vm_cap, &b->vm_cap);
	assert_int_equal(a->ntargets, b->ntargets);
	for (unsigned i = 0; i < a->ntargets; i++)
		assert_string_equal(a->targets[i], b->targets[i]);
	assert_true(a->exit_what == b->exit_what && a->report_group == b->report_group);
	assert_true(a->group_reporting == b->group_reporting);
	assert_true(a->continue_on == b->continue_on);
	assert_true(a->ioprio_class == b->ioprio_class && a->ioprio_level == b->ioprio_level);
	assert_true(a->rewind == b->rewind && a->zone_size == b->zone_size &&
		    a->zone_range == b->zone_range && a->zone_skip == b->zone_skip &&
		    a->until_full == b->until_full);
	assert_true(a->steady == b->steady && a->steady_limit == b->steady_limit &&
		    a->steady_pct == b->steady_pct && a->steady_dur_ns == b->steady_dur_ns &&
		    a->steady_ramp_ns == b->steady_ramp_ns &&
		    a->steady_interval_ns == b->steady_interval_ns);
	assert_true(a->compress_pct == b->compress_pct && a->compress_chunk == b->compress_chunk);
	assert_true(a->dedupe_pct == b->dedupe_pct && a->dedupe_set_pct == b->dedupe_set_pct);
	assert_true(a->dedupe_global == b->dedupe_global && a->refill == b->refill &&
		    a->scramble == b->scramble);
	assert_int_equal(a->data_len, b->data_len);
	assert_memory_equal(a->data_pattern, b->data_pattern, a->data_len);
	assert_memory_equal(a->nignore, b->nignore, sizeof(a->nignore));
	assert_memory_equal(a->ignore_errno, b->ignore_errno, sizeof(a->ignore_errno));
}

static void same_cpu(const struct cpu_usage *a, const struct cpu_usage *b)
{
	assert_int_equal(a->ncpus, b->ncpus);
	same_d(a->user, b->user);
	same_d(a->system, b->system);
	same_d(a->iowait, b->iowait);
	same_d(a->idle, b->idle);
	same_d(a->proc_user, b->proc_user);
	same_d(a->proc_system, b->proc_system);
}

/* Every field but each target's gate_id (see result/result_json.h). */
static void same_target(const struct target_result *a, const struct target_result *b)
{
	same_s(a->path, b->path);
	same_s(a->opened, b->opened);
	assert_string_equal(a->device, b->device);
	assert_true(a->is_blockdev == b->is_blockdev && a->created == b->created);
	assert_true(a->size == b->size && a->region_offset == b->region_offset);
	assert_true(a->region_len == b->region_len);
	same_dir(&a->read, &b->read);
	same_dir(&a->write, &b->write);
	assert_memory_equal(&a->kernel, &b->kernel, sizeof(a->kernel));
}

static void same_series(const struct series_point *a, const struct series_point *b)
{
	same_d(a->t, b->t);
	same_d(a->seconds, b->seconds);
	assert_true(a->read_ios == b->read_ios && a->write_ios == b->write_ios);
	assert_true(a->read_bytes == b->read_bytes && a->write_bytes == b->write_bytes);
	assert_true(a->p99_ns == b->p99_ns);
	same_d(a->credit_iops, b->credit_iops);
	same_d(a->credit_mbps, b->credit_mbps);
}

static void same_rank(const struct rank_result *a, const struct rank_result *b)
{
	assert_true(a->rank == b->rank && a->first_target == b->first_target);
	assert_true(a->ntargets == b->ntargets && a->interrupted == b->interrupted);
	assert_string_equal(a->host, b->host);
	assert_string_equal(a->error, b->error);
	same_d(a->seconds, b->seconds);
	same_dir(&a->read, &b->read);
	same_dir(&a->write, &b->write);
	same_cpu(&a->cpu, &b->cpu);
}

/* Field by field: the structs have padding. */
static void same_view(const struct device_view *a, const struct device_view *b)
{
	const struct disk_counts *x = &a->disk, *y = &b->disk;

	assert_string_equal(a->name, b->name);
	assert_string_equal(a->of, b->of);
	assert_int_equal(a->role, b->role);
	same_d(a->seconds, b->seconds);
	assert_true(x->read_ios == y->read_ios && x->read_merges == y->read_merges &&
		    x->read_bytes == y->read_bytes && x->read_ms == y->read_ms);
	assert_true(x->write_ios == y->write_ios && x->write_merges == y->write_merges &&
		    x->write_bytes == y->write_bytes && x->write_ms == y->write_ms);
	assert_true(x->in_flight == y->in_flight && x->busy_ms == y->busy_ms &&
		    x->queue_ms == y->queue_ms);
	assert_true(x->discard_ios == y->discard_ios && x->discard_merges == y->discard_merges &&
		    x->discard_bytes == y->discard_bytes && x->discard_ms == y->discard_ms);
	assert_true(x->flush_ios == y->flush_ios && x->flush_ms == y->flush_ms);
	assert_true(x->has_discard == y->has_discard && x->has_flush == y->has_flush);
	assert_true(a->read_ios == b->read_ios && a->write_ios == b->write_ios &&
		    a->read_bytes == b->read_bytes && a->write_bytes == b->write_bytes);
}

static void same_result(const struct result *a, const struct result *b)
{
	assert_string_equal(a->version, b->version);
	same_job(&a->job, &b->job);
	assert_string_equal(a->engine, b->engine);
	assert_string_equal(a->engine_why, b->engine_why);
	assert_true(a->start_unix_ms == b->start_unix_ms);
	same_d(a->seconds, b->seconds);
	assert_int_equal(a->ntargets, b->ntargets);
	for (unsigned i = 0; i < a->ntargets; i++)
		same_target(&a->targets[i], &b->targets[i]);
	same_dir(&a->read, &b->read);
	same_dir(&a->write, &b->write);
	assert_int_equal(a->nseries, b->nseries);
	for (unsigned i = 0; i < a->nseries; i++)
		same_series(&a->series[i], &b->series[i]);
	same_cpu(&a->cpu, &b->cpu);
	assert_memory_equal(&a->host, &b->host, sizeof(a->host));
	assert_true(a->sched_ios_late == b->sched_ios_late);
	same_d(a->sched_max_lag_s, b->sched_max_lag_s);
	same_d(a->sched_behind_s, b->sched_behind_s);
	assert_true(a->started == b->started && a->interrupted == b->interrupted);
	assert_int_equal(a->error, b->error);
	assert_string_equal(a->errmsg, b->errmsg);
	assert_int_equal(a->nnotes, b->nnotes);
	for (unsigned i = 0; i < a->nnotes; i++)
		assert_string_equal(a->notes[i], b->notes[i]);
	assert_int_equal(a->nerrnos, b->nerrnos);
	assert_memory_equal(a->errnos, b->errnos, a->nerrnos * sizeof(a->errnos[0]));
	assert_true(a->nranks == b->nranks && a->nhosts == b->nhosts);
	for (unsigned i = 0; i < a->nranks; i++)
		same_rank(&a->ranks[i], &b->ranks[i]);
	same_d(a->start_skew_us, b->start_skew_us);
	assert_int_equal(a->ndevices, b->ndevices);
	for (unsigned i = 0; i < a->ndevices; i++)
		same_view(&a->devices[i], &b->devices[i]);
}

/* The JSON of r as the history stores it: compact, shortest exact reals. */
static char *text_of(const struct result *r)
{
	json_t *o = result_to_json(r);
	char *t;

	assert_non_null(o);
	t = jsonout_dumps(o, JSON_COMPACT);
	assert_non_null(t);
	json_decref(o);
	return t;
}

static struct result *from_text(const char *text)
{
	struct result *r = malloc(sizeof(*r));
	json_t *o = json_loads(text, 0, NULL);
	char err[256] = "";

	assert_non_null(r);
	assert_non_null(o);
	if (result_from_json(o, r, err, sizeof(err)))
		fail_msg("result_from_json: %s", err);
	json_decref(o);
	return r;
}

static char *render(const struct report_ops *ops, const struct result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(ops->write(f, r, NULL), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* struct -> JSON -> struct -> JSON: the same struct, the same text, the same reports. */
static void round_trip(struct result *a)
{
	char *ta = text_of(a), *tb, *ra, *rb;
	struct result *b = from_text(ta);

	same_result(a, b);
	tb = text_of(b);
	assert_string_equal(ta, tb);
	ra = render(&report_text, a);
	rb = render(&report_text, b);
	assert_string_equal(ra, rb);
	free(ra);
	free(rb);
	ra = render(&report_json, a);
	rb = render(&report_json, b);
	assert_string_equal(ra, rb);
	free(ra);
	free(rb);
	free(ta);
	free(tb);
	free_result(b);
}

static void test_round_trip_rich(void **state)
{
	struct result *r = rich_result();

	round_trip(r);
	free_result(r);
}

/* A zoned distribution (in percent, or in bytes) and the SPRandom and emulated-zone settings
 * come back as they were written: the runs that had them can be shown and compared. */
static void test_round_trip_shapes(void **state)
{
	struct result *a = rich_result(), *b;
	char *t;

	a->job.dist = DIST_ZONED;
	a->job.nzones = 2;
	a->job.zones[0] = (struct job_zone){.access_pct = 60, .size_pct = 10};
	a->job.zones[1] = (struct job_zone){.access_pct = 40, .size_pct = 90};
	a->job.sprandom = true;
	a->job.spr_op = 0.15;
	a->job.spr_regions = 12;
	a->job.spr_cache = 1 << 20;
	t = text_of(a);
	b = from_text(t);
	assert_int_equal(b->job.dist, DIST_ZONED);
	assert_int_equal(b->job.nzones, 2);
	same_d(b->job.zones[0].access_pct, 60.0);
	same_d(b->job.zones[0].size_pct, 10.0);
	same_d(b->job.zones[1].access_pct, 40.0);
	same_d(b->job.zones[1].size_pct, 90.0);
	assert_true(b->job.sprandom && !b->job.zbd);
	same_d(b->job.spr_op, 0.15);
	assert_int_equal(b->job.spr_regions, 12);
	assert_int_equal(b->job.spr_cache, 1 << 20);
	free(t);
	free_result(b);

	a->job.dist = DIST_ZONED_ABS;
	a->job.zones[0] = (struct job_zone){.access_pct = 70, .size_bytes = 1ull << 30};
	a->job.zones[1] = (struct job_zone){.access_pct = 30, .size_bytes = 0};
	a->job.sprandom = false;
	a->job.zbd = true;
	a->job.zone_capacity = 3ull << 20;
	a->job.max_open_zones = 8;
	a->job.job_max_open_zones = 2;
	a->job.zone_reset_threshold = 0.5;
	a->job.zone_reset_frequency = 0.25;
	a->job.read_beyond_wp = true;
	t = text_of(a);
	b = from_text(t);
	assert_int_equal(b->job.dist, DIST_ZONED_ABS);
	assert_int_equal(b->job.nzones, 2);
	same_d(b->job.zones[0].access_pct, 70.0);
	assert_int_equal(b->job.zones[0].size_bytes, 1ull << 30);
	assert_int_equal(b->job.zones[1].size_bytes, 0);
	assert_true(b->job.zbd && !b->job.sprandom && b->job.read_beyond_wp);
	assert_int_equal(b->job.zone_capacity, 3ull << 20);
	assert_int_equal(b->job.max_open_zones, 8);
	assert_int_equal(b->job.job_max_open_zones, 2);
	same_d(b->job.zone_reset_threshold, 0.5);
	same_d(b->job.zone_reset_frequency, 0.25);
	free(t);
	free_result(b);
	free_result(a);
}

static void test_round_trip_empty(void **state)
{
	struct result *r = malloc(sizeof(*r));

	assert_non_null(r);
	result_init(r);
	round_trip(r);
	/* No latency recorded: lat_min stays "none" (null), not 0. */
	r->read.lat_min = 0;
	round_trip(r);
	free_result(r);
}

/* An errmsg that is empty reads back empty: "error" is then strerror(error_code). */
static void test_round_trip_errors(void **state)
{
	struct result *r = rich_result();
	json_t *o;

	r->errmsg[0] = '\0';
	r->error = -ENOSPC;
	o = result_to_json(r);
	assert_string_equal(json_string_value(json_object_get(o, "error")),
			    "No space left on device");
	assert_int_equal(json_integer_value(json_object_get(o, "error_code")), -ENOSPC);
	json_decref(o);
	round_trip(r);
	r->error = 0;
	r->interrupted = false;
	r->started = false;
	round_trip(r);
	free_result(r);
}

/* The history stores one thing; its JSON must parse back whatever the doubles. */
static void test_round_trip_odd_reals(void **state)
{
	struct result *r = rich_result();

	r->seconds = 5e-324;
	r->cpu.user = 1.7976931348623157e308;
	r->cpu.system = -0.0;
	r->job.rate_iops = 1e17;
	r->series[0].t = 123456789.123456789;
	round_trip(r);
	free_result(r);
}

/* Runs a mutation on the rich result's JSON and expects err to be exactly want. */
static void refused(void (*mutate)(json_t *o), const char *want)
{
	struct result *r = rich_result(), back;
	json_t *o = result_to_json(r);
	char err[256] = "";

	free_result(r);
	mutate(o);
	assert_int_equal(result_from_json(o, &back, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, want);
	/* Nothing is left to leak, and releasing is harmless. */
	assert_int_equal(back.ntargets, 0);
	assert_null(back.targets);
	result_release(&back);
	json_decref(o);
}

static json_t *at(json_t *o, const char *a, const char *b)
{
	return json_object_get(json_object_get(o, a), b);
}

static void no_bs(json_t *o) { json_object_del(json_object_get(o, "params"), "bs"); }
static void bad_bucket(json_t *o)
{
	json_t *t = json_array_get(json_object_get(o, "targets"), 1);

	json_array_set_new(json_array_get(at(t, "read", "hist"), 0), 0, json_integer(99999));
}
static void short_hist(json_t *o)
{
	json_array_remove(json_object_get(at(o, "total", "write"), "hist"), 0);
}
static void bad_schema(json_t *o) { json_object_set_new(o, "schema", json_integer(3)); }
static void no_schema(json_t *o) { json_object_del(o, "schema"); }
static void many_notes(json_t *o)
{
	for (int i = 0; i < 6; i++)
		json_array_append_new(json_object_get(o, "notes"), json_string("n"));
}
static void write_101(json_t *o) { json_object_set_new(json_object_get(o, "params"), "write",
						       json_integer(101)); }
static void long_engine(json_t *o) { json_object_set_new(json_object_get(o, "params"), "engine",
							 json_string("0123456789abcdef")); }
static void rank_past(json_t *o)
{
	json_object_set_new(json_array_get(json_object_get(o, "ranks"), 1), "first_target",
			    json_integer(3));
}
static void ios_real(json_t *o)
{
	json_t *t = json_array_get(json_object_get(o, "targets"), 0);

	json_object_set_new(json_object_get(t, "write"), "ios", json_real(1.5));
}
static void bad_pattern(json_t *o) { json_object_set_new(json_object_get(o, "params"), "pattern",
							 json_string("zigzag")); }
static void target_not_obj(json_t *o) { json_array_set_new(json_object_get(o, "targets"), 2,
							    json_integer(7)); }
static void big_errno(json_t *o) { json_object_set_new(o, "error_code", json_integer(INT32_MIN)); }
static json_t *dev(json_t *o, size_t i) { return json_array_get(json_object_get(o, "diskstats"), i); }
static void bad_role(json_t *o) { json_object_set_new(dev(o, 1), "role", json_string("raid")); }
static void target_of(json_t *o) { json_object_set_new(dev(o, 0), "of", json_string("sda")); }
static void member_of_none(json_t *o) { json_object_set_new(dev(o, 2), "of", json_null()); }
static void half_discards(json_t *o)
{
	json_object_set_new(json_object_get(dev(o, 0), "kernel"), "discard_ms", json_null());
}
static void no_flush_ms(json_t *o) { json_object_del(json_object_get(dev(o, 2), "kernel"),
						     "flush_ms"); }
static void no_device(json_t *o) { json_object_set_new(dev(o, 1), "device", json_string("")); }
static void devs_obj(json_t *o) { json_object_set_new(o, "diskstats", json_object()); }
static void no_interval(json_t *o) { json_object_set_new(o, "interval_ns", json_integer(0)); }
static void mpi_count(json_t *o) { json_object_set_new(json_object_get(o, "mpi"), "ranks",
						       json_integer(3)); }

static void test_refused(void **state)
{
	refused(no_bs, "params.bs: missing");
	refused(bad_bucket, "targets[1].read.hist[0]: bucket 99999 is not after -1 and below 4352");
	refused(short_hist, "total.write.hist: counts 300 latencies, lat_n 301");
	refused(bad_schema, "schema: 3 is not a schema this iorate reads (1 or 2)");
	refused(no_schema, "schema: missing: not the JSON of 'iorate run --json'");
	refused(many_notes, "notes: more than 8");
	refused(write_101, "params.write: not an integer from 0 to 100");
	refused(long_engine, "params.engine: longer than 15 bytes");
	refused(rank_past, "ranks[1].targets: 1 from 3: past the run's 3 targets");
	refused(ios_real, "targets[0].write.ios: not an integer from 0 to 18446744073709551615");
	refused(bad_pattern, "params.pattern: not one of random, sequential");
	refused(target_not_obj, "targets[2]: not an object");
	refused(mpi_count, "mpi.ranks: 3, but the array ranks holds 2");
	refused(big_errno, "error_code: not an errno from -4095 to 4095");
	refused(bad_role, "diskstats[1].role: not \"target\", \"disk\" or \"member\"");
	refused(target_of, "diskstats[0].of: a device name for a disk or a member, null for a "
		"target");
	refused(member_of_none, "diskstats[2].of: a device name for a disk or a member, null for "
		"a target");
	refused(half_discards, "diskstats[0].kernel.discard_ios: the discard counters are all "
		"null or none is");
	refused(no_flush_ms, "diskstats[2].kernel.flush_ms: missing");
	refused(no_device, "diskstats[1].device: empty");
	refused(devs_obj, "diskstats: not an array");
	refused(no_interval, "interval_ns: must be above 0");
}

/* A run written before the series' interval was recorded had a point per second. */
static void test_interval_absent(void **state)
{
	struct result *r = rich_result(), back;
	json_t *o = result_to_json(r);
	char err[256];

	assert_non_null(o);
	json_object_del(o, "interval");
	json_object_del(o, "interval_ns");
	json_object_del(json_object_get(o, "params"), "interval_ns");
	assert_int_equal(result_from_json(o, &back, err, sizeof(err)), 0);
	assert_int_equal(back.interval_ns, 1000000000);
	assert_int_equal(back.job.interval_ns, 0);
	assert_int_equal(back.nseries, 3);
	result_release(&back);
	json_decref(o);
	free_result(r);
}

static void test_not_an_object(void **state)
{
	struct result r;
	json_t *a = json_array();
	char err[128];

	assert_int_equal(result_from_json(a, &r, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "not a JSON object");
	json_decref(a);
	result_release(&r);
}

/* The keys a schema 2 run has and schema 1 did not. */
static void strip_dir(json_t *d)
{
	static const char *const raw[] = {"lat_n", "lat_sum_ns", "lat_sumsq", "lat_min_ns",
					  "lat_max_ns", "hist"};

	for (size_t i = 0; i < sizeof(raw) / sizeof(raw[0]); i++)
		json_object_del(d, raw[i]);
}

static void strip_dirs(json_t *o)
{
	strip_dir(json_object_get(o, "read"));
	strip_dir(json_object_get(o, "write"));
}

/* The JSON iorate printed before histograms were kept, from this one's. */
static json_t *as_schema1(const struct result *r)
{
	static const char *const p2[] = {"time_ns", "warmup_ns", "cooldown_ns", "keep",
		"allow_write_device", "force", "no_latency", "verbose", "ios_per_thread", "trace",
		"targets"};
	json_t *o = result_to_json(r), *x;
	size_t i;

	json_object_set_new(o, "schema", json_integer(1));
	json_object_del(o, "error_code");
	json_object_del(o, "started");
	for (i = 0; i < sizeof(p2) / sizeof(p2[0]); i++)
		json_object_del(json_object_get(o, "params"), p2[i]);
	json_object_set_new(json_object_get(o, "params"), "arrival", json_string("fixed"));
	strip_dirs(json_object_get(o, "total"));
	json_array_foreach(json_object_get(o, "targets"), i, x) {
		strip_dirs(x);
		json_object_del(x, "region_offset");
		json_object_del(x, "region_len");
	}
	json_array_foreach(json_object_get(o, "ranks"), i, x) {
		strip_dirs(x);
		json_object_del(x, "first_target");
	}
	json_array_foreach(json_object_get(o, "series"), i, x) {
		static const char *const raw[] = {"read_ios", "write_ios", "read_bytes",
						  "write_bytes", "p99_ns"};

		for (size_t k = 0; k < 5; k++)
			json_object_del(x, raw[k]);
	}
	return o;
}

static void same_pcts(const struct dir_stats *a, const struct dir_stats *b, double seconds)
{
	struct dir_summary x, y;

	dir_stats_summarize(a, seconds, &x);
	dir_stats_summarize(b, seconds, &y);
	assert_true(x.ios == y.ios && x.bytes == y.bytes && x.errors == y.errors);
	assert_true(x.has_lat == y.has_lat);
	assert_true(x.lat_min == y.lat_min && x.lat_max == y.lat_max);
	assert_true(x.p50 == y.p50 && x.p90 == y.p90 && x.p99 == y.p99 && x.p99_9 == y.p99_9);
	assert_true(x.p99_99 == y.p99_99 && x.p99_999 == y.p99_999);
	assert_true(!x.has_lat || fabs(x.lat_mean - y.lat_mean) <= 1e-9 * x.lat_mean);
	assert_true(!x.has_lat || fabs(x.lat_stdev - y.lat_stdev) <= 1e-6 * (x.lat_stdev + 1));
}

/* Schema 1: the stored percentiles come back exactly, counts exactly, durations exactly. */
static void test_schema1(void **state)
{
	struct result *r = rich_result(), back;
	json_t *o;
	char err[256] = "";

	r->job.arrival = ARRIVAL_CLOSED;
	r->job.rate_iops = 0;
	r->job.time_ns = 30000000000ull;
	r->targets[2].path = strdup("/dev/null"); /* schema 1 always named them */
	o = as_schema1(r);
	if (result_from_json(o, &back, err, sizeof(err)))
		fail_msg("%s", err);
	for (unsigned i = 0; i < r->ntargets; i++) {
		same_pcts(&r->targets[i].read, &back.targets[i].read, r->seconds);
		same_pcts(&r->targets[i].write, &back.targets[i].write, r->seconds);
		assert_true(r->targets[i].size == back.targets[i].size);
	}
	same_pcts(&r->read, &back.read, r->seconds);
	same_pcts(&r->write, &back.write, r->seconds);
	same_pcts(&r->ranks[1].write, &back.ranks[1].write, r->ranks[1].seconds);
	assert_int_equal(back.ranks[1].first_target, 2);
	assert_int_equal(back.job.time_ns, 30000000000ull);
	assert_int_equal(back.job.arrival, ARRIVAL_CLOSED);
	assert_int_equal(back.job.ntargets, 3); /* from the targets, which schema 1 listed */
	assert_int_equal(back.series[0].read_ios, 400);
	assert_int_equal(back.series[0].write_bytes, 100 * 8192);
	assert_int_equal(back.series[0].p99_ns, 41000);
	assert_true(back.started);
	assert_string_equal(back.errmsg, r->errmsg);
	assert_int_equal(back.nnotes, r->nnotes + 1);
	assert_non_null(strstr(back.notes[r->nnotes], "saved by iorate 0.0.9-test without "
				"latency histograms"));
	result_release(&back);
	/* What schema 1 always held is still required. */
	json_object_del(json_object_get(json_object_get(o, "total"), "read"), "bytes");
	assert_int_equal(result_from_json(o, &back, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "total.read.bytes: missing");
	json_decref(o);
	free_result(r);
}

/* Runs inside sweep's and mark's documents, errors naming where they are. */
static void test_runs_in_documents(void **state)
{
	struct result *r = rich_result(), *runs;
	json_t *run = result_to_json(r), *doc;
	char err[256] = "";
	size_t n;

	free_result(r);
	assert_int_equal(result_json_runs(run, &runs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	result_array_free(runs, n);
	doc = json_pack("{s:i,s:s,s:[{s:i,s:O},{s:i},{s:i,s:O}]}", "schema", 2, "param", "depth",
			"rows", "depth", 1, "run", run, "depth", 2, "depth", 3, "run", run);
	assert_int_equal(result_json_runs(doc, &runs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_int_equal(runs[1].ntargets, 3);
	result_array_free(runs, n);
	json_object_del(json_object_get(run, "params"), "depth");
	assert_int_equal(result_json_runs(doc, &runs, &n, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "rows[0].run.params.depth: missing");
	assert_null(runs);
	json_decref(doc);
	doc = json_pack("{s:i,s:[{s:{s:O},s:n}]}", "schema", 2, "tests", "read", "result", run,
			"write");
	assert_int_equal(result_json_runs(doc, &runs, &n, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "tests[0].read.result.params.depth: missing");
	json_decref(doc);
	doc = json_pack("{s:i}", "schema", 2);
	assert_int_equal(result_json_runs(doc, &runs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	result_array_free(runs, n);
	json_decref(doc);
	json_decref(run);
}

/* `iorate run --json` keeps histogram pairs on one line and the rest indented. */
static void test_report_layout(void **state)
{
	struct result *r = rich_result();
	char *s = render(&report_json, r);

	assert_non_null(strstr(s, "\n  \"schema\": 2,\n"));
	assert_non_null(strstr(s, "\"hist\": [[15, 1], [16, 1], "));
	assert_non_null(strstr(s, "\"size\": \"18446744073709551610\""));
	assert_non_null(strstr(s, "\"iowait\": null"));
	assert_non_null(strstr(s, "\"idle\": 90.0"));
	assert_null(strstr(s, "[\n"  "            15"));
	free(s);
	free_result(r);
}

/* The sweep's state: the document, the path of the member changed, what was found. */
struct sweep {
	json_t *root;
	int (*read)(const json_t *o, char *err, size_t len);  /* 0 or -errno, keeping nothing */
	const char *either;      /* the member without which the document is read as another kind */
	const char *shallow;     /* a top member whose own members are not swept */
	char path[256];
	unsigned tried, refused;
};

static int read_run(const json_t *o, char *err, size_t len)
{
	struct result r;
	int ret = result_from_json(o, &r, err, len);

	result_release(&r); /* either way */
	return ret;
}

static int read_set(const json_t *o, char *err, size_t len)
{
	struct result_set s;
	int ret = result_set_from_json(o, &s, err, len);

	result_set_release(&s); /* either way */
	return ret;
}

/* A value of another type than v's (never null): what a reader must refuse in its place. */
static json_t *wrong_type(const json_t *v)
{
	if (json_is_string(v))
		return json_integer(7);
	if (json_is_object(v) || json_is_array(v) || json_is_number(v) || json_is_boolean(v))
		return json_string("x");
	return json_object();
}

/*
 * Whether err names the changed member: its path, an enclosing member's, one of its own
 * (read from it as if it were an object) or a sibling's (read with it), then ": ". Members
 * the reader derives again (iops, percentiles, totals) or that a schema keeps for people only
 * are not read.
 */
static bool names_member(const char *err, const char *path)
{
	const char *colon = strstr(err, ": ");
	size_t n = colon ? (size_t)(colon - err) : 0, parent = strlen(path);

	if (!colon)
		return false;
	size_t m = strlen(path);

	/* The member, one enclosing it, or one inside it (a value of another type has none). */
	if (n <= m && !strncmp(err, path, n) && strchr(".[", path[n] ? path[n] : '.'))
		return true;
	if (n > m && !strncmp(err, path, m) && strchr(".[", err[m]))
		return true;
	while (parent && path[parent] != '.')
		parent--;
	return parent && n > parent && !strncmp(err, path, parent + 1);
}

/* The document with its member changed is read, or refused naming that member. */
static void refused_at(struct sweep *sw)
{
	char err[512] = "";
	int ret = sw->read(sw->root, err, sizeof(err));

	sw->tried++;
	if (!ret)
		return;
	sw->refused++;
	assert_int_equal(ret, -EINVAL);
	if (sw->either && !strcmp(sw->path, sw->either))
		return;
	if (!names_member(err, sw->path))
		fail_msg("%s of another type: \"%s\" does not name it", sw->path, err);
}

/* Each member of o (the first element of each array), in turn given another type, and each
 * member of an object left out. */
static void sweep_members(struct sweep *sw, json_t *o)
{
	size_t mark = strlen(sw->path);

	if (json_is_array(o) && json_array_size(o)) {
		json_t *v = json_incref(json_array_get(o, 0));
		snprintf(sw->path + mark, sizeof(sw->path) - mark, "[0]");
		json_array_set_new(o, 0, wrong_type(v));
		refused_at(sw);
		json_array_set(o, 0, v);
		sweep_members(sw, v);
		json_decref(v);
	} else if (json_is_object(o)) {
		/* The keys first: a member put back goes to the end of the object. */
		size_t n = json_object_size(o), i = 0;
		const char **keys = calloc(n ? n : 1, sizeof(*keys));
		const char *key;
		json_t *v;

		assert_non_null(keys);
		json_object_foreach(o, key, v)
			keys[i++] = strdup(key);
		for (i = 0; i < n; i++) {
			const char *k = keys[i];
			v = json_incref(json_object_get(o, k));
			snprintf(sw->path + mark, sizeof(sw->path) - mark, "%s%s", mark ? "." : "",
				 k);
			json_object_set_new(o, k, wrong_type(v));
			refused_at(sw);
			json_object_del(o, k);
			refused_at(sw);
			json_object_set(o, k, v);
			if (mark || !sw->shallow || strcmp(k, sw->shallow))
				sweep_members(sw, v);
			json_decref(v);
			free((char *)k);
		}
		free(keys);
	}
	sw->path[mark] = '\0';
}

/*
 * Every member of a run's JSON is checked: given another type or left out, it is refused
 * naming it, or not read at all (what the reader derives again). Hundreds are refused.
 */
static void test_every_member_checked(void **state)
{
	struct result *a = rich_result(), *b = rich_result(), *jobs = calloc(2, sizeof(*jobs));
	struct sweep sw = {.root = result_to_json(a), .read = read_run};
	struct result_set set;

	assert_non_null(sw.root);
	sweep_members(&sw, sw.root);
	assert_true(sw.tried > 800 && sw.refused > 400);
	json_decref(sw.root);

	/* Two jobs in two groups: the set's document, its groups and total too. */
	assert_non_null(jobs);
	jobs[0] = *a;
	jobs[1] = *b;
	jobs[1].job.group = 1;
	free(a);
	free(b);
	assert_int_equal(result_set_view(&set, jobs, 2), 0);
	/* Without a list of jobs, it is read as one run, which it is not. Each job is a run, whose
	 * members were swept above. */
	sw = (struct sweep){.root = result_set_to_json(&set), .read = read_set, .either = "jobs",
			    .shallow = "jobs"};
	assert_non_null(sw.root);
	sweep_members(&sw, sw.root);
	assert_true(sw.tried > 100 && sw.refused > 50);
	json_decref(sw.root);
	result_set_release(&set);
	result_release(&jobs[0]);
	result_release(&jobs[1]);
	free(jobs);

	/* Schema 1, as iorate wrote it before histograms: tests/cli/fixtures/run-cached.json. */
	sw = (struct sweep){.root = json_load_file("tests/cli/fixtures/run-cached.json", 0, NULL),
			    .read = read_run};
	assert_non_null(sw.root);
	sweep_members(&sw, sw.root);
	assert_true(sw.tried > 100 && sw.refused > 20);
	json_decref(sw.root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_member_checked),
		cmocka_unit_test(test_round_trip_rich),
		cmocka_unit_test(test_round_trip_empty),
		cmocka_unit_test(test_round_trip_shapes),
		cmocka_unit_test(test_round_trip_errors),
		cmocka_unit_test(test_round_trip_odd_reals),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_interval_absent),
		cmocka_unit_test(test_not_an_object),
		cmocka_unit_test(test_schema1),
		cmocka_unit_test(test_runs_in_documents),
		cmocka_unit_test(test_report_layout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
