/*
 * The JSON documents that hold runs: a run of several jobs ({schema, jobs, groups, total},
 * docs/json.md), written and read here; and the reading of every document a run can come in
 * (one run, several jobs, sweep's rows, mark's tests) for history import, report and explain.
 * One run's own object is result_json.c and result_json_read.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_in.h"
#include "result/result_json.h"
#include "result/result_json_int.h"
#include "util/err.h"

/* Their short names in this file. */
#define put result_json_put
#define append result_json_append

static int nomem(char *err, size_t len)
{
	return err_set(err, len, -ENOMEM, "out of memory");
}

static json_t *counts_obj(uint64_t rb, uint64_t wb, uint64_t ri, uint64_t wi, int *err)
{
	json_t *o = json_object();

	put(o, "read_bytes", result_json_u64(rb), err);
	put(o, "write_bytes", result_json_u64(wb), err);
	put(o, "read_ios", result_json_u64(ri), err);
	put(o, "write_ios", result_json_u64(wi), err);
	return o;
}

/* Each block device: what the kernel counted, and what iorate did to it. */
static json_t *devices_arr(const struct result_sum *m, int *err)
{
	json_t *a = json_array();

	for (unsigned i = 0; i < m->ndevices; i++) {
		const struct device_counts *d = &m->devices[i];
		const struct kernel_counts *k = &d->kernel;
		json_t *o = json_object();

		put(o, "device", result_json_str(k->name), err);
		put(o, "kernel",
		    counts_obj(k->read_bytes, k->write_bytes, k->read_ios, k->write_ios, err), err);
		put(o, "iorate", counts_obj(d->read_bytes, d->write_bytes, d->read_ios,
					    d->write_ios, err), err);
		if (d->trim_ios) {
			json_t *i = json_object_get(o, "iorate");
			put(i, "trim_bytes", result_json_u64(d->trim_bytes), err);
			put(i, "trim_ios", result_json_u64(d->trim_ios), err);
		}
		if (k->discard_ios) {
			json_t *kk = json_object_get(o, "kernel");
			put(kk, "discard_bytes", result_json_u64(k->discard_bytes), err);
			put(kk, "discard_ios", result_json_u64(k->discard_ios), err);
		}
		append(a, o, err);
	}
	return a;
}

/* A group (g its index) or, with g < 0, the total: figures only, derived from the jobs. */
static json_t *sum_obj(const struct result_set *s, const struct result_sum *m, int g, int *err)
{
	struct dir_summary d[3], tr;
	json_t *o = json_object(), *jobs = json_array();

	if (result_summarize(&m->read, &m->write, &m->trim, m->seconds, d)) {
		json_decref(jobs);
		*err = -ENOMEM;
		return o;
	}
	if (g >= 0) {
		put(o, "group", json_integer(m->group), err);
		for (unsigned i = 0; i < s->njobs; i++)
			if (result_set_in_group(s, i, (unsigned)g))
				append(jobs, json_integer(i), err);
		put(o, "jobs", jobs, err);
	} else {
		json_decref(jobs);
		put(o, "groups", json_integer(s->ngroups), err);
		put(o, "jobs", json_integer(m->njobs), err);
	}
	put(o, "started", json_integer(m->nstarted), err);
	put(o, "interrupted", json_boolean(m->interrupted), err);
	put(o, "seconds", result_json_real(m->seconds), err);
	put(o, "read", result_json_figures(&d[0], err), err);
	put(o, "write", result_json_figures(&d[1], err), err);
	if (dir_stats_any(&m->trim)) {
		dir_stats_summarize(&m->trim, m->seconds, &tr);
		put(o, "trim", result_json_figures(&tr, err), err);
	}
	put(o, "total", result_json_figures(&d[2], err), err);
	put(o, "iops", result_json_real(d[2].iops), err);
	put(o, "mibps", result_json_real(d[2].mibps), err);
	put(o, "mbps", result_json_real(d[2].mbps), err);
	put(o, "cpu", result_json_cpu(&m->cpu, err), err);
	put(o, "devices", devices_arr(m, err), err);
	if (m->nviews)
		put(o, "diskstats", result_json_views(m->views, m->nviews, err), err);
	return o;
}

