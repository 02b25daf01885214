/*
 * The field tables of the result's JSON (src/result/fields.c) against docs/json.md and
 * against themselves: every row is documented in its section's table with its type and unit
 * and in the table's order, the docs list no key of a table-driven block the table lacks, and
 * every row read back comes back (and is refused, naming its key, when of another type).
 * Reads docs/json.md from the top of the tree, where the tests run.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "result/fields.h"
#include "result/result_json.h"

#define DOC "docs/json.md"
#define MAXKEYS 128

/* One key of a docs table: its type and unit cells (a row of several keys gives each its own). */
struct doc_key {
	char name[48];
	char type[64];
	char unit[512];
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;

	if (!f)
		fail_msg("%s: %s (the tests run from the top of the tree)", path, strerror(errno));
	assert_int_equal(getdelim(&buf, &len, '\0', f) > 0, 1);
	fclose(f);
	return buf;
}

/* Cell i (0: the key) of a table line "| a | b | c |", without its spaces, into out. */
static void cell(const char *line, unsigned i, char *out, size_t size)
{
	const char *p = line, *e;

	out[0] = '\0';
	for (unsigned k = 0; k <= i; k++)
		if (!(p = strchr(p, '|')) || !*++p)
			return;
	while (*p == ' ')
		p++;
	e = strchr(p, '|') ? strchr(p, '|') : p + strlen(p);
	while (e > p && e[-1] == ' ')
		e--;
	snprintf(out, size, "%.*s", (int)(e - p), p);
}

/* The n-th comma-separated part of s when it has exactly of parts, else s whole. */
static void part(const char *s, unsigned n, unsigned of, char *out, size_t size)
{
	char buf[512], *save = NULL, *tok;
	unsigned parts = 1;

	for (const char *p = s; (p = strstr(p, ", ")); p += 2)
		parts++;
	snprintf(out, size, "%s", s);
	/* "array of [bytes, percent]" is one type */
	if (of < 2 || parts != of || strchr(s, '['))
		return;
	snprintf(buf, sizeof(buf), "%s", s);
	tok = strtok_r(buf, ",", &save);
	for (unsigned i = 0; tok && i < n; i++)
		tok = strtok_r(NULL, ",", &save);
	if (tok)
		snprintf(out, size, "%s", tok + (*tok == ' '));
}

/* The `quoted` names of s: their number, each's start into at[] (up to room). */
static unsigned quoted(const char *s, const char **at, unsigned room)
{
	unsigned n = 0;

	for (const char *p = s; (p = strchr(p, '`')) && strchr(p + 1, '`');
	     p = strchr(p + 1, '`') + 1)
		if (n < room)
			at[n++] = p + 1;
	return n;
}

/* The keys of one row of a docs table, each `name` of its first cell. */
static unsigned row_keys(const char *line, struct doc_key *keys, unsigned room)
{
	char first[512], type[64], unit[512];
	const char *at[16];
	unsigned n;

	cell(line, 0, first, sizeof(first));
	cell(line, 1, type, sizeof(type));
	cell(line, 2, unit, sizeof(unit));
	n = quoted(first, at, room < 16 ? room : 16);
	for (unsigned i = 0; i < n; i++) {
		snprintf(keys[i].name, sizeof(keys[i].name), "%.*s",
			 (int)(strchr(at[i], '`') - at[i]), at[i]);
		part(type, i, n, keys[i].type, sizeof(keys[i].type));
		snprintf(keys[i].unit, sizeof(keys[i].unit), "%s", unit);
	}
	return n;
}

/* The keys of table number which (from 1) of the section headed "## heading", in order. */
static unsigned doc_keys(const char *doc, const char *heading, unsigned which,
			 struct doc_key *keys)
{
	char want[96];
	const char *p, *line;
	unsigned table = 0, n = 0, rows = 0;
	bool in = false;

