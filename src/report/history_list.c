/* 'iorate history list' as the format table reaches it (history_list.h). */
#include "report/history_list.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include <jansson.h>

#include "core/result_json.h"
#include "util/jsonout.h"

static int flushed(FILE *f)
{
	return fflush(f) || ferror(f) ? -EIO : 0;
}

/* The heading is printed with the first row: an empty history prints nothing on stdout. */
static int text_begin(FILE *f, const char *database, void **state)
{
	return (*state = calloc(1, sizeof(bool))) ? 0 : -ENOMEM;
}

static int text_row(FILE *f, const struct history_row *r, void *state)
{
	bool *headed = state;

	if (!*headed)
		report_history_list_head(f);
	*headed = true;
	report_history_list_row(f, r);
	return 0;
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
	.begin = text_begin, .row = text_row, .end = plain_end};
const struct report_history_list_ops history_list_csv = {
	.begin = csv_begin, .row = csv_row, .end = plain_end};
const struct report_history_list_ops history_list_json = {
	.begin = json_begin, .row = json_row, .end = json_end};
