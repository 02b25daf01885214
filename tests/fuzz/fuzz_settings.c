/*
 * libFuzzer target: the settings file (~/.config/iorate/config) as a user might write it. It is
 * read from memory; a refusal names the file and a line within the input, and what is accepted
 * is a region and a currency of the characters the parser allows.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/settings.h"

static void name_ok(const char *v)
{
	if (!v)
		return;
	if (!*v || strlen(v) > 64 || strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					     "0123456789-_") != strlen(v))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fmemopen((void *)data, size, "r");
	struct settings s;
	char err[512];
	int r;

	if (!size || !f) {
		if (f)
			fclose(f);
		return 0;
	}
	r = settings_parse(&s, "config", f, err, sizeof(err));
	fclose(f);
	if (r == -EINVAL) {
		/* "config:N: ..." with N a line of the input. */
		unsigned long line = strtoul(err + strlen("config:"), NULL, 10);

		if (strncmp(err, "config:", 7) || !line || line > size + 1)
			abort();
		return 0;
	}
	if (r)
		return 0;
	name_ok(s.region);
	name_ok(s.currency);
	settings_release(&s);
	return 0;
}
