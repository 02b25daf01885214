#include "util/jsonout.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void jsonout_real(double d, char *buf, size_t len)
{
	int p = 1;

	for (; p <= 17; p++) {
		snprintf(buf, len, "%.*g", p, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	/* %g writes 5000 with 1 digit as 5e+03: plain decimals read better where they are short. */
	const char *e = strpbrk(buf, "eE");
	int exp = e ? atoi(e + 1) : 0;
	if (e && exp >= -5 && exp < 17)
		snprintf(buf, len, "%.*f", p - 1 - exp > 0 ? p - 1 - exp : 0, d);
	/* 1 prints as "1": keep it a real, as jansson does. */
	if (!strpbrk(buf, ".eEn"))
		strncat(buf, ".0", len - strlen(buf) - 1);
}

/* Appends n bytes to the growing output. */
static bool put(char **out, size_t *len, size_t *cap, const char *s, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t nc = (*len + n + 1) * 2;
		char *g = realloc(*out, nc);
		if (!g)
			return false;
		*out = g;
		*cap = nc;
	}
	memcpy(*out + *len, s, n);
	*len += n;
	(*out)[*len] = '\0';
	return true;
}

char *jsonout_dumps(const json_t *v, size_t flags)
{
	char *text = json_dumps(v, (flags & ~(size_t)JSON_REAL_PRECISION(31)) |
				       JSON_REAL_PRECISION(17));
	char *out = NULL, num[40];
	size_t len = 0, cap = 0;
	bool in_str = false;

	if (!text)
		return NULL;
	for (const char *p = text; *p;) {
		if (in_str) {
			/* Inside a string: copy up to and with the closing quote, escapes whole. */
			size_t n = *p == '\\' && p[1] ? 2 : 1;
			if (*p == '"')
				in_str = false;
			if (!put(&out, &len, &cap, p, n))
				goto fail;
			p += n;
			continue;
		}
		if (*p == '"') {
			in_str = true;
			if (!put(&out, &len, &cap, p++, 1))
				goto fail;
			continue;
		}
		if (*p == '-' || (*p >= '0' && *p <= '9')) {
			size_t n = strspn(p, "-+0123456789.eE");
			bool real = memchr(p, '.', n) || memchr(p, 'e', n) || memchr(p, 'E', n);
			if (real && n < sizeof(num)) {
				memcpy(num, p, n);
				num[n] = '\0';
				jsonout_real(strtod(num, NULL), num, sizeof(num));
				if (!put(&out, &len, &cap, num, strlen(num)))
					goto fail;
			} else if (!put(&out, &len, &cap, p, n)) {
				goto fail;
			}
			p += n;
			continue;
		}
		if (!put(&out, &len, &cap, p++, 1))
			goto fail;
	}
	free(text);
	return out ? out : strdup("");
fail:
	free(text);
	free(out);
	return NULL;
}

int jsonout_dumpf(const json_t *v, FILE *f, size_t flags)
{
	char *s = jsonout_dumps(v, flags);
	int r = 0;

	if (!s)
		return -ENOMEM;
	errno = 0;
	if (fputs(s, f) == EOF)
		r = errno ? -errno : -EIO;
	free(s);
	return r;
}
