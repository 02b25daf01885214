/*
 * How a fio job ends, and what it goes on after: exitall with exit_what (fio ends others when
 * any job of the run has exitall, each by its own exit_what), continue_on_error and
 * ignore_error; steadystate with its window; flow control between jobs (flow, flow_id,
 * flow_sleep); and prio and prioclass, the I/O priority of its threads. fio_job.c calls fio_ends_emit() for every job.
 */
#include <string.h>

#include "compat/fio.h"
#include "core/job.h"
#include "util/parse.h"

static int emit_exit(struct fio_emit *e, const struct fio_opts *o)
{
	static const char *const why[] = {
		("when it ends, the jobs of its reporting group end (fio's groupid: new_group and "
		 "stonewall start one)"),
		"when it ends, every running job ends (its run group); the next group still runs",
		"when it ends, every job ends and no later group starts",
	};
	const struct fio_line *l = o->src[FO_EXITALL] ? o->src[FO_EXITALL] : o->src[FO_EXIT_WHAT];
	const char *deflt = l ? NULL : "exitall (another job's: fio applies it to every job)";
	int r;

	if (!o->exitall_run)
		return o->src[FO_EXIT_WHAT] && !o->exitall_error
			       ? fio_note(e, o->src[FO_EXIT_WHAT], NULL, "no job has exitall",
					  "(no effect)") : 0;
	if ((r = fio_set(e, l, deflt, "exit-all", o->exit_what == 2 ? "all" : "group", "%s",
			 why[o->exit_what])))
		return r;
	/* fio's "group" is its reporting group, which new_group narrows: no option says so. */
	e->j->report_group = o->report_group;
	if (o->exit_what == 0)
		e->j->exit_what = EXIT_REPORT_GROUP;
	if (o->src[FO_EXIT_WHAT] && o->src[FO_EXIT_WHAT] != l)
		r = fio_note(e, o->src[FO_EXIT_WHAT], NULL, NULL, "(with exitall)");
	return r;
}

/* exitall_on_error: the job's failure ends the jobs its exit_what names, as fio's does. */
static int emit_exit_error(struct fio_emit *e, const struct fio_opts *o)
{
	static const char *const why[] = {
		"when it fails, the jobs of its reporting group end",
		"when it fails, every running job ends (its run group)",
		"when it fails, every job ends and no later group starts",
	};
	int r;

	if (!o->exitall_error)
		return 0;
	if ((r = fio_set(e, o->src[FO_EXITALL_ERROR], NULL, "exit-on-error",
			 o->exit_what == 2 ? "all" : "group", "%s", why[o->exit_what])))
		return r;
	e->j->report_group = o->report_group;
	if (o->exit_what == 0)
		e->j->exit_error = EXIT_REPORT_GROUP;
	return 0;
}

static int emit_errors(struct fio_emit *e, const struct fio_opts *o)
{
	const struct fio_line *c = o->src[FO_CONTINUE], *ig = o->src[FO_IGNORE_ERROR];
	struct job probe = {0};
	const char *why;
	int r = 0;

	if (c)
		r = fio_set(e, c, NULL, "continue-on-error", o->continue_on, "%s",
			    "failed I/Os of these kinds are counted by errno, and the job goes on");
	if (r || !ig)
		return r;
	/* ignore_error only narrows what continue_on_error lets a read or write go on after. */
	if (!o->continue_on || job_parse_continue(&probe, o->continue_on, &why) ||
	    !(probe.continue_on & (JOB_CONT_READ | JOB_CONT_WRITE)))
		return fio_note(e, ig, NULL, "of no effect without continue_on_error=read, write, "
				"io or all", "(no effect)");
	return fio_set(e, ig, NULL, "ignore-error", o->ignore_error, "%s",
		       "these errnos, not EIO and EILSEQ; a third list (verify) changes nothing: "
		       "iorate goes on after a bad block and reports every one");
}

