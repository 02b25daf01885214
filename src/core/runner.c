/*
 * The runner: opens targets, starts threads x depth per target, keeps the per-second series,
 * and merges every worker's counters into the result once the workers are done.
 */
#include "core/runner.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cpu.h"
#include "core/diskstats.h"
#include "core/target.h"
#include "core/throttle.h"
#include "core/worker.h"
#include "util/clock.h"

#define NS 1000000000ull
#define START_DELAY_NS (50ull * 1000000ull)
#define TICK_SLICE_NS (100ull * 1000000ull)

struct run {
	const struct job *job;
	struct result *res;
	const struct engine_ops *ops;
	struct target *targets;
	struct worker **workers;
	unsigned nworkers;
	volatile sig_atomic_t halt;    /* 1: user stop, 2: a worker failed */
	volatile sig_atomic_t *user_stop;
	uint64_t t_start, t_meas_start, t_meas_end, t_end;
	struct throttle_set *throttles;
	FILE *trace;
	struct hist snap_prev, snap_cur;
	uint64_t prev_ios[2], prev_bytes[2];
};

const char *runner_default_engine(char *why, size_t whylen)
{
#ifdef HAVE_LIBURING
	int r = engine_uring.probe();
	if (r == 0) {
		snprintf(why, whylen, "default: io_uring is available");
		return "uring";
	}
	snprintf(why, whylen, "default: io_uring unavailable (%s)", strerror(-r));
#else
	snprintf(why, whylen, "default: built without liburing");
#endif
	return "sync";
}

static void worker_free(struct worker *w)
{
	if (!w)
		return;
	if (w->eng && w->ops && w->ops->cleanup)
		w->ops->cleanup(w);
	free(w->bufmem);
	free(w->reqs);
	free(w->freel);
	free(w->done);
	free(w);
}

static int worker_new(struct run *run, unsigned ti, unsigned thread, struct worker **out)
{
	const struct job *job = run->job;
	struct target *t = &run->targets[ti];
	struct worker *w = aligned_alloc(64, sizeof(*w));
	uint64_t seed = run->res->job.seed;
	int r = -ENOMEM;

	if (!w)
		return -ENOMEM;
	memset(w, 0, sizeof(*w));
	w->ops = run->ops;
	w->fd = t->fd;
	w->depth = job->depth;
	/* One submission per I/O (the default, as fio) lets a device whose I/Os the kernel hands
	 * to worker threads (zram, buffered files) start each while the next is prepared: on zram
	 * at QD32, 435k IOPS against 240-330k with all 32 in one call. */
	w->batch = job->batch && job->batch < job->depth ? job->batch : job->depth;
	w->bs = (uint32_t)job->bs;
	w->target = ti;
	w->thread = thread;
	w->ios_left = job->ios_per_thread ? job->ios_per_thread : UINT64_MAX;
	w->fsync_every = job->fsync_every;
	w->no_latency = job->no_latency;
	w->halt = &run->halt;
	if (job->rate_iops > 0) {
		w->rate_interval_ns = 1e9 * job->threads / job->rate_iops;
		w->poisson = job->arrival == ARRIVAL_POISSON;
		/* Threads of a target start staggered so their I/Os interleave evenly (from the
		 * start instant, added once it is fixed). */
		w->next_due = (uint64_t)(w->rate_interval_ns * thread / job->threads);
	}
	w->trace = run->trace;
	dir_stats_init(&w->st[0]);
	dir_stats_init(&w->st[1]);
	if (run->throttles)
		w->throttle = throttle_set_get(run->throttles, ti);
	if ((r = workload_init(&w->wl, t->region_off, t->region_len, job->bs, job->align,
			       job->pattern == PATTERN_SEQUENTIAL, job->write_pct, seed, ti, thread,
			       job->threads)))
		goto fail;
	r = -ENOMEM;
	w->buflen = (size_t)job->bs * job->depth;
	if (posix_memalign(&w->bufmem, 4096, w->buflen))
		goto fail;
	w->reqs = calloc(job->depth, sizeof(*w->reqs));
	w->freel = calloc(job->depth, sizeof(*w->freel));
	w->done = calloc(job->depth, sizeof(*w->done));
	if (!w->reqs || !w->freel || !w->done)
		goto fail;
	/* Incompressible contents for writes, so compressing devices cannot flatter the result;
	 * drawn from a copy of the generator, so the offsets do not depend on how much was drawn. */
	struct workload fill = w->wl;
	workload_fill(&fill, w->bufmem, w->buflen);
	for (unsigned i = 0; i < job->depth; i++) {
		w->reqs[i].buf = (char *)w->bufmem + (size_t)i * job->bs;
		w->reqs[i].len = (uint32_t)job->bs;
		w->reqs[i].idx = (uint16_t)i;
		w->freel[i] = &w->reqs[i];
	}
	if ((r = w->ops->init(w, job->depth)))
		goto fail;
	*out = w;
	return 0;
fail:
	worker_free(w);
	return r;
}

