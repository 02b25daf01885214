/*
 * A fio job's option lines read into its values (struct fio_opts), as fio 3.33 reads them: its
 * defaults first, kb_base before the sizes it scales, then every line in order, the last one
 * of an option winning. A line iorate cannot run is recorded (fio_refuse) and the reading goes
 * on, so that every such line of a job file is named at once.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compat/fio.h"
#include "util/suggest.h"

#define FIELD_AT(o, off) ((char *)(o) + (off))

static int bad(struct compat_fio *f, const struct fio_line *l, const char *why)
{
	return fio_refuse(f, l, false, "%s", why);
}

/* A number of the option's unit within its bounds, into *v. 1 when refused (recorded). */
static int read_bounded(struct compat_fio *f, const struct fio_opts *o, const struct fio_line *l,
			const struct fio_opt *op, const char *s, uint64_t *v, bool *pct)
{
	const char *why;
	char msg[96];
	int r;

	if (fio_number(s, op->unit, o->kb_base, v, op->pct ? pct : NULL, &why))
		return (r = bad(f, l, why)) ? r : 1;
	if (pct && *pct)
		return 0;
	if (*v < op->min || (op->max && *v > op->max)) {
		snprintf(msg, sizeof(msg), "is out of range (%llu to %llu)",
			 (unsigned long long)op->min,
			 (unsigned long long)(op->max ? op->max : UINT64_MAX));
		return (r = bad(f, l, msg)) ? r : 1;
	}
	return 0;
}

static int read_num(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l,
		    const struct fio_opt *op)
{
	uint64_t v;
	bool pct = false;
	int r;

	if (strpbrk(l->val, ",:"))
		return bad(f, l, "takes one value");
	size_t n = strlen(l->val);
	bool zones = op->z_off && n > 1 && n < 32 && (l->val[n - 1] | 0x20) == 'z' &&
		     isdigit((unsigned char)l->val[n - 2]);
	if (op->z_off)
		*(bool *)FIELD_AT(o, op->z_off) = zones;
	if (zones) {
		/* A count of zones (524z): zonesize, perhaps set later, makes it bytes. */
		char count[32];
		const char *why;

		memcpy(count, l->val, n - 1);
		count[n - 1] = 0;
		if (fio_number(count, FIO_COUNT, o->kb_base, &v, NULL, &why))
			return (r = bad(f, l, why)) ? r : 0;
		if (op->pct)
			*(bool *)FIELD_AT(o, op->pct_off) = false;
		*(uint64_t *)FIELD_AT(o, op->off) = v;
		o->src[op->id] = l;
		return 0;
	}
	if ((r = read_bounded(f, o, l, op, l->val, &v, &pct)))
		return r > 0 ? 0 : r;
	if (op->u32)
		*(unsigned *)FIELD_AT(o, op->off) = (unsigned)v;
	else
		*(uint64_t *)FIELD_AT(o, op->off) = v;
	if (op->pct)
		*(bool *)FIELD_AT(o, op->pct_off) = pct;
	o->src[op->id] = l;
	return 0;
}

/*
 * READS[,WRITES[,TRIMS]], as fio's parser reads them: a value sets its direction, and the last
 * part's value also the directions after it; an empty part leaves its direction as it was
 * ("4k" sets all three, "4k,8k" writes and trims to 8k, "4k," reads only, ",8k" writes and
 * trims). fio would also split at ':' and '-': refused with how to write it.
 */
static int read_pair(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l,
		     const struct fio_opt *op)
{
	uint64_t *field = (uint64_t *)FIELD_AT(o, op->off), v[3];
	char part[3][64] = {"", "", ""};
	const char *comma = strchr(l->val, ','), *s = l->val;
	size_t n;
	int r, np = 0;

	for (int i = 0; i < 3 && s; i++, np++) {
		n = comma ? (size_t)(comma - s) : strlen(s);
		if (n >= sizeof(part[i]))
			return bad(f, l, "is too long");
		memcpy(part[i], s, n);
		part[i][n] = '\0';
		s = comma ? comma + 1 : NULL;
		comma = s ? strchr(s, ',') : NULL;
	}
	for (int i = 0; i < np; i++) {
		if (part[i][0] != '(' && strpbrk(part[i], ":-"))
			return bad(f, l, "separates values with ':' or '-', which fio reads as ',' "
				   "(reads,writes): write them with ','");
		if (part[i][0] && (r = read_bounded(f, o, l, op, part[i], &v[i], NULL)))
			return r > 0 ? 0 : r;
	}
	for (int i = 0; i < np; i++)
		for (int d = i; part[i][0] && d < (i == np - 1 ? 3 : i + 1); d++)
			field[d] = v[i];
	o->src[op->id] = l;
	return 0;
}

