#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd.h"
#include "util/escape.h"

static const struct field_spelling *speller;

void cmd_set_speller(const struct field_spelling *s)
{
	speller = s;
}

size_t cmd_spell(char *out, size_t len, const char *msg)
{
	return field_expand(out, len, msg, speller);
}

/*
 * The message is one line, and its %s are often paths or values the user typed: the whole
 * line is escaped so that none of them can put a control byte on the terminal. Fields the
 * core named (FIELD("depth")) are spelled first, the way the front end in use spells them.
 */
static void vsay(const char *fmt, va_list ap)
{
	char *msg = NULL, *spelled = NULL;

	fputs("iorate: ", stderr);
	if (vasprintf(&msg, fmt, ap) < 0) {
		fputs("out of memory", stderr);
	} else {
		size_t n = field_expand(NULL, 0, msg, speller) + 1;
		if ((spelled = malloc(n)))
			field_expand(spelled, n, msg, speller);
		escape_fputs(spelled ? spelled : msg, stderr);
	}
	fputc('\n', stderr);
	free(msg);
	free(spelled);
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
