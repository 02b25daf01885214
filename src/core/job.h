#ifndef IORATE_CORE_JOB_H
#define IORATE_CORE_JOB_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/gate.h"

/*
 * A job is a fully resolved workload: every unit converted (bytes, nanoseconds, percent), every
 * default filled in. Commands build one (from options, a DiskSpd or SQLIO command line, a fio
 * job file), job_validate() checks it, and the runner executes it.
 */

enum job_pattern { PATTERN_RANDOM, PATTERN_SEQUENTIAL };
/* direct: O_DIRECT; buffered: page cache; writethrough: page cache + O_DSYNC;
 * directsync: O_DIRECT + O_DSYNC (DiskSpd -Sh, SQLIO -BN: no cache of either kind). */
enum job_cache { CACHE_DIRECT, CACHE_BUFFERED, CACHE_WRITETHROUGH, CACHE_DIRECTSYNC };
enum job_fill { FILL_RANDOM, FILL_ZERO };
enum job_units { UNITS_IEC, UNITS_SI };
enum job_arrival { ARRIVAL_CLOSED, ARRIVAL_FIXED, ARRIVAL_POISSON };

/*
 * How random offsets spread over the region. uniform: every aligned slot alike; zipf (theta) and
 * pareto (h) make a few slots hot (fio's random_distribution, which is what lets a host cache
 * hit); normal: a bell around the middle, sigma = param percent of the region; zoned: the
 * zones below, in order from the region's start.
 */
enum job_dist {
	DIST_UNIFORM, DIST_ZIPF, DIST_PARETO, DIST_NORMAL, DIST_ZONED, DIST_ZONED_ABS,
	DIST_SEQUENCE,   /* a fixed order of block indices, repeated (a newer fio's sequence) */
};

#define JOB_MAX_BS 16
#define JOB_MAX_ZONES 16
#define JOB_MAX_SEQ 64

/* One block size of a mix (fio bssplit): pct percent of the I/Os of that direction. */
struct job_bs {
	uint64_t bs;
	unsigned pct;
};

/*
 * Priorities per I/O (fio's cmdprio_*): a share of each direction's I/Os carries an I/O
 * priority (class << 13 | level, as ioprio_set takes it), the rest none (the thread's). With a
 * split, the share and priority depend on the I/O's size; a size not in the split gets none.
 */
struct job_cmdprio_bs {
	uint64_t bs;
	unsigned pct;
	uint16_t ioprio;                   /* 0: the direction's ioprio */
};
struct job_cmdprio {
	unsigned pct[2];                   /* percent of reads, writes (without a split) */
	uint16_t ioprio[2];                /* their priority; rt:0 unless --cmdprio-class says */
	struct job_cmdprio_bs split[2][JOB_MAX_BS];
	unsigned nsplit[2];
	bool on;                           /* --cmdprio or --cmdprio-split was given */
	bool class_set;                    /* --cmdprio-class was given */
};
#define JOB_IOPRIO(c, l) ((uint16_t)((c) << 13 | (l)))

/*
 * A zone of a zoned distribution: access_pct percent of the I/Os fall in size_pct percent of the
 * region (zoned), or in size_bytes bytes of it (zoned_abs: fio's zoned_abs, DiskSpd's -rdabs;
 * a last zone of 0 bytes runs to the region's end, and zones are cut at the region's end).
 */
struct job_zone {
	double access_pct, size_pct;
	uint64_t size_bytes;
};

/*
 * Whom a job's end ends (fio's exitall with exit_what): none; the jobs of its group that share
 * its report_group (fio's reporting groups, new_group); every job of its group (the jobs running
 * with it: fio's stonewall); the whole run (no later group starts: fio's all).
 */
enum job_exit { EXIT_NONE, EXIT_REPORT_GROUP, EXIT_GROUP, EXIT_ALL };

/* Failed I/Os a job goes on after (fio's continue_on_error): bits of continue_on. */
#define JOB_CONT_READ 1u
#define JOB_CONT_WRITE 2u
#define JOB_CONT_VERIFY 4u
#define JOB_MAX_IGNORE 8

/* The longest --pattern, in bytes (fio's buffer_pattern takes as many). */
#define JOB_MAX_PATTERN 512

/*
 * fio's log files (write_bw_log and its kin): each prefix, or NULL for no such log, and how
 * entries are made. Named PREFIX_bw.N.log as fio names them (N the job's number in the run).
 */
