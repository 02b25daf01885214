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
	if (of < 2 || parts != of)
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
		fail_msg("%s.%s: the unit %s is not in " DOC "'s \"%s\"", t->block, f->name, f->unit,
			 k->unit);
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
				fail_msg("%s.%s: not documented in " DOC " (\"## %s\", table %u) as "
					 "key %u, in the table's order (found %s)", t->block, f->name,
					 t->doc, t->doc_table, k + 1, k < n ? keys[k].name : "none");
			check_row(t, f, &keys[k++]);
		}
		if (k < n)
			fail_msg("%s: " DOC " documents %s, which the table lacks", t->block,
				 keys[k].name);
	}
	free(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_docs_match_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
