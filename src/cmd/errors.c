#include <stdarg.h>
#include <stdio.h>

#include "cmd/cmd.h"

static void vsay(const char *fmt, va_list ap)
{
	fputs("iorate: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

int run_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	return 1;
}