struct job_logs {
	char *bw, *iops, *lat, *hist;      /* the prefix of each log, or NULL: not written */
	uint64_t avg_ns;                   /* an entry per window this long; 0: one per I/O */
	uint64_t hist_ns;                  /* the histogram log's window; 0: none written */
	bool max;                          /* a window's largest value, not its mean */
	bool offset, prio;                 /* a column of offsets; the priority in full */
	bool shared;                       /* no job number: the run's jobs share each file */
};

/* I/O priority classes, as the kernel numbers them (ioprio_set(2)). */
#define JOB_IOPRIO_RT 1u
#define JOB_IOPRIO_BE 2u
#define JOB_IOPRIO_IDLE 3u

/*
 * Steady state (fio's steadystate): the job ends once its I/Os or bytes per second, sampled every
 * steady_interval_ns over the last steady_dur_ns (after steady_ramp_ns of its measured time),
 * each lie within steady_limit of their mean (IOPS, BW), or their least-squares slope per sample
 * does (the _SLOPE ones); steady_pct: the limit is a percent of the mean.
 */
enum job_steady {
	STEADY_NONE, STEADY_IOPS, STEADY_IOPS_SLOPE, STEADY_BW, STEADY_BW_SLOPE,
	STEADY_LAT, STEADY_LAT_SLOPE,    /* a newer fio's: the mean latency of each sample */
};

/* How a thread that serves several targets picks the target of each I/O (fio file_service). */
enum job_file_service { FILES_ROUNDROBIN, FILES_SEQUENTIAL, FILES_RANDOM };

/* Emulated caps of one disk or of the VM; 0 means "no cap". MB/s are 10^6 bytes per second. */
struct job_caps {
	double iops, mbps;
	double burst_iops, burst_mbps, burst_seconds;
};

/*
 * The emulated buckets an I/O can wait for: the disk's or the VM's, IOPS or MB/s, sustained
 * (the base rate, once burst credit is spent) or burst. job_cap_bucket_name(): "disk_iops",
 * "disk_iops_burst", ... "vm_mbps_burst", as the result's JSON names them.
 */
enum cap_bucket {
	CAP_DISK_IOPS, CAP_DISK_IOPS_BURST, CAP_DISK_MBPS, CAP_DISK_MBPS_BURST,
	CAP_VM_IOPS, CAP_VM_IOPS_BURST, CAP_VM_MBPS, CAP_VM_MBPS_BURST, CAP_BUCKETS
};

struct job {
	uint64_t bs;                       /* bytes per I/O */
	uint64_t time_ns;                  /* measured duration; 0: none, io_bytes or ios end it */
	uint64_t warmup_ns, cooldown_ns;   /* I/O issued then is not counted */
	unsigned threads;                  /* per target */
	unsigned depth;                    /* outstanding I/Os per thread */
	unsigned batch;                    /* hand I/Os to the kernel N at a time; 0: the
					    * engine's way (ENGINE_SUBMIT_EACH) */
	unsigned write_pct;                /* 0..100 */
	unsigned trim_pct;                 /* 0..100 - write_pct: of the I/Os, trims (discards) */
	bool trim_write;                   /* every write trims its blocks first (fio trimwrite) */
	enum job_pattern pattern;
	uint64_t size;                     /* size of a test file iorate creates; 0 = default */
	uint64_t offset;                   /* start of the region used in each target */
	uint64_t range;                    /* length of the region; 0 = to the end */
	uint64_t align;                    /* random offsets are multiples of this; 0 = bs */
	enum job_cache cache;
	unsigned fsync_every;              /* fsync after every N writes per thread; 0 = never */
	uint64_t seed;
	bool seed_set;
	char engine[16];                   /* "" = choose (uring where it probes, else sync) */
	/* A front end's engine that this one runs in place of ("fio's vsync"), and how their
	 * system calls differ: said before the run and in its report. "" for none. */
	char engine_for[24], engine_differs[64];
	enum job_fill fill;
	bool keep;                         /* keep a test file iorate created */
	bool grow;                         /* grow a smaller file to size, not refuse it */
	bool scratch;                      /* iorate named the targets: never keep them */
	bool allow_write_device;           /* writing to a block device was asked for */
	bool force;                        /* ... even one that is mounted or holds a filesystem */
	bool no_latency;                   /* count I/Os but read no clocks per I/O */
	bool verbose;
	uint64_t ios_per_thread;           /* stop a thread after this many I/Os; 0 = by time */
	char *trace_path;                  /* write every issued I/O here (debugging, tests) */
	struct job_logs log;               /* fio's log files (src/core/joblog.c) */

