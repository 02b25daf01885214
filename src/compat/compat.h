#ifndef IORATE_COMPAT_COMPAT_H
#define IORATE_COMPAT_COMPAT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/job.h"
#include "util/err.h"

/*
 * Translators of foreign workloads: DiskSpd and SQLIO command lines, fio job files. They never
 * run anything.
 *
 * The command-line translators take argv as the subcommand gets it (argv[0] = "diskspd" or
 * "sqlio", then the foreign flags and targets, without iorate's own --options). They turn each
 * flag into settings: an option of 'iorate run', the value 'iorate run' would read, and the
 * flag as typed. A sink, which the front end provides, applies each (src/cmd/ through the option
 * table), so a value is judged by the rules of 'iorate run' and refused under the foreign flag.
 * What no option of 'iorate run' sets (targets, where the job came from) is written to the job
 * directly. The defaults of the foreign tool are settings too, applied last to what no flag set.
 *
 * When explain is not NULL they write one line per setting (and per flag that sets nothing, saying
 * why), from the setting as the sink accepted it. On bad input they return -EINVAL with one
 * line in err that names the flag ("-o0: '0' is out of range (1 to 4096)"), and the job must be
 * released anyway.
 */
/* The flags each translator knows, for help and refusals. */
#define DSPD_FLAGS                                                                              \
	"-b -B -c -C -d -D -f -F -g -h -L -n -o -P -r -rs -rd -R -s -S -t -T -v -w -W -X -z -Z"
#define SQLIO_FLAGS "-k -t -s -o -b -f -L -B -F -S -i -p -a"

/* One setting: what a foreign flag (or a default of the foreign tool) becomes. */
struct compat_setting {
	const char *name;        /* an option of 'iorate run', by its long name: "depth" */
	const char *value;       /* as 'iorate run' reads it ("32", "8KiB"); NULL for a flag */
	const char *flag;        /* the foreign flag as typed ("-o32"), or the default ("-o2") */
	bool is_default;         /* a default of the foreign tool, not a flag the user gave */
	const char *note;        /* what it means, for the explanation; may be NULL */
	struct job *job;         /* the job it is for (a translator may fill several), or NULL */
};

/* Where a translator's settings go. */
struct compat_sink {
	/* Applies s: 0, or -errno with the reason, naming neither flag nor option, in why. */
	int (*set)(void *arg, const struct compat_setting *s, char *why, size_t whylen);
	void *arg;
};

/* A translator: argv to settings (through sink) and targets (into j). */
typedef int (*compat_translator)(int argc, char **argv, const struct compat_sink *sink,
				 struct job *j, FILE *explain, char *err, size_t errlen);

/* A DiskSpd command line without -X: always one job. */
int compat_diskspd_parse(int argc, char **argv, const struct compat_sink *sink, struct job *j,
			 FILE *explain, char *err, size_t errlen);
int compat_sqlio_parse(int argc, char **argv, const struct compat_sink *sink, struct job *j,
		       FILE *explain, char *err, size_t errlen);

/*
 * Where a translator that may make several jobs (DiskSpd: an XML profile's TimeSpans, and its
 * targets whose parameters differ) puts them: it appends each to list (job_list_add()), and
 * bind() returns the sink that applies settings to job j (through the option table of 'iorate
 * run'), valid until the next bind().
 */
struct compat_jobs {
	struct job_list *list;
	const struct compat_sink *(*bind)(void *arg, struct job *j);
	void *arg;
};

/*
 * A DiskSpd command line, with -X<profile> or without (then one job), into out's list. Jobs of
 * a profile are named ("ts1.t1", "ts1.t2+t3": TimeSpan 1, its targets) and grouped (TimeSpan
 * 1 is group 0, run first). The profile is read as a file and nothing else: no network, no
 * DTD, no external entity. On a refusal the jobs appended so far stay in the list.
 */
