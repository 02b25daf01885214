#ifndef IORATE_COMPAT_FIO_H
#define IORATE_COMPAT_FIO_H
/*
 * Private to src/compat/fio*.c. fio_ini.c reads job files and fio_cli.c command lines into
 * sections of option lines (fio_doc); fio_num.c reads fio's numbers; fio_table.c is the table
 * of fio's options, fio_opts.c and fio_words.c read a job's lines into its values (fio_opts);
 * fio_job.c and fio_files.c turn those into the settings and fields of a job of iorate, which
 * fio_emit.c applies and records; fio.c ties them together and keeps the explanation.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compat/compat.h"

/* One option as fio reads it: after ${VAR} and $keyword expansion, comments stripped. */
struct fio_line {
	char *key;               /* "bs" as written, before aliases */
	char *val;               /* "4k", or NULL for a bare option ("norandommap") */
	char *where;             /* "job.fio:7", or "command line" */
	char *typed;             /* "bs=4k" in a job file, "--bs=4k" on a command line */
	char *unset;             /* the first ${NAME} that is not set (read as empty), or NULL */
};

/* A section: [global] (any name starting with "global", as fio reads it) or a job. */
struct fio_section {
	char *name;
	char *where;             /* of its header ("job.fio:4"), or "command line" */
	bool global;
	bool file_stonewall;     /* first job of a second job file: fio separates files so */
	struct fio_line *lines;
	unsigned n, cap;
};

struct fio_doc {
	struct fio_section *s;
	unsigned n, cap;
	unsigned nfiles;         /* job files read: from the second on, a stonewall */
	unsigned nlines;         /* option lines of job files read, to bound them */
};

/*
 * The option lines the jobs read in all (each job every [global] line before it, then its own),
 * and so the lines a job file may hold: bounded, as fio's 4096 jobs bound the jobs, so that no
 * job file takes more than a second or two or gigabytes to read.
 */
#define FIO_MAX_LINES_READ (1u << 20)

void fio_doc_free(struct fio_doc *d);
/* A new section at the end: NULL when out of memory. */
struct fio_section *fio_doc_section(struct fio_doc *d, const char *name, const char *where);
/* Adds key=val (val may be NULL) to s, expanding ${VAR} and $keywords in both. 0 or -errno. */
int fio_section_add(struct fio_section *s, const struct compat_fio_env *env, const char *key,
		    const char *val, const char *where, bool cli, char *err, size_t errlen);
/* Reads a job file into f->doc (fio_ini.c). */
int fio_ini_read(struct compat_fio *f, const char *path, char *err, size_t errlen);
/* Whether fio skips the section of that name: --section names others (never a [global]). */
bool fio_section_skipped(const struct compat_fio *f, const char *name);

/* ---- numbers (fio_num.c) ---- */

/* What a number means when no unit follows it. */
enum fio_unit { FIO_BYTES, FIO_COUNT, FIO_SECONDS, FIO_MICROSECONDS };

/*
 * A number as fio reads it: decimal or 0x hexadecimal; bytes with k/m/g/t/p (powers of kb_base,
 * "ki"... the other base, as fio swaps them), counts likewise (fio reads both so), times with
 * us/ms/s/m/h/d; "(…)" integer arithmetic; pct set when it ends with '%' (only when pct is not
 * NULL). 0, or -EINVAL with *why saying what is wrong with the text.
 */
int fio_number(const char *s, enum fio_unit unit, unsigned kb_base, uint64_t *out, bool *pct,
	       const char **why);
/* 0 or 1, as fio reads a bool (decimal or 0x). */
int fio_bool(const char *s, bool *out, const char **why);
/* Integer arithmetic of + - * / % ^ and parentheses ($mb_memory*2): 0 or -EINVAL. */
int fio_arith(const char *s, int64_t *out, const char **why);

/* ---- options (fio_opts.c) ---- */