	/* Emulation of cloud caps (per target, and across all targets as the VM's). */
	struct job_caps cap, vm_cap;
	uint64_t cap_io_unit;              /* I/Os larger than this count as several; 0 = off */
	char *emulate;                     /* the catalog profile the caps came from, or NULL */
	double rate_iops;                  /* open-loop arrival rate per target; 0 = closed loop */
	enum job_arrival arrival;

	char **targets;
	unsigned ntargets;
	/* Per target, the file an earlier run created there (mark, sweep): only it may be used;
	 * NULL, or an entry with ino 0, for none. */
	struct gate_id *expect;
	/* Per target (the first nmade), whether iorate made the name up (fio's
	 * $jobname.$jobnum.$filenum): a link found there was planted and is never followed. */
	bool *made;
	unsigned nmade;

	char *command_line;                /* as the user typed it, for the record */
	char origin[16];                   /* "run", "diskspd", "sqlio", "fio", "mark", ... */

	/* A run of several jobs (fio job files, DiskSpd per-target parameters). */
	char *name;                        /* the job's name (fio's section), or NULL */
	unsigned group;                    /* jobs of one group run together, groups in order */
	uint64_t startdelay_ns;            /* starts this long after its group */

	/* Mixes and shapes beyond one block size and a uniform pattern. */
	struct job_bs bs_read[JOB_MAX_BS], bs_write[JOB_MAX_BS]; /* empty (pct 0): bs alone */
	unsigned nbs_read, nbs_write;
	enum job_dist dist;
	double dist_param;                 /* zipf theta, pareto h, normal sigma (percent) */
	struct job_zone zones[JOB_MAX_ZONES];
	unsigned nzones;
	/* DIST_SEQUENCE: the block indices in order; with seq_stride each pass of them moves on
	 * by their number (a group of blocks after another), else they repeat as they are. */
	uint32_t seq[JOB_MAX_SEQ];
	unsigned nseq;
	bool seq_stride;
	unsigned random_pct;               /* 0: as pattern says; 1..99: that many random (-rs) */
	uint64_t skip;                     /* sequential: bytes skipped after each I/O (rw=read:4k) */
	uint64_t rewind;                   /* sequential: each I/O starts this many bytes before
					    * the end of the one before (fio's rw=read:-8k) */
	/* Strided zones (fio's zonemode=strided): I/O stays in a zone of zone_range bytes (0:
	 * zone_size) until zone_size bytes were moved, then the zone moves on by its range and
	 * zone_skip, back to the region's start past its end. 0: no zones. */
	uint64_t zone_size, zone_range, zone_skip;
	/* Emulated zones (fio's zonemode=zbd, src/core/zbd.h): the targets are zones of
	 * zone_size bytes, each written only at its write pointer, zone_capacity of it (0: all);
	 * at most max_open_zones written at once on a target (job_max_open_zones by this job; 0:
	 * any); once the zones in range hold zone_reset_threshold of it, every
	 * 1/zone_reset_frequency-th write resets its zone first; reads read only what was written
	 * unless read_beyond_wp. */
	bool zbd, read_beyond_wp;
	/* SPRandom preconditioning (fio's sprandom, src/core/sprandom.h): the job writes the
	 * target's physical capacity once (its size and spr_op over-provisioning), in spr_regions
	 * regions whose invalid blocks follow the steady state's; spr_cache bytes of device cache
	 * defer each rewrite by a region. */
	bool sprandom;
	double spr_op;
	unsigned spr_regions;
	uint64_t spr_cache;
	uint64_t zone_capacity;
	unsigned max_open_zones, job_max_open_zones;
	double zone_reset_threshold, zone_reset_frequency;
	bool seq_per_thread;               /* sequential: each thread sweeps the whole region */
	uint64_t thread_stride;            /* ... thread k starting k x this many bytes in */
	uint64_t io_bytes;                 /* each thread stops after issuing this many; 0 = no limit */
	uint64_t thinktime_ns;             /* pause after every thinktime_blocks I/Os of a thread */
	unsigned thinktime_blocks;
	/* Flow control (fio's flow): the threads of the run's jobs with one flow_id issue I/Os in
	 * the proportion of their weights; a thread ahead of its share waits flow_sleep_ns (with
	 * nothing in flight) or, 0, retries at once. Weight 0: no flow control. */
	unsigned flow, flow_id;
	uint64_t flow_sleep_ns;
	unsigned fdatasync_every;          /* fdatasync after every N writes of a thread; 0 = never */
	bool end_fsync;                    /* fsync every target once the job's I/O is done */
	/* Write until the target is full (fio's fill_device): a file grows from its size until
	 * its filesystem refuses (ENOSPC, EDQUOT), a device to its end; that ends the job. */
	bool until_full;
	bool invalidate;                   /* drop the targets' page cache before the job starts */