json_t *result_set_to_json(const struct result_set *s)
{
	json_t *o, *jobs, *groups;
	int err = 0;

	if (s->njobs == 1)
		return result_to_json(&s->jobs[0]);
	o = json_object();
	jobs = json_array();
	groups = json_array();
	put(o, "schema", json_integer(RESULT_JSON_SCHEMA), &err);
	for (unsigned i = 0; i < s->njobs; i++)
		append(jobs, result_to_json(&s->jobs[i]), &err);
	put(o, "jobs", jobs, &err);
	for (unsigned g = 0; g < s->ngroups; g++)
		append(groups, sum_obj(s, &s->groups[g], (int)g, &err), &err);
	put(o, "groups", groups, &err);
	put(o, "total", sum_obj(s, &s->total, -1, &err), &err);
	if (err) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/*
 * Whether two values are the same: numbers by value, since a tool that rewrites the document
 * may print a real that holds an integer (2.0) as an integer (2).
 */
static bool same_value(const json_t *a, const json_t *b)
{
	if (json_is_integer(a) && json_is_integer(b))
		return json_integer_value(a) == json_integer_value(b);
	if (json_is_number(a) && json_is_number(b))
		return json_number_value(a) == json_number_value(b);
	if (json_is_object(a) || json_is_array(a))
		return false; /* compared member by member */
	return json_equal((json_t *)a, (json_t *)b);
}

/* The first place where a and b differ, appended to path ("[1].read.ios"); false when equal. */
static bool first_diff(const json_t *a, const json_t *b, char *path, size_t len)
{
	size_t n = strlen(path), i;
	const char *key;
	json_t *v;

	if (same_value(a, b))
		return false;
	if (json_is_object(a) && json_is_object(b) && json_object_size(a) == json_object_size(b)) {
		json_object_foreach((json_t *)a, key, v) {
			snprintf(path + n, len - n, ".%s", key);
			if (first_diff(v, json_object_get(b, key), path, len))
				return true;
		}
	} else if (json_is_array(a) && json_is_array(b) && json_array_size(a) ==
		   json_array_size(b)) {
		json_array_foreach((json_t *)a, i, v) {
			snprintf(path + n, len - n, "[%zu]", i);
			if (first_diff(v, json_array_get(b, i), path, len))
				return true;
		}
	} else {
		return true;
	}
	path[n] = '\0';
	return false;
}

/*
 * The groups and the total are derived figures: a document whose figures are not what its
 * jobs add up to was edited or damaged, and reading it would print other figures than it holds.
 */
static int check_sums(const json_t *o, const char *at, const struct result_set *s, char *err,
		      size_t len)
{
	static const char *const keys[] = {"groups", "total"};
	json_t *want = result_set_to_json(s);
	int rc = 0;

	if (!want)
		return nomem(err, len);
	for (size_t k = 0; k < 2 && !rc; k++) {
		char path[192];

		snprintf(path, sizeof(path), "%s", keys[k]);
		if (!json_object_get(o, keys[k]))
			rc = err_set(err, len, -EINVAL, "%s%s: missing", at, keys[k]);
		else if (first_diff(json_object_get(want, keys[k]), json_object_get(o, keys[k]),
				    path, sizeof(path)))
			rc = err_set(err, len, -EINVAL,
				     "%s%s: not what the jobs add up to (groups and total are "
				     "computed from jobs[])", at, path);
	}
	json_decref(want);
	return rc;
}

/* jobs[]: two or more runs of schema 2 (one job is written as the run itself). */
static int read_jobs(const json_t *o, const char *at, struct result_set *s, char *err,
		     size_t len)
{
	json_t *a = json_object_get(o, "jobs"), *x;
	size_t i;
	int rc;

	if (!json_is_array(a) || json_array_size(a) < 2 || json_array_size(a) > UINT32_MAX)
		return err_set(err, len, -EINVAL, "%sjobs: not an array of two runs or more (a run "
			       "of one job is written as the run itself)", at);
	if (!(s->jobs = calloc(json_array_size(a), sizeof(*s->jobs))))
		return nomem(err, len);
	json_array_foreach(a, i, x) {
		char where[128];

		snprintf(where, sizeof(where), "%sjobs[%zu]", at, i);
		if (json_integer_value(json_object_get(x, "schema")) != RESULT_JSON_SCHEMA)
			return err_set(err, len, -EINVAL, "%s.schema: not %d (the jobs of a run "
				       "are written in the current schema)", where,
				       RESULT_JSON_SCHEMA);
		if ((rc = result_json_read_run(x, where, &s->jobs[i], err, len)))
			return rc;
		s->njobs++;
	}
	return 0;
}

/* result_set_from_json() of the run at where ("rows[2].run") of a larger document. */
static int set_read(const json_t *o, const char *where, struct result_set *s, char *err,
		    size_t len)
{
	json_t *schema = json_object_get(o, "schema");
	char at[80];
	int rc;

	result_set_init(s);
	if (!json_object_get(o, "jobs")) {
		if (!(s->jobs = calloc(1, sizeof(*s->jobs))))
			return nomem(err, len);
		if ((rc = result_json_read_run(o, where, &s->jobs[0], err, len)))
			return rc;
		s->njobs = 1;
		return 0;
	}
	snprintf(at, sizeof(at), "%s%s", where, where[0] ? "." : "");
	if (!json_is_integer(schema) || json_integer_value(schema) != RESULT_JSON_SCHEMA)
		return err_set(err, len, -EINVAL, "%sschema: not %d", at, RESULT_JSON_SCHEMA);
	if ((rc = read_jobs(o, at, s, err, len)))
		return rc;
	if ((rc = result_set_sum(s)))
		return nomem(err, len);
	return check_sums(o, at, s, err, len);
}

int result_set_from_json(const json_t *o, struct result_set *s, char *err, size_t len)
{
	return set_read(o, "", s, err, len);
}

/* A growing array of sets, as a document is read. */
struct sets {
	struct result_set *a;
	size_t n, cap;
};

static int add_set(struct sets *l, const json_t *o, const char *where, char *err, size_t len)
{
	if (l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 4;
		struct result_set *g = realloc(l->a, nc * sizeof(*g));

		if (!g)
			return nomem(err, len);
		l->a = g;
		l->cap = nc;
	}
	/* Counted first: a set read half-way is released with the others. */
	return set_read(o, where, &l->a[l->n++], err, len);
}

/* sweep's rows[i].run and mark's tests[i].read.result and .write.result (null: not run). */
static int table_runs(struct sets *l, const json_t *doc, char *err, size_t len)
{
	static const char *const dirs[2] = {MARK_DOC_READ, MARK_DOC_WRITE};
	json_t *x, *run;
	size_t i;
	int rc = 0;

	json_array_foreach(json_object_get(doc, SWEEP_DOC_ROWS), i, x) {
		char where[64];

		snprintf(where, sizeof(where), SWEEP_DOC_ROWS "[%zu]." SWEEP_DOC_ROW_RUN, i);
		if ((run = json_object_get(x, SWEEP_DOC_ROW_RUN)) && !json_is_null(run) &&
		    (rc = add_set(l, run, where, err, len)))
			return rc;
	}
	json_array_foreach(json_object_get(doc, MARK_DOC_TESTS), i, x) {
		for (int w = 0; w < 2 && !rc; w++) {
			char where[64];

			run = json_object_get(json_object_get(x, dirs[w]), MARK_DOC_RESULT);
			snprintf(where, sizeof(where), MARK_DOC_TESTS "[%zu].%s." MARK_DOC_RESULT, i,
				 dirs[w]);
			if (run && !json_is_null(run))
				rc = add_set(l, run, where, err, len);
		}
		if (rc)
			return rc;
	}
	return 0;
}

int result_json_sets(const json_t *doc, struct result_set **sets, size_t *n, char *err,
		     size_t len)
{
	struct sets l = {0};
	int rc = 0;

	/* A run has params, a run of several jobs jobs; sweep's document has rows, mark's tests. */
	if (json_is_object(doc) && (json_object_get(doc, "params") ||
				    json_object_get(doc, "jobs")))
		rc = add_set(&l, doc, "", err, len);
	else
		rc = table_runs(&l, doc, err, len);
	if (rc) {
		result_sets_free(l.a, l.n);
		l.a = NULL;
		l.n = 0;
	}
	*sets = l.a;
	*n = l.n;
	return rc;
}

void result_sets_free(struct result_set *sets, size_t n)
{
	for (size_t i = 0; sets && i < n; i++)
		result_set_release(&sets[i]);
	free(sets);
}

/* Each job of each set, moved out into one array of runs. */
static int flatten(struct result_set *sets, size_t nsets, struct result **runs, size_t *n)
{
	size_t total = 0, k = 0;

	for (size_t i = 0; i < nsets; i++)
		total += sets[i].njobs;
	*runs = calloc(total ? total : 1, sizeof(**runs));
	*n = 0;
	if (!*runs)
		return -ENOMEM;
	for (size_t i = 0; i < nsets; i++) {
		for (unsigned j = 0; j < sets[i].njobs; j++)
			(*runs)[k++] = sets[i].jobs[j];
		free(sets[i].jobs);
		sets[i].jobs = NULL;
		sets[i].njobs = 0;
	}
	*n = k;
	return 0;
}

/* What a *_sets() call returned (rc, sets), every job a run of its own; the sets are freed. */
static int sets_to_runs(int rc, struct result_set *sets, size_t nsets, struct result **runs,
			size_t *n, char *err, size_t len)
{
	*runs = NULL;
	*n = 0;
	if (rc)
		return rc;
	if ((rc = flatten(sets, nsets, runs, n)))
		nomem(err, len);
	result_sets_free(sets, nsets);
	return rc;
}

int result_json_runs(const json_t *doc, struct result **runs, size_t *n, char *err,
		     size_t len)
{
	struct result_set *sets = NULL;
	size_t nsets = 0;
	int rc = result_json_sets(doc, &sets, &nsets, err, len);

	return sets_to_runs(rc, sets, nsets, runs, n, err, len);
}

json_t *result_json_load_doc(const char *path, int *rc, char *err, size_t len)
{
	json_error_t je;
	json_t *doc = json_input_load(path, 0, &je);

	/* jansson sets a line only when it read text that is not JSON, not when reading failed. */
	if (!doc)
		*rc = err_set(err, len, je.line > 0 ? -EINVAL : -EIO, "%s: %s%s", path,
			      je.line > 0 ? "not JSON: " : "", je.text);
	return doc;
}

int result_json_load_sets(const char *path, struct result_set **sets, size_t *n, char *err,
			  size_t len)
{
	char why[512];
	int rc = 0;
	json_t *doc = result_json_load_doc(path, &rc, err, len);

	*sets = NULL;
	*n = 0;
	if (!doc)
		return rc;
	rc = result_json_sets(doc, sets, n, why, sizeof(why));
	json_decref(doc);
	if (rc)
		return err_set(err, len, rc, "%s: %s", path, why);
	if (!*n)
		return err_set(err, len, -ENODATA, "%s: holds no run (expected the JSON of 'iorate "
			       "run --json', 'sweep --json' or 'mark --json')", path);
	return 0;
}

int result_json_load_file(const char *path, struct result **runs, size_t *n, char *err,
			  size_t len)
{
	struct result_set *sets = NULL;
	size_t nsets = 0;
	int rc = result_json_load_sets(path, &sets, &nsets, err, len);

	return sets_to_runs(rc, sets, nsets, runs, n, err, len);
}

void result_array_free(struct result *runs, size_t n)
{
	for (size_t i = 0; runs && i < n; i++)
		result_release(&runs[i]);
	free(runs);
}