/* fio sets both when either is given; a class of 0 is best effort (its ioprio_set()). */
static int emit_prio(struct fio_emit *e, const struct fio_opts *o)
{
	static const char *const classes[] = {"be", "rt", "be", "idle"};
	const struct fio_line *c = o->src[FO_PRIOCLASS], *p = o->src[FO_PRIO];
	char v[16];
	int r;

	if (!c && !p)
		return 0;
	snprintf(v, sizeof(v), "%s:%u", classes[o->prioclass & 3], o->prio);
	if ((r = fio_set(e, c ? c : p, NULL, "ioprio", v, "%s", "the I/O priority of the job's "
			 "thread (ioprio_set); fio's default level is 0, its default class best "
			 "effort")))
		return r;
	return c && p ? fio_note(e, p, NULL, NULL, "(with prioclass)") : 0;
}

/* The options first..last of the job that were given, each noted as of no effect (why). */
static int no_effect(struct fio_emit *e, const struct fio_opts *o, unsigned first,
		     unsigned last, const char *why)
{
	int r = 0;

	for (unsigned id = first; !r && id <= last; id++)
		if (o->src[id])
			r = fio_note(e, o->src[id], NULL, why, "(no effect)");
	return r;
}

/* flow with flow_id and flow_sleep: a weight of 0 (fio's default) is no flow control. */
static int emit_flow(struct fio_emit *e, const struct fio_opts *o)
{
	char v[32];
	int r;

	if (!o->flow)
		return no_effect(e, o, FO_FLOW, FO_FLOW_SLEEP, "without a flow weight");
	snprintf(v, sizeof(v), "%u", o->flow);
	if ((r = fio_set(e, o->src[FO_FLOW], NULL, "flow", v, "%s", "the job's threads issue "
			 "I/Os in proportion to their weights among the threads of its flow id")))
		return r;
	snprintf(v, sizeof(v), "%u", o->flow_id);
	if (o->flow_id && (r = fio_set(e, o->src[FO_FLOW_ID], NULL, "flow-id", v, NULL)))
		return r;
	if (o->flow_sleep_ns)
		return fio_set(e, o->src[FO_FLOW_SLEEP], NULL, "flow-sleep",
			       duration_str(o->flow_sleep_ns, v, sizeof(v)), NULL);
	return 0;
}

/*
 * fio's class numbers (1 rt, 2 be, 3 idle) into iorate's names: "N" or "N,N" of a class list,
 * "BS/PCT/N/LEVEL" entries of a bssplit. NULL when a class is not 1 to 3.
 */
static const char *class_name(const char *s, size_t n)
{
	return n == 1 && *s >= '1' && *s <= '3' ? job_ioprio_classes[*s - '0'] : NULL;
}

/* cmdprio_class with cmdprio: CLASS:LEVEL per direction; fio's defaults are rt (its highest
 * class) and level 0. Returns NULL when a class is not 1..3. */
static const char *prio_classes(const struct fio_opts *o, char *buf, size_t len)
{
	const char *c = o->cmdprio_class ? o->cmdprio_class : "1";
	const char *l = o->cmdprio_level ? o->cmdprio_level : "0";
	const char *cc = strchr(c, ','), *lc = strchr(l, ',');
	const char *c1 = cc ? cc + 1 : c, *l1 = lc ? lc + 1 : l;
	const char *n0 = class_name(c, cc ? (size_t)(cc - c) : strlen(c));
	const char *n1 = class_name(c1, strlen(c1));

	if (!n0 || !n1)
		return NULL;
	snprintf(buf, len, "%s:%.*s,%s:%s", n0, (int)(lc ? lc - l : (int)strlen(l)), l, n1, l1);
	return buf;
}

/*
 * cmdprio_bssplit: a class number of "BS/PCT/CLASS/LEVEL" entries becomes its name. fio 3.33
 * reads four fields and ignores what follows (later fio's priority hint): so does this, and
 * *hint says it did.
 */
static const char *prio_split(const char *s, char *buf, size_t len, bool *hint)
{
	size_t at = 0;

	*hint = false;
	while (*s && at + 8 < len) {
		const char *end = s + strcspn(s, ":,"), *p = s;
		unsigned slashes = 0;
		for (; p < end && slashes < 2; p++)
			slashes += *p == '/';
		if (slashes == 2 && p < end) {
			const char *lv = memchr(p, '/', (size_t)(end - p));
			const char *name = class_name(p, (size_t)((lv ? lv : end) - p));
			const char *cut = lv ? memchr(lv + 1, '/', (size_t)(end - lv - 1)) : NULL;
			if (!name)
				return NULL;
			*hint |= cut != NULL;
			cut = cut ? cut : end;
			at += (size_t)snprintf(buf + at, len - at, "%.*s%s%.*s", (int)(p - s), s,
					       name, (int)(cut - (lv ? lv : cut)), lv ? lv : cut);
		} else {
			at += (size_t)snprintf(buf + at, len - at, "%.*s", (int)(end - s), s);
		}
		if (*end && at + 1 < len)
			buf[at++] = *end;
		s = *end ? end + 1 : end;
	}
	/* What did not fit is not dropped in silence: the whole option is refused. */
	if (*s || at >= len)
		return NULL;
	buf[at] = '\0';
	return buf;
}

