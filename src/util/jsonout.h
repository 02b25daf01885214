#ifndef IORATE_UTIL_JSONOUT_H
#define IORATE_UTIL_JSONOUT_H
#include <stdio.h>

#include <jansson.h>

/*
 * JSON text with every real in the shortest form that reads back to the same double
 * (0.05, not 0.050000000000000003), as every iorate JSON output and the history write it.
 * jansson prints reals with 17 significant digits; each real is rewritten with the fewest
 * digits that strtod() turns back into the same value, and keeps a '.' or an exponent so it
 * still reads as a real. flags are json_dumps()'s (JSON_REAL_PRECISION is overridden).
 */
char *jsonout_dumps(const json_t *v, size_t flags);
/* The same onto f, followed by nothing: 0, or -errno (-EIO when f's error is unknown). */
int jsonout_dumpf(const json_t *v, FILE *f, size_t flags);
/* The shortest text of d that reads back exactly, as a JSON real ("1.0", "0.05", "1e+300"). */
void jsonout_real(double d, char *buf, size_t len);

#endif