/* Cumulative counted I/O over all workers, read live (relaxed) for the series. */
static void snapshot(struct run *run, struct hist *h, uint64_t ios[2], uint64_t bytes[2])
{
	hist_reset(h);
	ios[0] = ios[1] = bytes[0] = bytes[1] = 0;
	for (unsigned i = 0; i < run->nworkers; i++) {
		struct worker *w = run->workers[i];
		for (int d = 0; d < 2; d++) {
			ios[d] += __atomic_load_n(&w->st[d].ios, __ATOMIC_RELAXED);
			bytes[d] += __atomic_load_n(&w->st[d].bytes, __ATOMIC_RELAXED);
			if (!run->job->no_latency)
				hist_merge(h, &w->st[d].hist);
		}
	}
}

static int series_push(struct run *run, double t, double secs, struct runner_progress *p)
{
	struct result *res = run->res;
	uint64_t ios[2], bytes[2];
	struct hist *diff = &run->snap_prev; /* reused: prev is replaced by cur below */
	struct series_point *pt, *ns;

	snapshot(run, &run->snap_cur, ios, bytes);
	if (!(ns = realloc(res->series, (res->nseries + 1) * sizeof(*ns))))
		return -ENOMEM;
	res->series = ns;
	pt = &ns[res->nseries++];
	memset(pt, 0, sizeof(*pt));
	pt->t = t;
	pt->seconds = secs;
	pt->read_ios = ios[0] - run->prev_ios[0];
	pt->write_ios = ios[1] - run->prev_ios[1];
	pt->read_bytes = bytes[0] - run->prev_bytes[0];
	pt->write_bytes = bytes[1] - run->prev_bytes[1];
	hist_diff(diff, &run->snap_cur, &run->snap_prev);
	pt->p99_ns = hist_percentile(diff, 99.0, 0, UINT64_MAX);
	pt->credit_iops = pt->credit_mbps = -1;
	if (run->throttles)
		throttle_set_credit(run->throttles, &pt->credit_iops, &pt->credit_mbps);
	memcpy(&run->snap_prev, &run->snap_cur, sizeof(run->snap_cur));
	memcpy(run->prev_ios, ios, sizeof(ios));
	memcpy(run->prev_bytes, bytes, sizeof(bytes));
	if (p && secs > 0) {
		p->iops = (double)(pt->read_ios + pt->write_ios) / secs;
		p->mibps = (double)(pt->read_bytes + pt->write_bytes) / secs / 1048576.0;
	}
	return 0;
}

static bool all_done(struct run *run)
{
	for (unsigned i = 0; i < run->nworkers; i++)
		if (!__atomic_load_n(&run->workers[i]->t_done, __ATOMIC_ACQUIRE))
			return false;
	return true;
}

/*
 * The main thread's part while workers run: wake every 100 ms to notice a stop request, every
 * second of the measured window to add a series point, and tell the caller how far along it is.
 */
static uint64_t supervise(struct run *run, const struct runner_hooks *hooks, uint64_t *t_halted)
{
	struct runner_progress p = {.total_s = (double)(run->t_end - run->t_start) / NS};
	uint64_t next_tick = run->t_meas_start + NS, last_tick = run->t_meas_start;
	bool measured_done = false;

	while (!all_done(run)) {
		uint64_t now = clock_ns(), wake = now + TICK_SLICE_NS;
		if (!measured_done && next_tick < wake)
			wake = next_tick;
		clock_sleep_until(wake);
		now = clock_ns();
		if (run->user_stop && *run->user_stop && !run->halt) {
			__atomic_store_n(&run->halt, 1, __ATOMIC_RELAXED);
		}
		if (run->halt && !*t_halted)
			*t_halted = now;
		if (!measured_done && (now >= next_tick || run->halt)) {
			uint64_t end = now < run->t_meas_end ? now : run->t_meas_end;
			if (end > last_tick) {
				series_push(run, (double)(end - run->t_meas_start) / NS,
					    (double)(end - last_tick) / NS, &p);
				last_tick = end;
			}
			next_tick = last_tick + NS;
			if (end >= run->t_meas_end || run->halt)
				measured_done = true;
		}
		if (hooks && hooks->tick && now >= run->t_start) {
			p.elapsed_s = (double)(now - run->t_start) / NS;
			p.phase = now < run->t_meas_start ? "warmup"
				  : now < run->t_meas_end ? "measuring"
							   : "cooldown";
			hooks->tick(hooks->arg, &p);
		}
	}
	return measured_done ? 0 : last_tick;
}

