#ifndef IORATE_CORE_RESULT_H
#define IORATE_CORE_RESULT_H
#include <stdbool.h>
#include <stdint.h>

#include "core/job.h"
#include "core/stats.h"

/*
 * What a run delivered. The runner fills it; reports read it (through dir_stats_summarize for
 * derived figures) and never look inside the runner.
 */

/* Bytes and I/Os the kernel counted for a block device (/proc/diskstats), over the run. */
struct kernel_counts {
	bool valid;
	char name[32];                   /* e.g. "zram0", "loop3", "nvme0n1" */
	uint64_t read_ios, write_ios;
	uint64_t read_bytes, write_bytes;
};

struct target_result {
	char *path;
	char device[32];                 /* kernel name of the block device holding it, or "" */
	bool is_blockdev;
	bool created;                    /* iorate created (and filled) this file */
	uint64_t size;                   /* bytes of the target */
	uint64_t region_offset, region_len;
	struct dir_stats read, write;
	struct kernel_counts kernel;     /* for block device targets */
};

/* One second (or the last partial interval) of the measured phase, summed over targets. */
struct series_point {
	double t;                        /* end of the interval, seconds since the measure began */
	double seconds;                  /* interval length */
	uint64_t read_ios, write_ios;
	uint64_t read_bytes, write_bytes;
	uint64_t p99_ns;                 /* of I/Os completed in the interval; 0 when none */
	double credit_iops, credit_mbps; /* burst bucket, percent full; < 0 when no burst cap */
};

struct cpu_usage {
	unsigned ncpus;
	double user, system, iowait, idle; /* percent of all CPUs' time, system-wide */
	double proc_user, proc_system;    /* iorate's own, percent of one CPU */
};

struct host_info {
	char hostname[64];
	char kernel[128];
	char cpu[128];
	unsigned ncpus;
	uint64_t mem_bytes;
	char clock[16];                  /* what timed the I/Os: "tsc" or "monotonic" */
};

/*
 * One rank of a run of iorate-mpi (many processes, maybe many hosts, one job): its own totals.
 * Its targets are targets[first_target .. first_target + ntargets - 1] of the whole result.
 */
struct rank_result {
	unsigned rank;
	char host[64];
	unsigned first_target, ntargets;
	double seconds;                  /* its measured window */
	struct dir_stats read, write;
	struct cpu_usage cpu;
	bool interrupted;
	char error[256];                 /* its failure, or "" */
};

#define RESULT_MAX_NOTES 8

struct result {
	struct job job;                  /* the job as run (a copy: engine, size resolved) */
	char engine[16];
	char engine_why[96];             /* "uring (probe succeeded)", "sync (uring: ENOSYS)" */
	uint64_t start_unix_ms;
	double seconds;                  /* length of the measured window actually run */
	struct target_result *targets;
	unsigned ntargets;
	struct dir_stats read, write;    /* over all targets */
	struct series_point *series;
	unsigned nseries;
	struct cpu_usage cpu;
	struct host_info host;
	/* Open loop (--rate-iops): how well the schedule was kept. */
	uint64_t sched_ios_late;         /* issued more than 1 ms (or one interval) after due */
	double sched_max_lag_s;          /* the furthest behind schedule any I/O was issued */
	double sched_behind_s;           /* how far behind the schedule the run ended */
	bool started;                    /* workers ran: there are results to show */
	bool interrupted;
	int error;                       /* 0 or -errno of the failure that ended the run */
	char errmsg[256];
	char *notes[RESULT_MAX_NOTES];   /* e.g. the page cache served the reads */
	unsigned nnotes;
	/* iorate-mpi only (nranks > 0): the ranks, and how far apart their starts were. */
	struct rank_result *ranks;
	unsigned nranks, nhosts;
	double start_skew_us;
};

void result_init(struct result *r);
void result_release(struct result *r);
void result_add_note(struct result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* total = read + write of a target or of the run. */
void result_dir_total(const struct dir_stats *rd, const struct dir_stats *wr, struct dir_stats *t);

#endif
