/*
 * The worker: one thread's queue-depth loop, from its start time to its drain. Everything it
 * touches per I/O is its own (struct worker), but for the emulated caps' buckets (atomic) and
 * the run's halt flag.
 */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

#include "core/throttle.h"
#include "core/worker.h"
#include "util/clock.h"

static __attribute__((noinline, cold)) void worker_fail(struct worker *w, struct io_req *r,
							 int err)
{
	if (!w->err) {
		w->err = err;
		w->err_offset = r->offset;
		w->err_write = r->write;
	}
	w->st[r->write].errors++;
}

/* Accounts one finished I/O; `now` is when its completion was seen. */
static inline __attribute__((always_inline)) void complete(struct worker *w, struct io_req *r,
							   uint64_t now)
{
	if (__builtin_expect(r->res != (int32_t)r->len, 0)) {
		worker_fail(w, r, r->res < 0 ? r->res : -EIO);
		return;
	}
	if (__builtin_expect(r->write && w->fsync_every, 0) &&
	    ++w->writes_since_fsync >= w->fsync_every) {
		w->writes_since_fsync = 0;
		if (fsync(w->fd) < 0)
			worker_fail(w, r, -errno);
	}
	if (!r->counted)
		return;
	if (w->no_latency)
		dir_stats_count(&w->st[r->write], r->len);
	else
		dir_stats_add(&w->st[r->write], r->len, clock_since(now, r->start_ns));
}

static void trace_io(struct worker *w, const struct io_req *r)
{
	fprintf(w->trace, "%u %u %c %llu %u\n", w->target, w->thread, r->write ? 'W' : 'R',
		(unsigned long long)r->offset, r->len);
}

/*
 * Fills in the next I/O of this worker: its latency counts from `start`, and it counts in the
 * measured window when `at` falls in it.
 */
static inline void prepare(struct worker *w, struct io_req *r, uint64_t start, uint64_t at)
{
	bool wr;

	r->offset = workload_next(&w->wl, &wr);
	r->write = wr;
	r->start_ns = start;
	r->counted = at >= w->t_meas_start && at < w->t_meas_end;
	if (__builtin_expect(w->trace != NULL, 0))
		trace_io(w, r);
}

/*
 * Requests not in flight, first freed first reused: under a cap, a last-in-first-out list would
 * leave the slot at its bottom waiting for the whole run, and its latency out of the results.
 */
struct slots {
	struct io_req **q;
	unsigned head, n, cap;
};

static inline struct io_req *slots_pop(struct slots *f)
{
	struct io_req *r = f->q[f->head];

	f->head = f->head + 1 == f->cap ? 0 : f->head + 1;
	f->n--;
	return r;
}

static inline void slots_push(struct slots *f, struct io_req *r)
{
	unsigned i = f->head + f->n;

	f->q[i >= f->cap ? i - f->cap : i] = r;
	f->n++;
}

/* Accounts a finished I/O and puts its slot back: the next I/O in it asks from `now`. */
static inline void slot_release(struct worker *w, struct io_req *r, uint64_t now,
				struct slots *free_)
{
	complete(w, r, now);
	r->start_ns = now;
	slots_push(free_, r);
}

/* Accounts what reap() returned. */
static inline void reaped(struct worker *w, int n, uint64_t now, unsigned *inflight,
			  struct slots *free_)
{
	for (int i = 0; i < n; i++)
		slot_release(w, w->done[i], now, free_);
	*inflight -= (unsigned)n;
}

/* The end of the run, a stop request, or this worker's own failure. */
static inline bool should_stop(const struct worker *w, uint64_t now)
{
	return now >= w->t_end || __atomic_load_n(w->halt, __ATOMIC_RELAXED) || w->err;
}

/*
 * Waits until `until` (an I/O's due time in the open loop, or when an emulated cap lets it go),
 * reaping completions meanwhile so they are timed within ~100 us and their slots come free.
 * Returns false when the run ends first (its end, a stop request, an engine failure).
 */
static bool wait_until(struct worker *w, uint64_t until, uint64_t *now, unsigned *inflight,
		       struct slots *free_)
{
	while (*now < until) {
		if (__atomic_load_n(w->halt, __ATOMIC_RELAXED) || *now >= w->t_end)
			return false;
		uint64_t wake = until < w->t_end ? until : w->t_end;
		if (*inflight) {
			int n = w->ops->reap(w, 0, w->done, w->depth);
			if (n < 0) {
				if (!w->err)
					w->err = n;
				return false;
			}
			if (n)
				reaped(w, n, clock_ns(), inflight, free_);
			if (wake - *now > 100000)
				wake = *now + 100000;
		} else if (wake - *now > 100000000) {
			wake = *now + 100000000; /* notice a stop request within 100 ms */
		}
		clock_sleep_until(wake);
		*now = clock_ns();
	}
	return true;
}

