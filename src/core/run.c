/*
 * One job of a run, from its result frame to its clean-up: engine, targets (through the write
 * gate), workers, and folding what the workers counted into the result. The group it runs in is
 * driven by runner.c; the per-second series by supervise.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/cpu.h"
#include "core/gate.h"
#include "core/iobuf.h"
#include "core/run.h"
#include "core/sprandom.h"
#include "core/target.h"
#include "core/throttle.h"
#include "core/worker.h"
#include "core/worker_extra.h"
#include "core/worker_log.h"
#include "core/worker_trim.h"
#include "core/workload.h"
#include "core/zbd.h"
#include "engine/engine.h"
#include "util/clock.h"
#include "util/err.h"
#include "util/field.h"
#include "util/parse.h"

static void worker_free(struct worker *w)
{
	if (!w)
		return;
	if (w->io.eng && w->ops && w->ops->cleanup)
		w->ops->cleanup(&w->io);
	dir_stats_release(&w->st[0]);
	dir_stats_release(&w->st[1]);
	dir_stats_release(&w->st[2]);
	if (w->warm) {
		dir_stats_release(&w->warm[0]);
		dir_stats_release(&w->warm[1]);
		free(w->warm);
	}
	verify_free(w);
	worker_extra_free(w);
	worker_trim_free(w);
	worker_log_free(w);
	worker_cmdprio_free(w);
	worker_lat_free(w);
	free(w->zbd);
	sprandom_free(w->spr);
	free(w->tg);
	free(w->fdv);
	free(w->io.reqs);
	free(w->freel);
	free(w->done);
	free(w);
}

/* --verify: thread k's slice of a target, whole blocks where no other thread goes. */
static void verify_slice(const struct run *run, unsigned ti, unsigned thread, uint64_t *base,
			 uint64_t *len)
{
	const struct target *t = &run->targets[ti];
	uint32_t v = job_verify_block(run->job);

	*len = t->region_len / run->job->threads / v * v;
	*base = t->region_off + *len * thread;
}

/* The workload of thread `thread` over target ti's region (its slice when verifying), with
 * the job's shape. */
static int workload_for(struct run *run, struct workload *wl, unsigned ti, unsigned thread)
{
	const struct job *job = run->job;
	const struct target *t = &run->targets[ti];
	uint64_t base = t->region_off, len = t->region_len;
	unsigned k = thread, n = job->threads;
	int r;

	if (job->verify) {
		verify_slice(run, ti, thread, &base, &len);
		k = 0;
		n = 1;
	}
	if ((r = workload_init(wl, base, len, job->bs, job->align,
			       job->pattern == PATTERN_SEQUENTIAL, job->write_pct,
			       run->res->job.seed ^ (job->verify ? thread * 0x9e3779b97f4a7c15ull : 0),
			       ti, k, n)))
		return r;
	return workload_shape_attach(wl, run->shape, len, k, n);
}

/* Whether the block device (or the disk of a partition) has zones of its own. */
static bool zoned_device(dev_t dev)
{
	char path[96], v[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/zoned", major(dev), minor(dev));
	if (!(f = fopen(path, "re"))) {
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../queue/zoned", major(dev),
			 minor(dev));
		f = fopen(path, "re");
	}
	if (f) {
		if (!fgets(v, sizeof(v), f))
			v[0] = 0;
		fclose(f);
	}
	return v[0] && strncmp(v, "none", 4);
}

/* Emulated zones: the thread's view of its target's, which every job on the target shares. */
static int worker_zbd_new(struct run *run, struct worker *w, unsigned ti, unsigned thread)
{
	const struct job *job = run->job;
	const struct target *t = &run->targets[ti];
	const struct zbd_params p = {
		.zone_size = job->zone_size, .capacity = job->zone_capacity,
		.max_open = job->max_open_zones, .job_max_open = job->job_max_open_zones,
		.reset_threshold = job->zone_reset_threshold,
		.reset_frequency = job->zone_reset_frequency, .read_beyond_wp = job->read_beyond_wp};
	char *err = run->res->errmsg;
	size_t errlen = sizeof(run->res->errmsg);
	uint64_t ino = t->id.ino;
	struct zbd_set *s;
	int r;

	if (t->is_blockdev && zoned_device(t->dev))
		return err_set(err, errlen, -EINVAL, "%s: a zoned block device: iorate emulates "
			       "zones on files and devices that are not zoned, and does not "
			       "manage a device's own", t->path);
	/* A target that is not opened (the null engine) is known by its path alone. */
	for (const char *c = t->path; !t->id.ino && c && *c; c++)
		ino = (ino ^ (unsigned char)*c) * 0x100000001b3ull;
	if (!run->zbd_sets || !(w->zbd = calloc(1, sizeof(*w->zbd))))
		return -ENOMEM;
	if ((r = zbd_set_get(run->zbd_sets, t->id.dev, (ino_t)ino, t->size, &p, &s, err, errlen)) ||
	    (r = zbd_view_init(w->zbd, s, &p, t->region_off, t->region_len,
			       job->write_pct > 0 || job_trims(job),
			       job->pattern != PATTERN_SEQUENTIAL, (uint32_t)job_min_bs(job), thread,
			       &run->zbd_open, err, errlen)))
		return r;
	w->zbd->bs = run->shape ? 0 : (uint32_t)job->bs;
	return 0;
}

