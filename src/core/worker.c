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

#include "core/job.h"
#include "core/throttle.h"
#include "core/worker.h"
#include "core/worker_extra.h"
#include "core/worker_log.h"
#include "core/worker_trim.h"
#include "core/sprandom.h"
#include "core/zbd.h"
#include "util/clock.h"

static __attribute__((noinline, cold)) void worker_fail(struct worker *w, struct io_req *r,
							 int err)
{
	if (__builtin_expect(w->extra != NULL, 0) && worker_error_tolerated(w, r, err))
		return;
	if (!w->err) {
		w->err = err;
		w->err_offset = r->offset;
		w->err_write = r->write;
		w->err_target = w->tg ? r->file : w->target;
	}
	w->st[r->write].errors++;
	if (w->tg)
		w->tg[r->file].errors[r->write]++;
}

/* --fsync N and fdatasync=N: every Nth write of the thread is followed by one. */
static __attribute__((noinline)) void sync_after_write(struct worker *w, struct io_req *r)
{
	if (w->fsync_every && ++w->writes_since_fsync >= w->fsync_every) {
		w->writes_since_fsync = 0;
		if (fsync(w->io.fds[r->file]) < 0)
			worker_fail(w, r, -errno);
	}
	if (w->fdatasync_every && ++w->writes_since_fdatasync >= w->fdatasync_every) {
		w->writes_since_fdatasync = 0;
		if (fdatasync(w->io.fds[r->file]) < 0)
			worker_fail(w, r, -errno);
	}
}

/* Accounts one finished I/O; `now` is when its completion was seen. */
static inline __attribute__((always_inline)) void complete(struct worker *w, struct io_req *r,
							   uint64_t now)
{
	if (__builtin_expect(w->vf != NULL, 0))
		verify_done(w, r, r->res == (int32_t)r->len);
	if (__builtin_expect(r->res != (int32_t)r->len, 0)) {
		worker_fail(w, r, r->res < 0 ? r->res : -EIO);
		return;
	}
	if (__builtin_expect(r->write && (w->fsync_every | w->fdatasync_every), 0))
		sync_after_write(w, r);
	if (__builtin_expect(w->lt != NULL, 0))
		lat_target_done(w, r, now);
	if (!r->counted) {
		if (__builtin_expect(w->warm != NULL, 0) && r->write < 2)
			dir_stats_add(&w->warm[r->write], r->len, clock_since(now, r->start_ns));
		return;
	}
	if (__builtin_expect(w->log != NULL, 0))
		worker_log_io(w, r, now);
	if (__builtin_expect(r->ioprio != 0, 0))
		cmdprio_done(w, r, now);
	if (__builtin_expect(w->tg != NULL, 0)) {
		w->tg[r->file].ios[r->write]++;
		w->tg[r->file].bytes[r->write] += r->len;
	}
	if (w->no_latency)
		dir_stats_count(&w->st[r->write], r->len);
	else
		dir_stats_add(&w->st[r->write], r->len, clock_since(now, r->start_ns));
}

static void trace_io(struct worker *w, const struct io_req *r)
{
	fprintf(w->trace, "%u %u %c %llu %u\n", w->tg ? r->file : w->target, w->thread,
		"RWT"[r->write], (unsigned long long)r->offset, r->len);
}

/* A thread serving several targets moves on (fio's file_service_type). */
static void next_target(struct worker *w)
{
	switch (w->fs_mode) {
	case FILES_RANDOM:
		w->cur = (unsigned)(((unsigned __int128)splitmix64(&w->fs_rng) * w->ntg) >> 64);
		w->cur_left = w->fs_n ? w->fs_n : 1;
		break;
	case FILES_SEQUENTIAL:
		/* One pass over a target (its size in blocks) before the next, unless N says. */
		w->cur = w->cur + 1 >= w->ntg ? 0 : w->cur + 1;
		w->cur_left = w->fs_n ? w->fs_n : w->tg[w->cur].per_visit;
		break;
	default:
		w->cur = w->cur + 1 >= w->ntg ? 0 : w->cur + 1;
		w->cur_left = w->fs_n ? w->fs_n : 1;
	}
}

static __attribute__((noinline)) void draw_shared(struct worker *w, struct io_req *r)
{
	struct worker_target *t;
	bool wr;

	if (w->cur_left == 0)
		next_target(w);
	w->cur_left--;
	t = &w->tg[w->cur];
	r->file = w->cur;
	r->offset = workload_next(&t->wl, &wr, &r->len);
	r->write = wr;
	w->throttle = t->throttle;
}

/* --verify: draws until no block of the I/O is in flight, then claims them (and makes a
 * write's blocks). The slice has more blocks than the I/Os in flight can hold (job.c). */