	snprintf(want, sizeof(want), "\n## %s\n", heading);
	if (!(p = strstr(doc, want)))
		fail_msg(DOC ": no section \"## %s\"", heading);
	for (line = p + strlen(want); *line && strncmp(line, "## ", 3);
	     line = strchr(line, '\n') + 1) {
		if (line[0] != '|') {
			in = false;
		} else if (!in) {
			in = true;
			table++;
			rows = 0;
		} else if (table == which && ++rows > 1) {
			/* rows[1] is the |---| line under the header */
			n += row_keys(line, keys + n, MAXKEYS - n);
		}
		if (!strchr(line, '\n'))
			break;
	}
	if (!n)
		fail_msg(DOC ": \"## %s\" has no table %u", heading, which);
	return n;
}

/* The type docs/json.md gives the row: its kind, "or null" where a value may be null. */
static const char *doc_type(const struct result_field *f)
{
	static const char *const base[] = {
		[FIELD_COUNT] = "integer", [FIELD_BYTES] = "integer", [FIELD_NS] = "integer",
		[FIELD_REAL] = "number", [FIELD_BOOL] = "boolean", [FIELD_STRING] = "string",
		[FIELD_ENUM] = "string", [FIELD_OBJECT] = "object", [FIELD_ARRAY] = "array",
	};
	return base[f->type];
}

/* Whether the docs must say "or null": strings and objects that may be null. */
static bool needs_null(const struct result_field *f)
{
	return (f->flags & FIELD_NULLABLE) && f->type != FIELD_REAL && f->type != FIELD_COUNT &&
	       f->type != FIELD_BYTES && f->type != FIELD_NS;
}

static void check_row(const struct result_fields *t, const struct result_field *f,
		      const struct doc_key *k)
{
	if (strncmp(k->type, doc_type(f), strlen(doc_type(f))))
		fail_msg("%s.%s: the table says %s, " DOC " says \"%s\"", t->block, f->name,
			 doc_type(f), k->type);
	if (needs_null(f) != (strstr(k->type, "or null") != NULL) &&
	    (needs_null(f) || !(f->flags & FIELD_NULLABLE)))
		fail_msg("%s.%s: the table says %s, " DOC " says \"%s\"", t->block, f->name,
			 f->flags & FIELD_NULLABLE ? "nullable" : "never null", k->type);
	if (f->unit && !strstr(k->unit, f->unit))
		fail_msg("%s.%s: the unit %s is not in " DOC "'s \"%s\"", t->block, f->name,
			 f->unit, k->unit);
	for (unsigned i = 0; f->type == FIELD_ENUM && i < f->nnames; i++) {
		char q[64];

		snprintf(q, sizeof(q), "\"%s\"", f->names[i]);
		if (!strstr(k->unit, q))
			fail_msg("%s.%s: the value %s is not in " DOC, t->block, f->name, q);
	}
}

/* Each table's keys are its docs table's, in the same order, with the same type and unit. */
static void test_docs_match_tables(void **state)
{
	char *doc = slurp(DOC);
	struct doc_key keys[MAXKEYS];

	(void)state;
	for (size_t a = 0; a < result_fields_nall; a++) {
		const struct result_fields *t = result_fields_all[a];
		unsigned n = doc_keys(doc, t->doc, t->doc_table, keys), k = 0;

		for (size_t i = 0; i < t->n; i++) {
			const struct result_field *f = &t->rows[i];

			/* the figures' table documents them */
			if (f->flags & FIELD_FIGURE)
				continue;
			if (k >= n || strcmp(keys[k].name, f->name))
				fail_msg("%s.%s: not key %u of " DOC " (\"## %s\", table %u), in "
					 "the table's order; it has %s", t->block, f->name, k + 1,
					 t->doc, t->doc_table, k < n ? keys[k].name : "none");
			check_row(t, f, &keys[k++]);
		}
		if (k < n)
			fail_msg("%s: " DOC " documents %s, which the table lacks", t->block,
				 keys[k].name);
	}
	free(doc);
}