/* --sprandom: the pass over the target's region; the job ends with it. */
static int worker_spr_new(struct run *run, struct worker *w, unsigned ti)
{
	const struct job *job = run->job;
	const struct target *t = &run->targets[ti];
	int r = sprandom_new(t->region_len, (uint32_t)job->bs, job->spr_op > 0 ? job->spr_op : 0.15,
			     job->spr_regions ? job->spr_regions : 100, job->spr_cache,
			     run->res->job.seed, &w->spr, run->res->errmsg,
			     sizeof(run->res->errmsg));

	if (r)
		return r;
	w->spr_base = t->region_off;
	/* As fio, the pass's writes are the job's whatever its size or io_size said. */
	w->ios_left = sprandom_writes(w->spr);
	w->bytes_left = UINT64_MAX;
	return 0;
}

/* --verify: the worker's slice, which must hold more blocks than its I/Os in flight. */
static int worker_verify_new(struct run *run, struct worker *w, unsigned ti)
{
	const struct job *job = run->job;
	uint64_t base, len, max = workload_max_bs(run->shape, job->bs);
	uint32_t v = job_verify_block(job);
	char b1[32], b2[32];

	verify_slice(run, ti, w->thread, &base, &len);
	if (len / v <= 2ull * job->depth * (max / v)) {
		snprintf(run->res->errmsg, sizeof(run->res->errmsg),
			 FIELD("verify") ": each thread verifies a slice of its own, and %s of %s is "
			 "too small for %u I/Os of %s in flight; use fewer " FIELD("threads") " or "
			 "a larger target", fmt_size(len, b1, sizeof(b1)), job->targets[ti],
			 job->depth, fmt_size(max, b2, sizeof(b2)));
		return -EINVAL;
	}
	/* A plain sequential job sweeps each slice block after block (a shape may skip, rewind
	 * or mix in random offsets). */
	return verify_setup(w, base, len, v, (uint32_t)max, (enum verify_sum)job->verify,
			    run->res->job.seed, ti,
			    job->pattern == PATTERN_SEQUENTIAL && !run->shape);
}

/*
 * A thread that serves every target of the job (shared threads): a workload, a cap and
 * counts per target, the descriptors in one array the engine indexes. It starts on its share
 * of the targets, so the threads spread over them.
 */
static int worker_targets(struct run *run, struct worker *w, unsigned thread)
{
	const struct job *job = run->job;
	unsigned n = job->ntargets;
	int r;

	w->tg = calloc(n, sizeof(*w->tg));
	w->fdv = calloc(n, sizeof(*w->fdv));
	if (!w->tg || !w->fdv)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		struct worker_target *t = &w->tg[i];
		w->fdv[i] = run->targets[i].fd;
		if ((r = workload_for(run, &t->wl, i, thread)))
			return r;
		t->throttle = run->throttles ? throttle_set_get(run->throttles, i) : NULL;
		t->per_visit = run->targets[i].region_len / job->bs ? run->targets[i].region_len /
									  job->bs : 1;
	}
	w->ntg = n;
	w->io.fds = w->fdv;
	w->io.nfds = n;
	w->fs_mode = job->file_service;
	w->fs_n = job->file_service_n;
	w->fs_rng = run->res->job.seed ^ (0x9e3779b97f4a7c15ull * (thread + 1));
	w->cur = (unsigned)((uint64_t)n * thread / job->threads);
	w->cur = w->cur ? w->cur - 1 : n - 1;
	/* The thread's own generator (open-loop gaps) is a stream of its own. */
	w->wl = w->tg[0].wl;
	workload_seed(&w->wl, w->fs_rng ^ 0xd1b54a32d192ed03ull);
	return 0;
}