/* The values of fio that become settings; each remembers the line that set it last. */
enum fio_id {
	FO_NAME, FO_DESC, FO_RW, FO_RW_SEQUENCER, FO_RWMIX, FO_BS, FO_BSRANGE, FO_BSSPLIT, FO_BA,
	FO_SIZE, FO_IO_SIZE, FO_FILESIZE, FO_OFFSET, FO_OFFSET_INC, FO_NUMBER_IOS, FO_LOOPS,
	FO_NRFILES, FO_FILE_SERVICE, FO_FILENAME, FO_DIRECTORY, FO_FILENAME_FORMAT, FO_NUMJOBS,
	FO_TIME_BASED, FO_RUNTIME, FO_RAMP, FO_STARTDELAY, FO_ENGINE, FO_IODEPTH, FO_BATCH,
	FO_DIRECT, FO_SYNC, FO_FSYNC, FO_FDATASYNC, FO_END_FSYNC, FO_THINKTIME, FO_THINK_BLOCKS,
	FO_RATE, FO_RATE_IOPS, FO_RATE_PROCESS, FO_RANDREPEAT, FO_RANDSEED, FO_NORANDOMMAP,
	FO_DIST, FO_PCT_RANDOM, FO_INVALIDATE, FO_STONEWALL, FO_NEW_GROUP, FO_WAIT_FOR,
	FO_ZERO_BUFFERS, FO_UNLINK, FO_KB_BASE, FO_VERIFY, FO_VERIFY_INTERVAL, FO_EXITALL,
	FO_EXIT_WHAT, FO_CONTINUE, FO_IGNORE_ERROR, FO_PRIO, FO_PRIOCLASS, FO_COMPRESS,
	FO_COMPRESS_CHUNK, FO_DEDUPE, FO_DEDUPE_MODE, FO_DEDUPE_SET, FO_DEDUPE_GLOBAL,
	FO_BUF_PATTERN, FO_REFILL, FO_SCRAMBLE, FO_ZONEMODE, FO_ZONESIZE, FO_ZONERANGE,
	FO_ZONESKIP, FO_FILL_DEVICE, FO_SS, FO_SS_DUR, FO_SS_RAMP, FO_SS_INTERVAL, FO_FLOW, FO_FLOW_ID, FO_FLOW_SLEEP, FO_CMDPRIO_PCT,
	FO_CMDPRIO_CLASS, FO_CMDPRIO_LEVEL, FO_CMDPRIO_SPLIT, FO_SQPOLL, FO_LAT_TARGET,
	FO_LAT_WINDOW, FO_LAT_PCT, FO_LAT_RUN, FO_ATOMIC, FO_EXITALL_ERROR, FO_SEQ_STRIDE, FO_ZONECAP,
	FO_MAX_OPEN, FO_JOB_MAX_OPEN, FO_ZRT, FO_ZRF, FO_RBWP, FO_SPR,
	FO_SPR_OP, FO_SPR_REGIONS, FO_SPR_CS, FO_GROUP_REPORTING, FO_HIPRI, FO_HIPRI_PCT,
	FO_UNCACHED, FO_NOWAIT, FO_LOG_BW, FO_LOG_IOPS, FO_LOG_LAT, FO_LOG_HIST, FO_LOG_AVG,
	FO_LOG_HIST_MSEC, FO_LOG_MAX, FO_LOG_OFFSET, FO_LOG_PRIO, FO_PER_JOB_LOGS, FO_NONE, FO_N
};

/* The slots of fio's values per direction (bs=READS,WRITES,TRIMS). */
enum fio_dirs { FIO_READ, FIO_WRITE, FIO_TRIM };