/*
 * Workers that stopped on their own (--ios) end the window before its last tick: that partial
 * interval becomes the last point. I/O issued in the window but completed after the last tick
 * belongs to the last point too.
 */
static void series_finish(struct run *run, uint64_t last_tick, uint64_t end)
{
	struct result *res = run->res;
	uint64_t ios[2], bytes[2];

	if (last_tick && end > last_tick)
		series_push(run, (double)(end - run->t_meas_start) / NS,
			    (double)(end - last_tick) / NS, NULL);
	snapshot(run, &run->snap_cur, ios, bytes);
	if (!res->nseries)
		return;
	struct series_point *pt = &res->series[res->nseries - 1];
	pt->read_ios += ios[0] - run->prev_ios[0];
	pt->write_ios += ios[1] - run->prev_ios[1];
	pt->read_bytes += bytes[0] - run->prev_bytes[0];
	pt->write_bytes += bytes[1] - run->prev_bytes[1];
}

static void fill_progress(void *arg, double done)
{
	const struct runner_hooks *h = arg;
	struct runner_progress p = {.phase = "preparing", .prepare_done = done};

	if (h && h->tick)
		h->tick(h->arg, &p);
}

static void merge_results(struct run *run)
{
	struct result *res = run->res;

	for (unsigned i = 0; i < run->nworkers; i++) {
		struct worker *w = run->workers[i];
		if (w->rate_interval_ns > 0) {
			double behind = (double)clock_since(w->t_done, w->next_due) / NS;
			res->sched_ios_late += w->sched_late;
			if ((double)w->sched_max_lag / NS > res->sched_max_lag_s)
				res->sched_max_lag_s = (double)w->sched_max_lag / NS;
			if (behind > res->sched_behind_s)
				res->sched_behind_s = behind;
		}
		struct target_result *tr = &res->targets[w->target];
		dir_stats_merge(&tr->read, &w->st[0]);
		dir_stats_merge(&tr->write, &w->st[1]);
		dir_stats_merge(&res->read, &w->st[0]);
		dir_stats_merge(&res->write, &w->st[1]);
	}
}

static void note_page_cache(struct run *run)
{
	const struct job *job = run->job;
	struct result *res = run->res;
	uint64_t ws = 0;

	if (job_direct(job) || job->write_pct >= 100 ||
	    !res->read.ios)
		return;
	for (unsigned i = 0; i < res->ntargets; i++)
		ws += res->targets[i].region_len;
	if (ws <= res->host.mem_bytes / 2)
		result_add_note(res,
				"reads were buffered and the working set (%llu MiB) fits in RAM "
				"(%llu MiB): the page cache, not the device, served most of them; "
				"use --cache direct to measure the device",
				(unsigned long long)(ws >> 20),
				(unsigned long long)(res->host.mem_bytes >> 20));
}

static int choose_engine(struct run *run, char *err, size_t errlen)
{
	const struct job *job = run->job;
	struct result *res = run->res;
	const char *name = job->engine;
	char why[80];

	if (!name[0]) {
		name = runner_default_engine(why, sizeof(why));
		if (!strcmp(name, "sync") && job->depth > 1) {
			snprintf(err, errlen, "--depth %u needs an asynchronous engine, and io_uring is "
				 "unavailable here; use --engine aio or --depth 1", job->depth);
			return -EINVAL;
		}
	} else {
		snprintf(why, sizeof(why), "asked for");
	}
	if (!(run->ops = engine_find(name))) {
		snprintf(err, errlen, "--engine: '%s' is not an engine of this build (%s)", name,
			 engine_names());
		return -EINVAL;
	}
	int r = engine_probe(run->ops);
	if (r) {
		snprintf(err, errlen, "--engine: %s does not work here: %s", name, strerror(-r));
		return r;
	}
	snprintf(res->engine, sizeof(res->engine), "%s", name);
	snprintf(res->engine_why, sizeof(res->engine_why), "%s", why);
	snprintf(res->job.engine, sizeof(res->job.engine), "%s", name);
	return 0;
}