static void open_loop_advance(struct worker *w, uint64_t now)
{
	uint64_t lag = clock_since(now, w->next_due);
	double step = w->rate_interval_ns;

	if (lag > w->sched_max_lag)
		w->sched_max_lag = lag;
	if (lag > 1000000 && lag > (uint64_t)step)
		w->sched_late++;
	if (w->poisson) {
		/* Exponential gaps from the thread's own generator: -ln(U) * mean. */
		double u = (double)((workload_rand(&w->wl) >> 11) + 1) * 0x1.0p-53;
		step = -log(u) * w->rate_interval_ns;
	}
	w->next_due += (uint64_t)step;
}

/*
 * The queue-depth loop. Keeps `depth` I/Os in flight: issue into every free slot, hand the
 * batch to the kernel, reap at least one, account, repeat. Stops issuing at the end of the
 * cooldown, on a stop request or on the first error, then drains what is in flight.
 */
void *worker_main(void *arg)
{
	struct worker *w = arg;
	const struct engine_ops *ops = w->ops;
	struct slots free_ = {.q = w->freel, .n = w->depth, .cap = w->depth};
	unsigned inflight = 0, tick = 0;
	int c = 0;
	bool stopping = false;
	const bool open_loop = w->rate_interval_ns > 0;
	uint64_t now;

	/*
	 * A file table of the thread's own: the kernel then looks a descriptor up without taking
	 * a reference for each system call (as in a single-threaded process such as fio's job
	 * processes or bench/limit.c). The copy holds the target, ring and trace descriptors the
	 * runner opened; they are closed with it when the thread exits. Nothing is lost if the
	 * kernel refuses.
	 */
	(void)unshare(CLONE_FILES);
	if (ops->start)
		ops->start(w);
	clock_sleep_until(w->t_start);
	/* The TSC-based clock may trail CLOCK_MONOTONIC by a few ns: wait it out, so the first
	 * I/O falls inside the window and kernel counts match ours exactly. */
	while ((now = clock_ns()) < w->t_start)
		;
	for (unsigned i = 0; i < w->depth; i++)
		w->reqs[i].start_ns = now;
	for (;;) {
		unsigned queued = 0;

		while (free_.n && !stopping) {
			/*
			 * Popped first: the waits below reap, and push what they reap on the list.
			 * Closed loop, the I/O asks for its slot from when the slot came free (kept in
			 * start_ns); open loop, it is due on its schedule and its latency counts from
			 * then (coordinated omission). An emulated cap delays it as the cloud's
			 * throttle does, and that wait counts in its latency, as it would on the VM.
			 */
			struct io_req *r = slots_pop(&free_);
			uint64_t t_issue;
			if (open_loop) {
				if (!wait_until(w, w->next_due, &now, &inflight, &free_)) {
					slots_push(&free_, r);
					stopping = true;
					break;
				}
				t_issue = w->next_due;
				open_loop_advance(w, now);
			} else {
				t_issue = r->start_ns > now ? now : r->start_ns;
			}
			if (w->throttle &&
			    !wait_until(w, throttle_reserve(w->throttle, w->bs, t_issue), &now,
					&inflight, &free_)) {
				slots_push(&free_, r);
				stopping = true;
				break;
			}
			/*
			 * Closed loop, an I/O counts when the cap let it go (counted when it asked,
			 * each thread's I/O waiting for a token at the end of the window would be
			 * added to it); open loop, when it was due.
			 */
			prepare(w, r, t_issue, open_loop ? t_issue : now);
			enum io_q q = ops->queue(w, r);
			if (q == IO_Q_BUSY) {
				slots_push(&free_, r);
				break;
			}
			if (--w->ios_left == 0)
				stopping = true;
			if (q == IO_Q_QUEUED) {
				inflight++;
				/* --batch: hand them over N at a time (each one, by default). */
				if (++queued >= w->batch) {
					if ((c = ops->commit(w)) < 0)
						goto failed;
					queued = 0;
				}
				continue;
			}
			/* Completed inside queue(): a synchronous engine. */
			if (!w->no_latency || (++tick & 1023) == 0)
				now = clock_ns();
			slot_release(w, r, now, &free_);
			if (should_stop(w, now))
				stopping = true;
		}
		/* An engine whose reap() submits saves a system call when a blocking reap follows. */
		if (queued && (!(ops->flags & ENGINE_REAP_SUBMITS) || stopping || !inflight) &&
		    (c = ops->commit(w)) < 0)
			goto failed;
		if (!inflight) {
			if (stopping || w->err)
				break;
			continue;
		}
		int n = ops->reap(w, 1, w->done, w->depth);
		if (n < 0) {
			c = n;
			goto failed;
		}
		now = clock_ns();
		reaped(w, n, now, &inflight, &free_);
		if (should_stop(w, now))
			stopping = true;
	}
	goto out;
failed:
	/* The engine itself failed: what is in flight cannot be accounted for. */
	if (!w->err)
		w->err = c;
out:
	if (w->err)
		__atomic_store_n(w->halt, 2, __ATOMIC_RELAXED);
	__atomic_store_n(&w->t_done, clock_ns(), __ATOMIC_RELEASE);
	return NULL;
}