	/* --verify: every written block carries a header and checksum (src/core/verify.h), reads
	 * check what they find, and the run reads back everything it wrote at the end. */
	unsigned verify;                   /* enum verify_sum; 0: no verification */
	uint64_t verify_block;             /* bytes per verified block; 0: the smallest I/O size */

	/* Threads that serve several targets (fio nrfiles, DiskSpd -F). */
	bool shared_threads;               /* threads (in total) each serve every target */
	enum job_file_service file_service;
	unsigned file_service_n;           /* I/Os to a target before the next (roundrobin:N) */

	/* How the job ends, and what ends it (src/core/job_ends.c). */
	enum job_exit exit_what;           /* EXIT_NONE: its end ends no other job */
	enum job_exit exit_error;          /* ... its failure ends these (fio's exitall_on_error) */
	unsigned report_group;             /* fio's reporting group (groupid): EXIT_REPORT_GROUP */
	/* fio's group_reporting: its reports show the job merged with the jobs of its reporting
	 * group that have it too (fio-json, fio-terse) */
	bool group_reporting;
	unsigned continue_on;              /* JOB_CONT_*: failed I/Os of these kinds are counted */
	/* ... when they fail with one of these errnos (per direction; none listed: EIO, EILSEQ) */
	int ignore_errno[2][JOB_MAX_IGNORE];
	unsigned nignore[2];
	/* The I/O priority of the job's threads (ioprio_set): JOB_IOPRIO_*, 0 none; level 0..7. */
	unsigned ioprio_class, ioprio_level;
	struct job_cmdprio cmdprio;        /* priorities per I/O (uring and aio engines) */
	/* The deepest queue whose I/Os keep within a latency (fio's latency_target): the target
	 * (0: none), the window each depth is judged over, the share that must keep within it
	 * (percent; 0 means 100), and whether the search goes on to the run's end. */
	uint64_t lat_target_ns, lat_window_ns;
	double lat_pct;
	bool lat_run;
	bool sqpoll;                       /* uring: a kernel thread polls the submission queue */
	bool atomic;                       /* writes carry RWF_ATOMIC (torn-write protection) */
	bool hipri, nowait, dontcache;     /* pvsync2: I/Os carry RWF_HIPRI, _NOWAIT, _DONTCACHE */

	/* Steady state (src/core/run_steady.c). */
	enum job_steady steady;
	double steady_limit;
	bool steady_pct;
	uint64_t steady_dur_ns, steady_ramp_ns, steady_interval_ns; /* interval 0: 1 s */
	/* The series' interval (--interval); 0: chosen from the group's length (job_interval). */
	uint64_t interval_ns;

	/* What writes carry (src/core/wdata.c): fio's buffer_* and dedupe_* options. */
	unsigned compress_pct;             /* percent of each chunk that is the pattern (zeros) */
	uint64_t compress_chunk;           /* bytes per chunk; 0: the whole block (default 512) */
	unsigned dedupe_pct;               /* percent of blocks that repeat earlier contents */
	unsigned dedupe_set_pct;           /* 0: they repeat the last new block; else one of a
					    * working set of this percent of the region's blocks */
	bool dedupe_global;                /* every job's working set is the same */
	bool refill;                       /* new contents for every write */
	bool scramble;                     /* stamp every 512 bytes of a write with its offset */
	unsigned data_len;                 /* --data-pattern: its bytes; 0: none */
	unsigned char data_pattern[JOB_MAX_PATTERN];
};

/* The jobs of one run: jobs of a group run together, the groups one after another. */
struct job_list {
	struct job *jobs;
	unsigned n;
};

void job_list_init(struct job_list *l);
void job_list_release(struct job_list *l);
/* A new job at the end (job_init'ed), or NULL when out of memory. */
struct job *job_list_add(struct job_list *l);