/* What every worker has: its settings, the start staggering of an open loop, the counters. */
static int worker_settings(struct run *run, struct worker *w, unsigned thread)
{
	const struct job *job = run->job;

	w->ops = run->ops;
	w->depth = job->depth;
	/* One submission per I/O lets a device whose I/Os the kernel hands to worker threads
	 * (zram, buffered files) start each while the next is prepared: on zram at QD32, io_uring
	 * did 435k IOPS against 240-330k with all 32 in one call. libaio reads zram within
	 * io_submit, where one call for what is ready saves 6% of CPU per I/O at QD32. But a
	 * batch of sequential I/Os is merged by the block layer into larger requests than the
	 * job asks (256 KiB at QD16 reached a virtio disk as 4 MiB, at 0.72 of the IOPS): those
	 * are submitted each, so the device sees the I/Os the job describes. */
	if (!job->batch)
		w->batch = run->ops->flags & ENGINE_SUBMIT_EACH ||
			   job->pattern == PATTERN_SEQUENTIAL ? 1 : job->depth;
	else
		w->batch = job->batch < job->depth ? job->batch : job->depth;
	w->thread = thread;
	w->ios_left = job->ios_per_thread ? job->ios_per_thread : UINT64_MAX;
	w->bytes_left = UINT64_MAX;
	/* --io-size: as a count of I/Os when they are all one size (no cost on the hot path). */
	if (job->io_bytes && (job->nbs_read || job->nbs_write))
		w->bytes_left = job->io_bytes;
	else if (job->io_bytes && (job->io_bytes + job->bs - 1) / job->bs < w->ios_left)
		w->ios_left = (job->io_bytes + job->bs - 1) / job->bs;
	w->fsync_every = job->fsync_every;
	w->fdatasync_every = job->fdatasync_every;
	w->think_ns = job->thinktime_ns;
	w->think_blocks = job->thinktime_blocks ? job->thinktime_blocks : 1;
	w->no_latency = job->no_latency;
	w->halt = &run->halt;
	if (job->rate_iops > 0) {
		w->rate_interval_ns = 1e9 * job->threads / job->rate_iops;
		w->poisson = job->arrival == ARRIVAL_POISSON;
		/* Threads of a target start staggered so their I/Os interleave evenly (from the
		 * start instant, added once it is fixed). */
		w->next_due = (uint64_t)(w->rate_interval_ns * thread / job->threads);
	}
	w->trace = run->trace.f;
	/* Histograms come with a direction's first latency (stats.h): a reading thread has no
	 * write one. Trims: only in a job that trims, whose worker_trim_new() makes its own. */
	dir_stats_init(&w->st[0]);
	dir_stats_init(&w->st[1]);
	dir_stats_init(&w->st[2]);
	if (worker_lat_new(w, job))
		return -ENOMEM;
	/* fio counts all of a job that ends within its ramp_time: kept aside until then. */
	if (job->warmup_ns && !job->time_ns) {
		if (!(w->warm = calloc(2, sizeof(*w->warm))))
			return -ENOMEM;
		dir_stats_init(&w->warm[0]);
		dir_stats_init(&w->warm[1]);
	}
	return worker_extra_new(w, job);
}

/* Its requests and engine, once its targets are set; its buffers are its slice of the job's. */
static int worker_slots(struct worker *w, const struct job *job, uint64_t bs, void *buf)
{
	int r = -ENOMEM;

	w->io.bs = (uint32_t)bs;
	w->buflen = (size_t)bs * job->depth;
	w->bufmem = buf;
	w->io.reqs = calloc(job->depth, sizeof(*w->io.reqs));
	w->freel = calloc(job->depth, sizeof(*w->freel));
	w->done = calloc(job->depth, sizeof(*w->done));
	if (!w->io.reqs || !w->freel || !w->done)
		return r;
	/* Incompressible contents for writes, so compressing devices cannot flatter the result;
	 * drawn from a copy of the generator, so the offsets do not depend on how much was drawn. */
	struct workload fill = w->wl;
	/* The null engine moves no bytes: its buffers stay untouched, and take no memory. */
	if (!(w->ops->flags & ENGINE_NO_IO))
		workload_fill(&fill, w->bufmem, w->buflen);
	for (unsigned i = 0; i < job->depth; i++) {
		w->io.reqs[i].buf = (char *)w->bufmem + (size_t)i * bs;
		w->io.reqs[i].len = (uint32_t)job->bs;
		w->io.reqs[i].idx = (uint16_t)i;
		w->freel[i] = &w->io.reqs[i];
	}
	w->io.opts = (job->sqpoll ? ENGINE_OPT_SQPOLL : 0) | (job->atomic ? ENGINE_OPT_ATOMIC : 0) |
		     (job->hipri ? ENGINE_OPT_HIPRI : 0) | (job->nowait ? ENGINE_OPT_NOWAIT : 0) |
		     (job->dontcache ? ENGINE_OPT_DONTCACHE : 0);
	return w->ops->init(&w->io, job->depth);
}

/* A job that trims: which of the worker's targets are devices (BLKDISCARD), files else. */
static int worker_trims(struct run *run, struct worker *w, unsigned ti)
{
	unsigned n = ti == UINT_MAX ? run->job->ntargets : 1;
	bool *blk;
	int r;

	if (!job_trims(run->job))
		return 0;
	if (!(blk = calloc(n, sizeof(*blk))))
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++)
		blk[i] = run->targets[ti == UINT_MAX ? i : ti].is_blockdev;
	r = worker_trim_new(w, run->job, run->res->job.seed, blk, n);
	free(blk);
	return r;
}

/* Thread `thread` of target ti, or, with shared threads (ti = UINT_MAX), of every target; its
 * buffers at buf. */
static int worker_new(struct run *run, unsigned ti, unsigned thread, void *buf,
		      struct worker **out)
{
	const struct job *job = run->job;
	struct worker *w = aligned_alloc(64, sizeof(*w));
	int r;

