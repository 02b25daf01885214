#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/result.h"

#ifndef IORATE_VERSION
#define IORATE_VERSION "unknown"
#endif

void result_init(struct result *r)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->version, sizeof(r->version), "%s", IORATE_VERSION);
	job_init(&r->job);
	r->interval_ns = JOB_INTERVAL_LONG;
	dir_stats_init(&r->read);
	dir_stats_init(&r->write);
	dir_stats_init(&r->trim);
	dir_stats_init(&r->prio[0]);
	dir_stats_init(&r->prio[1]);
	dir_stats_init(&r->lat.fin);
}

void result_release(struct result *r)
{
	if (!r)
		return;
	for (unsigned i = 0; i < r->ntargets; i++) {
		free(r->targets[i].path);
		free(r->targets[i].opened);
		dir_stats_release(&r->targets[i].read);
		dir_stats_release(&r->targets[i].write);
		dir_stats_release(&r->targets[i].trim);
	}
	dir_stats_release(&r->read);
	dir_stats_release(&r->write);
	dir_stats_release(&r->trim);
	dir_stats_release(&r->prio[0]);
	dir_stats_release(&r->prio[1]);
	dir_stats_release(&r->lat.fin);
	verify_result_release(&r->verify);
	for (unsigned i = 0; r->ranks && i < r->nranks; i++) {
		dir_stats_release(&r->ranks[i].read);
		dir_stats_release(&r->ranks[i].write);
		dir_stats_release(&r->ranks[i].trim);
	}
	free(r->targets);
	free(r->devices);
	free(r->series);
	for (unsigned i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	free(r->ranks);
	job_release(&r->job);
	r->ranks = NULL;
	r->nranks = 0;
	r->targets = NULL;
	r->ntargets = 0;
	r->series = NULL;
	r->nseries = 0;
	r->devices = NULL;
	r->ndevices = 0;
	r->nnotes = 0;
}

/*
 * Notes are advice attached to a result; running out of memory or of slots loses the advice but
 * not the measurement, so this returns nothing.
 */
void result_add_note(struct result *r, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	if (r->nnotes >= RESULT_MAX_NOTES)
		return;
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	r->notes[r->nnotes++] = s;
}

int result_dir_total(const struct dir_stats *rd, const struct dir_stats *wr,
		     const struct dir_stats *tr, struct dir_stats *t)
{
	int r;

	dir_stats_init(t);
	if ((r = dir_stats_merge(t, rd)) || (r = dir_stats_merge(t, wr)) ||
	    (tr && (r = dir_stats_merge(t, tr))))
		dir_stats_release(t);
	return r;
}

int result_summarize(const struct dir_stats *rd, const struct dir_stats *wr,
		     const struct dir_stats *tr, double seconds, struct dir_summary s[3])
{
	struct dir_stats t;
	int r = result_dir_total(rd, wr, tr, &t);

	if (r)
		return r;
	dir_stats_summarize(rd, seconds, &s[0]);
	dir_stats_summarize(wr, seconds, &s[1]);
	dir_stats_summarize(&t, seconds, &s[2]);
	dir_stats_release(&t);
	return 0;
}

const char *result_error(const struct result *r)
{
	if (r->errmsg[0])
		return r->errmsg;
	if (r->error)
		return strerror(r->error < 0 ? -r->error : r->error);
	return NULL;
}

double result_window_start(const struct result *r)
{
	return (double)(r->job.startdelay_ns + r->job.warmup_ns) / 1e9;
}

static const char *const role_names[] = {
	[DEVICE_TARGET] = "target",
	[DEVICE_DISK] = "disk",
	[DEVICE_MEMBER] = "member",
};

const char *device_role_name(enum device_role role)
{
	return (unsigned)role < sizeof(role_names) / sizeof(role_names[0]) ? role_names[role]
									   : "?";
}

int device_role_parse(const char *s, enum device_role *role)
{
	for (unsigned i = 0; s && i < sizeof(role_names) / sizeof(role_names[0]); i++)
		if (!strcmp(s, role_names[i])) {
			*role = (enum device_role)i;
			return 0;
		}
	return -EINVAL;
}

static double ratio(double a, double b)
{
	return b > 0 ? a / b : NAN;
}

void device_view_figures(const struct device_view *v, struct device_figures *f)
{
	const struct disk_counts *d = &v->disk;
	double ms = v->seconds * 1e3;
	/* As iostat: await over reads, writes and discards; the queue holds flushes too. */
	double n = (double)d->read_ios + (double)d->write_ios + (double)d->discard_ios;

	f->util_pct = ratio(100.0 * (double)d->busy_ms, ms);
	/* The snapshots bracket the window, so busy time can run a few ms past it. */
	if (f->util_pct > 100)
		f->util_pct = 100;
	f->read_avg_bytes = ratio((double)d->read_bytes, (double)d->read_ios);
	f->write_avg_bytes = ratio((double)d->write_bytes, (double)d->write_ios);
	f->read_await_ms = ratio((double)d->read_ms, (double)d->read_ios);
	f->write_await_ms = ratio((double)d->write_ms, (double)d->write_ios);
	f->await_ms = ratio((double)d->read_ms + (double)d->write_ms + (double)d->discard_ms, n);
	f->queue_ms = ratio((double)d->queue_ms, n + (double)d->flush_ios);
	f->queue_depth = ratio((double)d->queue_ms, ms);
	/* The share first, so that rounding cannot take it past 100 %. */
	f->read_merged_pct = 100.0 * ratio((double)d->read_merges,
					   (double)d->read_merges + (double)d->read_ios);
	f->write_merged_pct = 100.0 * ratio((double)d->write_merges,
					    (double)d->write_merges + (double)d->write_ios);
}
