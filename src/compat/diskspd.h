#ifndef IORATE_COMPAT_DISKSPD_H
#define IORATE_COMPAT_DISKSPD_H
/*
 * Private to the DiskSpd translator: diskspd.c (the flags), diskspd_job.c (what depends on
 * several flags, the defaults DiskSpd applies, and the targets), diskspd_profile.c (XML
 * profiles: each target of each TimeSpan read as the flags it stands for) and diskspd_xml.c
 * (the profile's document, read with libxml2).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "compat/compat.h"

#define DSPD_DEFAULT_BS (64u << 10)

/*
 * A flag as shown in the explanation and in refusals ("-t8", or a profile's "<ThreadsPerFile>8")
 * and its value alone ("8"); flag NULL when not given.
 */
struct dspd_arg {
	const char *flag;
	const char *val;
};

/*
 * What the flags said that is resolved only once all are read, because DiskSpd derives it from
 * several (threads, depth, pattern and strides, region, throttle, cache mode, distribution);
 * each flag as typed, so the setting it becomes names it.
 */
struct dspd {
	struct compat_to to;
	char letter;                /* the flag being read: its examples in messages ("-c8b") */
	bool xml;                   /* the flags are a profile's elements: no examples of flags */
	uint64_t bs;                /* the -b size in bytes: DiskSpd's sizes may count blocks */
	struct dspd_arg t, F, o;    /* -t<n>, -F<n>, -o<n> */
	unsigned threads;           /* once resolved: threads on each target */
	unsigned share;             /* -F: how many targets its threads serve */
	char cache_flags[128];      /* the -S and -h flags given, as typed, "" for none */
	bool u_set, w_set;          /* -S: software cache off / write-through were given */
	bool unbuffered, writethrough;
	struct dspd_arg r, rs, rd, s, T, f, g, B;
	bool interlocked;           /* -si */
	bool stride_set;
	uint64_t stride;            /* -s<stride>, else the block size */
	uint64_t align;             /* -r<align>; 0 = the block size */
	uint64_t tstride;           /* -T<offset> */
	uint64_t base, maxsize;     /* -B<base>, -f<size> or -B<base>:<length> */
	const char *max_flag;       /* what set maxsize */
	unsigned rate;              /* -g: bytes per ms (or I/Os per second) per thread and target */
	bool g_iops;                /* -g<n>i */
	unsigned rs_pct;            /* -rs<pct> */
	bool create, writes;        /* -c was given; -w above 0 */
	bool seen[128];
};

/* Where the flags start: after a pasted program name "diskspd" or "diskspd.exe". */
int dspd_first_flag(int argc, char **argv);
/* Reads one flag (argv word, "-b64K"), or fails naming it. */
int dspd_flag(struct dspd *d, const char *flag);
/* The same for a flag of letter c whose label (a profile's element) is not "-cVAL". */
int dspd_flag_as(struct dspd *d, char c, const char *label, const char *val);
/* A DiskSpd size ("64K", "8b": blocks) in bytes, or fails naming flag. */
int dspd_bytes(struct dspd *d, const char *flag, const char *val, uint64_t *out);
/*
 * (diskspd_value.c) A size as 'iorate run' reads it: blocks ("8b", of the -b size) become bytes
 * in buf, anything else is passed on as typed; NULL after the refusal. ", as in -c8b" for a
 * refusal's end (none in a profile). Whether a size counts blocks.
 */
const char *dspd_value(struct dspd *d, const char *flag, const char *val, char buf[32]);
const char *dspd_example(const struct dspd *d, const char *tail, char buf[64]);
bool dspd_is_blocks(const char *val);
/* -b: sets the block size (read before the other flags: their sizes may count blocks). */
int dspd_set_bs(struct dspd *d, const char *flag, const char *val);
/* Resolves what depends on several flags into settings: threads, pattern, region, throttle. */
int dspd_resolve(struct dspd *d);
/* The DiskSpd defaults no flag overrode (its -b64K, -d10, -W5, -o2, ...), as settings. */
int dspd_defaults(struct dspd *d);
/* A target: a path, or "#N" for the Nth whole disk; Windows paths are refused. */
int dspd_target(struct dspd *d, const char *arg);
/* A new state for one job: to = where its settings go, explained to ex. */
void dspd_init(struct dspd *d, const struct compat_sink *sink, struct job *j, FILE *ex, char *err,
	       size_t errlen);

/*
 * -X<path>: the profile's TimeSpans and targets into jobs of out (one group per TimeSpan;
 * targets of a TimeSpan whose parameters agree share a job). over are the flags allowed beside
 * -X (-d -W -C -z), applied to every TimeSpan; subst the targets that replace *1, *2, ...
 */
int dspd_profile(const char *path, char **over, int nover, char **subst, int nsubst,
		 const struct compat_jobs *out, FILE *ex, char *err, size_t errlen);

#endif
