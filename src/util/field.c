#include "util/field.h"

#include <stdio.h>
#include <string.h>

/* Appends n bytes of s at *at (counting what does not fit). */
static void add(char *out, size_t len, size_t *at, const char *s, size_t n)
{
	if (*at < len) {
		size_t room = len - *at - 1;
		memcpy(out + *at, s, n < room ? n : room);
	}
	*at += n;
}

size_t field_expand(char *out, size_t len, const char *msg, field_speller spell)
{
	size_t at = 0;

	while (*msg) {
		const char *open = strchr(msg, FIELD_OPEN), *close;
		if (!open || !(close = strchr(open + 1, FIELD_CLOSE))) {
			add(out, len, &at, msg, strlen(msg));
			break;
		}
		add(out, len, &at, msg, (size_t)(open - msg));
		char name[64], dashed[72];
		snprintf(name, sizeof(name), "%.*s", (int)(close - open - 1), open + 1);
		const char *s = spell ? spell(name) : NULL;
		if (!s) {
			snprintf(dashed, sizeof(dashed), "--%s", name);
			s = dashed;
		}
		add(out, len, &at, s, strlen(s));
		msg = close + 1;
	}
	if (len)
		out[at < len ? at : len - 1] = '\0';
	return at;
}