struct fio_opts {
	unsigned kb_base;
	const char *name;                   /* name= (the section's name otherwise) */
	const char *desc;                   /* description= */
	bool random;
	int rw;                             /* 0 reads, 1 writes, 2 both */
	int trim;                           /* 1: trims instead of reads (rw=trim), 2: each write
					     * trims first (rw=trimwrite); 0: no trims */
	uint64_t rw_mod;                    /* rw=...:N; 0 = none */
	uint64_t rw_back;                   /* rw=read:-N (backward): N; 0 = none */
	int mix_write;                      /* rwmixread/rwmixwrite as writes %; -1 = 50 */
	uint64_t bs[3];                     /* read, write, trim */
	uint64_t bsmin[3], bsmax[3];        /* bsrange; bsmax 0 = none */
	const char *bssplit;
	uint64_t ba[3];
	uint64_t size, io_size, offset, offset_inc;
	uint64_t filesize[2];               /* filesize=low-high; 0: not given */
	bool size_pct, io_size_pct, offset_pct, offset_inc_pct;   /* the figure is a percent */
	uint64_t number_ios;
	unsigned loops, nrfiles, numjobs;
	uint64_t randseed;
	enum job_file_service fst;
	unsigned fst_n;
	const char *filename, *directory, *filename_format;
	bool time_based;
	uint64_t runtime_ns, ramp_ns, startdelay_ns, think_ns;
	const char *engine;
	unsigned iodepth, batch, think_blocks;
	bool direct;
	int sync;                           /* 0 none, 1 O_SYNC, 2 O_DSYNC */
	unsigned fsync, fdatasync;
	bool end_fsync;
	uint64_t rate[3], rate_iops[3], pct_random[3];
	bool poisson;
	bool randrepeat;
	bool norandommap;
	const char *dist;
	bool invalidate, stonewall, new_group, zero_buffers, unlink;
	bool group_reporting;               /* fio's reports merge its reporting group */
	const char *wait_for;
	const char *verify;                 /* iorate's checksum for verify=, NULL: none */
	const char *verify_note;            /* how fio's kind maps onto it, or NULL */
	uint64_t verify_interval;
	/* how the job ends (fio_ends.c) */
	bool exitall;                       /* exitall= of this job */
	bool exitall_error;                 /* exitall_on_error: its failure ends others */
	bool exitall_run;                   /* ... of any job of the run: fio ends jobs so */
	int exit_what;                      /* 0 group, 1 stonewall, 2 all */
	unsigned report_group;              /* fio's groupid: stonewall and new_group start one */
	const char *continue_on, *ignore_error;
	unsigned prio, prioclass;           /* ioprio_set of the job's threads, when either is set */
	unsigned flow, flow_id;             /* flow control between jobs; weight 0: none */
	/* priorities per I/O, as written (fio_ends.c translates them) */
	const char *cmdprio_pct, *cmdprio_class, *cmdprio_level, *cmdprio_split;
	bool sqpoll;
	bool atomic;                        /* atomic=1 (newer fio): RWF_ATOMIC writes */
	/* pvsync2's options: RWF_HIPRI (on hipri_pct percent of the I/Os), _DONTCACHE, _NOWAIT */
	bool hipri, nowait;
	unsigned hipri_pct, uncached;
	bool seq_stride;                    /* random_sequence_stride (newer fio) */
	uint64_t lat_target_ns, lat_window_ns;  /* latency_target, latency_window */
	const char *lat_pct;                /* latency_percentile as written */
	bool lat_run;
	uint64_t flow_sleep_ns;
	/* what writes carry (fio_data.c) */
	unsigned compress_pct, dedupe_pct, dedupe_set_pct;
	uint64_t compress_chunk;
	bool dedupe_working_set, dedupe_global, refill, scramble;
	const char *buf_pattern;
	/* strided and emulated zones (fio_zones.c) */
	bool strided, zbd;
	uint64_t zonesize, zonerange, zoneskip, zonecap;
	unsigned max_open, job_max_open;
	const char *zrt, *zrf;              /* zone_reset_threshold, _frequency, as written */
	bool read_beyond_wp;
	/* SPRandom preconditioning (newer fio): sprandom, spr_op as written, spr_num_regions,
	 * spr_cs */
	bool sprandom;
	const char *spr_op;
	unsigned spr_regions;
	uint64_t spr_cs;
	/* size, io_size, offset, offset_increment counted in zones ('z'): resolved by zonesize */
	bool size_z, io_size_z, offset_z, offset_inc_z;
	bool fill_device;
	/* steady state (fio_ends.c) */
	const char *ss;
	uint64_t ss_dur_ns, ss_ramp_ns, ss_interval_ns;
	/* log files (fio_job.c): each prefix ("": the job's name), log_avg_msec, log_hist_msec */
	const char *log_bw, *log_iops, *log_lat, *log_hist;
	uint64_t log_avg_ms, log_hist_ms;
	bool log_max, log_offset, log_prio, per_job_logs;
	const struct fio_line *src[FO_N];   /* the line that set each value, NULL: fio's default */
};

