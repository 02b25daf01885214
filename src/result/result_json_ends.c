/*
 * The JSON of how a job ends and what it goes on after: params.ends (--exit-all,
 * --continue-on-error, --ignore-error) and the run's errnos (the failed I/Os it went on after);
 * params.ioprio; params.data, what writes carry (--compress, --dedupe, --data-pattern, ...); and
 * params.steady (--steady).
 * All are absent from runs recorded before them, and read as the defaults.
 */
#include <string.h>

#include "result/result_json.h"
#include "result/result_json_int.h"

#define put result_json_put
#define append result_json_append

static const char *const exit_names[] = {"none", "report_group", "group", "all"};
static const char *const cont_names[] = {"read", "write", "verify"};

json_t *result_json_ends(const struct job *j, int *err)
{
	json_t *o = json_object(), *c = json_array(), *ig = json_array();

	put(o, "exit", json_string(exit_names[(unsigned)j->exit_what % 4]), err);
	put(o, "exit_on_error", json_string(exit_names[(unsigned)j->exit_error % 4]), err);
	put(o, "report_group", json_integer(j->report_group), err);
	put(o, "group_reporting", json_boolean(j->group_reporting), err);
	for (unsigned b = 0; b < 3; b++)
		if (j->continue_on & (1u << b))
			append(c, json_string(cont_names[b]), err);
	put(o, "continue_on_error", c, err);
	for (unsigned d = 0; d < 2; d++) {
		json_t *l = json_array();
		for (unsigned i = 0; i < j->nignore[d]; i++)
			append(l, json_integer(j->ignore_errno[d][i]), err);
		append(ig, l, err);
	}
	put(o, "ignore_error", ig, err);
	return o;
}

json_t *result_json_errnos(const struct result *r, int *err)
{
	json_t *a = json_array();

	for (unsigned i = 0; i < r->nerrnos; i++) {
		json_t *x = json_object();
		const char *name = r->errnos[i].err ? strerrorname_np(r->errnos[i].err) : NULL;
		put(x, "errno", json_integer(r->errnos[i].err), err);
		put(x, "name", result_json_str(name), err);
		put(x, "read", result_json_u64(r->errnos[i].ios[0]), err);
		put(x, "write", result_json_u64(r->errnos[i].ios[1]), err);
		append(a, x, err);
	}
	return a;
}

/* A list of errnos (1..4095) into out, at most JOB_MAX_IGNORE. */
static void read_errno_list(struct rd *rd, const json_t *l, int *out, unsigned *n)
{
	size_t i;
	json_t *v;

	if (!json_is_array(l) || json_array_size(l) > JOB_MAX_IGNORE) {
		rd_fail(rd, "ignore_error", "not two lists of at most %d errnos", JOB_MAX_IGNORE);
		return;
	}
	json_array_foreach(l, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 4095) {
			rd_fail(rd, "ignore_error", "an errno is not a number from 1 to 4095");
			return;
		}
		out[i] = (int)json_integer_value(v);
	}
	*n = (unsigned)json_array_size(l);
}

static void read_continue(struct rd *rd, const json_t *c, struct job *j)
{
	size_t i;
	json_t *v;

	if (!json_is_array(c)) {
		rd_fail(rd, "continue_on_error", "not an array");
		return;
	}
	json_array_foreach(c, i, v) {
		unsigned b = 0;
		while (b < 3 && !(json_is_string(v) && !strcmp(json_string_value(v), cont_names[b])))
			b++;
		if (b == 3) {
			rd_fail(rd, "continue_on_error", "holds what is not read, write or verify");
			return;
		}
		j->continue_on |= 1u << b;
	}
}

void result_json_read_ends(struct rd *rd, const json_t *p, struct job *j)
{
	json_t *o = json_object_get(p, "ends"), *ig;
	size_t m;
	unsigned ex = 0;

	if (!o)
		return;
	m = rd_enter(rd, "ends", 0);
	rd_enum(rd, o, "exit", exit_names, 4, &ex);
	j->exit_what = (enum job_exit)ex;
	/* Absent in runs written before --exit-on-error. */
	ex = 0;
	if (json_object_get(o, "exit_on_error"))
		rd_enum(rd, o, "exit_on_error", exit_names, 4, &ex);
	j->exit_error = (enum job_exit)ex;
	rd_uint(rd, o, "report_group", UINT32_MAX, &j->report_group);
	/* Absent in runs written before fio's group_reporting was kept. */
	if (json_object_get(o, "group_reporting"))
		rd_bool(rd, o, "group_reporting", &j->group_reporting);
	read_continue(rd, rd_get(rd, o, "continue_on_error"), j);
	ig = rd_arr(rd, o, "ignore_error");
	if (ig && json_array_size(ig) != 2)
		rd_fail(rd, "ignore_error", "not two lists (reads, writes)");
	for (unsigned d = 0; ig && !rd->rc && d < 2; d++)
		read_errno_list(rd, json_array_get(ig, d), j->ignore_errno[d], &j->nignore[d]);
	rd_leave(rd, m);
}

void result_json_read_errnos(struct rd *rd, const json_t *o, struct result *r)
{
	json_t *a = json_object_get(o, "errnos"), *x;
	size_t i, m;

	if (!a)
		return;
	m = rd_enter(rd, "errnos", 0);
	if (!json_is_array(a) || json_array_size(a) > RESULT_MAX_ERRNOS)
		rd_fail(rd, NULL, "not an array of at most %d errnos", RESULT_MAX_ERRNOS);
	json_array_foreach(a, i, x) {
		struct result_errno *e = &r->errnos[i];
		unsigned v = 0;
		if (rd->rc)
			break;
		size_t k = rd_enter(rd, NULL, i);
		rd_uint(rd, x, "errno", 4095, &v);
		e->err = (int)v;
		rd_u64(rd, x, "read", &e->ios[0]);
		rd_u64(rd, x, "write", &e->ios[1]);
		rd_leave(rd, k);
		r->nerrnos = (unsigned)i + 1;
	}
	rd_leave(rd, m);
}

