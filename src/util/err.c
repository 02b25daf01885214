#include "util/err.h"

#include <stdio.h>

int err_vset(char *err, size_t errlen, int rc, const char *fmt, va_list ap)
{
	if (err && errlen)
		vsnprintf(err, errlen, fmt, ap);
	return rc;
}

int err_set(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vset(err, errlen, rc, fmt, ap);
	va_end(ap);
	return rc;
}