int compat_diskspd_jobs(int argc, char **argv, const struct compat_jobs *out, FILE *explain,
			char *err, size_t errlen);
typedef int (*compat_jobs_translator)(int argc, char **argv, const struct compat_jobs *out,
				      FILE *explain, char *err, size_t errlen);

/* What a translator writes to: the sink, the job, the explanation, the refusal. */
struct compat_to {
	const struct compat_sink *sink;
	struct job *j;
	FILE *ex;
	char *err;
	size_t errlen;
};

/*
 * Hands the setting (flag, name, value) to the sink; when accepted, writes its explain line
 * ("  -o8  --depth 8: note", "  default -o2  --depth 2"), when refused, "FLAG: WHY" into err.
 * note is a printf format (may be NULL). 0, -EINVAL when refused, or -ENOMEM.
 */
int compat_set(const struct compat_to *t, const char *flag, bool is_default, const char *name,
	       const char *value, const char *note, ...) __attribute__((format(printf, 6, 7)));

/*
 * fio job files and fio command lines (src/compat/fio*.c), as fio reads them: every section,
 * [global]s, include, comments, ${VAR} and $pagesize/$mb_memory/$ncpus, fio's aliases and
 * number forms, numjobs, run groups. Each job of fio (each clone of numjobs) becomes one job of
 * the list, its options settings of 'iorate run' applied through the sink (compat_setting.job
 * says which job); names, groups, targets and shared threads are written to the job directly.
 */

/* What a translation reads besides the text it is given; compat_fio_env_system() fills it. */
struct compat_fio_env {
	/* ${NAME}: the value, or NULL when not set. */
	const char *(*getenv)(void *arg, const char *name);
	/* The text of a job file or include file (malloc'd into *text): 0 or -errno. */
	int (*read)(void *arg, const char *path, char **text);
	/*
	 * What is at path: 0 with *size (a block device's capacity) and whether it is a regular
	 * file; -ENOENT when nothing is; -errno when it cannot be told. fio sizes files by it.
	 */
	int (*stat)(void *arg, const char *path, uint64_t *size, bool *regular);
	void *arg;
	uint64_t pagesize, mb_memory, ncpus;    /* $pagesize, $mb_memory, $ncpus */
};
void compat_fio_env_system(struct compat_fio_env *env);

/* One line of a job's translation: an option of fio (or one of its defaults) and what it became. */
struct compat_fio_item {
	char *where;             /* "job.fio:7", "command line", or "default" */
	char *option;            /* as fio read it: "iodepth=64", "norandommap" */
	char *became;            /* "--depth 64", "(no effect)", "target /mnt/a", "group 1", ... */
	char *note;              /* why or how; may be NULL */
};

/* The translation of one job of the list (the same index). */
struct compat_fio_job {
	char *name;              /* the section's name (the clones of numjobs share it) */
	char *where;             /* "job.fio:4" of its section, or "command line" */
	unsigned clone, clones;  /* clone k of numjobs */
	struct compat_fio_item *items;
	unsigned nitems;
	char *equivalent;        /* the options of 'iorate run' it became, then its targets */
};

/* Where a fio translation stands: what was read, fio's own options, the translation. */
struct fio_doc;
struct compat_fio {
	const struct compat_fio_env *env;
	struct fio_doc *doc;            /* what was read: sections and their options */
	/* fio's own command-line options, for the front end (see docs/compat.md) */
	const char *output_format, *output, *eta;
	/* --minimal is --output-format=terse; --append-terse adds terse to the formats given
	 * before it (a later --output-format replaces both, as in fio) */
	bool append_terse;
	const char *terse_version;      /* --terse-version as given, or NULL */
	bool showcmd, parse_only, readonly;
	const char *sections[32];       /* --section: only these sections of job files */
	unsigned nsections;
	/* per job of the list, after compat_fio_translate() */
	struct compat_fio_job *jobs;
	unsigned njobs;
	/* what cannot run, one line each ("job.fio:7: verify=md5: ..."), after a refusal */
	char **refused;
	unsigned nrefused, refused_cap;
	unsigned refused_engines;       /* how many of them name an engine */
	unsigned *refused_set;          /* a hash of refused (index + 1, 0 empty): named once */
	unsigned refused_setcap;
};