/* The slot of the values per direction a job of one direction takes: a trimming job
 * (rw=trim) its trims', as fio does; a mixed one (rw == 2) its reads'. */
static inline int fio_dir(const struct fio_opts *o)
{
	return o->trim == 1 ? FIO_TRIM : o->rw == 1 ? FIO_WRITE : FIO_READ;
}

struct fio_opts;
/* How fio reads an option's value. */
enum fio_type {
	FT_NUM,          /* a number (unit, min, max; a percentage when pct) */
	FT_PAIR,         /* a number for reads, and for writes after a ',' (bs=4k,8k) */
	FT_BOOL,         /* 0 or 1; a value is needed (fio refuses a bare bool) */
	FT_SET,          /* bare, or 0/1 */
	FT_STR,          /* any text, kept */
	FT_WORD,         /* read by its own function */
	FT_ANY,          /* not read: of no effect, or refused, whatever its value */
};

/* What becomes of an option. */
enum fio_how {
	FH_READ,         /* read into fio_opts, then settings */
	FH_NOEFFECT,     /* accepted: it tunes fio's reporting or process model */
	FH_REFUSED,      /* iorate does not have it */
};

struct fio_opt {
	const char *name, *alias, *alias2;
	enum fio_type type;
	enum fio_how how;
	enum fio_id id;
	enum fio_unit unit;       /* FT_NUM, FT_PAIR */
	size_t off;               /* FT_NUM, FT_PAIR, FT_BOOL, FT_SET, FT_STR: the field */
	size_t pct_off;           /* FT_NUM with pct: the field that says it is a percentage */
	size_t z_off;             /* ... and the one that says it counts zones ('z'), or 0 */
	bool pct, u32, neg;       /* a percentage may be given; an unsigned field; stored negated */
	bool bare;                /* FT_WORD: may stand without a value (write_bw_log) */
	uint64_t min, max;        /* FT_NUM, FT_PAIR (max 0: none) */
	/* FH_NOEFFECT: why; FH_REFUSED: what iorate would need */
	const char *why;
	/* FH_REFUSED: values that ask nothing, accepted as of no effect ("0 none") */
	const char *except;
	int (*read)(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l);
};

/* The option called name (or by an alias), or NULL. */
const struct fio_opt *fio_opt_find(const char *name);
/* "; did you mean iodepth?" (prefix "--": "--iodepth") for a name no row has, or "". */
const char *fio_opt_suggest(const char *name, const char *prefix, char *out, size_t len);

