/*
 * Emulated caps as GCRA buckets (the "virtual scheduling" form of a token bucket): each bucket
 * holds one number, the theoretical arrival time (TAT) of the next I/O, advanced with a
 * compare-and-swap. No lock is taken: threads of a target share only that word.
 *
 * A cap of r per second with a credit bucket is GCRA(1/r, tau): an I/O may go once
 * TAT - tau <= now. tau is how far ahead of the clock the disk may run, i.e. its burst credit;
 * idle time refills it at r per second, as Azure credit bursting and AWS gp2 do. The burst rate
 * R itself is a second bucket with (almost) no credit. With base r, burst R and a full bucket
 * lasting S seconds at R, tau = S * (R - r) / r.
 */
#include "core/throttle.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/clock.h"

#define NS 1e9
/*
 * Slack that lets a late-waking thread catch up instead of losing its slots. Wake-ups are late by
 * 0.1 ms typically but by 2-20 ms at the 99th-99.9th percentile on a loaded 2-CPU VM: with 1 ms,
 * such delays were lost for good (a cap of 10,000 IOPS delivered 9,447 in one of three runs).
 * See throttle_set_start() for how buckets start.
 */
#define TAU_MIN_NS 50000000ull

struct gcra {
	uint64_t tat;            /* written by every worker of the bucket: own cache line */
	double ns_per_unit;
	uint64_t tau;
	bool bytes;              /* units are bytes (MB/s cap) rather than operations */
	bool credit;             /* this is the base bucket of a burst cap */
	enum cap_bucket kind;
	/* Waits it decided (it let the I/O go last), ns: on the line tat already dirties. */
	uint64_t held_ns;
} __attribute__((aligned(64)));

struct throttle {
	struct gcra b[4];
	unsigned n;
	uint64_t io_unit;
	struct throttle *vm;     /* the run-wide caps, or NULL */
};

struct throttle_set {
	struct throttle *disk;   /* one per target, or NULL when there is no per-disk cap */
	struct throttle *vm;
	unsigned ntargets;
};

/* kind is the sustained bucket's (CAP_*_IOPS or CAP_*_MBPS); its burst bucket is kind + 1. */
static void add_cap(struct throttle *t, double rate, double burst, double burst_s, bool bytes,
		    enum cap_bucket kind)
{
	double unit = bytes ? 1e6 : 1.0; /* MB/s are 10^6 B/s */

	if (rate <= 0)
		return;
	struct gcra *g = &t->b[t->n++];
	g->bytes = bytes;
	g->kind = kind;
	g->ns_per_unit = NS / (rate * unit);
	g->tau = TAU_MIN_NS;
	if (burst > rate && burst_s > 0) {
		g->credit = true;
		g->tau = (uint64_t)(burst_s * (burst - rate) / rate * NS);
		struct gcra *p = &t->b[t->n++];
		p->bytes = bytes;
		p->kind = kind + 1;
		p->ns_per_unit = NS / (burst * unit);
		p->tau = TAU_MIN_NS;
	}
}

static void throttle_setup(struct throttle *t, const struct job_caps *c, uint64_t io_unit,
			   bool vm)
{
	memset(t, 0, sizeof(*t));
	t->io_unit = io_unit;
	add_cap(t, c->iops, c->burst_iops, c->burst_seconds, false,
		vm ? CAP_VM_IOPS : CAP_DISK_IOPS);
	add_cap(t, c->mbps, c->burst_mbps, c->burst_seconds, true,
		vm ? CAP_VM_MBPS : CAP_DISK_MBPS);
}

static bool caps_set(const struct job_caps *c)
{
	return c->iops > 0 || c->mbps > 0;
}

int throttle_set_new(const struct job *job, struct throttle_set **out)
{
	struct throttle_set *s;

	*out = NULL;
	if (!caps_set(&job->cap) && !caps_set(&job->vm_cap))
		return 0;
	if (!(s = calloc(1, sizeof(*s))))
		return -ENOMEM;
	s->ntargets = job->ntargets;
	if (caps_set(&job->vm_cap)) {
		if (posix_memalign((void **)&s->vm, 64, sizeof(*s->vm)))
			goto nomem;
		throttle_setup(s->vm, &job->vm_cap, job->cap_io_unit, true);
	}
	if (caps_set(&job->cap)) {
		if (posix_memalign((void **)&s->disk, 64, job->ntargets * sizeof(*s->disk)))
			goto nomem;
		for (unsigned i = 0; i < job->ntargets; i++) {
			throttle_setup(&s->disk[i], &job->cap, job->cap_io_unit, false);
			s->disk[i].vm = s->vm;
		}
	}
	*out = s;
	return 0;
nomem:
	throttle_set_free(s);
	return -ENOMEM;
}

