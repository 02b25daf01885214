#ifndef IORATE_CORE_JOBLOG_H
#define IORATE_CORE_JOBLOG_H
/*
 * fio's log files (write_bw_log, write_iops_log, write_lat_log, write_hist_log): the runner
 * opens every file of the run's jobs through the write gate before the first group, the
 * workers write their entries (src/core/worker_log.c), and the runner commits them at the
 * end. Internal to the core.
 */
#include <stddef.h>
#include <stdio.h>

#include "core/gate.h"
#include "core/job.h"

enum log_kind { LOG_BW, LOG_IOPS, LOG_LAT, LOG_SLAT, LOG_CLAT, LOG_HIST, LOG_KINDS };

/* One job's files, NULL for a log it does not write; several jobs may share one (shared). */
struct log_files {
	FILE *f[LOG_KINDS];
};

struct log_set {
	struct gate_out *outs;
	unsigned nouts;
	struct log_files *jobs;     /* per job of the run, in its order */
};

/*
 * fio's name of a log: PREFIX_TYPE.N.log (N the job's number in the run, from 1), or
 * PREFIX_TYPE.log for shared logs. Into buf; -ENAMETOOLONG when it does not fit.
 */
int joblog_name(const struct job_logs *l, enum log_kind k, unsigned num, char *buf,
		size_t len);
/*
 * Opens every log of the n jobs through the gate (a name two jobs give is one file). 0, or
 * -errno with the reason in err and the job it came from in *bad.
 */
int log_set_open(struct log_set *ls, const struct job *jobs, unsigned n, unsigned *bad,
		 char *err, size_t errlen);
/* Commits every file (the first failure's reason in err) and frees the set. 0 or -errno. */
int log_set_commit(struct log_set *ls, char *err, size_t errlen);

#endif