static int open_targets(struct run *run, const struct runner_hooks *hooks, char *err,
			size_t errlen)
{
	const struct job *job = run->job;
	struct result *res = run->res;

	for (unsigned i = 0; i < job->ntargets; i++) {
		struct target *t = &run->targets[i];
		struct target_result *tr = &res->targets[i];
		int r = run->ops->flags & ENGINE_NO_IO
				? target_virtual(t, job->targets[i], job, err, errlen)
				: target_open(t, job->targets[i], job, fill_progress, (void *)hooks,
					      run->user_stop, err, errlen);
		res->ntargets = i + 1;
		tr->path = strdup(job->targets[i]);
		tr->created = t->created;
		if (r)
			return r;
		tr->is_blockdev = t->is_blockdev;
		tr->size = t->size;
		tr->region_offset = t->region_off;
		tr->region_len = t->region_len;
		snprintf(tr->device, sizeof(tr->device), "%s", t->devname);
		if (t->is_blockdev)
			diskstats_read(t->devname, &tr->kernel);
	}
	return 0;
}

/*
 * Workers are set up first and the start instant fixed afterwards, so that however long the
 * set-up takes (many workers, or a caller's ready hook waiting for other hosts) every worker
 * starts at the same instant, shortly after.
 */
static int start_workers(struct run *run, const struct runner_hooks *hooks, char *err,
			 size_t errlen)
{
	const struct job *job = run->job;
	int r;

	run->nworkers = job->ntargets * job->threads;
	if (!(run->workers = calloc(run->nworkers, sizeof(*run->workers)))) {
		r = -ENOMEM;
		goto fail;
	}
	for (unsigned i = 0; i < run->nworkers; i++)
		if ((r = worker_new(run, i / job->threads, i % job->threads, &run->workers[i])))
			goto fail;
	if (hooks && hooks->ready && (r = hooks->ready(hooks->ready_arg))) {
		if (!err[0])
			snprintf(err, errlen, "the run was called off: %s", strerror(-r));
		return r;
	}
	run->t_start = clock_ns() + START_DELAY_NS;
	run->t_meas_start = run->t_start + job->warmup_ns;
	run->t_meas_end = run->t_meas_start + job->time_ns;
	run->t_end = run->t_meas_end + job->cooldown_ns;
	for (unsigned i = 0; i < run->nworkers; i++) {
		struct worker *w = run->workers[i];
		w->t_start = run->t_start;
		w->t_meas_start = run->t_meas_start;
		w->t_meas_end = run->t_meas_end;
		w->t_end = run->t_end;
		if (w->rate_interval_ns > 0)
			w->next_due += run->t_start;
	}
	throttle_set_start(run->throttles, run->t_start);
	for (unsigned i = 0; i < run->nworkers; i++) {
		if ((r = -pthread_create(&run->workers[i]->tid, NULL, worker_main, run->workers[i]))) {
			/* Stop the ones already started, then report. */
			__atomic_store_n(&run->halt, 2, __ATOMIC_RELAXED);
			for (unsigned k = 0; k < i; k++)
				pthread_join(run->workers[k]->tid, NULL);
			goto fail; /* every worker, started or not, is freed by the caller */
		}
	}
	return 0;
fail:
	snprintf(err, errlen, "cannot start the workers: %s", strerror(-r));
	return r;
}

static void collect_errors(struct run *run, char *err, size_t errlen, int *rc)
{
	for (unsigned i = 0; i < run->nworkers; i++) {
		struct worker *w = run->workers[i];
		if (!w->err)
			continue;
		snprintf(err, errlen, "%s: %s failed at offset %llu: %s",
			 run->job->targets[w->target], w->err_write ? "write" : "read",
			 (unsigned long long)w->err_offset, strerror(-w->err));
		*rc = w->err;
		return;
	}
}