	if (!w)
		return -ENOMEM;
	memset(w, 0, sizeof(*w));
	if ((r = worker_settings(run, w, thread)))
		goto fail;
	if (ti == UINT_MAX) {
		w->io.fd = run->targets[0].fd;
		r = worker_targets(run, w, thread);
	} else {
		w->target = ti;
		w->io.fd = run->targets[ti].fd;
		w->io.fds = &w->io.fd;
		w->io.nfds = 1;
		w->throttle = run->throttles ? throttle_set_get(run->throttles, ti) : NULL;
		r = workload_for(run, &w->wl, ti, thread);
		worker_until_full(w, run->targets[ti].region_len, job->threads);
		if (!r && job->verify)
			r = worker_verify_new(run, w, ti);
		if (!r && job->zbd)
			r = worker_zbd_new(run, w, ti, thread);
		if (!r && job->sprandom)
			r = worker_spr_new(run, w, ti);
	}
	if (r || (r = worker_slots(w, job, workload_max_bs(run->shape, job->bs), buf)) ||
	    (r = worker_trims(run, w, ti)) ||
	    (r = worker_cmdprio_new(w, job, run->res->job.seed)) ||
	    (r = worker_log_new(w, job, run->logs)))
		goto fail;
	w->per_io = w->extra || w->trim || w->cp || w->zbd || w->spr; /* runner.c: --flow's */
	*out = w;
	return 0;
fail:
	worker_free(w);
	return r;
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
	bool lost = false;

	for (unsigned i = 0; i < run->nworkers; i++) {
		struct worker *w = run->workers[i];
		worker_extra_merge(res, w);
		worker_log_finish(w);
		res->zone_resets += w->zbd ? w->zbd->resets : 0;
		if (w->rate_interval_ns > 0) {
			double behind = (double)clock_since(w->t_done, w->next_due) / NS;
			res->sched_ios_late += w->sched_late;
			if ((double)w->sched_max_lag / NS > res->sched_max_lag_s)
				res->sched_max_lag_s = (double)w->sched_max_lag / NS;
			if (behind > res->sched_behind_s)
				res->sched_behind_s = behind;
		}
		/* A direction that counted I/Os without a histogram ran out of memory for it. */
		for (int d = 0; d < 3 && !run->job->no_latency; d++)
			lost |= w->st[d].lat_n < w->st[d].ios && !w->st[d].hist;
		if (dir_stats_merge(&res->read, &w->st[0]) ||
		    dir_stats_merge(&res->write, &w->st[1]) ||
		    dir_stats_merge(&res->trim, &w->st[2]) || worker_cmdprio_fold(w, res) ||
		    worker_lat_fold(w, res))
			lost = true;
		/* A thread of one target: its latencies are the target's too (its histograms
		 * handed over, after the job's got their copy); a thread of several targets gives
		 * them their counts only. */
		for (unsigned t = 0; w->tg && t < w->ntg; t++) {
			struct target_result *tr = &res->targets[t];
			dir_stats_merge_counts(&tr->read, w->tg[t].ios[0], w->tg[t].bytes[0],
					       w->tg[t].errors[0]);
			dir_stats_merge_counts(&tr->write, w->tg[t].ios[1], w->tg[t].bytes[1],
					       w->tg[t].errors[1]);
			dir_stats_merge_counts(&tr->trim, w->tg[t].ios[2], w->tg[t].bytes[2],
					       w->tg[t].errors[2]);
		}
		if (!w->tg && (dir_stats_merge_take(&res->targets[w->target].read, &w->st[0]) ||
			       dir_stats_merge_take(&res->targets[w->target].write, &w->st[1]) ||
			       dir_stats_merge_take(&res->targets[w->target].trim, &w->st[2])))
			lost = true;
	}
	if (lost)
		result_add_note(res, "out of memory while merging the latency histograms: some "
				"percentiles are missing (the counts are complete)");
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
				"use direct I/O (O_DIRECT) to measure the device",
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
		if (!strcmp(name, "sync") && job->depth > 1)
			return err_set(err, errlen, -EINVAL, FIELD("depth") " %u needs an "
				       "asynchronous engine, and io_uring is unavailable here; use "
				       FIELD("engine") " aio or " FIELD("depth") " 1", job->depth);
	} else if (job->engine_for[0]) {
		snprintf(why, sizeof(why), "in place of %s", job->engine_for);
	} else {
		snprintf(why, sizeof(why), "asked for");
	}
	if (!(run->ops = engine_find(name)))
		return err_set(err, errlen, -EINVAL, FIELD("engine") ": '%s' is not an engine of "
			       "this build (%s)", name, engine_names());
	if (job->cmdprio.on && !(run->ops->flags & ENGINE_IOPRIO))
		return err_set(err, errlen, -EINVAL, "%s: needs an engine that gives each I/O its "
			       "own priority (uring or aio), not %s", job->cmdprio.nsplit[0] ?
			       FIELD("cmdprio-split") : FIELD("cmdprio"), name);
	if (job->atomic && !(run->ops->flags & ENGINE_ATOMIC))
		return err_set(err, errlen, -EINVAL, FIELD("atomic") ": the %s engine cannot issue "
			       "atomic writes (sync, uring and aio can)", name);
	if ((job->hipri || job->nowait || job->dontcache) && !(run->ops->flags & ENGINE_RWF))
		return err_set(err, errlen, -EINVAL, "%s: the flags of each I/O need the pvsync2 "
			       "engine (preadv2, pwritev2), not %s", job->hipri ? FIELD("hipri") :
			       job->nowait ? FIELD("nowait") : FIELD("dontcache"), name);
	if (job->sqpoll && strcmp(name, "uring"))
		return err_set(err, errlen, -EINVAL, FIELD("sqpoll") ": io_uring's polling thread "
			       "needs the uring engine, not %s", name);
	int r = engine_probe(run->ops);
	if (r)
		return err_set(err, errlen, r, FIELD("engine") ": %s does not work here: %s", name,
			       strerror(-r));
	if (job_trims(job) && run->ops->flags & ENGINE_NO_IO)
		return err_set(err, errlen, -EINVAL,
			       FIELD("engine") ": %s moves no bytes and cannot trim", name);
	snprintf(res->engine, sizeof(res->engine), "%s", name);
	snprintf(res->engine_why, sizeof(res->engine_why), "%s", why);
	/* The figures are not those of the engine the job named: said with them, not only in a
	 * dry run. */
	if (job->engine_for[0])
		result_add_note(res, "%s engine ran as iorate's %s engine: %s", job->engine_for,
				name, job->engine_differs);
	snprintf(res->job.engine, sizeof(res->job.engine), "%s", name);
	return 0;
}

