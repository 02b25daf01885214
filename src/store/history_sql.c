/*
 * The bottom of the history (store/history_int.h): SQLite's failures as iorate's errors, and the
 * statements every file of the family runs.
 */
#include <errno.h>
#include <sqlite3.h>
#include <string.h>

#include "store/history_int.h"
#include "util/err.h"

/* SQLite's result codes of a failure as the errno the rest of iorate speaks (never 0). */
int history_sql_errno(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_NOMEM:
		return -ENOMEM;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return -EBUSY;
	case SQLITE_READONLY:
	case SQLITE_PERM:
		return -EACCES;
	case SQLITE_FULL:
		return -ENOSPC;
	case SQLITE_CANTOPEN:
		return -ENOENT;
	case SQLITE_NOTADB:
	case SQLITE_CORRUPT:
		return -EILSEQ;
	default:
		return -EIO;
	}
}

int history_sql_fail(struct history *h, char *err, size_t len, int rc, const char *what)
{
	int sys = h->db ? sqlite3_system_errno(h->db) : 0;
	int k = rc & 0xff;

	/* SQLite reads errno only after its rollback of a failed COMMIT, which may have reset it;
	 * the database file keeps the errno of its own failed write. */
	if (sys <= 0 && h->db && (k == SQLITE_IOERR || k == SQLITE_FULL) &&
	    sqlite3_file_control(h->db, "main", SQLITE_FCNTL_LAST_ERRNO, &sys) != SQLITE_OK)
		sys = 0;

	/* A failed read or write says why, as the system did (ENOSPC, EFBIG, EACCES). */
	if (sys > 0 && (k == SQLITE_IOERR || k == SQLITE_FULL || k == SQLITE_CANTOPEN))
		return err_set(err, len, -sys, "%s: %s: %s (%s)", h->path, what,
			       sqlite3_errmsg(h->db), strerror(sys));
	return err_set(err, len, history_sql_errno(rc), "%s: %s: %s", h->path, what,
			    sqlite3_errmsg(h->db));
}

int history_exec(struct history *h, const char *sql, char *err, size_t len)
{
	int rc = sqlite3_exec(h->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : history_sql_fail(h, err, len, rc, "database");
}

void history_rollback(struct history *h)
{
	sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
}
