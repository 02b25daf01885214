#ifndef IORATE_CORE_WORKER_EXTRA_H
#define IORATE_CORE_WORKER_EXTRA_H
/*
 * What a worker does beyond the queue-depth loop, kept apart from src/core/worker.c's hot path:
 * each function is called from one line there (or in run.c), and costs nothing to a job that
 * does not ask for it (struct worker's `extra` is then NULL). Internal to the core.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/job.h"
#include "core/result.h"
#include "core/wdata.h"

struct worker;
struct io_req;
struct run;

/* Failed I/Os a job went on after, by errno: at most this many errnos are told apart. */
#define WORKER_MAX_ERRNOS RESULT_MAX_ERRNOS

struct worker_extra {
	const struct job *job;
	struct result_errno errs[WORKER_MAX_ERRNOS];
	unsigned nerrs;
	bool full;                  /* --until-full: the target refused a write for want of space */
	bool data_on;               /* the job's writes carry what wdata makes */
	struct wdata data;
};

/* Sets up w->extra when the job asks for what it keeps (else leaves it NULL). 0 or -ENOMEM. */
int worker_extra_new(struct worker *w, const struct job *job);
void worker_extra_free(struct worker *w);

/*
 * A failed I/O (err, a -errno) that the job goes on after (--continue-on-error, and the errnos
 * of --ignore-error or EIO and EILSEQ): counted, and true. False: it ends the job.
 */
bool worker_error_tolerated(struct worker *w, const struct io_req *r, int err);

/* A write's contents (--compress, --dedupe, --pattern, --refill, --scramble), before it goes. */
void worker_write_data(struct worker *w, struct io_req *r);

/*
 * --until-full: a sequential writer stops at the end of its share of the region (a device's
 * end); run.c calls it once the worker's workload is set.
 */
void worker_until_full(struct worker *w, uint64_t region_len, unsigned threads);

/* Adds the worker's counts of failed I/Os it went on after to res. */
void worker_extra_merge(struct result *res, const struct worker *w);
/* After the merge: a note of the failures the job went on after, if any. */
void run_errors_note(struct result *res);

/*
 * --ioprio: the main thread takes the job's I/O priority while it creates the job's threads
 * (which inherit it), and gives it back. 0, or -errno with the reason in err.
 */
int run_ioprio_enter(const struct job *job, int *saved, char *err, size_t errlen);
void run_ioprio_leave(int saved);

/*
 * The main thread's watch of a group (src/core/run_ends.c): a job that ended ends the others
 * its --exit-all names, at `now`. runs_ended_all() says whether one ended the whole run, so no
 * later group starts.
 */
void runs_check_ends(struct run *runs, unsigned n, uint64_t now);
bool runs_ended_all(const struct run *runs, unsigned n);
/* --steady (src/core/run_steady.c): ends the jobs whose rate has held steady, at `now`. */
void runs_check_steady(struct run *runs, unsigned n, uint64_t now);

#endif