int runner_run(const struct job *job, struct result *res, const struct runner_hooks *hooks)
{
	struct run run = {.job = job, .res = res, .user_stop = hooks ? hooks->stop : NULL};
	struct cpu_snap c0, c1;
	uint64_t t_halted = 0;
	char *err = res->errmsg;
	size_t errlen = sizeof(res->errmsg);
	int rc;

	clock_init();
	res->start_unix_ms = clock_realtime_ms();
	host_info_read(&res->host);
	snprintf(res->host.clock, sizeof(res->host.clock), "%s", clock_source());
	if ((rc = job_copy(&res->job, job)))
		return rc;
	if (!job->seed_set) {
		/* Recorded in the result, so that --seed repeats this run's offsets. Kept below 2^53
		 * so every JSON reader holds it exactly. */
		uint64_t sm = clock_realtime_ms() ^ ((uint64_t)getpid() << 32) ^ clock_ns();
		res->job.seed = splitmix64(&sm) >> 11;
	}
	run.targets = calloc(job->ntargets, sizeof(*run.targets));
	res->targets = calloc(job->ntargets, sizeof(*res->targets));
	if (!run.targets || !res->targets) {
		rc = -ENOMEM;
		goto out;
	}
	for (unsigned i = 0; i < job->ntargets; i++) {
		run.targets[i].fd = -1;
		dir_stats_init(&res->targets[i].read);
		dir_stats_init(&res->targets[i].write);
	}
	if ((rc = choose_engine(&run, err, errlen)))
		goto out;
	if ((rc = open_targets(&run, hooks, err, errlen)))
		goto out;
	if (run.user_stop && *run.user_stop) {
		res->interrupted = true;
		goto out;
	}
	if ((rc = throttle_set_new(job, &run.throttles))) {
		snprintf(err, errlen, "cannot set up the emulated caps: %s", strerror(-rc));
		goto out;
	}
	if (job->trace_path && !(run.trace = fopen(job->trace_path, "w"))) {
		rc = -errno;
		snprintf(err, errlen, "--trace: %s: %s", job->trace_path, strerror(errno));
		goto out;
	}
	if ((rc = start_workers(&run, hooks, err, errlen)))
		goto out;
	res->started = true;
	clock_sleep_until(run.t_meas_start);
	cpu_snap_take(&c0);
	uint64_t last_tick = supervise(&run, hooks, &t_halted);
	cpu_snap_take(&c1);
	uint64_t end = run.t_meas_end, last_done = 0;
	for (unsigned i = 0; i < run.nworkers; i++) {
		pthread_join(run.workers[i]->tid, NULL);
		if (run.workers[i]->t_done > last_done)
			last_done = run.workers[i]->t_done;
	}
	/* The window ends at its set end, at a stop, or when every worker finished its --ios. */
	if (run.halt && t_halted && t_halted < end)
		end = t_halted;
	if (last_done < end)
		end = last_done;
	series_finish(&run, last_tick, end);
	merge_results(&run);
	cpu_usage_between(&c0, &c1, &res->cpu);

	res->seconds = end > run.t_meas_start ? (double)(end - run.t_meas_start) / NS : 0;
	if (run.halt == 1 && t_halted < run.t_meas_end)
		res->interrupted = true;
	for (unsigned i = 0; i < job->ntargets; i++) {
		struct target_result *tr = &res->targets[i];
		struct kernel_counts after;
		if (tr->kernel.valid && diskstats_read(tr->device, &after) == 0)
			diskstats_delta(&tr->kernel, &after, &tr->kernel);
	}
	note_page_cache(&run);
	if (job->rate_iops > 0 && res->sched_ios_late)
		result_add_note(res,
				"the target could not keep up with --rate-iops %g: %llu I/Os were "
				"issued late, up to %.3f s behind schedule (%.3f s behind at the end); "
				"latency counts from each I/O's scheduled time",
				job->rate_iops, (unsigned long long)res->sched_ios_late,
				res->sched_max_lag_s, res->sched_behind_s);
	collect_errors(&run, err, errlen, &rc);
out:
	if (run.user_stop && *run.user_stop && rc == -EINTR) {
		res->interrupted = true;
		rc = 0;
	}
	for (unsigned i = 0; i < run.nworkers; i++)
		worker_free(run.workers[i]);
	free(run.workers);
	for (unsigned i = 0; run.targets && i < job->ntargets; i++)
		target_close(&run.targets[i], job->keep);
	free(run.targets);
	throttle_set_free(run.throttles);
	if (run.trace)
		fclose(run.trace);
	res->error = rc;
	return rc;
}
