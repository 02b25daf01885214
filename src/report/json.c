/*
 * `iorate run --json`: the result's JSON (result/result_json.c; a run of several jobs,
 * result/result_json_doc.c) printed with every real in its
 * shortest exact form (util/jsonout.h), indented, with the histograms' number pairs kept on one
 * line so a run reads as a page, not as ten thousand lines of brackets.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/json.h"
#include "report/report.h"
#include "util/jsonout.h"

json_t *report_json_result(const struct result *r)
{
	return result_to_json(r);
}

json_t *report_json_real(double v)
{
	return result_json_real(v);
}

json_t *report_json_str(const char *s)
{
	return result_json_str(s);
}

json_t *report_json_lat(const struct dir_summary *s)
{
	return result_json_lat(s);
}

/* Length of the array at s (a '[') when it holds no object and no string; else 0. */
static size_t plain_array(const char *s)
{
	int depth = 0;

	for (size_t i = 0; s[i]; i++) {
		if (s[i] == '"' || s[i] == '{')
			return 0;
		if (s[i] == '[')
			depth++;
		else if (s[i] == ']' && --depth == 0)
			return i + 1;
	}
	return 0;
}

/* Indented text with each array of numbers (and of such arrays) on one line: "[[3, 1], [9, 2]]". */
static char *one_line_arrays(const char *in)
{
	char *out = malloc(strlen(in) + 1), *o = out;
	bool str = false;
	size_t len;

	if (!out)
		return NULL;
	for (const char *p = in; *p;) {
		if (str) {
			if (*p == '\\' && p[1])
				*o++ = *p++;
			else if (*p == '"')
				str = false;
			*o++ = *p++;
		} else if (*p == '[' && (len = plain_array(p))) {
			/* ",\n    " becomes ", ": the text never grows */
			for (size_t i = 0; i < len; i++) {
				if (p[i] != ' ' && p[i] != '\n')
					*o++ = p[i];
				if (p[i] == ',')
					*o++ = ' ';
			}
			p += len;
		} else {
			str = *p == '"';
			*o++ = *p++;
		}
	}
	*o = '\0';
	return out;
}

/* root (taken) indented, with the histograms' pairs on one line. */
static int print_root(FILE *f, json_t *root)
{
	char *text = root ? jsonout_dumps(root, JSON_INDENT(2)) : NULL, *lines;
	int ret = 0;

	json_decref(root);
	lines = text ? one_line_arrays(text) : NULL;
	free(text);
	if (!lines)
		return -ENOMEM;
	if (fputs(lines, f) == EOF || fputc('\n', f) == EOF || ferror(f))
		ret = -EIO;
	free(lines);
	return ret;
}

int report_json_print(FILE *f, const struct result *r)
{
	return print_root(f, result_to_json(r));
}

json_t *report_json_params(const struct job *j)
{
	struct result r;
	json_t *all, *p = NULL;

	result_init(&r);
	if (!job_copy(&r.job, j) && (all = result_to_json(&r))) {
		p = json_incref(json_object_get(all, "params"));
		json_decref(all);
	}
	result_release(&r);
	return p;
}

int report_json_print_params(FILE *f, const struct job *j)
{
	json_t *p = report_json_params(j);

	return p ? print_root(f, p) : -ENOMEM;
}

int report_json_print_set(FILE *f, const struct result_set *s)
{
	return print_root(f, result_set_to_json(s));
}

static int json_write(FILE *f, const struct result *r, const struct report_opts *o)
{
	return report_json_print(f, r);
}

static int json_write_set(FILE *f, const struct result_set *s, const struct report_opts *o)
{
	return report_json_print_set(f, s);
}

const struct report_ops report_json = {
	.name = "json",
	.write = json_write,
	.write_set = json_write_set,
};
