#ifndef IORATE_STORE_HISTORY_INT_H
#define IORATE_STORE_HISTORY_INT_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/gate.h"
#include "result/result_set.h"
#include "util/err.h"

/* Shared by history.c and history_query.c; not part of the store's API. */
struct history {
	sqlite3 *db;
	char *path;
	bool created;           /* history_open() made the file: removed at close if it holds no run */
	struct gate_id made;    /* what it made */
	int version;            /* the schema, once checked: HISTORY_SCHEMA after migrating */
};

/* SQLite's result codes of a failure as the errno iorate speaks, never 0 (history_sql.c). */
int history_sql_errno(int rc);
/* "PATH: what: sqlite's message", returning rc as -errno. */
int history_sql_fail(struct history *h, char *err, size_t len, int rc, const char *what);
int history_exec(struct history *h, const char *sql, char *err, size_t len);
void history_rollback(struct history *h);
/* The rows of run id's jobs, and with targets its targets' (history_save.c). */
int history_insert_jobs(struct history *h, int64_t id, const struct result_set *s, bool targets,
			char *err, size_t len);

/*
 * The rows of the devices under run id's targets: each job's, each group's and the total's
 * (history_devices.c); and migration 3 -> 4, which adds those of the runs already stored.
 */
int history_insert_devices(struct history *h, int64_t id, const struct result_set *s,
			   char *err, size_t len);
int history_fill_devices(struct history *h, char *err, size_t len);

#endif
