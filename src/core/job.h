#ifndef IORATE_CORE_JOB_H
#define IORATE_CORE_JOB_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* Emulated caps of one disk or of the VM; 0 means "no cap". MB/s are 10^6 bytes per second. */
struct job_caps {
	double iops, mbps;
	double burst_iops, burst_mbps, burst_seconds;
};

struct job {
	uint64_t bs;                       /* bytes per I/O */
	uint64_t time_ns;                  /* measured duration */
	uint64_t warmup_ns, cooldown_ns;   /* I/O issued then is not counted */
	unsigned threads;                  /* per target */
	unsigned depth;                    /* outstanding I/Os per thread */
	unsigned batch;                    /* hand I/Os to the kernel N at a time (default 1) */
	unsigned write_pct;                /* 0..100 */
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
	enum job_fill fill;
	bool keep;                         /* keep a test file iorate created */
	bool allow_write_device;           /* writing to a block device was asked for */
	bool force;                        /* ... even one that is mounted or holds a filesystem */
	bool no_latency;                   /* count I/Os but read no clocks per I/O */
	bool verbose;
	uint64_t ios_per_thread;           /* stop a thread after this many I/Os; 0 = by time */
	char *trace_path;                  /* write every issued I/O here (debugging, tests) */

	/* Emulation of cloud caps (per target, and across all targets as the VM's). */
	struct job_caps cap, vm_cap;
	uint64_t cap_io_unit;              /* I/Os larger than this count as several; 0 = off */
	double rate_iops;                  /* open-loop arrival rate per target; 0 = closed loop */
	enum job_arrival arrival;

	char **targets;
	unsigned ntargets;

	char *command_line;                /* as the user typed it, for the record */
	char origin[16];                   /* "run", "diskspd", "sqlio", "fio", "mark", ... */
};

#define JOB_DEFAULT_BS (4u << 10)
#define JOB_DEFAULT_TIME_NS (10ull * 1000000000ull)
#define JOB_DEFAULT_FILE_SIZE (1ull << 30)
#define JOB_MAX_THREADS 1024u
#define JOB_MAX_DEPTH 4096u

void job_init(struct job *j);
void job_release(struct job *j);
int job_add_target(struct job *j, const char *path);
/* Deep copy; dst must be released. */
int job_copy(struct job *dst, const struct job *src);
/* Records prog (may be NULL) and argv, joined with shell quoting where needed. */
int job_set_command_line(struct job *j, const char *prog, int argc, char *const argv[]);

/*
 * Checks what can be checked without touching a target. On failure returns -EINVAL and writes
 * "<option>: <why>" into err.
 */
int job_validate(const struct job *j, char *err, size_t errlen);

const char *job_pattern_name(enum job_pattern p);
/* O_DIRECT: the page cache is bypassed (direct and directsync). */
static inline bool job_direct(const struct job *j)
{
	return j->cache == CACHE_DIRECT || j->cache == CACHE_DIRECTSYNC;
}
const char *job_cache_name(enum job_cache c);
int job_cache_parse(const char *s, enum job_cache *c);

#endif