/* A result with every block once: a target with I/Os, a device, a job that trims. */
static void base_result(struct result *r)
{
	struct target_result *t;

	result_init(r);
	r->started = true;
	r->seconds = 2;
	r->job.trim_pct = 5;
	r->ntargets = 1;
	assert_non_null(r->targets = calloc(1, sizeof(*r->targets)));
	t = &r->targets[0];
	t->path = strdup("t.dat");
	dir_stats_init(&t->read);
	dir_stats_init(&t->write);
	dir_stats_init(&t->trim);
	for (unsigned i = 0; i < 10; i++)
		dir_stats_add(&t->read, 4096, 1000 + i * 10);
	r->ndevices = 1;
	assert_non_null(r->devices = calloc(1, sizeof(*r->devices)));
	strcpy(r->devices[0].name, "loop9");
	r->devices[0].trim_ios = 1;
	r->devices[0].disk.has_discard = r->devices[0].disk.has_flush = true;
}

/* Where table t's block is in r, and its path in the JSON (as the reader names keys). */
static void *block_of(const struct result_fields *t, struct result *r, const char **path)
{
	if (t == &result_fields_params)
		return *path = "params", r;
	if (t == &result_fields_shape)
		return *path = "params.shape", &r->job;
	if (t == &result_fields_dir)
		return *path = "targets[0].read", &r->targets[0].read;
	if (t == &result_fields_target)
		return *path = "targets[0]", &r->targets[0];
	if (t == &result_fields_disk)
		return *path = "diskstats[0].kernel", &r->devices[0].disk;
	if (t == &result_fields_view)
		return *path = "diskstats[0].iorate", &r->devices[0];
	if (t == &result_fields_host)
		return *path = "host", &r->host;
	if (t == &result_fields_cpu)
		return *path = "cpu", &r->cpu;
	return *path = NULL, NULL;
}

/* Sets f to a value unlike its default; false for a row the walk does not keep as a member. */
static bool set_distinct(const struct result_field *f, void *base, unsigned i)
{
	char *p = (char *)base + f->off;

	switch (f->store) {
	case STORE_U64:
		*(uint64_t *)p = 0x123456789ull + i;
		return true;
	case STORE_UINT:
		if (f->type == FIELD_ENUM)
			*(unsigned *)p = f->nnames - 1;
		else
			*(unsigned *)p = f->max > 100000 ? 123457 + i : f->max - 3;
		return true;
	case STORE_DOUBLE:
		*(double *)p = 12.375 + i;
		return true;
	case STORE_BOOL:
		*(bool *)p = !*(bool *)p;
		return true;
	case STORE_STRP:
		free(*(char **)p);
		assert_non_null(*(char **)p = strdup(f->name));
		return true;
	case STORE_STRBUF:
		snprintf(p, f->size, "x%s", f->name);
		return true;
	default:
		return false;
	}
}

static void assert_same(const struct result_field *f, const void *a, const void *b,
			const char *path)
{
	const char *x = (const char *)a + f->off, *y = (const char *)b + f->off;
	size_t size[] = {[STORE_U64] = 8, [STORE_UINT] = sizeof(unsigned),
			 [STORE_DOUBLE] = sizeof(double), [STORE_BOOL] = sizeof(bool)};

	if (f->store == STORE_STRP)
		x = *(char *const *)x, y = *(char *const *)y;
	if (f->store == STORE_STRP || f->store == STORE_STRBUF) {
		if (!x || !y || strcmp(x, y))
			fail_msg("%s.%s: wrote \"%s\", read back \"%s\"", path, f->name,
				 x ? x : "(null)", y ? y : "(null)");
	} else if (memcmp(x, y, size[f->store])) {
		fail_msg("%s.%s: not read back as written", path, f->name);
	}
}