/* A target that cannot be trimmed is said before the run, by name. */
static int trim_probe(const struct target *t, const char *path, char *err, size_t errlen)
{
	int r = t->fd < 0 ? -EBADF : worker_trim_probe(t->fd, t->is_blockdev, t->size);

	if (r)
		return err_set(err, errlen, r, "%s: cannot trim it (" FIELD("trim") "): %s%s", path,
			       strerror(-r), r != -EOPNOTSUPP ? "" : t->is_blockdev
				       ? " (the device does not discard)"
				       : " (its filesystem cannot punch holes)");
	return 0;
}

static int open_targets(struct run *run, const struct runner_hooks *hooks, char *err,
			size_t errlen)
{
	const struct job *job = run->job;
	struct result *res = run->res;

	int r;

	/* What can be refused without touching anything is refused before the first target. */
	/* The null engine opens nothing, but refuses what a real run would (a dry run). */
	if ((r = runner_precheck(job, err, errlen)))
		return r;
	for (unsigned i = 0; i < job->ntargets; i++) {
		struct target *t = &run->targets[i];
		struct target_result *tr = &res->targets[i];
		r = run->ops->flags & ENGINE_NO_IO
			    ? target_virtual(t, job->targets[i], job, err, errlen)
			    : target_open(t, job->targets[i], job,
					  job->expect && job->expect[i].ino ? &job->expect[i] : NULL,
					  fill_progress,
					  (void *)hooks, run->user_stop, err, errlen);
		res->ntargets = i + 1;
		tr->path = strdup(job->targets[i]);
		tr->created = t->created;
		tr->id = t->id;
		if (r)
			return r;
		if (t->opened && strcmp(t->opened, job->targets[i]))
			tr->opened = strdup(t->opened);
		if (t->forced)
			result_add_note(res, "%s", t->forced);
		tr->is_blockdev = t->is_blockdev;
		if (job_trims(job) && (r = trim_probe(t, job->targets[i], err, errlen)))
			return r;
		tr->size = t->size;
		tr->region_offset = t->region_off;
		tr->region_len = t->region_len;
		snprintf(tr->device, sizeof(tr->device), "%s", t->devname);
	}
	return 0;
}

static void collect_errors(struct run *run, char *err, size_t errlen, int *rc)
{
	for (unsigned i = 0; i < run->nworkers; i++) {
		struct worker *w = run->workers[i];
		if (!w->err)
			continue;
		*rc = w->err;
		/* --latency-target at depth 1 with every I/O to keep within it: no I/O failed. */
		if (w->lt && w->lt->fatal) {
			(void)err_set(err, errlen, w->err,
				      "%s: an I/O took %.3f ms at depth 1, above "
				      FIELD("latency-target") " %.3f ms (with "
				      FIELD("latency-percentile") " 100 every I/O must keep "
				      "within it)", run->job->targets[w->err_target],
				      (double)w->lt->over_ns / 1e6, (double)w->lt->target_ns / 1e6);
			return;
		}
		*rc = err_set(err, errlen, w->err, "%s: %s failed at offset %llu: %s",
			      run->job->targets[w->err_target],
			      w->err_write == IO_TRIM ? "trim" : w->err_write ? "write" : "read",
			      (unsigned long long)w->err_offset, strerror(-w->err));
		return;
	}
}

/* The result's frame: when, where, the job as run (with its seed), one slot per target. */
static int run_setup(struct run *run)
{
	const struct job *job = run->job;
	struct result *res = run->res;
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
	run->targets = calloc(job->ntargets, sizeof(*run->targets));
	res->targets = calloc(job->ntargets, sizeof(*res->targets));
	if (!run->targets || !res->targets)
		return -ENOMEM;
	for (unsigned i = 0; i < job->ntargets; i++) {
		run->targets[i].fd = -1;
		run->targets[i].dirfd = -1;
		dir_stats_init(&res->targets[i].read);
		dir_stats_init(&res->targets[i].write);
		dir_stats_init(&res->targets[i].trim);
	}
	return 0;
}

