#ifndef IORATE_CMD_COMPAT_H
#define IORATE_CMD_COMPAT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cmd/run_common.h"
#include "core/job.h"

/*
 * Translators of foreign workloads into a struct job: DiskSpd and SQLIO command lines, fio job
 * files. Each fills a job_init'ed job and never runs anything, so that what a flag became can be
 * tested field by field. docs/compat.md holds the mapping tables.
 *
 * The command-line translators take argv as the subcommand gets it (argv[0] = "diskspd" or
 * "sqlio", then the foreign flags and targets, without iorate's own --options). When explain is
 * not NULL they write one line per flag saying what it became, then the defaults of the foreign
 * tool that iorate applied. On bad input they return -EINVAL with one line in err that names the
 * flag and the tool ("-q7: not a DiskSpd option (...)"), and the job must be released anyway.
 */
int compat_diskspd_parse(int argc, char **argv, struct job *j, FILE *explain, char *err,
			 size_t errlen);
int compat_sqlio_parse(int argc, char **argv, struct job *j, FILE *explain, char *err,
		       size_t errlen);

/*
 * Loads a fio job file: a [global] section and one job section, in the subset docs/compat.md
 * lists. -EINVAL with "FILE:LINE: option 'xyz' is not supported (supported: ...)" in err for an
 * option outside it, -errno with "FILE: <why>" when the file cannot be read.
 */
int compat_fio_load(const char *path, struct job *j, char *err, size_t errlen);

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

/* A translator's refusal: the message into err, and -EINVAL to return. */
int compat_fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* One explain line: the foreign flag, padded, then what it became. explain may be NULL. */
void compat_explain(FILE *explain, const char *flag, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The `iorate run` command line equivalent to j (options, then targets), for the translators'
 * last explain line and docs. Returns buf.
 */
char *compat_run_equivalent(const struct job *j, char *buf, size_t len);

/*
 * iorate's own options, which may stand anywhere among the foreign ones since they all start
 * with "--": --json, --csv, --units si|iec, --quiet, --engine NAME, --allow-write-device,
 * --force, --size SIZE (sqlio: size of a missing file), --dry-run (translate, do not run),
 * --help. The remaining arguments (argv[0] kept) are left in fargc/fargv.
 */
struct compat_cli {
	struct output_opts out;
	const char *engine;
	const char *size;
	bool allow_write_device, force, dry_run, help;
	int fargc;
	char **fargv;
};

/* 0, or the exit code (2) after printing the error. fargv is malloc'd: compat_cli_release(). */
int compat_cli_parse(struct compat_cli *c, int argc, char **argv, const char *tool);
void compat_cli_release(struct compat_cli *c);

/*
 * The common tail of `iorate diskspd` and `iorate sqlio`: applies the --options to j, records
 * the command line, checks block-device writes, prints the translation (held in `explained`)
 * and the equivalent `iorate run`, then runs j unless --dry-run. Returns the exit code.
 */
int compat_cli_run(struct compat_cli *c, struct job *j, int argc, char **argv, const char *tool,
		   const char *explained);

/*
 * The whole of `iorate diskspd` and `iorate sqlio`: iorate's options, the translation (printed
 * only once complete, so a bad flag prints just the error), then compat_cli_run().
 */
int compat_cli_main(int argc, char **argv, const char *tool,
		    int (*parse)(int, char **, struct job *, FILE *, char *, size_t),
		    void (*usage)(FILE *f));

#endif