/* r's JSON with key of path replaced by v, read back: the failure's message. */
static void refused_naming(struct result *r, const char *path, const char *key, json_t *v)
{
	json_t *o = result_to_json(r), *b = o;
	char want[128], err[256] = "", seg[64];
	struct result back;

	assert_non_null(o);
	/* walk "a.b[0].c" down to the block */
	for (const char *p = path; *p;) {
		size_t n = strcspn(p, ".[");

		snprintf(seg, sizeof(seg), "%.*s", (int)n, p);
		b = json_object_get(b, seg);
		p += n;
		if (*p == '[')
			b = json_array_get(b, strtoul(p + 1, NULL, 10)), p = strchr(p, ']') + 1;
		if (*p == '.')
			p++;
	}
	assert_non_null(b);
	assert_int_equal(json_object_set_new(b, key, v), 0);
	if (!result_from_json(o, &back, err, sizeof(err)))
		fail_msg("%s.%s of another type was read", path, key);
	snprintf(want, sizeof(want), "%s.%s", path, key);
	if (strncmp(err, want, strlen(want)))
		fail_msg("%s.%s of another type: \"%s\" does not name it", path, key, err);
	result_release(&back);
	json_decref(o);
}

/* Writes r, reads it back into back. */
static void write_read(const struct result *r, struct result *back)
{
	json_t *o = result_to_json(r);
	char err[256] = "";

	assert_non_null(o);
	if (result_from_json(o, back, err, sizeof(err)))
		fail_msg("result_from_json: %s", err);
	json_decref(o);
}

/*
 * What a row's value needs of the others: lat_n is the histogram's count (one more latency
 * goes with it), the sequence distribution (dist's last name) its block indices.
 */
static void keep_consistent(const struct result_field *f, void *base)
{
	struct dir_stats *d = base;
	struct job *j = base;

	if (!strcmp(f->name, "lat_n") && d->hist) {
		d->lat_n = 11;
		d->hist->counts[0]++;
	}
	if (!strcmp(f->name, "dist") || !strncmp(f->name, "sequence", 8)) {
		j->dist = DIST_SEQUENCE;
		j->nseq = 1;
		j->seq[0] = 3;
	}
}

/*
 * Every row read back: set alone to a value unlike the default, written, read, compared; and
 * refused, naming its key, when its JSON is of another type.
 */
static void test_every_row_round_trips(void **state)
{
	(void)state;
	for (size_t a = 0; a < result_fields_nall; a++) {
		const struct result_fields *t = result_fields_all[a];

		for (size_t i = 0; i < t->n; i++) {
			const struct result_field *f = &t->rows[i];
			struct result r, back;
			const char *path;
			void *base;
			bool kept;

			if (f->flags & (FIELD_DERIVED | FIELD_BY_CALLER))
				continue; /* written for readers, or by the block's own code */
			base_result(&r);
			if (!(base = block_of(t, &r, &path)))
				fail_msg("%s: no place in the test's result", t->block);
			kept = set_distinct(f, base, (unsigned)i);
			keep_consistent(f, base);
			if (kept) {
				write_read(&r, &back);
				assert_same(f, base, block_of(t, &back, &path), path);
				result_release(&back);
			}
			refused_naming(&r, path, f->name, f->type == FIELD_ARRAY ? json_integer(7)
										 : json_array());
			result_release(&r);
		}
	}
}

/* Two rows read into one member would each round-trip and still lose one of the keys. */
static void test_rows_distinct(void **state)
{
	(void)state;
	for (size_t a = 0; a < result_fields_nall; a++) {
		const struct result_fields *t = result_fields_all[a];

		for (size_t i = 0; i < t->n; i++)
			for (size_t k = 0; k < i; k++) {
				const struct result_field *f = &t->rows[i], *g = &t->rows[k];
				unsigned no = FIELD_DERIVED | FIELD_BY_CALLER;

				if (!strcmp(f->name, g->name))
					fail_msg("%s: two rows %s", t->block, f->name);
				if (!(f->flags & no) && !(g->flags & no) && f->off == g->off &&
				    f->store != STORE_NONE && g->store != STORE_NONE)
					fail_msg("%s: %s and %s are one member", t->block, g->name,
						 f->name);
			}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_docs_match_tables),
		cmocka_unit_test(test_every_row_round_trips),
		cmocka_unit_test(test_rows_distinct),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