void compat_fio_init(struct compat_fio *f, const struct compat_fio_env *env);
void compat_fio_release(struct compat_fio *f);

/*
 * Reads a fio command line (argv[0] "fio", or the subcommand's name): fio's own options into f,
 * job options (before the first --name: global; each --name starts a job) and job files, read
 * in order after the command line's jobs, as fio does. -EINVAL with the reason in err (an
 * option fio does not have is refused later, with the others, by compat_fio_translate()).
 * argv must last as long as f: fio's own options point into it.
 */
int compat_fio_read_argv(struct compat_fio *f, int argc, char **argv, char *err, size_t errlen);
/* Reads a job file (and what it includes): -EINVAL, or -errno when it cannot be read. */
int compat_fio_read_file(struct compat_fio *f, const char *path, char *err, size_t errlen);

/*
 * Translates every job read into jobs (appended), each setting through sink. When options
 * cannot run, every one of them is listed in f->refused ("FILE:LINE: option: why"), err says
 * how many, and -EINVAL is returned before any setting is applied; a value the sink refuses
 * gives -EINVAL with "FILE:LINE: option=value: why" in err. -ENOMEM.
 */
int compat_fio_translate(struct compat_fio *f, const struct compat_sink *sink,
			 struct job_list *jobs, char *err, size_t errlen);

/* fio --showcmd: the job options read, as one fio command line. */
void compat_fio_showcmd(const struct compat_fio *f, FILE *out);

/*
 * How each syntax spells the fields the core and the model name (util/field.h), in
 * src/compat/spell.c: DiskSpd's flags ("-o", "-Sb"), a DiskSpd profile's elements
 * ("<RequestCount>"), SQLIO's flags, fio's options ("iodepth", "direct=0").
 */
struct field_spelling;
extern const struct field_spelling compat_diskspd_spelling, compat_diskspd_xml_spelling,
	compat_sqlio_spelling, compat_fio_spelling;
/* The fio option a field of iorate is read from, for messages ("depth": "iodepth"); or NULL. */
const char *compat_fio_spell(const char *field);
/*
 * Every setting a translator makes is recorded with the flag it came from (compat_set(),
 * fio_set()), so that the spellings above name the flag the user gave where two set one field.
 * compat_spell_forget() drops them (tests translate one line after another).
 */
void compat_spell_record(const char *field, const char *flag);
void compat_spell_forget(void);

/*
 * DiskSpd's "#N" target: the Nth (from 0) whole disk under sysblock (normally "/sys/block";
 * the environment variable IORATE_SYSFS_BLOCK overrides it for tests). Whole disks are the
 * entries with a "device" link, which leaves out loop, ram, zram, dm and md devices, less
 * optical drives (sr*); they are taken in natural name order (sda < sdb, nvme0n1 < nvme1n1).
 * Writes the kernel name into name and, into list (may be NULL), "#0 vda, #1 vdb" for messages.
 * -ENOENT when there is no disk N.
 */
int compat_disk_by_number(const char *sysblock, unsigned n, char *name, size_t namelen,
			  char *list, size_t listlen);

/* "f:\testfile.dat", "C:", "\\server\share\x", ".\x": a Windows path, which Linux cannot open. */
bool compat_is_windows_path(const char *s);

/* One explain line: the foreign flag, padded, then what it became. explain may be NULL. */
void compat_explain(FILE *explain, const char *flag, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The `iorate run` command line equivalent to j (options, then targets), for the translators'
 * last explain line and docs. Returns buf.
 */
char *compat_run_equivalent(const struct job *j, char *buf, size_t len);

#endif