/* pvsync2's hipri, uncached and nowait: the flags of each I/O, for that engine only. */
static int emit_rwf(struct fio_emit *e, const struct fio_opts *o)
{
	const struct fio_line *h = o->src[FO_HIPRI], *p = o->src[FO_HIPRI_PCT];
	const struct fio_line *u = o->src[FO_UNCACHED], *n = o->src[FO_NOWAIT];
	const struct fio_line *set = o->hipri ? h : o->uncached ? u : o->nowait ? n : NULL;
	int r = 0;

	if (set && strcmp(o->engine, "pvsync2"))
		return fio_emit_fail(e, set, NULL, "iorate passes this flag to the kernel with "
				     "ioengine=pvsync2 only, not %s", o->engine);
	if (o->hipri && o->hipri_pct != 100)
		return fio_emit_fail(e, p, NULL, "iorate sets RWF_HIPRI on every I/O (100) or on "
				     "none");
	if (p && !o->hipri && (r = fio_note(e, p, NULL, "without hipri", "(no effect)")))
		return r;
	if (o->hipri && (r = fio_set(e, h, NULL, "hipri", NULL, "each I/O carries RWF_HIPRI")))
		return r;
	if (o->uncached && o->direct)
		r = fio_note(e, u, NULL, "fio sets RWF_UNCACHED on buffered I/O only, and this job "
			     "is direct", "(no effect)");
	else if (o->uncached)
		r = fio_set(e, u, NULL, "dontcache", NULL, "each I/O carries RWF_DONTCACHE, the "
			    "kernel's name for fio's RWF_UNCACHED");
	if (!r && o->nowait)
		r = fio_set(e, n, NULL, "nowait", NULL, "each I/O carries RWF_NOWAIT: one that "
			    "would block fails with EAGAIN");
	return r;
}

/* cmdprio_percentage or cmdprio_bssplit, with cmdprio_class and cmdprio; sqthread_poll. */
static int emit_cmdprio(struct fio_emit *e, const struct fio_opts *o)
{
	const struct fio_line *cl = o->src[FO_CMDPRIO_CLASS] ? o->src[FO_CMDPRIO_CLASS]
							   : o->src[FO_CMDPRIO_LEVEL];
	char v[1024];
	bool hint;
	int r = 0;

	if (o->sqpoll && (r = fio_set(e, o->src[FO_SQPOLL], NULL, "sqpoll", NULL, "%s",
				      "io_uring's kernel thread takes the I/Os as they are queued")))
		return r;
	if (o->atomic && (r = fio_set(e, o->src[FO_ATOMIC], NULL, "atomic", NULL, "%s",
				      "writes carry RWF_ATOMIC (fio newer than 3.33)")))
		return r;
	if (!o->cmdprio_pct && !o->cmdprio_split)
		return no_effect(e, o, FO_CMDPRIO_CLASS, FO_CMDPRIO_LEVEL,
				 "without cmdprio_percentage or cmdprio_bssplit");
	if (o->cmdprio_split) {
		if (!prio_split(o->cmdprio_split, v, sizeof(v), &hint))
			return fio_emit_fail(e, o->src[FO_CMDPRIO_SPLIT], NULL, "cmdprio_bssplit: "
					     "a class is 1 (rt), 2 (be) or 3 (idle), and at most 16 "
					     "entries a direction");
		r = fio_set(e, o->src[FO_CMDPRIO_SPLIT], NULL, "cmdprio-split", v, "%s",
			    hint ? "that share of each I/O size carries its own priority; a fifth "
			    "field (a priority hint of later fio) is ignored, as fio 3.33 ignores it"
			    : "that share of each I/O size carries its own priority");
	} else {
		r = fio_set(e, o->src[FO_CMDPRIO_PCT], NULL, "cmdprio", o->cmdprio_pct, "%s",
			    "that share of reads, writes carries its own priority");
	}
	if (r || !cl)
		return r;
	if (!prio_classes(o, v, sizeof(v)))
		return fio_emit_fail(e, cl, NULL, "cmdprio_class: a class is 1 (rt), 2 (be) or 3 "
				     "(idle)");
	if ((r = fio_set(e, cl, NULL, "cmdprio-class", v, "%s", "fio's classes 1, 2, 3 are rt, be, "
			 "idle; its level cmdprio, 0 when not given")))
		return r;
	return cl != o->src[FO_CMDPRIO_LEVEL] && o->src[FO_CMDPRIO_LEVEL]
		       ? fio_note(e, o->src[FO_CMDPRIO_LEVEL], NULL, NULL, "(with cmdprio_class)")
		       : 0;
}