/*
 * The series' interval of a group of jobs (they share one, so their points add up by index):
 * the one a job of the group asks for, else JOB_INTERVAL_SHORT when every job of the group has
 * a time limit of at most JOB_INTERVAL_SHORT_RUN (a run of 2 s draws 20 points, not 2), else
 * JOB_INTERVAL_LONG. jobs_check_interval() refuses a group whose jobs ask for different ones.
 */
#define JOB_INTERVAL_SHORT 100000000ull         /* 100 ms */
#define JOB_INTERVAL_LONG 1000000000ull         /* 1 s: a result without one means this */
#define JOB_INTERVAL_SHORT_RUN 10000000000ull   /* 10 s */
#define JOB_INTERVAL_MIN 10000000ull            /* 10 ms: each point merges every histogram */
#define JOB_INTERVAL_MAX 3600000000000ull       /* 1 h */
uint64_t job_interval(const struct job *jobs, unsigned n, unsigned group);
int jobs_check_interval(const struct job *jobs, unsigned n, char *err, size_t errlen);

#define JOB_DEFAULT_BS (4u << 10)
#define JOB_DEFAULT_TIME_NS (10ull * 1000000000ull)
#define JOB_DEFAULT_FILE_SIZE (1ull << 30)
#define JOB_MAX_THREADS 1024u
#define JOB_MAX_DEPTH 4096u
/* The largest size, offset or region end: what off_t holds. */
#define JOB_MAX_BYTES ((uint64_t)INT64_MAX)

void job_init(struct job *j);
void job_release(struct job *j);
int job_add_target(struct job *j, const char *path);
/* Target i must be the file id (that an earlier run created) when the job runs. */
int job_expect(struct job *j, unsigned i, const struct gate_id *id);
/* How messages name job i of a run of several: "job NAME", else "job N" (from 1). */
const char *job_label(const struct job *j, unsigned i, char *buf, size_t len);
/* Target i is a name iorate made up, not one the user gave: never followed if a link. */
int job_made_name(struct job *j, unsigned i);
/* Whether path is one of the job's made-up names. */
bool job_is_made_name(const struct job *j, const char *path);
/*
 * fio's forms, which --bssplit and --distribution read too. A block-size mix:
 * "4k/50:64k/50" for both directions, "READS,WRITES" for each ("2k/50:4k/50,4k/90:8k/10"); a
 * size without a share takes an equal part of what the others leave. A distribution: uniform,
 * zipf[:THETA] (1.2), pareto[:H] (0.2), normal[:PERCENT] (10), zoned:ACCESS%/SIZE%:...,
 * zoned_abs:ACCESS%/SIZE:... (a last SIZE of 0 runs to the end). 0, or
 * -EINVAL with *why ("is not ...", to follow the value); the values are judged by job_validate().
 */
int job_parse_bssplit(struct job *j, const char *spec, const char **why);
int job_parse_dist(struct job *j, const char *spec, const char **why);
/* The distribution's name as iorate spells it ("uniform", "zipf", ...); "?" for none. */
const char *job_dist_name(enum job_dist d);
/*
 * fio's forms of the failures a job goes on after: continue_on_error's none, read, write, io,
 * verify, all (0 and 1 for none and all); ignore_error's READS[,WRITES[,VERIFY]], each a list of
 * errnos by name or number separated by ':' ("EIO:EILSEQ,ENOSPC:122"). 0 or -EINVAL with *why.
 */
int job_parse_continue(struct job *j, const char *spec, const char **why);
int job_parse_ignore_error(struct job *j, const char *spec, const char **why);
/* The I/O priority classes by number (JOB_IOPRIO_RT 1 .. JOB_IOPRIO_IDLE 3; 0 none): "rt", ... */
extern const char *const job_ioprio_classes[4];
/* An I/O priority: rt, be or idle, with :LEVEL (0..7; default 4). 0 or -EINVAL with *why. */
int job_parse_ioprio(struct job *j, const char *spec, const char **why);
/*
 * A pattern of bytes as fio's buffer_pattern writes it, its parts in any order: 0xHEX (bytes as
 * written), a decimal integer (-2^31..2^31-1: its bytes, least significant first, as few as
 * hold it), "TEXT". At most JOB_MAX_PATTERN bytes. 0 or -EINVAL with *why.
 */
int job_parse_pattern(struct job *j, const char *spec, const char **why);
/* The pattern as 0xHEX into buf ("" for none). */
const char *job_pattern_hex(const struct job *j, char *buf, size_t len);
/*
 * A steady-state criterion as fio writes it: iops, iops_slope, bw or bw_slope, then :LIMIT, a
 * number (I/Os, or bytes, per second; per sample for a slope) or a percent of the mean ("2%").
 * 0 or -EINVAL with *why. job_steady_name() writes it back ("iops_slope:0.1%"), "" for none.
 */