static int read_bool(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l,
		     const struct fio_opt *op)
{
	const char *why;
	bool b = true;

	if (!l->val && op->type == FT_BOOL)
		return bad(f, l, "needs a value, 0 or 1 (fio refuses it bare)");
	if (l->val && fio_bool(l->val, &b, &why))
		return bad(f, l, why);
	*(bool *)FIELD_AT(o, op->off) = op->neg ? !b : b;
	o->src[op->id] = l;
	return 0;
}

static int read_str(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l,
		    const struct fio_opt *op)
{
	if (!*l->val)
		return bad(f, l, "is empty");
	*(const char **)FIELD_AT(o, op->off) = l->val;
	o->src[op->id] = l;
	return 0;
}

/* A refused option whose value asks nothing ("verify=0") is of no effect. */
static bool asks_nothing(const struct fio_opt *op, const char *val)
{
	char word[64];

	if (!op->except || !val || strlen(val) + 3 > sizeof(word))
		return false;
	snprintf(word, sizeof(word), " %s ", val);
	char list[256];
	snprintf(list, sizeof(list), " %s ", op->except);
	return strstr(list, word) != NULL;
}

static int read_line(struct compat_fio *f, struct fio_opts *o, const struct fio_line *l)
{
	const struct fio_opt *op = fio_opt_find(l->key);

	if (!op) {
		char near[240];

		/* On a command line fio's options are "--iodepth", in a job file "iodepth". */
		fio_opt_suggest(l->key, l->typed && !strncmp(l->typed, "-", 1) ? "--" : "", near,
				sizeof(near));
		return fio_refuse(f, l, false, "not an option of fio 3.33%s", near);
	}
	if (op->how == FH_NOEFFECT)
		return 0;
	if (op->how == FH_REFUSED)
		return asks_nothing(op, l->val) ? 0
						 : fio_refuse(f, l, false, "iorate has no %s",
							      op->why);
	if (!l->val && op->type != FT_SET && op->type != FT_BOOL && !op->bare)
		return fio_refuse(f, l, false, "needs a value (%s=...)", l->key);
	if (l->val && !*l->val)
		return bad(f, l, "is empty");
	switch (op->type) {
	case FT_NUM:
		return read_num(f, o, l, op);
	case FT_PAIR:
		return read_pair(f, o, l, op);
	case FT_BOOL:
	case FT_SET:
		return read_bool(f, o, l, op);
	case FT_STR:
		return read_str(f, o, l, op);
	default:
		return op->read(f, o, l);
	}
}

static void defaults(struct fio_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->kb_base = 1024;
	o->mix_write = -1;
	o->bs[FIO_READ] = o->bs[FIO_WRITE] = o->bs[FIO_TRIM] = 4096;
	o->loops = o->nrfiles = o->numjobs = 1;
	o->fst = FILES_ROUNDROBIN;
	o->fst_n = 1;
	o->engine = "psync";
	o->hipri_pct = 100;
	o->iodepth = o->batch = o->think_blocks = 1;
	o->randrepeat = o->invalidate = o->scramble = o->per_job_logs = true;
	o->compress_chunk = 512;
	o->dedupe_set_pct = 5;
	o->randseed = 0x89;
	o->pct_random[FIO_READ] = o->pct_random[FIO_WRITE] = o->pct_random[FIO_TRIM] = 100;
}

int fio_opts_read(struct compat_fio *f, struct fio_opts *o, const struct fio_line *const *lines,
		  unsigned n)
{
	int r;

	defaults(o);
	/* fio reads kb_base before the options whose sizes it scales, wherever it stands. */
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(lines[i]->key, "kb_base") && (r = read_line(f, o, lines[i])))
			return r;
	for (unsigned i = 0; i < n; i++)
		if (strcmp(lines[i]->key, "kb_base") && (r = read_line(f, o, lines[i])))
			return r;
	return 0;
}
