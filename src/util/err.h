#ifndef IORATE_UTIL_ERR_H
#define IORATE_UTIL_ERR_H
#include <stdarg.h>
#include <stddef.h>

/*
 * The one way the layers below the commands report a failure: a one-line reason into the
 * caller's buffer (when there is one), and the -errno to return, so code writes
 * `return err_set(err, errlen, -EINVAL, "--bs: ...")`. Nothing below src/cmd prints.
 */
int err_set(char *err, size_t errlen, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int err_vset(char *err, size_t errlen, int rc, const char *fmt, va_list ap);

#endif
