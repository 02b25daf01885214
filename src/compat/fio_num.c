/*
 * fio's numbers, as fio 3.33 reads them (its HOWTO, "Parameter types"; parse.c): decimal or 0x
 * hexadecimal; sizes with k, m, g, t, p in powers of kb_base (1024 unless kb_base=1000), where
 * "ki"... reads the same and "kib"... the other base (fio swaps the prefixes of the standards
 * for old job files: 4KiB is 4000 bytes); times with us, ms, s, m, h, d and a default unit per
 * option; "(…)" arithmetic. Where fio would quietly read something else than what is written
 * ("1.5k" as 1, "10sec" as 10 microseconds, a unit after a hexadecimal number ignored), the
 * value is refused with what fio would make of it, rather than run either way.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compat/fio.h"

/* ---- arithmetic: + - * / % ^ and parentheses, over 64-bit integers ---- */

struct arith {
	const char *p;
	const char *why;
	int depth;
};

static int64_t arith_expr(struct arith *a);

static void skip_space(struct arith *a)
{
	while (*a->p == ' ' || *a->p == '\t')
		a->p++;
}

static int64_t arith_fail(struct arith *a, const char *why)
{
	if (!a->why)
		a->why = why;
	return 0;
}

static int64_t arith_primary(struct arith *a)
{
	int64_t v = 0;

	skip_space(a);
	if (*a->p == '(') {
		if (++a->depth > 64)
			return arith_fail(a, "nests parentheses too deep");
		a->p++;
		v = arith_expr(a);
		skip_space(a);
		if (*a->p != ')')
			return arith_fail(a, "has an unclosed parenthesis");
		a->p++;
		a->depth--;
		return v;
	}
	if (*a->p == '-') {
		a->p++;
		v = arith_primary(a);
		return v == INT64_MIN ? arith_fail(a, "does not fit in 64 bits") : -v;
	}
	if (!isdigit((unsigned char)*a->p))
		return arith_fail(a, "is not arithmetic of whole numbers (+ - * / % ^)");
	while (isdigit((unsigned char)*a->p)) {
		if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *a->p - '0', &v))
			return arith_fail(a, "does not fit in 64 bits");
		a->p++;
	}
	if (isalpha((unsigned char)*a->p) || *a->p == '.')
		return arith_fail(a, "has a unit or a fraction inside arithmetic; write plain "
				  "whole numbers");
	return v;
}

static int64_t arith_power(struct arith *a)
{
	int64_t base = arith_primary(a), r = 1;

	skip_space(a);
	if (*a->p != '^')
		return base;
	a->p++;
	int64_t e = arith_power(a);
	if (e < 0)
		return arith_fail(a, "has a negative exponent");
	for (int64_t i = 0; i < e && !a->why; i++)
		if (__builtin_mul_overflow(r, base, &r))
			return arith_fail(a, "does not fit in 64 bits");
	return r;
}

static int64_t arith_term(struct arith *a)
{
	int64_t v = arith_power(a);

	for (;;) {
		skip_space(a);
		char op = *a->p;
		if (op != '*' && op != '/' && op != '%')
			return v;
		a->p++;
		int64_t r = arith_power(a);
		if (op == '*' && __builtin_mul_overflow(v, r, &v))
			return arith_fail(a, "does not fit in 64 bits");
		if (op != '*' && (r == 0 || (v == INT64_MIN && r == -1)))
			return arith_fail(a, "divides by zero");
		if (op == '/')
			v /= r;
		else if (op == '%')
			v %= r;
	}
}

static int64_t arith_expr(struct arith *a)
{
	int64_t v = arith_term(a);

	for (;;) {
		skip_space(a);
		char op = *a->p;
		if (op != '+' && op != '-')
			return v;
		a->p++;
		int64_t r = arith_term(a);
		if (op == '+' ? __builtin_add_overflow(v, r, &v) : __builtin_sub_overflow(v, r, &v))
			return arith_fail(a, "does not fit in 64 bits");
	}
}

int fio_arith(const char *s, int64_t *out, const char **why)
{
	struct arith a = {.p = s};
	int64_t v = arith_expr(&a);

	skip_space(&a);
	if (!a.why && *a.p)
		a.why = *a.p == ')' ? "has an unopened parenthesis"
				    : "is not arithmetic of whole numbers (+ - * / % ^)";
	if (a.why) {
		*why = a.why;
		return -EINVAL;
	}
	*out = v;
	return 0;
}

/* ---- units ---- */

static uint64_t ipow(uint64_t base, unsigned n)
{
	uint64_t r = 1;

	while (n--)
		r *= base;
	return r;
}

/*
 * The multiplier of a size suffix (lower case): "", "b", "k", "kb", "ki" in powers of kb_base,
 * "kib" in the other base, and so on to p. 0 when it is not one.
 */
static uint64_t size_mult(const char *u, unsigned kb_base)
{
	static const char letters[] = "kmgtp";
	const char *l;

	if (!*u || !strcmp(u, "b"))
		return 1;
	if (!(l = strchr(letters, u[0])) || !*l)
		return 0;
	unsigned pow = (unsigned)(l - letters) + 1;
	if (!u[1] || !strcmp(u + 1, "b") || !strcmp(u + 1, "i"))
		return ipow(kb_base, pow);
	if (!strcmp(u + 1, "ib"))
		return ipow(kb_base == 1000 ? 1024 : 1000, pow);
	return 0;
}

