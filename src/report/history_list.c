/* 'iorate history list' as its formats' table reaches it (history_list.h). */
#include "report/history_list.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "result/result_json.h"
#include "util/jsonout.h"

static int flushed(FILE *f)
{
	return fflush(f) || ferror(f) ? -EIO : 0;
}

/* A row of the text table, kept until every row is in (the LIMITS column is as wide as its
 * widest value): the columns before LIMITS, LIMITS, and the rest. */
struct text_row {
	char *pre, *lim, *post;
};

struct text_list {
	struct text_row *rows;
	size_t n, cap;
	int width;
};

static int text_begin(FILE *f, const char *database, void **state)
{
	struct text_list *l = calloc(1, sizeof(*l));

	if (!l)
		return -ENOMEM;
	l->width = (int)strlen("LIMITS");
	*state = l;
	return 0;
}

/* What print(e) writes to a stream, as a string (NULL out of memory). */
static char *text_of(void (*print)(FILE *, const struct history_row *),
		     const struct history_row *e)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	print(m, e);
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int text_row(FILE *f, const struct history_row *r, void *state)
{
	struct text_list *l = state;
	char lim[256];

	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct text_row *n = realloc(l->rows, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		l->rows = n;
		l->cap = cap;
	}
	struct text_row *t = &l->rows[l->n];
	*t = (struct text_row){.pre = text_of(report_history_list_row_pre, r),
			       .lim = strdup(report_history_list_limits(r, lim, sizeof(lim))),
			       .post = text_of(report_history_list_row_post, r)};
	if (!t->pre || !t->lim || !t->post) {
		free(t->pre), free(t->lim), free(t->post);
		return -ENOMEM;
	}
	if ((int)strlen(t->lim) > l->width)
		l->width = (int)strlen(t->lim);
	l->n++;
	return 0;
}

/* The heading and the rows, once all are in: an empty history prints nothing on stdout. */
static int text_end(FILE *f, void *state)
{
	struct text_list *l = state;

	if (l && l->n)
		report_history_list_head_w(f, l->width);
	for (size_t i = 0; l && i < l->n; i++) {
		fprintf(f, "%s%-*s %s", l->rows[i].pre, l->width, l->rows[i].lim, l->rows[i].post);
		free(l->rows[i].pre), free(l->rows[i].lim), free(l->rows[i].post);
	}
	if (l)
		free(l->rows);
	free(l);
	return flushed(f);
}

static int csv_begin(FILE *f, const char *database, void **state)
{
	report_history_csv_head(f);
	return 0;
}

static int csv_row(FILE *f, const struct history_row *r, void *state)
{
	report_history_csv_row(f, r);
	return 0;
}

struct json_list {
	json_t *runs;
	const char *database;
};

static int json_begin(FILE *f, const char *database, void **state)
{
	struct json_list *l = calloc(1, sizeof(*l));

	if (!l || !(l->runs = json_array())) {
		free(l);
		return -ENOMEM;
	}
	l->database = database;
	*state = l;
	return 0;
}

static int json_row(FILE *f, const struct history_row *r, void *state)
{
	struct json_list *l = state;

	return json_array_append_new(l->runs, report_history_run_json(r)) ? -ENOMEM : 0;
}

static int json_end(FILE *f, void *state)
{
	struct json_list *l = state;
	json_t *root = l ? json_pack("{s:i,s:o,s:o}", "schema", REPORT_HISTORY_SCHEMA, "database",
				     result_json_str(l->database), "runs", l->runs)
			 : NULL;
	int r = root ? jsonout_dumpf(root, f, JSON_INDENT(2)) : -ENOMEM;

	if (!r && fputc('\n', f) == EOF)
		r = -EIO;
	json_decref(root);
	free(l);
	return r ? r : flushed(f);
}

static int plain_end(FILE *f, void *state)
{
	free(state);
	return flushed(f);
}

const struct report_history_list_ops history_list_text = {
	.begin = text_begin, .row = text_row, .end = text_end};
const struct report_history_list_ops history_list_csv = {
	.begin = csv_begin, .row = csv_row, .end = plain_end};
const struct report_history_list_ops history_list_json = {
	.begin = json_begin, .row = json_row, .end = json_end, .names_database = true};

static const struct history_list_format formats[] = {
	{.f = REPORT_TEXT, .ops = &history_list_text},
	{.f = REPORT_JSON, .ops = &history_list_json},
	{.f = REPORT_CSV, .ops = &history_list_csv},
};

const struct report_formats history_list_formats = REPORT_FORMATS("iorate history list",
								  formats);
