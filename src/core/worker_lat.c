/*
 * --latency-target (fio's latency_target, latency_window, latency_percentile, latency_run): each
 * thread searches for the deepest queue at which its I/Os keep within the target, as fio's
 * io_u.c does. It starts at depth 1; after each window in which at least the percentile of its
 * I/Os completed within the target, it doubles the depth (or, once a depth has failed, bisects
 * towards it); after a window that fell short, or at once for a single I/O over the target when
 * the percentile is 100, it lets what is in flight complete and halves towards the last depth
 * that held. When the depth stops changing it runs one more window at it, the final one, whose
 * figures the result reports, and the thread ends (unless --latency-run: then it searches until
 * the run ends). At depth 1 with a percentile of 100 an I/O over the target fails the job.
 *
 * The state machine is here; the worker (worker.c) parks the slots above the depth and drains
 * what is in flight when told to.
 */
#include <errno.h>
#include <stdlib.h>

#include "core/job.h"
#include "core/result.h"
#include "core/worker.h"
#include "util/clock.h"

int worker_lat_new(struct worker *w, const struct job *job)
{
	struct worker_lat *lt;

	if (!job->lat_target_ns)
		return 0;
	if (!(lt = calloc(1, sizeof(*lt))) || !(lt->parked = calloc(job->depth, sizeof(*lt->parked))))
		goto fail;
	lt->target_ns = job->lat_target_ns;
	lt->window_ns = job->lat_window_ns;
	lt->pct = job->lat_pct > 0 ? job->lat_pct : 100;
	lt->run = job->lat_run;
	lt->max = job->depth;
	lt->qd = lt->low = 1;
	lt->high = job->depth;
	if (dir_stats_init_hist(&lt->fin))
		goto fail;
	w->lt = lt;
	return 0;
fail:
	if (lt)
		free(lt->parked);
	free(lt);
	return -ENOMEM;
}

void worker_lat_free(struct worker *w)
{
	if (!w->lt)
		return;
	dir_stats_release(&w->lt->fin);
	free(w->lt->parked);
	free(w->lt);
	w->lt = NULL;
}

void lat_target_done(struct worker *w, const struct io_req *r, uint64_t now)
{
	struct worker_lat *lt = w->lt;
	uint64_t lat = clock_since(now, r->start_ns);

	/* Warm-up I/Os are not judged (fio's ramp_time); nor what completes after the end. */
	if (!lt->started || lt->finished)
		return;
	lt->done++;
	if (lat > lt->target_ns) {
		lt->failed++;
		lt->over_ns = lat;
		lt->over_target = w->tg ? r->file : w->target;
		if (lat > lt->worst_ns)
			lt->worst_ns = lat;
		/* Every I/O must hold: a depth fails at its first I/O over the target. */
		if (lt->pct >= 100)
			lt->down_now = true;
	}
	if (lt->end_run && r->res == (int32_t)r->len)
		dir_stats_add(&lt->fin, r->len, lat);
}

void lat_target_cycle(struct worker_lat *lt, uint64_t now)
{
	lt->t_cycle = now;
	lt->ios_cycle = lt->done;
	lt->failed = 0;
	lt->down_now = false;
}

/* fio's __lat_target_failed(): halves towards the last depth that held. */
static enum lat_step step_down(struct worker_lat *lt)
{
	if (lt->qd == 1)
		return lt->pct >= 100 ? LAT_FATAL : LAT_NONE;
	lt->high = lt->qd;
	if (lt->qd == lt->low)
		lt->low--;
	lt->qd = (lt->qd + lt->low) / 2;
	lt->stable = 0;
	return LAT_DOWN;
}

/* fio's lat_target_success(): doubles, or bisects towards the depth that failed. */
static enum lat_step step_up(struct worker_lat *lt)
{
	unsigned qd = lt->qd;

	lt->low = lt->qd;
	/* Stuck one below a failed depth: after three windows that held, try that depth again. */
	if (lt->qd + 1 == lt->high && ++lt->stable >= 3) {
		lt->high++;
		lt->stable = 0;
	}
	lt->qd = lt->high != lt->max ? (lt->qd + lt->high) / 2 : lt->qd * 2;
	if (lt->qd > lt->max)
		lt->qd = lt->max;
	if (!lt->run && lt->qd == qd)
		return lt->end_run ? LAT_DONE : LAT_FINAL;
	return LAT_UP;
}

enum lat_step lat_target_step(struct worker_lat *lt, uint64_t now)
{
	uint64_t ios;

	if (lt->down_now) {
		lt->down_now = false;
		return step_down(lt);
	}
	if (now - lt->t_cycle < lt->window_ns || (ios = lt->done - lt->ios_cycle) == 0)
		return LAT_NONE;
	/* The share of the window's I/Os within the target, against the percentile. */
	if ((double)(ios - lt->failed) * 100.0 >= lt->pct * (double)ios)
		return step_up(lt);
	return step_down(lt);
}

int worker_lat_fold(const struct worker *w, struct result *res)
{
	const struct worker_lat *lt = w->lt;
	struct result_lat *rl = &res->lat;

	if (!lt)
		return 0;
	if (rl->threads == 0 || lt->qd < rl->depth_min)
		rl->depth_min = lt->qd;
	if (lt->qd > rl->depth_max)
		rl->depth_max = lt->qd;
	rl->threads++;
	rl->finished += lt->finished;
	if (lt->finished && (double)(lt->t_fin_end - lt->t_fin) / 1e9 > rl->seconds)
		rl->seconds = (double)(lt->t_fin_end - lt->t_fin) / 1e9;
	if (lt->worst_ns > rl->worst_ns)
		rl->worst_ns = lt->worst_ns;
	return lt->finished ? dir_stats_merge(&rl->fin, &lt->fin) : 0;
}