/* fio's invalidate: the job starts with none of its targets in the page cache. */
static void invalidate(struct run *run)
{
	for (unsigned i = 0; i < run->job->ntargets; i++) {
		struct target *t = &run->targets[i];
		if (t->fd < 0)
			continue;
		/* A device's buffers need root (BLKFLSBUF); a file's pages need nothing. */
		if (t->is_blockdev)
			(void)ioctl(t->fd, BLKFLSBUF, 0);
		else if (fdatasync(t->fd) == 0)
			/* Only clean pages can be dropped: what the fill wrote is written back first. */
			(void)posix_fadvise(t->fd, 0, 0, POSIX_FADV_DONTNEED);
	}
}

/*
 * Thousands of targets need as many descriptors (and a directory each for the files iorate
 * creates): the soft limit is raised to the hard one when the job needs more. When even that
 * is too few, the job is refused before a file is made.
 */
static int enough_files(struct run *run, char *err, size_t errlen)
{
	uint64_t need = 2ull * run->job->ntargets + 64;
	struct rlimit rl;

	if (run->ops->flags & ENGINE_NO_IO || getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= need)
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need)
		return err_set(err, errlen, -EMFILE, "%u targets need about %llu open files, and "
			       "the limit is %llu (ulimit -Hn)", run->job->ntargets,
			       (unsigned long long)need, (unsigned long long)rl.rlim_max);
	rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need * 2 ? need * 2
									    : rl.rlim_max;
	return setrlimit(RLIMIT_NOFILE, &rl) ? -errno : 0;
}

int run_prepare(struct run *run, const struct runner_hooks *hooks)
{
	char *err = run->res->errmsg;
	size_t errlen = sizeof(run->res->errmsg);
	int rc;

	if ((rc = run_setup(run)) || (rc = choose_engine(run, err, errlen)) ||
	    (rc = enough_files(run, err, errlen)) || (rc = open_targets(run, hooks, err, errlen)))
		return rc;
	if (run->user_stop && *run->user_stop) {
		run->res->interrupted = true;
		return -EINTR;
	}
	if ((rc = throttle_set_new(run->job, &run->throttles)))
		return err_set(err, errlen, rc, "cannot set up the emulated caps: %s",
			       strerror(-rc));
	if ((rc = workload_shape_new(run->job, &run->shape)))
		return err_set(err, errlen, rc, "cannot set up the workload: %s", strerror(-rc));
	if (run->job->trace_path &&
	    (rc = gate_out_open(&run->trace, FIELD("trace"), run->job->trace_path, err, errlen)))
		return rc;
	run->trace.partial = true; /* a stopped run's trace still tells what was issued */
	if (run->job->invalidate)
		invalidate(run);
	return 0;
}

int run_workers_new(struct run *run)
{
	const struct job *job = run->job;
	uint64_t max_bs = workload_max_bs(run->shape, job->bs);
	/* Each worker's slots start on a page of their own (O_DIRECT needs the alignment). */
	size_t slice = ((size_t)max_bs * job->depth + 4095) / 4096 * 4096;
	int r = 0;

	bool shared = job->shared_threads && job->ntargets > 1;

	/* Shared threads: `threads` in all, each serving every target; else per target. */
	run->nworkers = shared ? job->threads : job->ntargets * job->threads;
	/* One mapping for the job's buffers, as fio allocates one region per job: a huge page
	 * serves several workers rather than each rounding its own up to one. */
	if (!(run->workers = calloc(run->nworkers, sizeof(*run->workers))) ||
	    (r = iobuf_alloc(&run->bufs, slice * run->nworkers, max_bs)))
		r = r ? r : -ENOMEM;
	else
		for (unsigned i = 0; i < run->nworkers; i++)
			if ((r = worker_new(run, shared ? UINT_MAX : i / job->threads,
					    i % job->threads, (char *)run->bufs.base + slice * i,
					    &run->workers[i])))
				break;
	if (r && !run->res->errmsg[0])
		snprintf(run->res->errmsg, sizeof(run->res->errmsg),
			 "cannot set up the workers: %s", strerror(-r));
	return r;
}

void run_set_start(struct run *run, uint64_t t0)
{
	const struct job *job = run->job;

	run->t_start = t0 + job->startdelay_ns;
	run->t_meas_start = run->t_start + job->warmup_ns;
	/* No time limit (--time none): the workers end at --io-size or --ios. */
	run->t_meas_end = job->time_ns ? run->t_meas_start + job->time_ns : UINT64_MAX / 2;
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
}

