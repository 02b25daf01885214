/*
 * A worker's entries in fio's log files, in fio 3.33's line format (src/core/worker_log.h):
 * "time, value, direction, block size[, offset], priority", time in milliseconds from the
 * measure's start. Latencies are in nanoseconds, bandwidth in KiB/s. iorate times one latency
 * per I/O, so the lat and clat logs hold the same values and the slat log stays empty (as fio's
 * does with its synchronous engines).
 */
#include "core/worker_log.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/worker.h"

static inline uint64_t ms_since(const struct worker *w, uint64_t now)
{
	return now > w->t_meas_start ? (now - w->t_meas_start) / 1000000 : 0;
}

int worker_log_new(struct worker *w, const struct job *job, const struct log_files *lf)
{
	struct worker_log *l;

	if (!lf || !job_logs_on(job))
		return 0;
	if (!(l = calloc(1, sizeof(*l))))
		return -ENOMEM;
	w->log = l;
	l->spec = &job->log;
	l->f = lf->f;
	l->avg_ms = job->log.avg_ns / 1000000;
	l->hist_ms = job->log.hist_ns / 1000000;
	if (job->ioprio_class)
		l->prio = (uint16_t)(job->ioprio_class << 13 | job->ioprio_level);
	if (!l->avg_ms && !(l->buf = malloc(LOG_BUF * sizeof(*l->buf))))
		return -ENOMEM;
	for (unsigned d = 0; d < 3; d++) {
		l->hist_last[d] = UINT64_MAX;
		if (l->f[LOG_HIST] && l->hist_ms &&
		    !(l->hist[d] = calloc(LOG_HIST_BINS, sizeof(uint64_t))))
			return -ENOMEM;
	}
	return 0;
}

void worker_log_free(struct worker *w)
{
	if (!w->log)
		return;
	for (unsigned d = 0; d < 3; d++)
		free(w->log->hist[d]);
	free(w->log->buf);
	free(w->log);
	w->log = NULL;
}

/* The line's end: the offset (--log-offset) and the priority (in full with --log-prio, else
 * whether it is of the real-time class, as fio prints them). */
static void line_end(FILE *f, const struct job_logs *s, uint64_t offset, uint16_t prio)
{
	if (s->offset)
		fprintf(f, ", %" PRIu64, offset);
	if (s->prio)
		fprintf(f, ", 0x%04x\n", prio);
	else
		fprintf(f, ", %u\n", (unsigned)(prio >> 13 == 1));
}

/* An averaged entry: no block size, offset or priority, as fio writes a window's. */
static void put_avg(const struct worker_log *l, enum log_kind k, uint64_t ms, uint64_t val,
		    unsigned dir)
{
	FILE *f = l->f[k];

	if (!f)
		return;
	fprintf(f, "%" PRIu64 ", %" PRIu64 ", %u, 0", ms, val, dir);
	line_end(f, l->spec, 0, 0);
}

/* Per-I/O entries: each log's lines in turn, so each file is written in one stretch. */
static __attribute__((noinline, cold)) void flush_samples(struct worker_log *l)
{
	static const enum log_kind kinds[] = {LOG_LAT, LOG_CLAT, LOG_BW, LOG_IOPS};

	for (unsigned k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		FILE *f = l->f[kinds[k]];
		if (!f)
			continue;
		flockfile(f);
		for (unsigned i = 0; i < l->n; i++) {
			const struct log_sample *s = &l->buf[i];
			uint64_t v = s->lat_ns;
			/* fio's per-I/O rate: bytes * 10^6 / its latency in ns */
			if (kinds[k] == LOG_BW)
				v = s->lat_ns ? (uint64_t)s->len * 1000000 / s->lat_ns : 0;
			else if (kinds[k] == LOG_IOPS)
				v = 1;
			fprintf(f, "%" PRIu64 ", %" PRIu64 ", %u, %u", s->t_ns / 1000000, v, s->dir,
				s->len);
			line_end(f, l->spec, s->offset, s->prio);
		}
		funlockfile(f);
	}
	l->n = 0;
}