int job_parse_steady(struct job *j, const char *spec, const char **why);
const char *job_steady_name(const struct job *j, char *buf, size_t len);
/*
 * Priorities per I/O (src/core/job_cmdprio.c), each 0 or -EINVAL with *why:
 * --cmdprio R[,W], percents (one value: both); --cmdprio-class CLASS[:LEVEL][,CLASS[:LEVEL]]
 * (level 0 when not given); --cmdprio-split BS/PCT[/CLASS[/LEVEL]]:...[,WRITES] (one list:
 * both). job_cmdprio_str() writes each back as it parses (which: 0 share, 1 class, 2 split).
 */
int job_parse_cmdprio(struct job *j, const char *spec, const char **why);
int job_parse_cmdprio_class(struct job *j, const char *spec, const char **why);
int job_parse_cmdprio_split(struct job *j, const char *spec, const char **why);
const char *job_cmdprio_str(const struct job *j, int which, char *buf, size_t len);
/* "be:4", or "" for none, into buf. */
const char *job_ioprio_name(const struct job *j, char *buf, size_t len);
/* The errno called name ("ENOSPC"), or 0. */
int job_errno_parse(const char *name);
/* The largest block size the job can issue (bs, or its mixes'). */
uint64_t job_max_bs(const struct job *j);
/* The smallest (bs, or the smallest of its mixes). */
uint64_t job_min_bs(const struct job *j);
/* The verified block size: verify_block, or the smallest I/O size. */
uint32_t job_verify_block(const struct job *j);
/* Deep copy; dst must be released. */
int job_copy(struct job *dst, const struct job *src);
/* The prefixes of fio's logs (src/core/joblog.c): freed; copied (0 or -ENOMEM). */
void job_logs_release(struct job_logs *l);
int job_logs_copy(struct job_logs *dst, const struct job_logs *src);
/* Whether the job writes any of fio's logs. */
bool job_logs_on(const struct job *j);
/* Records prog (may be NULL) and argv, joined with shell quoting where needed. */
int job_set_command_line(struct job *j, const char *prog, int argc, char *const argv[]);

/*
 * Checks what can be checked without touching a target. On failure returns -EINVAL and writes
 * "<option>: <why>" into err.
 */
int job_validate(const struct job *j, char *err, size_t errlen);

/*
 * Bytes a run of j allocates: per worker (targets x threads) its bs x depth buffer, request
 * arrays and engine slots, and struct worker with its two latency histograms; per target its
 * state and result. Saturates at UINT64_MAX.
 */
uint64_t job_memory_needed(const struct job *j);
/* Engine state per slot of depth (io_uring SQE and CQEs, or an aio iocb and event), at most. */
#define JOB_ENGINE_SLOT_BYTES 128u

/* MemAvailable of /proc/meminfo's text, in bytes: 0, -ENOENT when absent, -EINVAL when bad. */
int job_mem_available_parse(const char *meminfo, uint64_t *bytes);
/* The same from the file at path: 0 or -errno. */
int job_mem_available(const char *path, uint64_t *bytes);
/*
 * -EINVAL with "--threads T x --depth D x --bs B: needs X ..., more than the Y available" in err
 * when job_memory_needed(j) exceeds avail bytes; else 0. job_validate() calls it with
 * MemAvailable.
 */
int job_check_memory(const struct job *j, uint64_t avail, char *err, size_t errlen);

const char *job_pattern_name(enum job_pattern p);
/* The job changes its targets' contents: it writes or trims (the write gate's rules apply). */
static inline bool job_writes(const struct job *j)
{
	return j->write_pct > 0 || j->trim_pct > 0 || j->trim_write;
}
/* The job trims: some I/Os are trims, or its writes trim first. */
static inline bool job_trims(const struct job *j)
{
	return j->trim_pct > 0 || j->trim_write;
}
/* O_DIRECT: the page cache is bypassed (direct and directsync). */
static inline bool job_direct(const struct job *j)
{
	return j->cache == CACHE_DIRECT || j->cache == CACHE_DIRECTSYNC;
}
const char *job_cache_name(enum job_cache c);
const char *job_cap_bucket_name(enum cap_bucket b);
int job_cache_parse(const char *s, enum job_cache *c);

#endif
