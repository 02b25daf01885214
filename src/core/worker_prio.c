/*
 * Priorities per I/O (--cmdprio, --cmdprio-class, --cmdprio-split; fio's cmdprio_*): which I/Os
 * of a thread carry an I/O priority, drawn from the thread's own generator, and the counts and
 * latencies of those that did, kept apart so a report can show what the priority bought.
 */
#include <errno.h>
#include <stdlib.h>

#include "core/job.h"
#include "core/result.h"
#include "core/worker.h"
#include "util/clock.h"

int worker_cmdprio_new(struct worker *w, const struct job *job, uint64_t seed)
{
	const struct job_cmdprio *c = &job->cmdprio;
	struct worker_cmdprio *cp;

	if (!c->on)
		return 0;
	if (!(cp = calloc(1, sizeof(*cp))))
		return -ENOMEM;
	cp->spec = c;
	for (unsigned d = 0; d < 2; d++)
		cp->ioprio[d] = c->class_set ? c->ioprio[d] : JOB_IOPRIO(JOB_IOPRIO_RT, 0);
	/* Its own stream from the run's seed (the one the result records), the thread and its
	 * target: the offsets drawn do not depend on whether priorities are on. */
	cp->rng = seed ^ (0x9e3779b97f4a7c15ull * (w->thread + 1)) ^
		  (0xbf58476d1ce4e5b9ull * (w->target + 1));
	if (dir_stats_init_hist(&cp->st[0]) || dir_stats_init_hist(&cp->st[1])) {
		dir_stats_release(&cp->st[0]);
		free(cp);
		return -ENOMEM;
	}
	w->cp = cp;
	return 0;
}

void worker_cmdprio_free(struct worker *w)
{
	if (!w->cp)
		return;
	dir_stats_release(&w->cp->st[0]);
	dir_stats_release(&w->cp->st[1]);
	free(w->cp);
	w->cp = NULL;
}

/* 0..99, uniform. */
static unsigned draw100(uint64_t *rng)
{
	return (unsigned)(((unsigned __int128)splitmix64(rng) * 100) >> 64);
}

void cmdprio_pick(struct worker *w, struct io_req *r)
{
	struct worker_cmdprio *cp = w->cp;
	const struct job_cmdprio *c = cp->spec;
	unsigned d = r->write ? 1 : 0;
	unsigned x, cum = 0;

	r->ioprio = 0;
	if (r->write == IO_TRIM)         /* a trim is done apart, with the thread's priority */
		return;
	if (!c->nsplit[d]) {
		if (c->pct[d] && draw100(&cp->rng) < c->pct[d])
			r->ioprio = cp->ioprio[d];
		return;
	}
	/* fio's cmdprio_bssplit: one draw, the entries of the I/O's size in turn, each its share
	 * (none for a size not listed, or past the shares' sum). */
	x = draw100(&cp->rng);
	for (unsigned i = 0; i < c->nsplit[d]; i++) {
		const struct job_cmdprio_bs *e = &c->split[d][i];
		if (e->bs != r->len || x >= (cum += e->pct))
			continue;
		r->ioprio = e->ioprio ? e->ioprio : cp->ioprio[d];
		return;
	}
}

void cmdprio_done(struct worker *w, const struct io_req *r, uint64_t now)
{
	struct dir_stats *s = &w->cp->st[r->write ? 1 : 0];

	if (w->no_latency)
		dir_stats_count(s, r->len);
	else
		dir_stats_add(s, r->len, clock_since(now, r->start_ns));
}

int worker_cmdprio_fold(const struct worker *w, struct result *res)
{
	int r;

	if (!w->cp)
		return 0;
	if ((r = dir_stats_merge(&res->prio[0], &w->cp->st[0])))
		return r;
	return dir_stats_merge(&res->prio[1], &w->cp->st[1]);
}
