/*
 * The settings two stored runs differ in (diff.h), found by walking their JSON; the wording
 * ("--cap-iops: off -> 1000") is report/history_diff.c's.
 */
#include "stats/diff.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Where the walk is: the job each item is of. */
struct walk {
	struct stats_diff *d;
	unsigned job;
	const char *job_name;
	int err;
};

static struct stats_diff_item *add(struct walk *w, enum stats_diff_kind kind, const char *key,
				   const json_t *a, const json_t *b)
{
	struct stats_diff *d = w->d;
	struct stats_diff_item *it;

	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 16;
		void *p = realloc(d->item, cap * sizeof(*d->item));

		if (!p) {
			w->err = -ENOMEM;
			return NULL;
		}
		d->item = p;
		d->cap = cap;
	}
	it = &d->item[d->n++];
	*it = (struct stats_diff_item){.kind = kind, .job = w->job, .job_name = w->job_name,
				       .a = a ? json_incref((json_t *)a) : NULL,
				       .b = b ? json_incref((json_t *)b) : NULL};
	snprintf(it->key, sizeof(it->key), "%s", key);
	return it;
}

/* A time in seconds that the same object also holds exactly in nanoseconds ("time_ns"). */
static bool has_exact_twin(const json_t *o, const char *key)
{
	char twin[128];

	snprintf(twin, sizeof(twin), "%s_ns", key);
	return json_object_get(o, twin) != NULL;
}

static void walk_value(struct walk *w, const char *key, const json_t *a, const json_t *b);

static void walk_object(struct walk *w, const char *key, const json_t *a, const json_t *b)
{
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)a, k, v) {
		char sub[256];

		if (has_exact_twin(a, k))
			continue;
		snprintf(sub, sizeof(sub), "%s%s%s", key, *key ? "." : "", k);
		walk_value(w, sub, v, json_object_get(b, k));
	}
	/* A key only b has (a run recorded by another iorate). */
	json_object_foreach((json_t *)b, k, v) {
		char sub[256];

		if (json_object_get(a, k) || has_exact_twin(b, k))
			continue;
		snprintf(sub, sizeof(sub), "%s%s%s", key, *key ? "." : "", k);
		walk_value(w, sub, NULL, v);
	}
}

/* An array of objects (the targets): element by element, and those only one run has. */
static void walk_objects(struct walk *w, const char *key, const json_t *a, const json_t *b)
{
	size_t na = json_array_size(a), nb = json_array_size(b);

	for (size_t i = 0; i < na || i < nb; i++) {
		struct stats_diff_item *it;
		char sub[256];

		snprintf(sub, sizeof(sub), "%s[%zu]", key, i);
		if (i < na && i < nb) {
			walk_object(w, sub, json_array_get(a, i), json_array_get(b, i));
			continue;
		}
		it = add(w, STATS_DIFF_ELEMENT, key, i < na ? json_array_get(a, i) : NULL,
			 i < nb ? json_array_get(b, i) : NULL);
		if (it) {
			it->index = i;
			it->only_b = i >= na;
		}
	}
}

static bool object_array(const json_t *v)
{
	return json_is_array(v) && json_is_object(json_array_get(v, 0));
}

static void walk_value(struct walk *w, const char *key, const json_t *a, const json_t *b)
{
	if (json_is_object(a) && json_is_object(b))
		walk_object(w, key, a, b);
	else if ((object_array(a) || object_array(b)) && (!a || json_is_array(a)) &&
		 (!b || json_is_array(b)))
		walk_objects(w, key, a, b);
	else if (!json_equal((json_t *)a, (json_t *)b))
		add(w, STATS_DIFF_VALUE, key, a, b);
}

int stats_json_diff(const json_t *a, const json_t *b, unsigned job, struct stats_diff *d)
{
	struct walk w = {.d = d, .job = job};

	walk_object(&w, "", a, b);
	return w.err;
}

/*
 * What of a run's JSON describes how it ran rather than what it measured: for the run, its
 * host and iorate version; for a job, what made it, its params and its targets (without their
 * figures, and without the paths params.targets already holds).
 */
static json_t *facts_of(const struct result *r, bool job,
			json_t *(*to_json)(const struct result *r))
{
	static const char *const figures[] = {"path", "read", "write", "total", "kernel"};
	json_t *o = to_json(r), *f = json_object(), *t, *v;
	size_t i;

	if (!o || !f)
		goto fail;
	if (!job) {
		json_object_set(f, "host", json_object_get(o, "host"));
		json_object_set(f, "version", json_object_get(o, "version"));
		json_decref(o);
		return f;
	}
	json_object_set(f, "origin", json_object_get(o, "origin"));
	json_object_set(f, "params", json_object_get(o, "params"));
	/* Why an engine was chosen is said in words that differ when the engine does not. */
	json_object_del(json_object_get(f, "params"), "engine_why");
	t = json_object_get(o, "targets");
	json_array_foreach(t, i, v)
		for (size_t k = 0; k < sizeof(figures) / sizeof(figures[0]); k++)
			json_object_del(v, figures[k]);
	json_object_set(f, "targets", t);
	json_decref(o);
	return f;
fail:
	json_decref(o);
	json_decref(f);
	return NULL;
}

