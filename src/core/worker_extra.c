/*
 * A worker's rarer duties, out of the hot loop of src/core/worker.c: failed I/Os a job goes on
 * after (fio's continue_on_error and ignore_error), what its writes carry (src/core/wdata.c),
 * and the I/O priority of its threads.
 */
#include "core/worker_extra.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/worker.h"
#include "util/err.h"
#include "util/field.h"

int worker_extra_new(struct worker *w, const struct job *job)
{
	if (!job->continue_on && !wdata_active(job) && !job->until_full)
		return 0;
	if (!(w->extra = calloc(1, sizeof(*w->extra))))
		return -ENOMEM;
	w->extra->job = job;
	return 0;
}

void worker_write_data(struct worker *w, struct io_req *r)
{
	struct worker_extra *x = w->extra;

	if (!wdata_active(x->job))
		return;
	/* Set up at the first write, once the worker knows its target. */
	if (!x->data_on) {
		wdata_init(&x->data, x->job, (uint64_t)w->target << 32 | w->thread);
		x->data_on = true;
	}
	wdata_write(&x->data, r->buf, r->len, r->offset);
}

void worker_extra_free(struct worker *w)
{
	free(w->extra);
	w->extra = NULL;
}

/* Whether err (> 0) is one the job goes on after for I/Os of direction dir. */
static bool tolerated(const struct job *j, unsigned dir, int err)
{
	if (!(j->continue_on & (dir ? JOB_CONT_WRITE : JOB_CONT_READ)))
		return false;
	/* fio's "non-fatal" errors, unless ignore_error lists that direction's own. */
	if (!j->nignore[dir])
		return err == EIO || err == EILSEQ;
	for (unsigned i = 0; i < j->nignore[dir]; i++)
		if (j->ignore_errno[dir][i] == err)
			return true;
	return false;
}

/* The slot of err in list (a new one when there is room; the last one otherwise). */
static struct result_errno *errno_slot(struct result_errno *list, unsigned *n, int err)
{
	for (unsigned i = 0; i < *n; i++)
		if (list[i].err == err)
			return &list[i];
	if (*n < RESULT_MAX_ERRNOS) {
		list[*n] = (struct result_errno){.err = err};
		return &list[(*n)++];
	}
	/* More distinct errnos than slots: the rest are counted together, as errno 0. */
	list[*n - 1].err = 0;
	return &list[*n - 1];
}

/*
 * --until-full: a write refused for want of space (or cut short by it) ends the worker's writing
 * as its end would: what is in flight drains, and nothing counts as failed.
 */
static bool filled(struct worker *w, const struct io_req *r, int err)
{
	if (!r->write || !(err == -ENOSPC || err == -EDQUOT || (err == -EIO && r->res >= 0)))
		return false;
	w->extra->full = true;
	w->t_end = 0;
	return true;
}

void worker_until_full(struct worker *w, uint64_t region_len, unsigned threads)
{
	if (w->extra && w->extra->job->until_full)
		w->bytes_left = region_len / (threads ? threads : 1);
}

bool worker_error_tolerated(struct worker *w, const struct io_req *r, int err)
{
	struct worker_extra *x = w->extra;

	if (x && x->job->until_full && filled(w, r, err))
		return true;
	/* A trim changes the target as a write does: it goes on after what writes do. */
	unsigned d = r->write ? 1 : 0;

	if (!x || !tolerated(x->job, d, -err))
		return false;
	errno_slot(x->errs, &x->nerrs, -err)->ios[d]++;
	w->st[r->write].errors++;
	if (w->tg)
		w->tg[r->file].errors[r->write]++;
	return true;
}

void worker_extra_merge(struct result *res, const struct worker *w)
{
	if (!w->extra)
		return;
	if (w->extra->full) {
		static const char full[] = "a target is full: a write was refused for want of space "
					   "(until full), and its writing ended there";
		unsigned i = 0;
		while (i < res->nnotes && strcmp(res->notes[i], full))
			i++;
		if (i == res->nnotes)
			result_add_note(res, "%s", full);
	}
	for (unsigned i = 0; i < w->extra->nerrs; i++) {
		const struct result_errno *e = &w->extra->errs[i];
		struct result_errno *d = errno_slot(res->errnos, &res->nerrnos, e->err);
		d->ios[0] += e->ios[0];
		d->ios[1] += e->ios[1];
	}
}

void run_errors_note(struct result *res)
{
	char list[200] = "", name[24];
	size_t len = 0;
	uint64_t total = 0;

	for (unsigned i = 0; i < res->nerrnos; i++) {
		const struct result_errno *e = &res->errnos[i];
		const char *n = e->err ? strerrorname_np(e->err) : "other";
		if (!n)
			snprintf(name, sizeof(name), "errno %d", e->err);
		total += e->ios[0] + e->ios[1];
		if (len < sizeof(list))
			len += (size_t)snprintf(list + len, sizeof(list) - len,
						"%s%s: %llu read, %llu write", i ? "; " : "",
						n ? n : name, (unsigned long long)e->ios[0],
						(unsigned long long)e->ios[1]);
	}
	if (total)
		result_add_note(res, "went on after %llu failed I/O%s (%s)",
				(unsigned long long)total, total == 1 ? "" : "s", list);
}

/*
 * --ioprio: a thread takes the I/O priority of the thread that creates it, so the main thread
 * takes the job's while it starts the job's workers, and then its own again. The kernel
 * refuses the realtime class without CAP_SYS_ADMIN: said before any worker starts.
 */
int run_ioprio_enter(const struct job *job, int *saved, char *err, size_t errlen)
{
	int v = (int)(job->ioprio_class << 13 | job->ioprio_level);

	*saved = -1;
	if (!job->ioprio_class)
		return 0;
	if ((*saved = (int)syscall(SYS_ioprio_get, 1 /* IOPRIO_WHO_PROCESS */, 0)) < 0 ||
	    syscall(SYS_ioprio_set, 1, 0, v) < 0) {
		int e = errno;
		char name[16];
		*saved = -1;
		return err_set(err, errlen, -e, FIELD("ioprio") " %s: the kernel refused it: %s",
			       job_ioprio_name(job, name, sizeof(name)), strerror(e));
	}
	return 0;
}

void run_ioprio_leave(int saved)
{
	if (saved >= 0)
		(void)syscall(SYS_ioprio_set, 1, 0, saved);
}