/* latency_target with latency_window, latency_percentile (its first value) and latency_run. */
static int emit_lat_target(struct fio_emit *e, const struct fio_opts *o)
{
	char v[64];
	int r;

	if (!o->lat_target_ns)
		return no_effect(e, o, FO_LAT_WINDOW, FO_LAT_RUN, "without latency_target");
	if ((r = fio_set(e, o->src[FO_LAT_TARGET], NULL, "latency-target",
			 duration_str(o->lat_target_ns, v, sizeof(v)), "%s", "each thread searches for the "
			 "deepest queue whose I/Os keep within it, as fio's")))
		return r;
	if (o->lat_window_ns && (r = fio_set(e, o->src[FO_LAT_WINDOW], NULL, "latency-window",
					     duration_str(o->lat_window_ns, v, sizeof(v)), NULL)))
		return r;
	if (o->lat_pct) {
		/* fio reads a list of floats and uses the first. */
		snprintf(v, sizeof(v), "%.*s", (int)strcspn(o->lat_pct, ":"), o->lat_pct);
		if ((r = fio_set(e, o->src[FO_LAT_PCT], NULL, "latency-percentile", v, NULL)))
			return r;
	}
	return o->lat_run ? fio_set(e, o->src[FO_LAT_RUN], NULL, "latency-run", NULL, NULL) : 0;
}

/* steadystate with ss_dur (fio: none without it), ss_ramp and ss_interval. */
static int emit_steady(struct fio_emit *e, const struct fio_opts *o)
{
	const struct fio_line *l = o->src[FO_SS];
	char v[32];
	int r = 0;

	if (!o->ss || !o->ss_dur_ns)
		return no_effect(e, o, FO_SS, FO_SS_INTERVAL,
				 o->ss ? "without ss_dur" : "without steadystate");
	if ((r = fio_set(e, l, NULL, "steady", o->ss, "%s", "the job ends once its rate holds "
			 "steady over the window; per job (fio judges a group_reporting group's "
			 "jobs together)")) ||
	    (r = fio_set(e, o->src[FO_SS_DUR], NULL, "steady-time", duration_str(o->ss_dur_ns, v,
			 sizeof(v)), NULL)))
		return r;
	if (o->ss_ramp_ns && (r = fio_set(e, o->src[FO_SS_RAMP], NULL, "steady-ramp",
					  duration_str(o->ss_ramp_ns, v, sizeof(v)), NULL)))
		return r;
	if (o->ss_interval_ns)
		return fio_set(e, o->src[FO_SS_INTERVAL], NULL, "steady-interval",
			       duration_str(o->ss_interval_ns, v, sizeof(v)), NULL);
	return 0;
}

int fio_ends_emit(struct fio_emit *e, const struct fio_opts *o)
{
	int r = emit_exit(e, o);

	if (!r)
		r = emit_exit_error(e, o);
	if (!r)
		r = emit_errors(e, o);
	if (!r)
		r = emit_steady(e, o);
	if (!r)
		r = emit_flow(e, o);
	if (!r)
		r = emit_cmdprio(e, o);
	if (!r)
		r = emit_rwf(e, o);
	if (!r)
		r = emit_lat_target(e, o);
	return r ? r : emit_prio(e, o);
}