static void window_put(struct worker_log *l, unsigned d, uint64_t ms)
{
	struct log_window *win = &l->win[d];
	uint64_t v = l->spec->max ? win->max : (uint64_t)(win->sum / (double)win->n + 0.5);

	put_avg(l, LOG_LAT, ms, v, d);
	put_avg(l, LOG_CLAT, ms, v, d);
	win->sum = 0;
	win->n = win->max = 0;
}

/* --log-avg: the window's latencies, and the bandwidth and IOPS since the last entry. */
static void add_averaged(struct worker_log *l, unsigned d, uint64_t ms, uint64_t lat,
			 uint32_t len)
{
	struct log_window *win = &l->win[d];

	win->sum += (double)lat;
	win->n++;
	win->max = lat > win->max ? lat : win->max;
	if (ms - win->last_ms >= l->avg_ms) {
		window_put(l, d, ms);
		win->last_ms = ms - ms % l->avg_ms;
	}
	l->bytes[d] += len;
	l->ios[d]++;
	/* fio's timer allows a millisecond of slack; a direction idle for the window has none */
	uint64_t spent = ms - l->bw_last_ms;
	if (!spent || spent + 1 < l->avg_ms)
		return;
	for (unsigned i = 0; i < 3; i++) {
		if (!l->ios[i])
			continue;
		put_avg(l, LOG_BW, ms, l->bytes[i] * 1000 / spent / 1024, i);
		put_avg(l, LOG_IOPS, ms, l->ios[i] * 1000 / spent, i);
		l->bytes[i] = l->ios[i] = 0;
	}
	l->bw_last_ms = ms;
}

/* fio's histogram bin of a latency: exact below 128 ns, then 64 bins per power of two. */
static unsigned hist_bin(uint64_t ns)
{
	if (ns < 128)
		return (unsigned)ns;
	unsigned shift = (unsigned)(63 - __builtin_clzll(ns)) - 6;
	unsigned i = ((shift + 1) << 6) + (unsigned)((ns >> shift) & 63);
	return i < LOG_HIST_BINS ? i : LOG_HIST_BINS - 1;
}

/* --log-hist: a line of the window's counts per bin once it is --log-hist-interval long. */
static void add_hist(struct worker_log *l, unsigned d, uint64_t ms, uint64_t lat, uint32_t len)
{
	uint64_t *h = l->hist[d];
	FILE *f = l->f[LOG_HIST];

	h[hist_bin(lat)]++;
	if (l->hist_last[d] == UINT64_MAX)
		l->hist_last[d] = ms;
	uint64_t span = ms - l->hist_last[d];
	if (span < l->hist_ms)
		return;
	flockfile(f);
	fprintf(f, "%" PRIu64 ", %u, %u", ms, d, len);
	for (unsigned i = 0; i < LOG_HIST_BINS; i++)
		fprintf(f, ", %" PRIu64, h[i]);
	fputc('\n', f);
	funlockfile(f);
	memset(h, 0, LOG_HIST_BINS * sizeof(*h));
	l->hist_last[d] = ms - (span - l->hist_ms);
}

void worker_log_io(struct worker *w, const struct io_req *r, uint64_t now)
{
	struct worker_log *l = w->log;
	uint64_t lat = now - r->start_ns;
	unsigned d = r->write;

	if (now < r->start_ns)
		lat = 0;
	if (l->hist[d])
		add_hist(l, d, ms_since(w, now), lat, r->len);
	if (l->avg_ms) {
		add_averaged(l, d, ms_since(w, now), lat, r->len);
		return;
	}
	l->buf[l->n++] = (struct log_sample){
		.t_ns = now > w->t_meas_start ? now - w->t_meas_start : 0,
		.lat_ns = lat, .offset = r->offset, .len = r->len,
		.prio = r->ioprio ? r->ioprio : l->prio, .dir = (uint8_t)d,
	};
	if (l->n == LOG_BUF)
		flush_samples(l);
}

void worker_log_finish(struct worker *w)
{
	struct worker_log *l = w->log;
	uint64_t end;

	if (!l)
		return;
	if (l->buf)
		flush_samples(l);
	end = w->t_done < w->t_meas_end ? w->t_done : w->t_meas_end;
	for (unsigned d = 0; l->avg_ms && d < 3; d++)
		if (l->win[d].n)
			window_put(l, d, ms_since(w, end));
}