/*
 * A worker's stack: its deepest path (worker_main through an engine, a --trace line's fprintf,
 * a log's write) used under 10 KiB, measured with a stack filled with a pattern; 256 KiB leaves
 * a wide margin and keeps a huge page (THP "always") from backing each of ten thousand stacks,
 * as it may the default 8 MiB. Sanitizers keep the default: their frames are many times larger.
 */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define WORKER_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || defined(WORKER_SANITIZED)
#define WORKER_STACK 0
#else
#define WORKER_STACK (256u * 1024)
#endif

int run_workers_start(struct run *run)
{
	pthread_attr_t attr;
	int r, saved;

	if ((r = run_ioprio_enter(run->job, &saved, run->res->errmsg, sizeof(run->res->errmsg))))
		return r;
	if ((r = -pthread_attr_init(&attr))) {
		run_ioprio_leave(saved);
		return r;
	}
	if (WORKER_STACK)
		(void)pthread_attr_setstacksize(&attr, WORKER_STACK);
	for (unsigned i = 0; i < run->nworkers && !r; i++)
		if (!(r = -pthread_create(&run->workers[i]->tid, &attr, worker_main,
					  run->workers[i])))
			run->nstarted++;
	pthread_attr_destroy(&attr);
	run_ioprio_leave(saved);
	if (r) {
		/* Stop the ones already started; every worker, started or not, is freed later. */
		__atomic_store_n(&run->halt, 2, __ATOMIC_RELAXED);
		snprintf(run->res->errmsg, sizeof(run->res->errmsg),
			 "cannot start the workers: %s", strerror(-r));
	}
	return r;
}

/* What the reader should know about how the run went. */
static void run_notes(struct run *run)
{
	const struct job *job = run->job;
	struct result *res = run->res;

	note_page_cache(run);
	if (job->sprandom)
		result_add_note(res, "SPRandom preconditioning: the region written once over its "
				"physical capacity (%.0f%% over-provisioning) in %u regions whose invalid "
				"blocks follow a steady state's (Desnoyers 2012, as fio's sprandom)",
				(job->spr_op > 0 ? job->spr_op : 0.15) * 100,
				job->spr_regions ? job->spr_regions : 100);
	if (job->zbd)
		result_add_note(res, "emulated zones of %llu bytes (each written only at its write "
				"pointer): %llu zone resets%s", (unsigned long long)job->zone_size,
				(unsigned long long)res->zone_resets,
				!job->read_beyond_wp && job->write_pct < 100 ?
				"; reads read only what this run wrote (zones start empty, and "
				"reads stop at the write pointers)" : "");
	if (job->rate_iops > 0 && res->sched_ios_late)
		result_add_note(res,
				"the target could not keep up with the open-loop rate of %g I/Os per "
				"second: %llu I/Os were issued late, up to %.3f s behind schedule "
				"(%.3f s behind at the end); latency counts from each I/O's scheduled "
				"time",
				job->rate_iops, (unsigned long long)res->sched_ios_late,
				res->sched_max_lag_s, res->sched_behind_s);
}

/* fio's end_fsync: what the job wrote reaches the device before the job counts as done. */
static void end_fsync(struct run *run)
{
	for (unsigned i = 0; i < run->job->ntargets; i++)
		if (run->targets[i].fd >= 0 && fsync(run->targets[i].fd) < 0 && !run->rc) {
			run->rc = -errno;
			snprintf(run->res->errmsg, sizeof(run->res->errmsg), "%s: fsync: %s",
				 run->job->targets[i], strerror(errno));
		}
}

/* What the job wrote of each target, from its workers in order (a target's threads' slices
 * follow one another). */
static int verify_written_all(struct run *run, struct verify_result *vr)
{
	unsigned n = run->job->ntargets;
	int r = 0;

	if (!(vr->written = calloc(n, sizeof(*vr->written))))
		return -ENOMEM;
	vr->nwritten = n;
	for (unsigned t = 0; t < n; t++)
		vr->written[t].target = t;
	for (unsigned i = 0; i < run->nworkers && !r; i++) {
		struct worker *w = run->workers[i];
		if (w->vf)
			r = verify_written_collect(w, &vr->written[w->target]);
	}
	return r;
}

/*
 * --verify, once the workers are done: every block each wrote is read back from the device
 * (the page cache dropped first) and checked; what every check found goes into the result. A
 * bad block fails the run.
 */