/*
 * A seed iorate chose differs from run to run and changes nothing but which offsets are drawn:
 * seeds are compared only when one of the runs was given its seed; a chosen one is wrapped
 * ({"chosen": N}) so that it differs from the same number given, and unwrapped after the walk.
 * 0 or -ENOMEM: a seed left unwrapped would compare a chosen seed as a given one.
 */
static int seeds(json_t *fa, json_t *fb)
{
	json_t *pa = json_object_get(fa, "params"), *pb = json_object_get(fb, "params");
	bool given_a = json_is_true(json_object_get(pa, "seed_set"));
	bool given_b = json_is_true(json_object_get(pb, "seed_set"));

	for (int i = 0; i < 2; i++) {
		json_t *p = i ? pb : pa, *s = json_object_get(p, "seed");
		bool given = i ? given_b : given_a;

		if (!given && (given_a || given_b) && s) {
			if (json_object_set_new(p, "seed", json_pack("{s:O}", "chosen", s)))
				return -ENOMEM;
		} else if (!given_a && !given_b) {
			json_object_del(p, "seed");
		}
		json_object_del(p, "seed_set");
	}
	return 0;
}

/* A seed wrapped by seeds(): the number, and that it was chosen. */
static void unwrap_seed(json_t **v, bool *chosen)
{
	json_t *n = json_is_object(*v) ? json_object_get(*v, "chosen") : NULL;

	if (!n)
		return;
	json_incref(n);
	json_decref(*v);
	*v = n;
	*chosen = true;
}

static int diff_pair(struct stats_diff *d, const struct result *a, const struct result *b,
		     bool job, unsigned n, const char *name,
		     json_t *(*to_json)(const struct result *r))
{
	json_t *fa = facts_of(a, job, to_json), *fb = facts_of(b, job, to_json);
	size_t first = d->n;
	int r = -ENOMEM;

	if (fa && fb) {
		struct walk w = {.d = d, .job = n, .job_name = name};

		if (!job || !(w.err = seeds(fa, fb)))
			walk_object(&w, "", fa, fb);
		r = w.err;
		for (size_t i = first; job && i < d->n; i++)
			if (d->item[i].kind == STATS_DIFF_VALUE &&
			    !strcmp(d->item[i].key, "params.seed")) {
				unwrap_seed(&d->item[i].a, &d->item[i].chosen_a);
				unwrap_seed(&d->item[i].b, &d->item[i].chosen_b);
			}
	}
	json_decref(fa);
	json_decref(fb);
	return r;
}

/* The jobs' count, and a job only one run has. */
static int diff_jobs(struct stats_diff *d, const struct stats_run *a, const struct stats_run *b)
{
	struct walk w = {.d = d};

	if (a->njobs != b->njobs) {
		json_t *x = json_integer(a->njobs), *y = json_integer(b->njobs);

		if (x && y)
			add(&w, STATS_DIFF_NJOBS, "jobs", x, y);
		else
			w.err = -ENOMEM;
		json_decref(x);
		json_decref(y);
	}
	for (unsigned i = 0; !w.err && (i < a->njobs || i < b->njobs); i++) {
		const struct stats_run *s = i < a->njobs ? a : b;
		struct stats_diff_item *it;

		if (i < a->njobs && i < b->njobs)
			continue;
		w.job = i + 1;
		w.job_name = s->jobs[i].job.name;
		if ((it = add(&w, STATS_DIFF_JOB, "job", NULL, NULL))) {
			it->index = i;
			it->only_b = s == b;
		}
	}
	return w.err;
}

int stats_run_diff(const struct stats_run *a, const struct stats_run *b,
		   json_t *(*to_json)(const struct result *r), struct stats_diff *d)
{
	bool several = a->njobs > 1 || b->njobs > 1;
	int r;

	if ((r = diff_pair(d, &a->jobs[0], &b->jobs[0], false, 0, NULL, to_json)))
		return r;
	if ((r = diff_jobs(d, a, b)))
		return r;
	for (unsigned i = 0; i < a->njobs && i < b->njobs; i++)
		if ((r = diff_pair(d, &a->jobs[i], &b->jobs[i], true, several ? i + 1 : 0,
				   a->jobs[i].job.name, to_json)))
			return r;
	return 0;
}

void stats_diff_free(struct stats_diff *d)
{
	for (size_t i = 0; i < d->n; i++) {
		json_decref(d->item[i].a);
		json_decref(d->item[i].b);
	}
	free(d->item);
	*d = (struct stats_diff){0};
}
