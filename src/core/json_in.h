#ifndef IORATE_CORE_JSON_IN_H
#define IORATE_CORE_JSON_IN_H
#include <jansson.h>

/*
 * The largest JSON input read: results, history imports, catalog files and the CLI output
 * 'catalog import' reads. jansson's tree takes 2-3 times the text, so 256 MiB bounds a read
 * near a gigabyte of memory; the largest real inputs (a year of saved runs, a provider's whole
 * machine list) are tens of megabytes.
 */
#define JSON_INPUT_MAX (256ull << 20)

/*
 * path ("-": standard input) parsed as json_load_file() does, but a regular file larger than
 * JSON_INPUT_MAX is refused before it is read, any other input once it exceeds it, and a stop
 * signal ends the read: NULL, with je->line -1 and je->text saying why (its size and the
 * bound), as jansson reports a file it cannot open.
 */
json_t *json_input_load(const char *path, size_t flags, json_error_t *je);

/*
 * The whole of path ("-": standard input) as text, NUL-terminated, under the same bound and
 * stop signal: 0, or -errno (-EFBIG, -EINTR) with "PATH: why" in err.
 */
int json_input_read(const char *path, char **text, char *err, size_t errlen);

#endif