json_t *result_json_ioprio(const struct job *j)
{
	char b[16];

	return j->ioprio_class ? json_string(job_ioprio_name(j, b, sizeof(b))) : json_null();
}

void result_json_read_ioprio(struct rd *rd, const json_t *p, struct job *j)
{
	json_t *v = json_object_get(p, "ioprio");
	const char *why;

	if (v && !json_is_null(v) &&
	    (!json_is_string(v) || job_parse_ioprio(j, json_string_value(v), &why)))
		rd_fail(rd, "ioprio", "not null or CLASS:LEVEL (rt, be, idle; 0 to 7)");
}

/* params.cmdprio: null, or each of its options as it is written ("" where not given). */
json_t *result_json_cmdprio(const struct job *j, int *err)
{
	static const char *const keys[] = {"share", "class", "split"};
	char b[3 * 24 * JOB_MAX_BS];
	json_t *o;

	if (!j->cmdprio.on)
		return json_null();
	o = json_object();
	for (int i = 0; i < 3; i++)
		put(o, keys[i], json_string(job_cmdprio_str(j, i, b, sizeof(b))), err);
	return o;
}

void result_json_read_cmdprio(struct rd *rd, const json_t *p, struct job *j)
{
	static const char *const keys[] = {"share", "class", "split"};
	int (*parse[])(struct job *, const char *, const char **) = {
		job_parse_cmdprio, job_parse_cmdprio_class, job_parse_cmdprio_split};
	json_t *o = json_object_get(p, "cmdprio"), *v;
	const char *why;

	if (!o || json_is_null(o))
		return;
	for (int i = 0; i < 3; i++) {
		v = json_object_get(o, keys[i]);
		if (!json_is_string(v) ||
		    (json_string_value(v)[0] && parse[i](j, json_string_value(v), &why)))
			rd_fail(rd, "cmdprio", "not null or an object of share, class and split, "
				"each a string as the job's per-I/O priorities write it");
	}
	j->cmdprio.on = true;
}

json_t *result_json_data(const struct job *j, int *err)
{
	json_t *o = json_object();
	char hex[2 * JOB_MAX_PATTERN + 3];

	put(o, "compress", json_integer(j->compress_pct), err);
	put(o, "compress_chunk", result_json_u64(j->compress_chunk), err);
	put(o, "dedupe", json_integer(j->dedupe_pct), err);
	put(o, "dedupe_set", json_integer(j->dedupe_set_pct), err);
	put(o, "dedupe_global", json_boolean(j->dedupe_global), err);
	put(o, "pattern", j->data_len ? json_string(job_pattern_hex(j, hex, sizeof(hex))) :
		json_null(), err);
	put(o, "refill", json_boolean(j->refill), err);
	put(o, "scramble", json_boolean(j->scramble), err);
	return o;
}

void result_json_read_data(struct rd *rd, const json_t *p, struct job *j)
{
	json_t *o = json_object_get(p, "data"), *pat;
	const char *why;
	size_t m;

	if (!o)
		return;
	m = rd_enter(rd, "data", 0);
	rd_uint(rd, o, "compress", 100, &j->compress_pct);
	rd_u64(rd, o, "compress_chunk", &j->compress_chunk);
	rd_uint(rd, o, "dedupe", 100, &j->dedupe_pct);
	rd_uint(rd, o, "dedupe_set", 100, &j->dedupe_set_pct);
	rd_bool(rd, o, "dedupe_global", &j->dedupe_global);
	pat = rd_get(rd, o, "pattern");
	if (pat && !json_is_null(pat) && (!json_is_string(pat) || strncmp(json_string_value(pat),
	    "0x", 2) || job_parse_pattern(j, json_string_value(pat), &why)))
		rd_fail(rd, "pattern", "not null or 0xHEX");
	rd_bool(rd, o, "refill", &j->refill);
	rd_bool(rd, o, "scramble", &j->scramble);
	rd_leave(rd, m);
}

json_t *result_json_steady(const struct job *j, int *err)
{
	json_t *o;
	char b[48];

	if (!j->steady)
		return json_null();
	o = json_object();
	put(o, "criterion", json_string(job_steady_name(j, b, sizeof(b))), err);
	put(o, "duration_ns", result_json_u64(j->steady_dur_ns), err);
	put(o, "ramp_ns", result_json_u64(j->steady_ramp_ns), err);
	put(o, "interval_ns", result_json_u64(j->steady_interval_ns), err);
	return o;
}

void result_json_read_steady(struct rd *rd, const json_t *p, struct job *j)
{
	json_t *o = json_object_get(p, "steady"), *c;
	const char *why;
	size_t m;

	if (!o || json_is_null(o))
		return;
	m = rd_enter(rd, "steady", 0);
	c = rd_get(rd, o, "criterion");
	if (c && (!json_is_string(c) || job_parse_steady(j, json_string_value(c), &why)))
		rd_fail(rd, "criterion", "not CRITERION:LIMIT (iops, iops_slope, bw, bw_slope)");
	rd_u64(rd, o, "duration_ns", &j->steady_dur_ns);
	rd_u64(rd, o, "ramp_ns", &j->steady_ramp_ns);
	rd_u64(rd, o, "interval_ns", &j->steady_interval_ns);
	rd_leave(rd, m);
}