void throttle_set_free(struct throttle_set *s)
{
	if (!s)
		return;
	free(s->disk);
	free(s->vm);
	free(s);
}

static void throttle_start(struct throttle *t, uint64_t start)
{
	for (unsigned i = 0; i < t->n; i++)
		t->b[i].tat = t->b[i].credit ? start : start + t->b[i].tau;
}

/*
 * A credit bucket starts full, as a new Azure disk or gp2 volume does; the slack of the other
 * buckets starts used up, so that it never shows as a burst at the start of a run.
 */
void throttle_set_start(struct throttle_set *s, uint64_t start)
{
	if (!s)
		return;
	if (s->vm)
		throttle_start(s->vm, start);
	for (unsigned i = 0; s->disk && i < s->ntargets; i++)
		throttle_start(&s->disk[i], start);
}

struct throttle *throttle_set_get(struct throttle_set *s, unsigned target)
{
	return s->disk ? &s->disk[target] : s->vm;
}

/* Reserves `units` in g for an I/O arriving at t; returns when it may go. */
static uint64_t gcra_take(struct gcra *g, double units, uint64_t t)
{
	uint64_t inc = (uint64_t)(units * g->ns_per_unit);
	uint64_t old = __atomic_load_n(&g->tat, __ATOMIC_RELAXED), go, nw;

	do {
		go = old > g->tau && old - g->tau > t ? old - g->tau : t;
		nw = (old > go ? old : go) + inc;
	} while (!__atomic_compare_exchange_n(&g->tat, &old, nw, true, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	return go;
}

/*
 * Every bucket is charged at the arrival time `now`, and the I/O waits for the latest of their
 * answers, so each bucket sees arrivals in time order. Charging the VM's bucket at the disk's
 * answer, a time in the future, moved the VM's TAT there: another target's I/O arriving now
 * then waited for that slot whenever the lead exceeded the VM's slack.
 */
static uint64_t throttle_take(struct throttle *t, uint32_t bytes, double ops, uint64_t now,
			      uint64_t go, struct gcra **last)
{
	for (unsigned i = 0; i < t->n; i++) {
		uint64_t g = gcra_take(&t->b[i], t->b[i].bytes ? (double)bytes : ops, now);
		if (g > go) {
			go = g;
			*last = &t->b[i];
		}
	}
	return go;
}

uint64_t throttle_reserve(struct throttle *t, uint32_t bytes, uint64_t now)
{
	/* I/Os above the unit count as several (a disk's and its VM's unit are the job's). */
	double ops = t->io_unit && bytes > t->io_unit
			     ? (double)((bytes + t->io_unit - 1) / t->io_unit) : 1.0;
	struct gcra *last = NULL;
	uint64_t go = throttle_take(t, bytes, ops, now, now, &last);

	if (t->vm)
		go = throttle_take(t->vm, bytes, ops, now, go, &last);
	/* The wait is the bucket's that answered last: it, not the others, held the I/O. */
	if (last)
		__atomic_add_fetch(&last->held_ns, go - now, __ATOMIC_RELAXED);
	return go;
}

static void add_held(const struct throttle *t, double held_s[CAP_BUCKETS])
{
	for (unsigned i = 0; i < t->n; i++)
		held_s[t->b[i].kind] += (double)__atomic_load_n(&t->b[i].held_ns,
								__ATOMIC_RELAXED) / NS;
}

void throttle_set_held(const struct throttle_set *s, double held_s[CAP_BUCKETS])
{
	for (unsigned i = 0; i < CAP_BUCKETS; i++)
		held_s[i] = 0;
	if (!s)
		return;
	if (s->vm)
		add_held(s->vm, held_s);
	for (unsigned i = 0; s->disk && i < s->ntargets; i++)
		add_held(&s->disk[i], held_s);
}

static double credit_pct(const struct throttle *t, bool bytes, uint64_t now)
{
	for (unsigned i = 0; i < t->n; i++) {
		const struct gcra *g = &t->b[i];
		if (!g->credit || g->bytes != bytes)
			continue;
		uint64_t tat = __atomic_load_n(&g->tat, __ATOMIC_RELAXED);
		uint64_t used = clock_since(tat, now);
		return used >= g->tau ? 0.0 : 100.0 * (double)(g->tau - used) / (double)g->tau;
	}
	return -1;
}

void throttle_set_credit(struct throttle_set *s, double *iops_pct, double *mbps_pct)
{
	uint64_t now = clock_ns();
	const struct throttle *t = s->disk ? &s->disk[0] : s->vm;

	*iops_pct = credit_pct(t, false, now);
	*mbps_pct = credit_pct(t, true, now);
	if (*iops_pct < 0 && *mbps_pct < 0 && s->vm && t != s->vm) {
		*iops_pct = credit_pct(s->vm, false, now);
		*mbps_pct = credit_pct(s->vm, true, now);
	}
}