/* What went wrong while reading a job: every refusal, one line each (fio.c keeps them). */
struct fio_refusals;
/* Records one; engine: it refuses an ioengine. -ENOMEM or 0. */
int fio_refuse(struct compat_fio *f, const struct fio_line *l, bool engine, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * Reads the lines of a job (its [global]s' then its own, in order) into o, from fio's defaults.
 * Every line that cannot run is recorded with fio_refuse(); returns 0, or -ENOMEM.
 */
int fio_opts_read(struct compat_fio *f, struct fio_opts *o, const struct fio_line *const *lines,
		  unsigned n);

/* The readers of FT_WORD options (fio_words.c). */
int fio_read_rw(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l);
int fio_read_rwmix(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l);
int fio_read_sequencer(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l);
int fio_read_bsrange(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l);
int fio_read_bssplit(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l);
int fio_read_filesize(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l);
int fio_read_engine(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l);
int fio_read_log(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l);
int fio_read_sync(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l);
int fio_read_rate_process(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l);
int fio_read_verify(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l);
int fio_read_fst(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l);
int fio_read_dist(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l);
int fio_read_kb_base(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l);
int fio_read_startdelay(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l);
int fio_read_exit_what(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l);
int fio_read_zonemode(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l);
int fio_read_dedupe_mode(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l);

/*
 * fio's bssplit and random_distribution in the forms --bssplit and --distribution read: sizes
 * in bytes, fio's normal deviation as a sigma. 0, or -EINVAL with *why. A bssplit's shares are
 * those fio draws (they need not add up to 100 as written); note says how, or is empty.
 */
int fio_bssplit_convert(const char *s, unsigned kb_base, char *out, size_t len, char *note,
			size_t notelen, const char **why);
int fio_dist_convert(const char *s, unsigned kb_base, char *out, size_t len, const char **why);

/* fio's engines: what iorate runs each with ("sync", "aio", "posixaio", ...), or NULL; *differs
 * says how the system calls differ when iorate has no engine that makes fio's, else NULL. */
const char *fio_engine_map(const char *engine, bool *sync_engine, const char **differs);
/* Why an engine iorate does not run is refused ("network I/O ..."). */
const char *fio_engine_refusal(const char *engine);
/* "; did you mean libaio?" for a typo of an engine iorate runs, or "". */
const char *fio_engine_near(const char *engine, char *out, size_t len);

/* ---- jobs (fio_job.c, fio_files.c) ---- */

/* What fio_job.c writes to: the sink, the job and its explanation. */
struct fio_emit {
	struct compat_fio *f;
	const struct compat_sink *sink;
	struct job *j;
	unsigned jobno;                       /* the job's place in the list, from 0 */
	struct compat_fio_job *ex;
	char *err;
	size_t errlen;
	/* the items each line produced, before they are put in the order of the lines */
	struct fio_rec {
		const struct fio_line *line;  /* NULL: a default of fio */
		char *option;                 /* a default: "rw=read" */
		char *became, *note;
	} *recs;
	unsigned nrecs;
	char *equivalent;                     /* the settings applied, as 'iorate run' options */
};

/*
 * Settings and fields of clone k of a job whose values are o, into e->j: engine, pattern, mix,
 * block sizes, depth, cache, time, files, regions and the rest. 0, -EINVAL with err, -ENOMEM.
 */
int fio_job_emit(struct fio_emit *e, const struct fio_opts *o, const char *jobname,
		 unsigned clone);

/*
 * Applies one setting through the sink: name and value as 'iorate run' reads them, from line l
 * (or fio's default deflt when l is NULL), recorded for the explanation. 0, -EINVAL with
 * "WHERE: OPTION: why" in err, -ENOMEM.
 */
int fio_set(struct fio_emit *e, const struct fio_line *l, const char *deflt, const char *name,
	    const char *value, const char *note, ...) __attribute__((format(printf, 6, 7)));
/* Records an item of the explanation that is no setting: l's option (or deflt) became this. */
int fio_note(struct fio_emit *e, const struct fio_line *l, const char *deflt, const char *note,
	     const char *became, ...) __attribute__((format(printf, 5, 6)));
/* A refusal found while emitting: "WHERE: OPTION: why" into err, -EINVAL. */
int fio_emit_fail(struct fio_emit *e, const struct fio_line *l, const char *deflt,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * The files of clone k, their regions and the bytes fio does before the job ends (fio_files.c):
 * targets written to e->j, --offset, --range, --size, --keep, and the bytes into *bytes.
 */
int fio_files_emit(struct fio_emit *e, const struct fio_opts *o, const char *jobname,
		   unsigned clone, uint64_t *bytes);

/*
 * How the job ends and what it goes on after (fio_ends.c): exitall and exit_what,
 * continue_on_error and ignore_error; and the I/O priority of its threads (prio, prioclass).
 */
int fio_ends_emit(struct fio_emit *e, const struct fio_opts *o);
/* size, io_size, offset and offset_increment given in zones ('z') made bytes by zonesize. */
int fio_zones_resolve(struct fio_emit *e, struct fio_opts *o);
/* Where its I/O goes: zonemode=strided with zonesize, zonerange, zoneskip; fill_device
 * (fio_zones.c). */
int fio_zones_emit(struct fio_emit *e, const struct fio_opts *o);
/* What its writes carry: compression, dedupe, pattern, refill and scramble (fio_data.c). */
int fio_data_emit(struct fio_emit *e, const struct fio_opts *o);

/* The smallest block size the job issues (fio's min_bs, which aligns offsets and regions). */
uint64_t fio_min_bs(const struct fio_opts *o);

#endif
