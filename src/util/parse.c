#include "util/parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Multiplier for a size suffix, or 0 when the suffix is not one we accept. */
static uint64_t size_suffix(const char *p)
{
	static const char units[] = "kmgtpe";
	uint64_t mult = 1;

	if (*p == '\0' || !strcasecmp(p, "b"))
		return 1;
	const char *u = strchr(units, tolower((unsigned char)*p));
	if (!u)
		return 0;
	for (const char *q = units; q <= u; q++)
		mult <<= 10;
	p++;
	if (*p == '\0' || !strcasecmp(p, "b") || !strcasecmp(p, "ib"))
		return mult;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	const char *p = s;
	uint64_t whole = 0;
	bool any = false, frac = false;

	if (!s)
		return -EINVAL;
	while (isdigit((unsigned char)*p)) {
		if (__builtin_mul_overflow(whole, 10, &whole) ||
		    __builtin_add_overflow(whole, (uint64_t)(*p - '0'), &whole))
			return -ERANGE;
		p++;
		any = true;
	}
	const char *fstart = p;
	if (*p == '.') {
		p++;
		while (isdigit((unsigned char)*p)) {
			p++;
			frac = true;
		}
	}
	if (!any && !frac)
		return -EINVAL;
	uint64_t mult = size_suffix(p);
	if (!mult)
		return -EINVAL;
	if (!frac) {
		uint64_t v;
		if (__builtin_mul_overflow(whole, mult, &v))
			return -ERANGE;
		*out = v;
		return 0;
	}
	/* A fraction: exact enough in long double for any 64-bit result; it must be whole bytes. */
	long double f = strtold(fstart, NULL);
	long double v = ((long double)whole + f) * (long double)mult;
	if (v >= 18446744073709551616.0L)
		return -ERANGE;
	if (v != floorl(v))
		return -EINVAL;
	*out = (uint64_t)v;
	return 0;
}

int parse_duration(const char *s, uint64_t *ns)
{
	static const struct {
		const char *sfx;
		double mult;
	} units[] = {
		{"", 1e9},    {"s", 1e9},    {"sec", 1e9},   {"ms", 1e6},  {"us", 1e3},
		{"ns", 1},    {"m", 60e9},   {"min", 60e9},  {"h", 3600e9}, {"d", 86400e9},
	};
	char *end;

	if (!s || !(isdigit((unsigned char)*s) || *s == '.'))
		return -EINVAL;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || errno || !isfinite(v) || v < 0)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!strcasecmp(end, units[i].sfx)) {
			double r = v * units[i].mult;
			if (r >= 1.8e19)
				return -ERANGE;
			*ns = (uint64_t)llround(r);
			return 0;
		}
	}
	return -EINVAL;
}

int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end || errno)
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_uint(const char *s, unsigned min, unsigned max, unsigned *out)
{
	uint64_t v;
	int r = parse_u64(s, min, max, &v);

	if (!r)
		*out = (unsigned)v;
	return r;
}

int parse_percent(const char *s, unsigned *out)
{
	char buf[32];
	size_t n;

	if (!s || (n = strlen(s)) == 0 || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n + 1);
	if (buf[n - 1] == '%')
		buf[n - 1] = '\0';
	return parse_uint(buf, 0, 100, out);
}

int parse_double(const char *s, double min, double max, double *out)
{
	char *end;

	if (!s || !(isdigit((unsigned char)*s) || *s == '.'))
		return -EINVAL;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(v))
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

static int parse_value(const char *s, bool sizes, uint64_t *v)
{
	return sizes ? parse_size(s, v) : parse_u64(s, 0, UINT64_MAX, v);
}

#define LIST_MAX 4096

static int list_push(uint64_t **vals, size_t *n, uint64_t v)
{
	if (*n >= LIST_MAX)
		return -ERANGE;
	if (!*vals && !(*vals = malloc(LIST_MAX * sizeof(**vals))))
		return -ENOMEM;
	(*vals)[(*n)++] = v;
	return 0;
}

/* One item of a list: "V", "A..B", "A..B:S" or "A..B:xF". */
static int list_item(char *item, bool sizes, uint64_t **vals, size_t *n)
{
	char *dots = strstr(item, "..");
	uint64_t a, b, step = 1;
	bool mul = false;
	int r;

	if (!dots)
		return (r = parse_value(item, sizes, &a)) ? r : list_push(vals, n, a);
	*dots = '\0';
	char *hi = dots + 2, *colon = strchr(hi, ':');
	if (colon) {
		*colon++ = '\0';
		if (*colon == 'x' || *colon == 'X') {
			mul = true;
			colon++;
		}
		if ((r = (mul || !sizes) ? parse_u64(colon, 1, UINT64_MAX, &step)
					 : parse_size(colon, &step)))
			return r;
		if (step == 0 || (mul && step < 2))
			return -EINVAL;
	}
	if ((r = parse_value(item, sizes, &a)) || (r = parse_value(hi, sizes, &b)))
		return r;
	if (a > b || (mul && a == 0))
		return -EINVAL;
	for (uint64_t v = a; v <= b;) {
		if ((r = list_push(vals, n, v)))
			return r;
		uint64_t next;
		if (mul ? __builtin_mul_overflow(v, step, &next) : __builtin_add_overflow(v, step, &next))
			break;
		v = next;
	}
	return 0;
}

int parse_list(const char *s, bool sizes, uint64_t **vals, size_t *n)
{
	char *copy, *save = NULL;
	int r = 0;

	*vals = NULL;
	*n = 0;
	if (!s || !*s)
		return -EINVAL;
	if (!(copy = strdup(s)))
		return -ENOMEM;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if ((r = list_item(tok, sizes, vals, n)))
			break;
	}
	if (!r && *n == 0)
		r = -EINVAL;
	free(copy);
	if (r) {
		free(*vals);
		*vals = NULL;
		*n = 0;
	}
	return r;
}

const char *fmt_size(uint64_t n, char *buf, size_t len)
{
	static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
	unsigned u = 0;

	while (n && (n & 1023) == 0 && u < 6) {
		n >>= 10;
		u++;
	}
	snprintf(buf, len, "%llu%s", (unsigned long long)n, units[u]);
	return buf;
}
