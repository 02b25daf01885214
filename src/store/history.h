#ifndef IORATE_STORE_HISTORY_H
#define IORATE_STORE_HISTORY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "result/result_set.h"

/*
 * The history of runs, kept in SQLite: one row per run (of one job or several) holding the
 * run's JSON (result/result_json.h: everything the run measured, histograms included, so any
 * report can be printed again exactly), a label, and as columns the parameters and figures
 * people filter by with SQL; one row per job and one per target with their figures. Runs come
 * back as struct result_set.
 *
 * Every function returns 0 or -errno and, on failure, writes one line saying why into err
 * (which may be NULL). Nothing here prints.
 */

/* The schema version this build writes; older databases are migrated when opened. */
#define HISTORY_SCHEMA 5

struct history;

/*
 * How a run printed its report, so that 'history show' prints it again the same way: the
 * format's name as --format takes it ("text", "json", "csv", "fio-json"; "" when not known:
 * a run imported from JSON, or saved before schema 5), the throughput units, and the text
 * report's --series and --brief. The store keeps the name; only the reports know what it means.
 */
struct history_output {
	char format[16];
	enum job_units units;
	bool series, brief;
};

/* One stored run: its jobs (one for most runs), and for several their groups and total. */
struct history_entry {
	int64_t id;
	char *label;             /* NULL when none */
	struct result_set run;
	struct history_output output;  /* how it was printed; format "" when not recorded */
};

struct history_filter {
	const char *host;        /* hostname, exactly; NULL = any */
	const char *target;      /* SQL LIKE pattern; without % or _, a part of the path */
	int64_t since_unix_ms;   /* runs started at or after; 0 = any */
	unsigned limit;          /* the newest N; 0 = all */
	/*
	 * When set, a run that cannot be read back is given here ("run 3: why", without the
	 * "history: " context) with fn's arg, and the listing goes on with the next; when NULL,
	 * history_list stops at it with -EBADMSG.
	 */
	void (*skipped)(int64_t id, const char *why, void *arg);
};

/*
 * The database path: $IORATE_HISTORY, else $XDG_DATA_HOME/iorate/history.db, else
 * ~/.local/share/iorate/history.db. -ENOENT when no home directory is known.
 */
int history_default_path(char *buf, size_t len);

/*
 * Opens (creating it and its directory when path is NULL and it does not exist) and migrates
 * the database at path, or at history_default_path() when path is NULL. -EPROTO when the
 * database was written by a newer iorate (a schema this build does not know); -EINVAL when path
 * is not a regular file (nor a new name in an existing directory): a device, a link, a FIFO.
 * The path is recorded with gate_use(): no output of the command may replace it.
 */
int history_open(const char *path, struct history **h, char *err, size_t errlen);
/*
 * The same on a database held in memory (a copy of data: nothing is written anywhere), as
 * checked and migrated as a file would be; its path is ":memory:". For the fuzz target.
 */
int history_open_memory(const void *data, size_t size, struct history **h, char *err,
			size_t errlen);
/*
 * Opens the database at path read-only, neither checked nor migrated, for 'history check':
 * history_integrity() says what is wrong with a file history_open() refuses, then
 * history_check_schema() and history_check_runs() read it as it is.
 */
int history_open_readonly(const char *path, struct history **h, char *err, size_t errlen);
/*
 * What history_open() checks before it migrates, writing nothing: SQLite finds the file
 * intact, and schema_version holds one version this iorate knows (0..HISTORY_SCHEMA) whose
 * tables are those iorate makes. -EILSEQ (damaged, not an iorate history), -EEXIST (another
 * program's database) or -EPROTO (a newer iorate's), err naming the path and what is wrong.
 */
int history_check_schema(struct history *h, char *err, size_t errlen);
void history_close(struct history *h);
/*
 * Closes h, removing the database file when history_open() made it and it still holds no run
 * (its first save failed, an import was stopped or read nothing): a failure leaves no empty
 * history behind. A file that is no longer the one made is left alone.
 */
void history_close_unused(struct history *h);
const char *history_path(const struct history *h);
/* The database's schema version (HISTORY_SCHEMA once opened). */
int history_schema_version(struct history *h);

/* Saves a run's result; *id (may be NULL) gets the new run's id. */
int history_save(struct history *h, const struct result *r, int64_t *id, char *err,
		 size_t errlen);
/*
 * The same with a label (may be NULL). Saving a run that is already there (the same JSON, as
 * when a file is imported twice) saves nothing and returns -EEXIST with *id set to that run.
 */
int history_save_labeled(struct history *h, const struct result *r, const char *label,
			 int64_t *id, char *err, size_t errlen);
/* The same for a run of one job or several: one entry, as history_save_labeled() saves one. */
int history_save_set(struct history *h, const struct result_set *s, const char *label,
		     int64_t *id, char *err, size_t errlen);
/*
 * A run of one job or several as history_save_set() saves it (no label), with how it was
 * printed (out may be NULL: not recorded), which history_get() and history_list() give back.
 */
int history_save_printed(struct history *h, const struct result_set *s,
			 const struct history_output *out, int64_t *id, char *err, size_t errlen);

/*
 * Calls fn for each run matching f (NULL = all), newest first, until fn returns non-zero (which
 * history_list returns). The entry is released after the call. -EBADMSG when a stored run
 * cannot be read back; err then names the run and why, without the "history: " context the
 * other failures want.
 */
int history_list(struct history *h, const struct history_filter *f,
		 int (*fn)(const struct history_entry *e, void *arg), void *arg, char *err,
		 size_t errlen);

/* One run. -ENOENT when there is no such run; -EBADMSG as history_list's. */
int history_get(struct history *h, int64_t id, struct history_entry *e, char *err,
		size_t errlen);
void history_entry_release(struct history_entry *e);

/*
 * What is wrong with a database, changing nothing: each problem SQLite's integrity check
 * reports, and each row of jobs, targets or devices whose run is missing (a foreign key that
 * leads nowhere), as a line to fn. Returns how many, or -errno when the check could not run.
 */
int history_integrity(struct history *h, void (*fn)(const char *what, void *arg), void *arg,
		      char *err, size_t errlen);
/*
 * Reads back every run as history_list() and history_get() would, giving each that cannot be
 * read to fn ("run 3: why"). Returns how many, or -errno when the check could not run. On a
 * database opened read-only, after history_check_schema(): its schema may be older.
 */
int history_check_runs(struct history *h, void (*fn)(int64_t id, const char *what, void *arg),
		       void *arg, char *err, size_t errlen);

/* Removes a run, its jobs and its targets. -ENOENT when there is no such run. */
int history_remove(struct history *h, int64_t id, char *err, size_t errlen);

#endif
