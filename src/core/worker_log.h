#ifndef IORATE_CORE_WORKER_LOG_H
#define IORATE_CORE_WORKER_LOG_H
/*
 * A worker's entries in fio's log files (src/core/worker_log.c), kept out of worker.c's hot
 * loop: a job without logs has no struct worker_log and pays one untaken branch per I/O.
 * Per-I/O entries go into a buffer of the worker's own, written out when it is full (one I/O
 * in LOG_BUF) and after the run; averaged windows are written as they close. Internal to the
 * core.
 */
#include <stdint.h>

#include "core/job.h"
#include "core/joblog.h"

struct worker;
struct io_req;

/* fio's latency histogram: 29 groups of 64 bins (its FIO_IO_U_PLAT_NR). */
#define LOG_HIST_BINS 1856
#define LOG_BUF 4096

struct log_sample {
	uint64_t t_ns;              /* its completion, from the measure's start */
	uint64_t lat_ns;
	uint64_t offset;
	uint32_t len;
	uint16_t prio;
	uint8_t dir;
};

/* A window of averaged latencies of one direction. */
struct log_window {
	double sum;
	uint64_t n, max;
	uint64_t last_ms;           /* its start */
};

struct worker_log {
	const struct job_logs *spec;
	FILE *const *f;             /* the job's files (struct log_files), NULL each unwritten */
	uint16_t prio;              /* the thread's own priority (--ioprio), 0: none */
	struct log_sample *buf;     /* per I/O (no --log-avg) */
	unsigned n;
	uint64_t avg_ms, hist_ms;
	struct log_window win[3];   /* --log-avg: latencies */
	uint64_t bw_last_ms;        /* --log-avg: bandwidth and IOPS since then */
	uint64_t bytes[3], ios[3];
	uint64_t *hist[3];          /* --log-hist: the window's counts per bin, or NULL */
	uint64_t hist_last[3];      /* ... its start; UINT64_MAX before the first I/O */
};

/* Sets w->log up when the job writes logs into lf (else leaves it NULL). 0 or -ENOMEM. */
int worker_log_new(struct worker *w, const struct job *job, const struct log_files *lf);
void worker_log_free(struct worker *w);
/* A counted I/O completed at now (worker.c, only when w->log is set). */
void worker_log_io(struct worker *w, const struct io_req *r, uint64_t now);
/* After the thread ended: what its buffer holds, and the last windows of averaged logs. */
void worker_log_finish(struct worker *w);

#endif
