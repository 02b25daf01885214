#ifndef IORATE_UTIL_ESCAPE_H
#define IORATE_UTIL_ESCAPE_H
#include <stddef.h>
#include <stdio.h>

/*
 * Text that iorate did not write itself (paths, job file names, labels, command lines, notes,
 * host names) as it may reach a terminal: a control byte would move the cursor, retitle the
 * window or hide what follows. Control characters (C0, DEL, and C1 as UTF-8) print as C escapes:
 * \a \b \t \n \v \f \r, else \xNN (ESC is \x1b); a byte that is not part of valid UTF-8 prints
 * as \xNN; printable ASCII and valid UTF-8 print as they are. A backslash is left alone, so
 * Windows paths in the translators' messages read as typed.
 */

/*
 * Writes s escaped into out (outlen bytes, always terminated when outlen > 0), never cutting an
 * escape or a UTF-8 character in two. Returns the length the whole escaped text needs, as
 * snprintf does, so a result >= outlen means it was cut short.
 */
size_t escape_text(char *out, size_t outlen, const char *s);

/* The escaped text in a new string (caller frees), or NULL when out of memory. */
char *escape_dup(const char *s);

/* Writes s escaped to f. NULL prints nothing. */
void escape_fputs(const char *s, FILE *f);

/*
 * s escaped into buf of len bytes (cut short if it must be): for a %s among other fields.
 * NULL gives "".
 */
const char *escape_buf(const char *s, char *buf, size_t len);

#endif
