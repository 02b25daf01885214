#include "util/escape.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of the valid UTF-8 character at s (2 to 4), or 0 when s[0] does not start one. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	/* The second byte's range rules out overlong forms, surrogates and past U+10FFFF. */
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/* The escape of control or stray byte c into e (at least 5 bytes); returns its length. */
static size_t escape_byte(unsigned char c, char *e)
{
	static const char hex[] = "0123456789abcdef";
	static const char named[] = "abtnvfr"; /* \a is 7 ... \r is 13 */

	e[0] = '\\';
	if (c >= 7 && c <= 13) {
		e[1] = named[c - 7];
		return 2;
	}
	e[1] = 'x';
	e[2] = hex[c >> 4];
	e[3] = hex[c & 15];
	return 4;
}

size_t escape_text(char *out, size_t outlen, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t need = 0, used = 0;
	bool full = false;

	while (*p) {
		char piece[16];
		size_t n, take;

		if (*p < 0x20 || *p == 0x7f) {
			n = escape_byte(*p, piece);
			take = 1;
		} else if (*p < 0x80) {
			piece[0] = (char)*p;
			n = take = 1;
		} else if ((take = utf8_len(p)) == 2 && p[0] == 0xc2 && p[1] <= 0x9f) {
			/* U+0080..U+009F: C1 controls, which some terminals obey (U+009B: CSI). */
			n = escape_byte(p[0], piece);
			n += escape_byte(p[1], piece + n);
		} else if (take) {
			memcpy(piece, p, take);
			n = take;
		} else {
			n = escape_byte(*p, piece);
			take = 1;
		}
		/* Once a piece does not fit, none after it is written: cut short, not holed. */
		if (!full && outlen && used + n < outlen) {
			memcpy(out + used, piece, n);
			used += n;
		} else {
			full = true;
		}
		need += n;
		p += take;
	}
	if (outlen)
		out[used] = '\0';
	return need;
}

char *escape_dup(const char *s)
{
	size_t n = escape_text(NULL, 0, s);
	char *out = malloc(n + 1);

	if (out)
		escape_text(out, n + 1, s);
	return out;
}

void escape_fputs(const char *s, FILE *f)
{
	char buf[512];

	if (!s)
		return;
	/* Short text (nearly all of it) needs no allocation. */
	if (escape_text(buf, sizeof(buf), s) < sizeof(buf)) {
		fputs(buf, f);
		return;
	}
	char *e = escape_dup(s);
	if (e)
		fputs(e, f);
	else
		fputs("(out of memory)", f);
	free(e);
}

const char *escape_buf(const char *s, char *buf, size_t len)
{
	escape_text(buf, len, s);
	return buf;
}
