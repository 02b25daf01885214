#ifndef IORATE_CORE_RESULT_H
#define IORATE_CORE_RESULT_H
#include <stdbool.h>
#include <stdint.h>

#include "core/device.h"
#include "core/gate.h"
#include "core/job.h"
#include "core/stats.h"
#include "core/verify.h"

/*
 * What a run delivered. The runner fills it; reports read it (through dir_stats_summarize for
 * derived figures) and never look inside the runner. It lives here, not in src/result/ with its
 * JSON and the sums of several jobs (result/result_set.h), because core fills it and may not
 * include a layer above it.
 */

/* Bytes and I/Os the kernel counted for a block device (/proc/diskstats), over the run. */
struct kernel_counts {
	bool valid;
	char name[32];                   /* e.g. "zram0", "loop3", "nvme0n1" */
	uint64_t read_ios, write_ios;
	uint64_t read_bytes, write_bytes;
	uint64_t discard_ios, discard_bytes;  /* 0 where the kernel does not count them */
};

/*
 * What the kernel counted for one block device over a window: the change in /proc/diskstats
 * between two snapshots (in_flight is the end's). Sectors there are 512 bytes whatever the
 * device; times are milliseconds.
 */
struct disk_counts {
	uint64_t read_ios, read_merges, read_bytes, read_ms;
	uint64_t write_ios, write_merges, write_bytes, write_ms;
	uint64_t in_flight;
	uint64_t busy_ms;                /* io_ticks: time with at least one request in flight */
	uint64_t queue_ms;               /* time_in_queue: each request's time, added up */
	uint64_t discard_ios, discard_merges, discard_bytes, discard_ms;
	uint64_t flush_ios, flush_ms;
	bool has_discard, has_flush;     /* the kernel counts them (Linux 4.18 and 5.5 on) */
};

/*
 * A block device under a job's targets over its group's measured window: what the kernel
 * counted (other processes' I/O to it too) and what iorate did to the targets above it.
 */
struct device_view {
	char name[32];                   /* the kernel's name, as /proc/diskstats spells it */
	enum device_role role;
	char of[32];                     /* the device it is the disk or a member of; "" */
	double seconds;                  /* the window the counts cover */
	struct disk_counts disk;
	uint64_t read_ios, write_ios;    /* iorate's, over the targets above it */
	uint64_t read_bytes, write_bytes;
	uint64_t trim_ios, trim_bytes;
};

/* Figures derived from a device_view; NaN where there is nothing to divide by. */
struct device_figures {
	double util_pct;                 /* busy time over the window, percent (at most 100) */
	double read_avg_bytes, write_avg_bytes;   /* bytes per request */
	double read_await_ms, write_await_ms;     /* ms per request, queue and device */
	double await_ms;                 /* reads, writes and discards together */
	double queue_ms;                 /* time in queue per request (weighted ms / requests) */
	double queue_depth;              /* requests in flight on average (weighted ms / window) */
	double read_merged_pct, write_merged_pct; /* of the requests queued, merged into another */
};

struct target_result {
	char *path;
	char *opened;                    /* what path led to (a link to "/dev/loop3"), or NULL */
	struct gate_id id;               /* the file opened: mark and sweep remove only this one */
	char device[32];                 /* kernel name of the block device holding it, or "" */
	bool is_blockdev;
	bool created;                    /* iorate created (and filled) this file */
	uint64_t size;                   /* bytes of the target */
	uint64_t region_offset, region_len;
	struct dir_stats read, write, trim;
	struct kernel_counts kernel;     /* for block device targets */
};

/*
 * One interval of the series (result.interval_ns; the last may be partial) of the measured
 * phase, summed over targets. Counts, not rates: the points' I/Os add up to the run's.
 */
struct series_point {
	double t;                        /* end of the interval, seconds since the measure began */
	double seconds;                  /* interval length */
	uint64_t read_ios, write_ios;
	uint64_t read_bytes, write_bytes;
	uint64_t trim_ios, trim_bytes;
	uint64_t p99_ns;                 /* of I/Os completed in the interval; 0 when none */
	uint64_t lat_mean_ns;            /* their mean latency (from the histogram); 0 when none */
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
	struct dir_stats read, write, trim;
	struct cpu_usage cpu;
	bool interrupted;
	char error[256];                 /* its failure, or "" */
};

#define RESULT_MAX_NOTES 8
#define RESULT_MAX_ERRNOS 8

