#ifndef IORATE_STORE_HISTORY_INT_H
#define IORATE_STORE_HISTORY_INT_H
#include <sqlite3.h>
#include <stddef.h>

/* Shared by history.c and history_query.c; not part of the store's API. */
struct history {
	sqlite3 *db;
	char *path;
};

/* Writes the message into err (may be NULL) and returns rc. */
int history_fail(char *err, size_t len, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* "PATH: what: sqlite's message", returning rc as -errno. */
int history_sql_fail(struct history *h, char *err, size_t len, int rc, const char *what);
int history_exec(struct history *h, const char *sql, char *err, size_t len);
void history_rollback(struct history *h);

#endif
