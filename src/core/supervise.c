/*
 * Watching a group of jobs while their workers run: the series of each job, stop
 * requests, and the caller's progress line. Workers are never touched but through relaxed
 * atomic reads of their counters.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/run.h"
#include "core/throttle.h"
#include "core/worker.h"
#include "core/worker_extra.h"
#include "util/clock.h"

#define TICK_SLICE_NS (100ull * 1000000ull)

/* Cumulative counted I/O over all workers, read live (relaxed) for the series. */
static void snapshot(struct run *run, struct hist *h, uint64_t ios[3], uint64_t bytes[3])
{
	hist_reset(h);
	memset(ios, 0, 3 * sizeof(*ios));
	memset(bytes, 0, 3 * sizeof(*bytes));
	for (unsigned i = 0; i < run->nworkers; i++) {
		struct worker *w = run->workers[i];
		for (int d = 0; d < 3; d++) {
			ios[d] += __atomic_load_n(&w->st[d].ios, __ATOMIC_RELAXED);
			bytes[d] += __atomic_load_n(&w->st[d].bytes, __ATOMIC_RELAXED);
			/* A worker makes its histograms as it needs them (stats.h): read the
			 * pointer as it published it. */
			const struct hist *wh = __atomic_load_n(&w->st[d].hist, __ATOMIC_ACQUIRE);
			if (!run->job->no_latency && wh)
				hist_merge(h, wh);
		}
	}
}

static int series_push(struct run *run, double t, double secs)
{
	struct result *res = run->res;
	uint64_t ios[3], bytes[3];
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
	pt->trim_ios = ios[2] - run->prev_ios[2];
	pt->trim_bytes = bytes[2] - run->prev_bytes[2];
	hist_diff(diff, &run->snap_cur, &run->snap_prev);
	pt->p99_ns = hist_percentile(diff, 99.0, 0, UINT64_MAX);
	pt->lat_mean_ns = (uint64_t)hist_mean(diff);
	pt->credit_iops = pt->credit_mbps = -1;
	if (run->throttles)
		throttle_set_credit(run->throttles, &pt->credit_iops, &pt->credit_mbps);
	memcpy(&run->snap_prev, &run->snap_cur, sizeof(run->snap_cur));
	memcpy(run->prev_ios, ios, sizeof(ios));
	memcpy(run->prev_bytes, bytes, sizeof(bytes));
	if (secs > 0) {
		run->last_iops = (double)(pt->read_ios + pt->write_ios) / secs;
		run->last_mibps = (double)(pt->read_bytes + pt->write_bytes) / secs / 1048576.0;
	}
	return 0;
}

/* The series' interval (the runner set it; never 0, which would never advance). */
static uint64_t run_interval(const struct run *run)
{
	return run->res->interval_ns ? run->res->interval_ns : NS;
}

static bool run_done(const struct run *run)
{
	for (unsigned i = 0; i < run->nworkers; i++)
		if (!__atomic_load_n(&run->workers[i]->t_done, __ATOMIC_ACQUIRE))
			return false;
	return true;
}

/*
 * One job's part of a wake-up: its stop, and its series point when an interval is due. Points
 * are due on a grid from the measure's start, so a late wake-up does not shift the ones after
 * it: a run of 2 s at 100 ms has about 20 points, each about the interval (the wake-ups' delay).
 */
static void run_tick(struct run *run, uint64_t now)
{
	if (run->user_stop && *run->user_stop && !run->halt)
		__atomic_store_n(&run->halt, 1, __ATOMIC_RELAXED);
	if (run->halt && !run->t_halted)
		run->t_halted = now;
	if (run->measured_done || now < run->t_meas_start || (now < run->next_tick && !run->halt))
		return;
	uint64_t end = now < run->t_meas_end ? now : run->t_meas_end;
	if (end > run->last_tick) {
		series_push(run, (double)(end - run->t_meas_start) / NS,
			    (double)(end - run->last_tick) / NS);
		run->last_tick = end;
	}
	/* A wake-up late by half an interval or more makes one long point, not a sliver after it. */
	while (run->next_tick <= end + run_interval(run) / 2)
		run->next_tick += run_interval(run);
	if (end >= run->t_meas_end || run->halt)
		run->measured_done = true;
}

/* The group as one progress line: its whole span, the phase of the jobs, their sum of rates. */
static void progress(struct run *runs, unsigned n, uint64_t now, const struct runner_hooks *h)
{
	uint64_t t0 = UINT64_MAX, t1 = 0;
	struct runner_progress p = {.phase = "cooldown"};
	bool warm = false, meas = false;

	for (unsigned i = 0; i < n; i++) {
		struct run *r = &runs[i];
		t0 = r->t_start < t0 ? r->t_start : t0;
		t1 = r->t_end > t1 ? r->t_end : t1;
		warm |= now < r->t_meas_start;
		meas |= now >= r->t_meas_start && now < r->t_meas_end;
		p.iops += r->last_iops;
		p.mibps += r->last_mibps;
	}
	if (now < t0)
		return;
	p.phase = meas ? "measuring" : warm ? "warmup" : "cooldown";
	p.elapsed_s = (double)(now - t0) / NS;
	/* No time limit: no total to count down to. */
	p.total_s = t1 >= UINT64_MAX / 4 ? 0 : (double)(t1 - t0) / NS;
	h->tick(h->arg, &p);
}

void runs_supervise(struct run *runs, unsigned n, const struct runner_hooks *hooks)
{
	bool all = false;

	for (unsigned i = 0; i < n; i++) {
		runs[i].last_tick = runs[i].t_meas_start;
		runs[i].next_tick = runs[i].t_meas_start + run_interval(&runs[i]);
	}
	while (!all) {
		uint64_t now = clock_ns(), wake = now + TICK_SLICE_NS;
		for (unsigned i = 0; i < n; i++)
			if (!runs[i].measured_done && runs[i].next_tick < wake)
				wake = runs[i].next_tick;
		clock_sleep_until(wake);
		now = clock_ns();
		all = true;
		for (unsigned i = 0; i < n; i++) {
			run_tick(&runs[i], now);
			all = all && run_done(&runs[i]);
		}
		runs_check_ends(runs, n, now);
		runs_check_steady(runs, n, now);
		if (hooks && hooks->tick)
			progress(runs, n, now, hooks);
	}
}

/*
 * Workers that stopped on their own (--ios) end the window before its last tick: that partial
 * interval becomes the last point. I/O issued in the window but completed after the last tick
 * belongs to the last point too.
 */
void run_series_finish(struct run *run, uint64_t end)
{
	struct result *res = run->res;
	uint64_t ios[3], bytes[3];

	if (!run->measured_done && end > run->last_tick)
		series_push(run, (double)(end - run->t_meas_start) / NS,
			    (double)(end - run->last_tick) / NS);
	snapshot(run, &run->snap_cur, ios, bytes);
	if (!res->nseries)
		return;
	struct series_point *pt = &res->series[res->nseries - 1];
	pt->read_ios += ios[0] - run->prev_ios[0];
	pt->write_ios += ios[1] - run->prev_ios[1];
	pt->read_bytes += bytes[0] - run->prev_bytes[0];
	pt->write_bytes += bytes[1] - run->prev_bytes[1];
	pt->trim_ios += ios[2] - run->prev_ios[2];
	pt->trim_bytes += bytes[2] - run->prev_bytes[2];
}