/* Failed I/Os a job went on after (--continue-on-error), of one errno (0: the others). */
struct result_errno {
	int err;                         /* errno, positive */
	uint64_t ios[2];                 /* [0] reads, [1] writes */
};

/* --latency-target: what the threads' searches found (src/core/worker_lat.c). */
struct result_lat {
	unsigned threads, finished;      /* threads that searched; that ran their final window */
	unsigned depth_min, depth_max;   /* the depth each ended at */
	double seconds;                  /* the longest final window */
	uint64_t worst_ns;               /* the longest I/O over the target */
	struct dir_stats fin;            /* the final windows' I/Os, reads and writes together */
};

struct result {
	char version[32];                /* the iorate that ran it (IORATE_VERSION, or a file's) */
	struct job job;                  /* the job as run (a copy: engine, size resolved) */
	char engine[16];
	char engine_why[96];             /* "uring (probe succeeded)", "sync (uring: ENOSYS)" */
	uint64_t start_unix_ms;
	double seconds;                  /* length of the measured window actually run */
	struct target_result *targets;
	unsigned ntargets;
	struct dir_stats read, write;    /* over all targets */
	struct dir_stats trim;           /* trims (discards): none unless the job trims */
	/* --cmdprio: the reads [0] and writes [1] among them that carried a priority per I/O
	 * (job.cmdprio.on says whether the run had any). */
	struct dir_stats prio[2];
	struct result_lat lat;           /* with job.lat_target_ns */
	struct series_point *series;
	unsigned nseries;
	uint64_t interval_ns;            /* of the series (its group's); JSON without it: 1 s */
	struct cpu_usage cpu;
	struct host_info host;
	/* Open loop (--rate-iops): how well the schedule was kept. */
	uint64_t sched_ios_late;         /* issued more than 1 ms (or one interval) after due */
	uint64_t zone_resets;            /* emulated zones (job.zbd): write pointers reset */
	double sched_max_lag_s;          /* the furthest behind schedule any I/O was issued */
	double sched_behind_s;           /* how far behind the schedule the run ended */
	/* Emulated caps (job.cap, job.vm_cap): seconds I/Os waited with each bucket the one that
	 * let them go last, warm-up included (throttle_set_held); has_held: recorded. */
	double held_s[CAP_BUCKETS];
	bool has_held;
	bool started;                    /* workers ran: there are results to show */
	bool interrupted;
	int error;                       /* 0 or -errno of the failure that ended the run */
	char errmsg[256];
	char *notes[RESULT_MAX_NOTES];   /* e.g. the page cache served the reads */
	unsigned nnotes;
	struct verify_result verify;     /* --verify: what the checks found (sum 0: none) */
	/* Every block device under the targets; in a group, the group's window's counts. */
	struct device_view *devices;
	unsigned ndevices;
	struct result_errno errnos[RESULT_MAX_ERRNOS]; /* failed I/Os the job went on after */
	unsigned nerrnos;
	/* iorate-mpi only (nranks > 0): the ranks, and how far apart their starts were. */
	struct rank_result *ranks;
	unsigned nranks, nhosts;
	double start_skew_us;
};

/*
 * Where a job's measured window starts, in seconds after its group's start instant; a group's
 * window runs from its jobs' earliest start to their latest end.
 */
double result_window_start(const struct result *r);
/* The figures of a device over its window. */
void device_view_figures(const struct device_view *v, struct device_figures *f);
/* "target", "disk", "member"; device_role_parse: 0 or -EINVAL. */
const char *device_role_name(enum device_role role);
int device_role_parse(const char *s, enum device_role *role);

void result_init(struct result *r);
void result_release(struct result *r);
void result_add_note(struct result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* total = read + write (+ trim; tr may be NULL) of a target or of the run, into t (released by
 * the caller). 0 or -ENOMEM (t then holds nothing to release). */
int result_dir_total(const struct dir_stats *rd, const struct dir_stats *wr,
		     const struct dir_stats *tr, struct dir_stats *t);
/* Figures of rd, wr and their sum with tr (may be NULL) over seconds, in that order (read,
 * write, total: every I/O). 0 or -ENOMEM. */
int result_summarize(const struct dir_stats *rd, const struct dir_stats *wr,
		     const struct dir_stats *tr, double seconds, struct dir_summary s[3]);
/* The run's failure as one line (errmsg, else strerror of error), or NULL when it did not fail. */
const char *result_error(const struct result *r);

#endif
