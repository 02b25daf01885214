#include "util/field.h"

#include <stdio.h>
#include <string.h>

const char *field_map_spell(const struct field_map *map, size_t n, const char *key,
			    const char *typed)
{
	const char *first = NULL;

	for (size_t i = 0; i < n; i++) {
		if (strcmp(map[i].field, key))
			continue;
		if (!typed || !strncmp(typed, map[i].spelled, strlen(map[i].spelled)))
			return map[i].spelled;
		if (!first)
			first = map[i].spelled;
	}
	return first;
}

/* Appends n bytes of s at *at (counting what does not fit). */
static void add(char *out, size_t len, size_t *at, const char *s, size_t n)
{
	if (*at < len) {
		size_t room = len - *at - 1;
		memcpy(out + *at, s, n < room ? n : room);
	}
	*at += n;
}

/* One marker's text ("depth", or "cache=buffered") as sp spells it, into buf. */
static const char *spell_one(const char *name, const struct field_spelling *sp, char *buf,
			     size_t len)
{
	const char *eq = strchr(name, '='), *s = NULL;
	char field[64];

	snprintf(field, sizeof(field), "%.*s", (int)(eq ? eq - name : (long)strlen(name)), name);
	if (eq && sp && sp->pair && (s = sp->pair(field, eq + 1)))
		return s;
	if (sp && sp->field)
		s = sp->field(field);
	if (!eq) {
		if (s)
			return s;
		snprintf(buf, len, "--%s", field);
	} else if (s) {
		snprintf(buf, len, "%s%s%s", s, sp->sep ? sp->sep : " ", eq + 1);
	} else {
		snprintf(buf, len, "--%s %s", field, eq + 1);
	}
	return buf;
}

size_t field_expand(char *out, size_t len, const char *msg, const struct field_spelling *sp)
{
	size_t at = 0;

	while (*msg) {
		const char *open = strchr(msg, FIELD_OPEN), *close;
		if (!open || !(close = strchr(open + 1, FIELD_CLOSE))) {
			add(out, len, &at, msg, strlen(msg));
			break;
		}
		add(out, len, &at, msg, (size_t)(open - msg));
		char name[160], buf[200];
		snprintf(name, sizeof(name), "%.*s", (int)(close - open - 1), open + 1);
		const char *s = spell_one(name, sp, buf, sizeof(buf));
		add(out, len, &at, s, strlen(s));
		msg = close + 1;
	}
	if (len)
		out[at < len ? at : len - 1] = '\0';
	return at;
}
