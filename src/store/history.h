#ifndef IORATE_STORE_HISTORY_H
#define IORATE_STORE_HISTORY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/result.h"

/*
 * The history of runs, kept in SQLite: one row per run with the parameters people filter and
 * compare by as columns, the full `iorate run --json` object as text (so nothing is lost and
 * any report can be redrawn later), and one row per target with its figures.
 *
 * Every function returns 0 or -errno and, on failure, writes one line saying why into err
 * (which may be NULL). Nothing here prints.
 */

/* The schema version this build writes; older databases are migrated when opened. */
#define HISTORY_SCHEMA 1

struct history;

/* Figures of one direction: read, write or total (REPORT_READ... order). */
struct history_dir {
	uint64_t ios;
	double iops, mibps;
	bool has_lat;            /* false when no latency was recorded */
	double mean_us, p99_us;
};

/* One run as listed: the columns, not the JSON. Strings are owned (history_run_release). */
struct history_run {
	int64_t id;
	int64_t start_unix_ms;
	char *label;             /* NULL when none */
	char *host, *kernel, *command_line, *origin;
	uint64_t bs;
	unsigned threads, depth, write_pct;
	char *pattern, *cache, *engine;
	double time_s;           /* duration asked for */
	double seconds;          /* duration measured */
	bool interrupted;
	char *error;             /* NULL when the run did not fail */
	struct history_dir dir[3];
	unsigned ntargets;
	char **targets;          /* the target paths, in command-line order */
};

struct history_filter {
	const char *host;        /* hostname, exactly; NULL = any */
	const char *target;      /* SQL LIKE pattern; without % or _, a part of the path */
	int64_t since_unix_ms;   /* runs started at or after; 0 = any */
	unsigned limit;          /* the newest N; 0 = all */
};

/*
 * The database path: $IORATE_HISTORY, else $XDG_DATA_HOME/iorate/history.db, else
 * ~/.local/share/iorate/history.db. -ENOENT when no home directory is known.
 */
int history_default_path(char *buf, size_t len);

/*
 * Opens (creating it and its directory when path is NULL and it does not exist) and migrates
 * the database at path, or at history_default_path() when path is NULL. -EPROTO when the
 * database was written by a newer iorate (a schema this build does not know).
 */
int history_open(const char *path, struct history **h, char *err, size_t errlen);
void history_close(struct history *h);
const char *history_path(const struct history *h);
/* The database's schema version (HISTORY_SCHEMA once opened). */
int history_schema_version(struct history *h);

/* Saves a run's result; *id (may be NULL) gets the new run's id. */
int history_save(struct history *h, const struct result *r, int64_t *id, char *err,
		 size_t errlen);

/*
 * Saves one run given as the JSON `iorate run --json` prints (a saved file), with an optional
 * label. -EINVAL when the text is not such an object (the error says what is missing).
 */
int history_save_json(struct history *h, const char *json_text, const char *label, int64_t *id,
		      char *err, size_t errlen);

/* The same for a parsed object. Saving a run that is already there (the same JSON, as when a
 * file is imported twice) saves nothing and returns -EEXIST with *id set to that run. */
int history_save_obj(struct history *h, json_t *run, const char *label, int64_t *id, char *err,
		     size_t errlen);

/*
 * The run objects in a JSON document, as a new array: the document itself when it is a run,
 * the `rows[].run` of `iorate sweep --json`, the `tests[].read/write.result` of `iorate mark
 * --json`. An empty array when it holds none; NULL when out of memory.
 */
json_t *history_runs_in(json_t *doc);

/*
 * The runs of a JSON file ('-' reads stdin), as history_runs_in gives them, for the commands
 * that take `iorate run/sweep/mark --json` files. -EINVAL when the file is not JSON, -EIO when
 * it cannot be read, -ENODATA when it holds no run; err then starts with the path.
 */
int history_runs_in_file(const char *path, json_t **runs, char *err, size_t errlen);

/* Runs matching f (NULL = all), newest first. *runs is freed with history_runs_free. */
int history_list(struct history *h, const struct history_filter *f, struct history_run **runs,
		 size_t *n, char *err, size_t errlen);
void history_runs_free(struct history_run *runs, size_t n);

/* One run's columns. -ENOENT when there is no such run. */
int history_get(struct history *h, int64_t id, struct history_run *run, char *err,
		size_t errlen);
void history_run_release(struct history_run *run);

/* One run's JSON, as saved (compact); *json is malloc'd. -ENOENT when there is no such run. */
int history_get_json(struct history *h, int64_t id, char **json, char *err, size_t errlen);

/*
 * The same, parsed: *run is a new reference. -EBADMSG when the stored text does not parse; err
 * then names the run, without the "history: " context the other failures want.
 */
int history_get_obj(struct history *h, int64_t id, json_t **run, char *err, size_t errlen);

/* Removes a run and its targets. -ENOENT when there is no such run. */
int history_remove(struct history *h, int64_t id, char *err, size_t errlen);

#endif
