#include "util/parse.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
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

const char *duration_str(uint64_t ns, char *buf, size_t len)
{
	static const struct {
		uint64_t ns;
		const char *unit;
	} units[] = {{.ns = 1000000000ull, .unit = "s"}, {.ns = 1000000ull, .unit = "ms"},
		     {.ns = 1000ull, .unit = "us"}, {.ns = 1, .unit = "ns"}};
	size_t i = 0;

	while (ns && ns % units[i].ns)
		i++;
	snprintf(buf, len, "%llu%s", (unsigned long long)(ns / units[i].ns), units[i].unit);
	return buf;
}

int parse_duration(const char *s, uint64_t *ns)
{
	static const struct {
		const char *sfx;
		double mult;
	} units[] = {
		{.sfx = "", .mult = 1e9}, {.sfx = "s", .mult = 1e9}, {.sfx = "sec", .mult = 1e9},
		{.sfx = "ms", .mult = 1e6}, {.sfx = "us", .mult = 1e3}, {.sfx = "ns", .mult = 1},
		{.sfx = "m", .mult = 60e9}, {.sfx = "min", .mult = 60e9},
		{.sfx = "h", .mult = 3600e9}, {.sfx = "d", .mult = 86400e9},
	};
	char *end;

	/* strtod would read "0x10" as sixteen: durations are decimal like every other number. */
	if (!s || !(isdigit((unsigned char)*s) || *s == '.') || strpbrk(s, "xX"))
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

/* Digits in base (10 or 16) up to the end of s, or to *stop when stop is not NULL. */
static int digits(const char *s, unsigned base, uint64_t *out, const char **stop)
{
	uint64_t v = 0;
	const char *p = s;

	for (;; p++) {
		unsigned d;
		if (isdigit((unsigned char)*p))
			d = (unsigned)(*p - '0');
		else if (base == 16 && isxdigit((unsigned char)*p))
			d = (unsigned)(tolower((unsigned char)*p) - 'a' + 10);
		else
			break;
		if (__builtin_mul_overflow(v, base, &v) || __builtin_add_overflow(v, d, &v))
			return -ERANGE;
	}
	if (p == s || (!stop && *p))
		return -EINVAL;
	if (stop)
		*stop = p;
	*out = v;
	return 0;
}

static bool hex_prefix(const char *s)
{
	return s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

/* Digits in base 10 or, after 0x when hex allows, 16; then the range check. */
static int whole(const char *s, bool hex, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t v;
	int r;

	if (!s)
		return -EINVAL;
	r = hex && hex_prefix(s) ? digits(s + 2, 16, &v, NULL) : digits(s, 10, &v, NULL);
	if (r)
		return r;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/* Not strtoull: it takes a sign, leading spaces and, with base 0, reads "010" as eight. */
int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	return whole(s, false, min, max, out);
}

/* The multiplier of a count's suffix: k, M, G (any case) are decimal; 0 for none of them. */
static double count_suffix(const char *p)
{
	if (!*p)
		return 1;
	if (p[1])
		return 0;
	switch (*p) {
	case 'k': case 'K':
		return 1e3;
	case 'm': case 'M':
		return 1e6;
	case 'g': case 'G':
		return 1e9;
	}
	return 0;
}

int parse_count(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char num[40];
	size_t n;
	double v, mult;
	int r;

	if (!s || !(n = strlen(s)) || n >= sizeof(num))
		return -EINVAL;
	if (isdigit((unsigned char)s[n - 1]))
		return parse_u64(s, min, max, out);
	if (!(mult = count_suffix(s + n - 1)))
		return -EINVAL;
	memcpy(num, s, n - 1);
	num[n - 1] = '\0';
	/* "1.5k" is 1500; "1.0005k" is not a whole count. */
	if ((r = parse_double(num, 0, 1e19, &v)) || strpbrk(num, "eE"))
		return r ? r : -EINVAL;
	v *= mult;
	if (v >= 18446744073709551616.0)
		return -ERANGE;
	if (v != floor(v))
		return -EINVAL;
	if ((uint64_t)v < min || (uint64_t)v > max)
		return -ERANGE;
	*out = (uint64_t)v;
	return 0;
}

int parse_amount(const char *s, double min, double max, double *out)
{
	char num[40];
	size_t n;
	double mult;
	int r;

	if (!s || !(n = strlen(s)) || n >= sizeof(num))
		return -EINVAL;
	if (!(mult = count_suffix(s + n - 1)) || isdigit((unsigned char)s[n - 1]) || s[n - 1] == '.')
		return parse_double(s, min, max, out);
	memcpy(num, s, n - 1);
	num[n - 1] = '\0';
	/* "2e3k" reads twice a unit: only plain decimals take a suffix. */
	if (strpbrk(num, "eE"))
		return -EINVAL;
	if ((r = parse_double(num, 0, 1e300, out)))
		return r;
	*out *= mult;
	return *out < min || *out > max ? -ERANGE : 0;
}

int parse_u64_hex(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	return whole(s, true, min, max, out);
}

int parse_size_hex(const char *s, uint64_t *out)
{
	const char *sfx;
	uint64_t v, mult;
	int r;

	if (!s || !hex_prefix(s))
		return parse_size(s, out);
	if ((r = digits(s + 2, 16, &v, &sfx)))
		return r;
	if (!(mult = size_suffix(sfx)))
		return -EINVAL;
	if (__builtin_mul_overflow(v, mult, out))
		return -ERANGE;
	return 0;
}

const char *parse_number_why(const char *s)
{
	if (!s || !*s)
		return NULL;
	if (hex_prefix(s))
		return "is hexadecimal; iorate reads numbers in decimal";
	if (*s == '+' || *s == '-')
		return "has a sign; give the digits alone";
	if (isspace((unsigned char)*s) || isspace((unsigned char)s[strlen(s) - 1]))
		return "has a space; give the digits alone";
	return NULL;
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

	if (!s || !(isdigit((unsigned char)*s) || *s == '.') || strpbrk(s, "xX"))
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
	return sizes ? parse_size(s, v) : parse_count(s, 0, UINT64_MAX, v);
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

const char *fmt_size_human(uint64_t n, char *buf, size_t len)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
	double x = (double)n;
	unsigned u = 0;

	while (x >= 1024 && u < 6) {
		x /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%" PRIu64 " B", n);
	else
		snprintf(buf, len, "%.4g %s", x, unit[u]);
	return buf;
}

/* The 15 significant digits of |v| (trailing zeros dropped) and where the point goes. */
static size_t decimal_digits(double v, char *digits, int *point)
{
	char tmp[32], *e;
	size_t n = 0;

	snprintf(tmp, sizeof(tmp), "%.14e", fabs(v));
	for (const char *p = tmp; *p && *p != 'e'; p++)
		if (*p >= '0' && *p <= '9')
			digits[n++] = *p;
	while (n > 1 && digits[n - 1] == '0')
		n--;
	digits[n] = '\0';
	e = strchr(tmp, 'e');
	*point = (e ? atoi(e + 1) : 0) + 1;
	return n;
}

const char *fmt_decimal(double v, unsigned min_frac, char *buf, size_t len)
{
	char digits[24], out[128];
	size_t n, o = 0, frac = 0;
	int point;

	if (!isfinite(v)) {
		snprintf(buf, len, "%g", v);
		return buf;
	}
	n = v == 0 ? (digits[0] = '0', digits[1] = '\0', point = 1, 1) :
		decimal_digits(v, digits, &point);
	/* Far from 1 no price lies: the exponent form is the readable one there. */
	if (point < -40 || point > 40) {
		snprintf(buf, len, "%.15g", v);
		return buf;
	}
	if (v < 0 && strcmp(digits, "0"))
		out[o++] = '-';
	if (point <= 0) {
		/* 0.000ddd: the zeros after the point, then the digits. */
		out[o++] = '0';
		out[o++] = '.';
		for (int z = point; z < 0; z++, frac++)
			out[o++] = '0';
		for (size_t i = 0; i < n; i++, frac++)
			out[o++] = digits[i];
	} else {
		for (size_t i = 0; i < (size_t)point; i++)
			out[o++] = i < n ? digits[i] : '0';
		if ((size_t)point < n || min_frac)
			out[o++] = '.';
		for (size_t i = (size_t)point; i < n; i++, frac++)
			out[o++] = digits[i];
	}
	for (; frac < min_frac && o < sizeof(out) - 1; frac++)
		out[o++] = '0';
	out[o] = '\0';
	snprintf(buf, len, "%s", out);
	return buf;
}

const char *fmt_figure(double v, char *buf, size_t len)
{
	char r[64];
	int mag, decimals;

	if (!isfinite(v) || v == 0 || v == trunc(v))
		return fmt_decimal(v, 0, buf, len);
	mag = (int)floor(log10(fabs(v))) + 1;
	decimals = 6 - mag;
	if (decimals < 0)
		decimals = 0;
	if (decimals > 15)
		decimals = 15;
	snprintf(r, sizeof(r), "%.*f", decimals, v);
	return fmt_decimal(strtod(r, NULL), 0, buf, len);
}