static __attribute__((noinline)) void draw_verified(struct worker *w, struct io_req *r)
{
	bool wr;

	do {
		r->offset = workload_next(&w->wl, &wr, &r->len);
		r->write = wr;
	} while (!verify_claim(w, r));
}

/* The next I/O of this worker: where, which way, how long (before it waits for its turn, so
 * an emulated cap charges its real size). */
static inline void draw(struct worker *w, struct io_req *r)
{
	bool wr;

	if (__builtin_expect(w->tg != NULL, 0)) {
		draw_shared(w, r);
		return;
	}
	if (__builtin_expect(w->vf != NULL, 0)) {
		draw_verified(w, r);
		return;
	}
	r->offset = workload_next(&w->wl, &wr, &r->len);
	r->write = wr;
}

/* Its latency counts from `start`, and it counts in the measured window when `at` is in it. */
static inline void stamp(struct worker *w, struct io_req *r, uint64_t start, uint64_t at)
{
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
	/* fio's thinktime: the thread pauses after every think_blocks completions. */
	if (__builtin_expect(w->think_ns != 0, 0) && ++w->think_count >= w->think_blocks) {
		w->think_count = 0;
		w->think_until = now + w->think_ns;
	}
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
	/* What a batch has queued goes to the kernel first: the wait must not hold it back. */
	int c = *now < until && *inflight ? w->ops->commit(&w->io) : 0;

	if (c < 0) {
		if (!w->err)
			w->err = c;
		return false;
	}
	while (*now < until) {
		/* An I/O it reaped may have failed: the thread ends now, not at the due time. */
		if (should_stop(w, *now))
			return false;
		uint64_t wake = until < w->t_end ? until : w->t_end;
		if (*inflight) {
			int n = w->ops->reap(&w->io, 0, w->done, w->depth);
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
 * The thread's start: its own file table, the engine's start hook, then the common start
 * instant. Returns the time the first I/O may be issued.
 */
static uint64_t worker_begin(struct worker *w)
{
	uint64_t now;

	/*
	 * A file table of the thread's own: the kernel then looks a descriptor up without taking
	 * a reference for each system call (as in a single-threaded process such as fio's job
	 * processes or bench/limit.c). The copy holds the target, ring and trace descriptors the
	 * runner opened; they are closed with it when the thread exits. Nothing is lost if the
	 * kernel refuses.
	 */
	(void)unshare(CLONE_FILES);
	if (w->ops->start)
		w->ops->start(&w->io);
	clock_sleep_until(w->t_start);
	/* Its flow counts its weight from its start, as fio's flow_init_job does: a job that
	 * starts later (--start-delay) holds no one back before it runs. */
	if (w->flow)
		__atomic_add_fetch(&w->flow->weight, w->flow_weight, __ATOMIC_RELAXED);
	/* The TSC-based clock may trail CLOCK_MONOTONIC by a few ns: wait it out, so the first
	 * I/O falls inside the window and kernel counts match ours exactly. */
	while ((now = clock_ns()) < w->t_start)
		;
	for (unsigned i = 0; i < w->depth; i++)
		w->io.reqs[i].start_ns = now;
	return now;
}

/*
 * When the I/O in slot r may go, into *t_issue. Closed loop, it asks from when its slot came
 * free (kept in start_ns); open loop, it is due on its schedule and its latency counts from
 * then (coordinated omission). An emulated cap delays it as the cloud's throttle does, and that
 * wait counts in its latency, as it would on the VM. False: the run ended while it waited.
 */
static inline bool await_turn(struct worker *w, struct io_req *r, bool open_loop, uint64_t *now,
			      uint64_t *t_issue, unsigned *inflight, struct slots *free_)
{
	if (__builtin_expect(w->think_until > *now, 0) &&
	    !wait_until(w, w->think_until, now, inflight, free_))
		return false;
	if (open_loop) {
		if (!wait_until(w, w->next_due, now, inflight, free_))
			return false;
		*t_issue = w->next_due;
		open_loop_advance(w, *now);
	} else {
		*t_issue = r->start_ns > *now ? *now : r->start_ns;
	}
	return !w->throttle ||
	       wait_until(w, throttle_reserve(w->throttle, r->len, *t_issue), now, inflight,
			  free_);
}

/*
 * --flow (fio's flow): before an I/O, a thread whose share of its flow's I/Os is above its share
 * of the weights is held: with --flow-sleep, it lets what is in flight complete and sleeps that
 * long; without, it reaps what completed and asks again. A held I/O's latency counts from when
 * it was let go, as fio's does. False: the run ended while it was held.
 */
static __attribute__((noinline)) bool flow_turn(struct worker *w, struct io_req *r,
						uint64_t *now, unsigned *inflight,
						struct slots *free_)
{
	struct flow_group *g = w->flow;
	bool held = false;

	for (;;) {
		uint64_t count = __atomic_load_n(&g->count, __ATOMIC_RELAXED);
		uint64_t weight = __atomic_load_n(&g->weight, __ATOMIC_RELAXED);
		/* count_mine / count > weight_mine / weight, without division */
		if ((unsigned __int128)w->flow_count * weight <=
		    (unsigned __int128)w->flow_weight * count)
			break;
		held = true;
		if (should_stop(w, *now))
			return false;
		/* What is queued goes to the kernel first: a blocking reap would wait for it. */
		int c = w->flow_sleep_ns && *inflight ? w->ops->commit(&w->io) : 0;
		if (c < 0) {
			w->err = w->err ? w->err : c;
			return false;
		}
		while (w->flow_sleep_ns && *inflight) {
			int n = w->ops->reap(&w->io, *inflight, w->done, w->depth);
			if (n < 0) {
				w->err = w->err ? w->err : n;
				return false;
			}
			reaped(w, n, *now = clock_ns(), inflight, free_);
		}
		if (w->flow_sleep_ns) {
			if (!wait_until(w, *now + w->flow_sleep_ns, now, inflight, free_))
				return false;
			continue;
		}
		int n = *inflight ? w->ops->reap(&w->io, 0, w->done, w->depth) : 0;
		if (n < 0) {
			w->err = w->err ? w->err : n;
			return false;
		}
		if (n)
			reaped(w, n, clock_ns(), inflight, free_);
		else
			sched_yield();
		*now = clock_ns();
	}
	__atomic_add_fetch(&g->count, 1, __ATOMIC_RELAXED);
	w->flow_count++;
	if (held)
		r->start_ns = *now;
	return true;
}

/*
 * --latency-target: after completions, what the search says. A shallower queue or the final
 * window first lets every I/O in flight complete (fio quiesces too), then parks the slots
 * above the depth; a deeper one gives parked slots back, their next I/O asking from now.
 * True when the thread is done (its final window is over, or it failed at depth 1).
 */
static __attribute__((noinline)) bool lat_turn(struct worker *w, uint64_t now,
					       unsigned *inflight, struct slots *free_)
{
	struct worker_lat *lt = w->lt;
	enum lat_step s;

	if (now < w->t_meas_start)
		return false;
	/* The search starts with the measure: the warm-up (fio's ramp_time) is not judged. */
	if (!lt->started) {
		lt->started = true;
		lat_target_cycle(lt, now);
		return false;
	}
	if ((s = lat_target_step(lt, now)) == LAT_NONE)
		return false;
	if (s == LAT_FATAL) {
		lt->fatal = true;
		w->err_target = lt->over_target;
		if (!w->err)
			w->err = -ETIMEDOUT;
		return true;
	}
	if (s == LAT_DONE) {
		lt->finished = true;
		lt->t_fin_end = now;
		return true;
	}
	/* What is queued goes to the kernel first: the drain below waits for it. */
	int c = (s == LAT_DOWN || s == LAT_FINAL) && *inflight ? w->ops->commit(&w->io) : 0;
	if (c < 0) {
		w->err = w->err ? w->err : c;
		return true;
	}
	while ((s == LAT_DOWN || s == LAT_FINAL) && *inflight) {
		int n = w->ops->reap(&w->io, *inflight, w->done, w->depth);
		if (n < 0) {
			w->err = w->err ? w->err : n;
			return true;
		}
		reaped(w, n, now = clock_ns(), inflight, free_);
	}
	while (free_->n + *inflight > lt->qd && free_->n)
		lt->parked[lt->nparked++] = slots_pop(free_);
	while (free_->n + *inflight < lt->qd && lt->nparked) {
		struct io_req *r = lt->parked[--lt->nparked];
		r->start_ns = now;
		slots_push(free_, r);
	}
	if (s == LAT_FINAL) {
		lt->end_run = true;
		lt->t_fin = now;
	}
	lat_target_cycle(lt, now);
	return false;
}

/*
 * What a drawn I/O gets before it waits for its turn, in a job that asks for any of it (one
 * test on the hot path for all): the contents of a write, whether a read becomes a trim, its
 * own priority, and its flow's turn. False: the run ended while its flow held it.
 */
static __attribute__((noinline)) bool before_issue(struct worker *w, struct io_req *r,
						   uint64_t *now, unsigned *inflight,
						   struct slots *free_)
{
	/* SPRandom: the pass's own offsets; its end is the job's. */
	if (w->spr && !sprandom_next(w->spr, &r->offset))
		return false;
	if (w->spr)
		r->offset += w->spr_base;
	if (w->trim)
		worker_trim_draw(w, r);
	/* Emulated zones move the I/O to a write pointer, or to written data; nothing left for
	 * it to do ends the thread's work, as fio's does. */
	if (w->zbd && !zbd_adjust(w->zbd, r->write, &r->offset, &r->len))
		return false;
	if (w->extra && r->write == 1)
		worker_write_data(w, r);
	if (w->cp)
		cmdprio_pick(w, r);
	return !w->flow || flow_turn(w, r, now, inflight, free_);
}

/* --latency-target: the search starts at depth 1. */
static void lat_start(struct worker *w, struct slots *free_)
{
	while (free_->n > w->lt->qd)
		w->lt->parked[w->lt->nparked++] = slots_pop(free_);
}

/* An I/O drawn but not issued (the run ends, or the engine is busy): its slot goes back. */
static inline void slot_unused(struct worker *w, struct io_req *r, struct slots *free_)
{
	if (w->vf)
		verify_cancel(w, r);
	slots_push(free_, r);
}

/* Counts an issued I/O against --number and --size: true when it was the last one. */
static inline bool issued_last(struct worker *w, const struct io_req *r)
{
	bool last = --w->ios_left == 0;
	if (__builtin_expect(w->bytes_left != UINT64_MAX, 0) &&
	    (w->bytes_left = w->bytes_left > r->len ? w->bytes_left - r->len : 0) == 0)
		last = true;
	return last;
}

/* After completions: the end of the run, or (--latency-target) the end of this thread's search. */
static inline bool done_after(struct worker *w, uint64_t now, unsigned *inflight,
			      struct slots *free_)
{
	return should_stop(w, now) ||
	       (__builtin_expect(w->lt != NULL, 0) && lat_turn(w, now, inflight, free_));
}

/* The thread's end: a failure stops the others; the runner waits on t_done. */
static void *worker_end(struct worker *w, int engine_err)
{
	/* The engine itself failed: what is in flight cannot be accounted for. */
	if (engine_err < 0 && !w->err)
		w->err = engine_err;
	if (w->err)
		__atomic_store_n(w->halt, 2, __ATOMIC_RELAXED);
	/* Its flow goes on without it (fio's flow_exit_job). */
	if (w->flow) {
		__atomic_sub_fetch(&w->flow->count, w->flow_count, __ATOMIC_RELAXED);
		__atomic_sub_fetch(&w->flow->weight, w->flow_weight, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&w->t_done, clock_ns(), __ATOMIC_RELEASE);
	return NULL;
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
	uint64_t now = worker_begin(w);

	if (__builtin_expect(w->lt != NULL, 0))
		lat_start(w, &free_);

	for (;;) {
		unsigned queued = 0;

		while (free_.n && !stopping) {
			/* Popped first: the waits of await_turn() reap, and push what they reap. */
			struct io_req *r = slots_pop(&free_);
			uint64_t t_issue;
			draw(w, r);
			if ((__builtin_expect(w->per_io, 0) &&
			     !before_issue(w, r, &now, &inflight, &free_)) ||
			    !await_turn(w, r, open_loop, &now, &t_issue, &inflight, &free_)) {
				slot_unused(w, r, &free_);
				stopping = true;
				break;
			}
			/*
			 * Closed loop, an I/O counts when the cap let it go (counted when it asked,
			 * each thread's I/O waiting for a token at the end of the window would be
			 * added to it); open loop, when it was due.
			 */
			stamp(w, r, t_issue, open_loop ? t_issue : now);
			enum io_q q = ops->queue(&w->io, r);
			if (q == IO_Q_BUSY) {
				slot_unused(w, r, &free_);
				break;
			}
			if (issued_last(w, r))
				stopping = true;
			if (q == IO_Q_QUEUED) {
				inflight++;
				/* --batch: hand them over N at a time (each one, by default). The
				 * last free slot's goes with the wait below when reap() submits:
				 * nothing is prepared meanwhile, and it saves a system call. */
				if (++queued >= w->batch &&
				    (free_.n || !(ops->flags & ENGINE_REAP_SUBMITS) || stopping)) {
					if ((c = ops->commit(&w->io)) < 0)
						return worker_end(w, c);
					queued = 0;
				}
				continue;
			}
			/* Completed inside queue(): a synchronous engine. */
			if (!w->no_latency || (++tick & 1023) == 0)
				now = clock_ns();
			slot_release(w, r, now, &free_);
			if (done_after(w, now, &inflight, &free_))
				stopping = true;
		}
		/* An engine whose reap() submits saves a system call when a blocking reap follows. */
		if (queued && (!(ops->flags & ENGINE_REAP_SUBMITS) || stopping || !inflight) &&
		    (c = ops->commit(&w->io)) < 0)
			return worker_end(w, c);
		if (!inflight) {
			if (stopping || w->err)
				break;
			continue;
		}
		int n = ops->reap(&w->io, 1, w->done, w->depth);
		if (n < 0)
			return worker_end(w, n);
		now = clock_ns();
		reaped(w, n, now, &inflight, &free_);
		if (done_after(w, now, &inflight, &free_))
			stopping = true;
	}
	return worker_end(w, 0);
}