/* Microseconds in a time unit (lower case); 0 when it is not one. */
static uint64_t time_mult(const char *u)
{
	static const struct {
		const char *u;
		uint64_t us;
	} units[] = {
		{.u = "us", .us = 1}, {.u = "usec", .us = 1}, {.u = "ms", .us = 1000},
		{.u = "msec", .us = 1000}, {.u = "s", .us = 1000000}, {.u = "m", .us = 60000000},
		{.u = "h", .us = 3600000000ull}, {.u = "d", .us = 86400000000ull},
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(u, units[i].u))
			return units[i].us;
	return 0;
}

/* The digits of s in base 10 or 16 into *v; *end after them. -EINVAL, -ERANGE. */
static int digits(const char *s, int base, uint64_t *v, const char **end)
{
	const char *p = s;

	*v = 0;
	for (;; p++) {
		int d = isdigit((unsigned char)*p)		     ? *p - '0'
			: base == 16 && isxdigit((unsigned char)*p) ? tolower((unsigned char)*p) -
									     'a' + 10
								     : -1;
		if (d < 0)
			break;
		if (__builtin_mul_overflow(*v, (uint64_t)base, v) ||
		    __builtin_add_overflow(*v, (uint64_t)d, v))
			return -ERANGE;
	}
	*end = p;
	return p == s ? -EINVAL : 0;
}

/* "(…)": arithmetic; times in it count microseconds, as fio's HOWTO says. */
static int arith_value(const char *s, enum fio_unit unit, uint64_t *out, const char **why)
{
	int64_t v;

	if (fio_arith(s, &v, why))
		return -EINVAL;
	if (v < 0) {
		*why = "comes out below 0";
		return -EINVAL;
	}
	*out = (uint64_t)v;
	if ((unit == FIO_SECONDS || unit == FIO_MICROSECONDS) &&
	    __builtin_mul_overflow(*out, 1000, out)) {
		*why = "does not fit in 64 bits";
		return -EINVAL;
	}
	return 0;
}

/* A unit after the number: its multiplier into *mult, or -EINVAL with why. */
static int unit_mult(const char *end, enum fio_unit unit, unsigned kb_base, uint64_t *mult,
		     const char **why)
{
	char u[8];
	size_t n = strlen(end);

	if (n >= sizeof(u)) {
		*why = unit == FIO_SECONDS || unit == FIO_MICROSECONDS
			       ? "has an unknown unit (us, ms, s, m, h, d)"
			       : "has an unknown unit (k, m, g, t, p, with b or ib)";
		return -EINVAL;
	}
	for (size_t i = 0; i <= n; i++)
		u[i] = (char)tolower((unsigned char)end[i]);
	if (unit == FIO_SECONDS || unit == FIO_MICROSECONDS) {
		if (!*u) {
			*mult = unit == FIO_SECONDS ? 1000000000ull : 1000;
			return 0;
		}
		if (!strcmp(u, "sec")) {
			*why = "is read by fio 3.33 as microseconds (it knows 's', not 'sec'); "
			       "write it with s";
			return -EINVAL;
		}
		if (!(*mult = time_mult(u) * 1000)) {
			*why = "has an unknown unit (us, ms, s, m, h, d)";
			return -EINVAL;
		}
		return 0;
	}
	if (!strcmp(u, "z")) {
		*why = "counts zones ('z'), which only size, io_size, offset and offset_increment do";
		return -EINVAL;
	}
	if (!(*mult = size_mult(u, kb_base))) {
		*why = "has an unknown unit (k, m, g, t, p, with b or ib)";
		return -EINVAL;
	}
	return 0;
}

int fio_number(const char *s, enum fio_unit unit, unsigned kb_base, uint64_t *out, bool *pct,
	       const char **why)
{
	const char *end;
	uint64_t v, mult;
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	int r;

	if (pct)
		*pct = false;
	if (!*s) {
		*why = "is empty";
		return -EINVAL;
	}
	if (s[0] == '(')
		return arith_value(s, unit, out, why);
	if ((r = digits(hex ? s + 2 : s, hex ? 16 : 10, &v, &end)) == -ERANGE) {
		*why = "does not fit in 64 bits";
		return -EINVAL;
	}
	if (r) {
		*why = s[0] == '-' ? "is below 0" : "is not a number";
		return -EINVAL;
	}
	if (*end == '.') {
		*why = "has a fraction, which fio drops (it reads the digits before the '.')";
		return -EINVAL;
	}
	if (hex && *end) {
		*why = "has a unit after a hexadecimal number, which fio ignores";
		return -EINVAL;
	}
	if (*end == '%' && !end[1] && pct && unit == FIO_BYTES) {
		if (v > 100) {
			*why = "is a percentage above 100";
			return -EINVAL;
		}
		*pct = true;
		*out = v;
		return 0;
	}
	if (unit_mult(end, unit, kb_base, &mult, why))
		return -EINVAL;
	if (__builtin_mul_overflow(v, mult, out)) {
		*why = "does not fit in 64 bits";
		return -EINVAL;
	}
	return 0;
}

int fio_bool(const char *s, bool *out, const char **why)
{
	uint64_t v;
	const char *end;
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');

	if (digits(hex ? s + 2 : s, hex ? 16 : 10, &v, &end) || *end || v > 1) {
		*why = "is not 0 or 1";
		return -EINVAL;
	}
	*out = v;
	return 0;
}
