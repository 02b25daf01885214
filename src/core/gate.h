#ifndef IORATE_CORE_GATE_H
#define IORATE_CORE_GATE_H
#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

/*
 * The write gate: every path iorate writes goes through here. Paths are opened first (O_PATH |
 * O_NOFOLLOW) and judged from fstat() of what was opened, never from a stat() of the name, so a
 * path swapped between the check and the use cannot redirect a write. Side outputs (reports,
 * traces, exports) are regular files written to a temporary name and renamed into place; files
 * iorate creates are removed only while their name still leads to the inode it created.
 *
 * Functions return 0 or -errno and write a one-line reason into err. -EINVAL means the path is
 * of a kind that may not be written (a device, FIFO, socket, directory, link): bad usage.
 */

/* What a file is: device and inode. */
struct gate_id {
	dev_t dev;
	ino_t ino;
};

/* "a block device", "a FIFO", ... for messages, from st_mode. */
const char *gate_kind(mode_t mode);

/*
 * Whether path may take a side output: "-" (stdout), a regular file (replaced when the output is
 * complete) or a new name in an existing directory. what names the option in messages
 * ("--trace"). Checks before any work starts; gate_out_open() checks again on what it opens.
 */
int gate_check_output(const char *what, const char *path, char *err, size_t errlen);
/*
 * The same for a path not replaced whole, so not "-" either: a database SQLite changes in
 * place, or a name outputs are made from (sweep's FILE of FILE.row).
 */
int gate_check_db(const char *what, const char *path, char *err, size_t errlen);

/*
 * The files the command reads or runs on: its targets, the --db history, its input and job
 * files. No side output may replace one of them: gate_check_output(), gate_out_open() and
 * gate_out_commit() refuse it (-EINVAL, "--trace data.bin is also a target"). role names the
 * file in that message ("a target"); self is the option that writes this very file (--db for
 * the history), or NULL. A path that does not exist yet is matched by its name in its
 * directory, one that does also by its device and inode (another name of the same file).
 * One list per process; 0 or -ENOMEM.
 */
int gate_use(const char *path, const char *role, const char *self);
/* Forgets the list (tests). */
void gate_uses_clear(void);

/*
 * The flag of a signal that asked to stop (src/cmd/signals.c): gate_out_commit() then drops the
 * output as gate_out_abort() does (-EINTR), so an interrupted command leaves the previous file;
 * an output marked partial (set after gate_out_open()) is committed all the same.
 */
void gate_watch_stop(volatile sig_atomic_t *stop);

/*
 * Standard output as a stream that keeps the first write error with its errno (ENOSPC, EPIPE)
 * instead of the vague "Input/output error". What stdout buffered is flushed first.
 * gate_stdout_close() flushes and frees it (fd 1 stays open): 0 or that -errno.
 */
FILE *gate_stdout_open(void);
/*
 * Standard output that is a block device, or a character device other than a terminal,
 * /dev/null, /dev/zero or /dev/full (a tape, /dev/mem, a flash chip), is refused unless force:
 * `--json > /dev/sdb` would write the report over the disk. -EPERM with the reason in err.
 */
int gate_stdout_check(bool force, char *err, size_t errlen);
int gate_stdout_close(FILE *f);

/* A side output being written: f is a new file that becomes path on gate_out_commit(). */
struct gate_out {
	FILE *f;
	char *path;                  /* as given, for messages */
	int dirfd;                   /* the directory the output goes in, or -1 */
	char *base, *tmpname;        /* final and temporary names in dirfd */
	const char *what;            /* the option, for messages: "--trace", "-o" */
	struct gate_id tmp;          /* what was created under tmpname */
	bool replace;                /* path named a regular file when opened */
	bool is_stdout;
	bool partial;                /* kept when stopped: the record of what an interrupted run
					did (a trace, its report), not a whole document */
};

/* Opens a temporary file beside path ("-": stdout) that gate_out_commit() renames to path. */
int gate_out_open(struct gate_out *o, const char *what, const char *path, char *err,
		  size_t errlen);
/*
 * Flushes, syncs and renames the output into place. On any failure the temporary file is
 * removed, a file that was at path is left as it was, and err names the real errno.
 */
int gate_out_commit(struct gate_out *o, char *err, size_t errlen);
/* Drops the output: removes the temporary file. Accepts an output never opened. */
void gate_out_abort(struct gate_out *o);

/*
 * Holds path without opening it for I/O (O_PATH: no device is opened, no FIFO blocks) and fills
 * *st from the descriptor. follow: a symbolic link as the last component is followed; otherwise
 * the link itself is held (S_ISLNK). The caller judges *st, then gate_reopen()s.
 */
int gate_hold(const char *path, bool follow, struct stat *st);
/*
 * Opens exactly the inode held by opath (through /proc/self/fd, not by name) with flags, and
 * refreshes *st from the new descriptor. -ESTALE if it is somehow not the same file.
 */
int gate_reopen(int opath, int flags, struct stat *st);
/*
 * Claims the block device held by opath (st from gate_hold()) for writing: the first claim in
 * this process opens it with O_EXCL and keeps it open, later ones share it, so the jobs of a
 * run write one device together while nothing outside the run can mount or hold it. -EBUSY when
 * something outside this process holds it. gate_unclaim() drops one claim; the last closes it.
 */
int gate_claim(int opath, const struct stat *st);
void gate_unclaim(dev_t dev);

/*
 * Creates name in the directory dirfd with O_CREAT | O_EXCL | O_NOFOLLOW (a planted link or file
 * is never followed or reused), flags added; records what it created in *id.
 */
int gate_create_at(int dirfd, const char *name, int flags, mode_t mode, struct gate_id *id);

/*
 * A name for a file iorate will create in dir: prefix, 12 random characters, suffix
 * ("dir/iorate-mark.k3j9x0ab2c1d.dat"), so that nobody can plant a link at it beforehand.
 */
int gate_unique_name(const char *dir, const char *prefix, const char *suffix, char *out,
		     size_t len);

/*
 * A directory for outputs (report --png DIR): created when missing, in a parent that exists
 * (one level, mode 0755); an existing directory is taken as it is, an existing name that is
 * not a directory, a symbolic link included, is refused (-EINVAL).
 */
int gate_mkdir(const char *what, const char *path, char *err, size_t errlen);

/*
 * Removes path only while it still names the file id that iorate created: a file that replaced
 * it is left alone (-ESTALE). -ENOENT when already gone.
 */
int gate_unlink_created(const char *path, const struct gate_id *id);
/* The same inside a directory held open. */
int gate_unlinkat_created(int dirfd, const char *name, const struct gate_id *id);

/* Splits path into its directory (opened O_PATH) and last component. */
int gate_open_parent(const char *path, int *dirfd, char **base);

#endif