static void verify_after(struct run *run)
{
	struct verify_result *vr = &run->res->verify;
	int r = 0;

	vr->sum = (enum verify_sum)run->job->verify;
	vr->block = job_verify_block(run->job);
	for (unsigned i = 0; i < run->nworkers; i++) {
		struct worker *w = run->workers[i];
		int fd = run->targets[w->target].fd;
		if (!w->vf)
			continue;
		if (!run->targets[w->target].is_blockdev && fdatasync(fd) == 0)
			(void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		if (!r && (r = verify_final(w, fd)))
			snprintf(run->res->errmsg, sizeof(run->res->errmsg),
				 "%s: reading back for " FIELD("verify") ": %s",
				 run->job->targets[w->target], strerror(-r));
		vr->checked += w->vf->res.checked;
		vr->unknown += w->vf->res.unknown;
		vr->bad += w->vf->res.bad - w->vf->res.nbads;
		for (unsigned k = 0; k < w->vf->res.nbads; k++)
			verify_result_add(vr, &w->vf->res.bads[k]);
	}
	verify_result_sort(vr);
	if (!r && job_writes(run->job))
		r = verify_written_all(run, vr);
	if (r && !run->rc)
		run->rc = r;
	if (vr->bad && !run->rc) {
		const struct verify_bad *b = &vr->bads[0];
		run->rc = -EIO;
		snprintf(run->res->errmsg, sizeof(run->res->errmsg),
			 "verification failed: %llu of %llu blocks bad; the first, %s at byte %llu: %s",
			 (unsigned long long)vr->bad, (unsigned long long)vr->checked,
			 run->job->targets[b->target], (unsigned long long)b->offset,
			 verify_why_text(b->why));
	}
}

/*
 * A job bounded by size that ended within its warm-up: fio's ramp_time never ended, so fio
 * counts every I/O of it; so does this, over the whole run (trims and the counts of threads
 * sharing targets excepted).
 */
static void warm_only(struct run *run, uint64_t last_done)
{
	bool any = false;

	if (!run->nworkers || !run->workers[0]->warm || last_done >= run->t_meas_start)
		return;
	for (unsigned i = 0; i < run->nworkers; i++) {
		struct worker *w = run->workers[i];
		if (w->warm && (dir_stats_merge(&w->st[0], &w->warm[0]) ||
				dir_stats_merge(&w->st[1], &w->warm[1])))
			return;
		any |= w->warm && (dir_stats_any(&w->warm[0]) || dir_stats_any(&w->warm[1]));
	}
	run->t_meas_start = run->t_start;
	if (any)
		result_add_note(run->res, "the job ended within its warm-up (fio's ramp_time): "
				"every I/O is counted, as fio counts them");
}

void run_finish(struct run *run, const struct cpu_usage *cpu)
{
	struct result *res = run->res;
	uint64_t end = run->t_meas_end, last_done = 0;

	for (unsigned i = 0; i < run->nstarted; i++) {
		pthread_join(run->workers[i]->tid, NULL);
		if (run->workers[i]->t_done > last_done)
			last_done = run->workers[i]->t_done;
	}
	run->nstarted = 0;
	/* The window ends at its set end, at a stop, or when every worker finished its --ios. */
	if (run->halt && run->t_halted && run->t_halted < end)
		end = run->t_halted;
	if (last_done < end)
		end = last_done;
	warm_only(run, last_done);
	run_series_finish(run, end);
	merge_results(run);
	res->cpu = *cpu;
	res->seconds = end > run->t_meas_start ? (double)(end - run->t_meas_start) / NS : 0;
	if (run->halt == 1 && run->t_halted < run->t_meas_end)
		res->interrupted = true;
	if (run->job->end_fsync && job_writes(run->job))
		end_fsync(run);
	if (run->job->verify)
		verify_after(run);
	run_errors_note(res);
	run_notes(run);
	collect_errors(run, res->errmsg, sizeof(res->errmsg), &run->rc);
}

int run_release(struct run *run)
{
	const struct job *job = run->job;
	struct result *res = run->res;
	char *err = res->errmsg;
	size_t errlen = sizeof(res->errmsg);
	int rc = run->rc;

	/* The zones it left open stay open for the later groups, no longer counted as its. */
	if (run->zbd_sets)
		zbd_sets_forget(*run->zbd_sets, &run->zbd_open);
	/* Stopped before the workload: while a file was filled, or just after. */
	if (run->user_stop && *run->user_stop && rc == -EINTR) {
		res->interrupted = true;
		rc = 0;
	}
	if (run->nstarted) {
		/* Started workers of a group that failed to start: stopped above, joined here. */
		__atomic_store_n(&run->halt, 2, __ATOMIC_RELAXED);
		for (unsigned i = 0; i < run->nstarted; i++)
			pthread_join(run->workers[i]->tid, NULL);
	}
	/* The worker array itself may be what could not be allocated. */
	for (unsigned i = 0; run->workers && i < run->nworkers; i++)
		worker_free(run->workers[i]);
	free(run->workers);
	iobuf_release(&run->bufs);
	for (unsigned i = 0; run->targets && i < job->ntargets; i++)
		if (target_close(&run->targets[i], job->keep && !job->scratch) == -ESTALE)
			result_add_note(res, "%s was replaced during the run by a file iorate did not "
					"create; it was left in place", job->targets[i]);
	free(run->targets);
	if (run->throttles) {
		throttle_set_held(run->throttles, res->held_s);
		res->has_held = true;
	}
	throttle_set_free(run->throttles);
	workload_shape_free(run->shape);
	/* The trace of a run that failed or was stopped still tells what was issued. */
	if (run->trace.f) {
		char terr[256];
		int tr = gate_out_commit(&run->trace, terr, sizeof(terr));
		if (tr && !rc) {
			rc = err_set(err, errlen, tr, "%s", terr);
		} else if (tr) {
			result_add_note(res, "%s", terr);
		}
	}
	res->error = rc;
	return rc;
}
