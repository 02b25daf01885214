/*
 * The parameters two stored runs differ in, for 'iorate history compare'. They are found by
 * walking the JSON both runs produce (result_to_json(): the host, the iorate version and the
 * job's whole `params`, shape, caps and targets included), so a field added to the result is
 * compared without new code here; the table below only names each field by the option that
 * sets it and says how to print its value. A field it does not know is named by its JSON path.
 */
#include "report/history_fmt.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/history_int.h"
#include "result/result_json.h"
#include "util/jsonout.h"
#include "util/parse.h"

/*
 * How a value is printed. Two values that differ and print alike anyway (reals beyond ten
 * digits) are printed again exactly, so no change can hide in the rounding.
 */
enum kind {
	K_JSON,         /* compact JSON */
	K_BYTES,        /* 4096 -> "4KiB", 1536 -> "1536B" */
	K_NS,           /* nanoseconds -> "30s", "250ms", "1500us" */
	K_NS_AUTO,      /* the same, where 0 means iorate chooses: "auto" */
	K_CAP,          /* a rate where 0 means none: "off" */
	K_MBPS,         /* MB/s where 0 means none: "104.8576 MB/s (100 MiB/s)", "off" */
	K_PCT,          /* "30%" */
	K_MIX,          /* a block-size mix: "4KiB/70:64KiB/30" ("-": none) */
};

/* A field by its JSON path (array indices left out), the option that sets it, and its form. */
static const struct param_name {
	const char *key;
	const char *opt;     /* an option of 'iorate run', or NULL when none sets it */
	const char *label;   /* when not "--" + opt */
	enum kind kind;
} names[] = {
	{.key = "host.hostname", .label = "host"},
	{.key = "host.kernel", .label = "kernel"},
	{.key = "host.cpu", .label = "cpu"},
	{.key = "host.ncpus", .label = "CPUs"},
	{.key = "host.mem_bytes", .label = "memory", .kind = K_BYTES},
	{.key = "host.clock", .label = "clock"},
	{.key = "version", .label = "iorate version"},
	{.key = "origin", .label = "made by"},
	{.key = "params.bs", .opt = "bs", .kind = K_BYTES},
	{.key = "params.time_ns", .opt = "time", .kind = K_NS},
	{.key = "params.warmup_ns", .opt = "warmup", .kind = K_NS},
	{.key = "params.cooldown_ns", .opt = "cooldown", .kind = K_NS},
	{.key = "params.interval_ns", .opt = "interval", .kind = K_NS_AUTO},
	{.key = "params.threads", .opt = "threads"},
	{.key = "params.depth", .opt = "depth"},
	{.key = "params.write", .opt = "write", .kind = K_PCT},
	{.key = "params.pattern", .opt = "sequential", .label = "--random/--sequential"},
	{.key = "params.cache", .opt = "cache"},
	{.key = "params.engine", .opt = "engine"},
	{.key = "params.size", .opt = "size", .kind = K_BYTES},
	{.key = "params.offset", .opt = "offset", .kind = K_BYTES},
	{.key = "params.range", .opt = "range", .kind = K_BYTES},
	{.key = "params.align", .opt = "align", .kind = K_BYTES},
	{.key = "params.fsync_every", .opt = "fsync"},
	{.key = "params.seed", .opt = "seed"},
	{.key = "params.fill", .opt = "fill"},
	{.key = "params.rate_iops", .opt = "rate-iops", .kind = K_CAP},
	{.key = "params.arrival", .opt = "arrival"},
	{.key = "params.batch", .opt = "batch"},
	{.key = "params.cap_io_unit", .opt = "cap-io-unit", .kind = K_BYTES},
	{.key = "params.emulate", .opt = "emulate"},
	{.key = "params.name", .opt = "job-name"},
	{.key = "params.group", .opt = "stonewall", .label = "group (--stonewall)"},
	{.key = "params.shape.startdelay_ns", .opt = "start-delay", .kind = K_NS},
	{.key = "params.shape.bs_read", .opt = "bssplit", .label = "--bssplit (reads)",
	 .kind = K_MIX},
	{.key = "params.shape.bs_write", .opt = "bssplit", .label = "--bssplit (writes)",
	 .kind = K_MIX},
	{.key = "params.shape.dist", .opt = "distribution"},
	{.key = "params.shape.dist_param", .opt = "distribution",
	 .label = "--distribution (parameter)"},
	{.key = "params.shape.zones", .opt = "distribution", .label = "--distribution (zones)"},
	{.key = "params.shape.sequence", .opt = "distribution",
	 .label = "--distribution (sequence)"},
	{.key = "params.shape.sequence_stride", .opt = "sequence-stride"},
	{.key = "params.shape.random_pct", .opt = "random-pct", .kind = K_PCT},
	{.key = "params.shape.skip", .opt = "gap", .kind = K_BYTES},
	{.key = "params.shape.rewind", .opt = "gap", .label = "--gap (backwards)",
	 .kind = K_BYTES},
	{.key = "params.shape.zone_size", .opt = "zone-size", .kind = K_BYTES},
	{.key = "params.shape.zone_range", .opt = "zone-range", .kind = K_BYTES},
	{.key = "params.shape.zone_skip", .opt = "zone-skip", .kind = K_BYTES},
	{.key = "params.shape.until_full", .opt = "until-full"},
	{.key = "params.shape.zbd", .opt = "zbd"},
	{.key = "params.shape.sprandom", .opt = "sprandom"},
	{.key = "params.shape.sprandom.op", .opt = "spr-op"},
	{.key = "params.shape.sprandom.regions", .opt = "spr-num-regions"},
	{.key = "params.shape.sprandom.cache", .opt = "spr-cs", .kind = K_BYTES},
	{.key = "params.shape.zbd.zone_capacity", .opt = "zone-capacity", .kind = K_BYTES},
	{.key = "params.shape.zbd.max_open_zones", .opt = "max-open-zones"},
	{.key = "params.shape.zbd.job_max_open_zones", .opt = "job-max-open-zones"},
	{.key = "params.shape.zbd.zone_reset_threshold", .opt = "zone-reset-threshold"},
	{.key = "params.shape.zbd.zone_reset_frequency", .opt = "zone-reset-frequency"},
	{.key = "params.shape.zbd.read_beyond_wp", .opt = "read-beyond-wp"},
	{.key = "params.shape.seq_per_thread", .opt = "seq-threads",
	 .label = "--seq-threads each"},
	{.key = "params.shape.thread_stride", .opt = "thread-stride", .kind = K_BYTES},
	{.key = "params.shape.io_bytes", .opt = "io-size", .kind = K_BYTES},
	{.key = "params.shape.thinktime_ns", .opt = "thinktime", .kind = K_NS},
	{.key = "params.shape.thinktime_blocks", .opt = "thinktime-blocks"},
	{.key = "params.shape.flow", .opt = "flow"},
	{.key = "params.shape.flow_id", .opt = "flow-id"},
	{.key = "params.shape.flow_sleep_ns", .opt = "flow-sleep", .kind = K_NS},
	{.key = "params.shape.fdatasync_every", .opt = "fdatasync"},
	{.key = "params.shape.end_fsync", .opt = "end-fsync"},
	{.key = "params.shape.invalidate", .opt = "no-invalidate",
	 .label = "page cache dropped first (--no-invalidate)"},
	{.key = "params.shape.shared_threads", .opt = "shared-threads"},
	{.key = "params.shape.file_service", .opt = "file-service"},
	{.key = "params.shape.file_service_n", .opt = "file-service",
	 .label = "--file-service (N)"},
	{.key = "params.shape.verify", .opt = "verify-sum", .label = "--verify/--verify-sum"},
	{.key = "params.shape.verify_block", .opt = "verify-block", .kind = K_BYTES},
	{.key = "params.ends.exit", .opt = "exit-all"},
	{.key = "params.ends.exit_on_error", .opt = "exit-on-error"},
	{.key = "params.ends.report_group", .opt = "exit-all",
	 .label = "--exit-all (fio's reporting group)"},
	{.key = "params.ends.group_reporting", .label = "fio's group_reporting"},
	{.key = "params.ends.continue_on_error", .opt = "continue-on-error"},
	{.key = "params.ends.ignore_error", .opt = "ignore-error"},
	{.key = "params.ioprio", .opt = "ioprio"},
	{.key = "params.cmdprio", .opt = "cmdprio", .label = "priorities per I/O (--cmdprio)"},
	{.key = "params.cmdprio.share", .opt = "cmdprio"},
	{.key = "params.cmdprio.class", .opt = "cmdprio-class"},
	{.key = "params.cmdprio.split", .opt = "cmdprio-split"},
	{.key = "params.sqpoll", .opt = "sqpoll"},
	{.key = "params.atomic", .opt = "atomic"},
	{.key = "params.hipri", .opt = "hipri"}, {.key = "params.nowait", .opt = "nowait"},
	{.key = "params.dontcache", .opt = "dontcache"},
	{.key = "params.latency_target", .opt = "latency-target",
	 .label = "--latency-target and its window"},
	{.key = "params.latency_target.target_ns", .opt = "latency-target", .kind = K_NS},
	{.key = "params.latency_target.window_ns", .opt = "latency-window", .kind = K_NS},
	{.key = "params.latency_target.percentile", .opt = "latency-percentile"},
	{.key = "params.latency_target.run", .opt = "latency-run"},
	{.key = "params.steady", .opt = "steady", .label = "--steady and its window"},
	{.key = "params.data.compress", .opt = "compress", .kind = K_PCT},
	{.key = "params.data.compress_chunk", .opt = "compress-chunk", .kind = K_BYTES},
	{.key = "params.data.dedupe", .opt = "dedupe", .kind = K_PCT},
	{.key = "params.data.dedupe_set", .opt = "dedupe-set", .kind = K_PCT},
	{.key = "params.data.dedupe_global", .opt = "dedupe-global"},
	{.key = "params.data.pattern", .opt = "data-pattern"},
	{.key = "params.data.refill", .opt = "refill"},
	{.key = "params.data.scramble", .opt = "scramble"},
	{.key = "params.cap.iops", .opt = "cap-iops", .kind = K_CAP},
	{.key = "params.cap.mbps", .opt = "cap-mbps", .label = "--cap-mbps/--cap-mibps",
	 .kind = K_MBPS},
	{.key = "params.cap.burst_iops", .opt = "burst-iops", .kind = K_CAP},
	{.key = "params.cap.burst_mbps", .opt = "burst-mbps", .kind = K_MBPS},
	{.key = "params.cap.burst_seconds", .opt = "burst-seconds", .kind = K_CAP},
	{.key = "params.vm_cap.iops", .opt = "vm-cap-iops", .kind = K_CAP},
	{.key = "params.vm_cap.mbps", .opt = "vm-cap-mbps", .label = "--vm-cap-mbps/--vm-cap-mibps",
	 .kind = K_MBPS},
	{.key = "params.vm_cap.burst_iops", .opt = "vm-burst-iops", .kind = K_CAP},
	{.key = "params.vm_cap.burst_mbps", .opt = "vm-burst-mbps", .kind = K_MBPS},
	{.key = "params.vm_cap.burst_seconds", .opt = "vm-burst-seconds", .kind = K_CAP},
	{.key = "params.keep", .opt = "keep"},
	{.key = "params.allow_write_device", .opt = "allow-write-device"},
	{.key = "params.force", .opt = "force"},
	{.key = "params.no_latency", .opt = "no-latency"},
	{.key = "params.verbose", .label = "verbose"},   /* set by no option of iorate run */
	{.key = "params.ios_per_thread", .opt = "ios"},
	{.key = "params.trace", .opt = "trace"},
	{.key = "params.targets", .label = "targets"},
	{.key = "targets", .label = "target"},
	{.key = "targets.opened", .label = "opened"},
	{.key = "targets.device", .label = "device"},
	{.key = "targets.blockdev", .label = "block device"},
	{.key = "targets.created", .label = "created by iorate"},
	{.key = "targets.size", .label = "size", .kind = K_BYTES},
	{.key = "targets.region_offset", .label = "region start", .kind = K_BYTES},
	{.key = "targets.region_len", .label = "region length", .kind = K_BYTES},
};

/* key with its array indices left out: "targets[1].device" -> "targets.device". */
static const struct param_name *name_of(const char *key)
{
	char bare[256];
	size_t n = 0;

	for (const char *p = key; *p && n + 1 < sizeof(bare); p++) {
		if (*p == '[')
			while (*p && *p != ']')
				p++;
		else
			bare[n++] = *p;
		if (!*p)
			break;
	}
	bare[n] = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(names[i].key, bare))
			return &names[i];
	return NULL;
}

const char *report_history_option(const char *key, const char **label)
{
	const struct param_name *p = name_of(key);

	if (label)
		*label = p ? p->label : NULL;
	return p ? p->opt : NULL;
}

/* A real to ten digits, or exactly (the fewest digits that read back), without a ".0". */
static void fmt_real(double v, bool exact, char *buf, size_t len)
{
	size_t n;

	if (!exact) {
		snprintf(buf, len, "%.10g", v);
		return;
	}
	jsonout_real(v, buf, len);
	n = strlen(buf);
	if (n > 2 && !strcmp(buf + n - 2, ".0"))
		buf[n - 2] = 0;
}

/* MB/s, and in MiB/s when that is a whole number (--cap-mibps 100 is 104.8576 MB/s). */
static void fmt_mbps(double v, bool exact, char *buf, size_t len)
{
	double mib = v / 1.048576;
	size_t n;

	fmt_real(v, exact, buf, len);
	n = strlen(buf);
	snprintf(buf + n, len - n, " MB/s");
	n = strlen(buf);
	if (mib >= 1 && fabs(mib - round(mib)) < 1e-6 * mib && fabs(mib - round(v)) >= 0.5)
		snprintf(buf + n, len - n, " (%.0f MiB/s)", round(mib));
}

static uint64_t u64_of(const json_t *v)
{
	return json_is_string(v) ? strtoull(json_string_value(v), NULL, 10)
				 : (uint64_t)json_integer_value(v);
}

/* [[bytes, percent], ...] as --bssplit writes it. */
static void fmt_mix(const json_t *v, char *buf, size_t len)
{
	size_t i, n = 0;
	json_t *e;

	buf[0] = 0;
	if (!json_array_size(v)) {
		snprintf(buf, len, "-");
		return;
	}
	json_array_foreach(v, i, e) {
		char s[32];

		fmt_size(u64_of(json_array_get(e, 0)), s, sizeof(s));
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s/%" JSON_INTEGER_FORMAT,
				      i ? ":" : "", s, json_integer_value(json_array_get(e, 1)));
		if (n >= len)
			return;
	}
}

/* v as the kind says (exact: reals to the last digit); another type than the kind's as JSON. */
static void fmt_value(const json_t *v, enum kind k, bool exact, char *buf, size_t len)
{
	bool number = json_is_number(v), bytes_ns = k == K_BYTES || k == K_NS || k == K_NS_AUTO;
	char *s;

	if (!v || json_is_null(v)) {
		snprintf(buf, len, "-");
	} else if (json_is_boolean(v)) {
		snprintf(buf, len, "%s", json_is_true(v) ? "yes" : "no");
	} else if (json_is_string(v) && !bytes_ns) {
		snprintf(buf, len, "%s", json_string_value(v));
	} else if (k == K_MIX && json_is_array(v)) {
		fmt_mix(v, buf, len);
	} else if (number && (k == K_CAP || k == K_MBPS) && json_number_value(v) == 0) {
		snprintf(buf, len, "off");
	} else if (number && k == K_NS_AUTO && json_number_value(v) == 0) {
		snprintf(buf, len, "auto");
	} else if (number && k == K_MBPS) {
		fmt_mbps(json_number_value(v), exact, buf, len);
	} else if (json_is_real(v)) {
		fmt_real(json_real_value(v), exact, buf, len);
		if (k == K_PCT)
			strncat(buf, "%", len - strlen(buf) - 1);
	} else if ((json_is_integer(v) || json_is_string(v)) && bytes_ns) {
		if (k == K_BYTES)
			fmt_size(u64_of(v), buf, len);
		else
			duration_str(u64_of(v), buf, len);
	} else if (json_is_integer(v)) {
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT "%s", json_integer_value(v),
			 k == K_PCT ? "%" : "");
	} else {
		s = jsonout_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		snprintf(buf, len, "%s", s ? s : "?");
		free(s);
	}
}

/* Where the walk is: the text before each line, the job's number in changes (or null). */
struct walk {
	struct report_diff *d;
	const char *prefix;          /* "" or "job 2 (logs): " */
	json_t *job;
	int err;
};

static void add_line(struct walk *w, const char *line)
{
	if (json_array_append_new(w->d->text, result_json_str(line)))
		w->err = -ENOMEM;
}

static void add_change(struct walk *w, const char *key, const char *option, const json_t *a,
		       const json_t *b)
{
	json_t *c = json_pack("{s:O,s:s,s:o,s:O,s:O}", "job", w->job, "key", key, "option",
			      option ? json_string(option) : json_null(), "a", a ? a : json_null(),
			      "b", b ? b : json_null());

	if (!c || json_array_append_new(w->d->changes, c))
		w->err = -ENOMEM;
}

/*
 * "--cap-iops", "host", or the JSON path of a field the table does not name; a field of an
 * element of an array the table names is "target 2 device".
 */
static const char *label_of(const struct param_name *p, const char *key, char *buf, size_t len)
{
	const char *br = strchr(key, '[');
	char elem[160] = "", arr[128];

	if (br && p) {
		const struct param_name *q;

		snprintf(arr, sizeof(arr), "%.*s", (int)(br - key), key);
		if ((q = name_of(arr)) && q->label)
			snprintf(elem, sizeof(elem), "%s %lu ", q->label,
				 strtoul(br + 1, NULL, 10) + 1);
	}
	if (p && p->label)
		snprintf(buf, len, "%s%s", elem, p->label);
	else if (p && p->opt)
		snprintf(buf, len, "%s--%s", elem, p->opt);
	else
		snprintf(buf, len, "%s", key);
	return buf;
}

static void emit(struct walk *w, const char *key, const json_t *a, const json_t *b)
{
	const struct param_name *p = name_of(key);
	char label[160], va[512], vb[512], line[1400];

	label_of(p, key, label, sizeof(label));
	fmt_value(a, p ? p->kind : K_JSON, false, va, sizeof(va));
	fmt_value(b, p ? p->kind : K_JSON, false, vb, sizeof(vb));
	if (!strcmp(va, vb)) {
		fmt_value(a, p ? p->kind : K_JSON, true, va, sizeof(va));
		fmt_value(b, p ? p->kind : K_JSON, true, vb, sizeof(vb));
	}
	snprintf(line, sizeof(line), "%s%s: %s -> %s", w->prefix, label, va, vb);
	add_line(w, line);
	add_change(w, key, p && p->opt ? label : NULL, a, b);
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
		char sub[256], label[160], line[512];

		snprintf(sub, sizeof(sub), "%s[%zu]", key, i);
		if (i < na && i < nb) {
			walk_object(w, sub, json_array_get(a, i), json_array_get(b, i));
			continue;
		}
		/* The whole object is no use to a reader: the line says which run has it. */
		snprintf(line, sizeof(line), "%s%s %zu: only in run %lld", w->prefix,
			 label_of(name_of(key), key, label, sizeof(label)), i + 1,
			 (long long)(i < na ? w->d->ida : w->d->idb));
		add_line(w, line);
		add_change(w, sub, NULL, i < na ? json_array_get(a, i) : NULL,
			   i < nb ? json_array_get(b, i) : NULL);
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
		emit(w, key, a, b);
}

int report_history_diff_json(struct report_diff *d, const json_t *a, const json_t *b,
			     const char *prefix, unsigned job)
{
	struct walk w = {.d = d, .prefix = prefix ? prefix : "",
			 .job = job ? json_integer(job) : json_null()};

	walk_object(&w, "", a, b);
	json_decref(w.job);
	return w.err;
}

/*
 * What of a run's JSON describes how it ran rather than what it measured: for the run, its
 * host and iorate version; for a job, what made it, its params and its targets (without their
 * figures, and without the paths params.targets already holds).
 */
static json_t *facts_of(const struct result *r, bool job)
{
	static const char *const figures[] = {"path", "read", "write", "total", "kernel"};
	json_t *o = result_to_json(r), *f = json_object(), *t, *v;
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
 * seeds are compared only when one of the runs was given its seed, and a chosen one says so.
 */
static void seeds(json_t *fa, json_t *fb)
{
	json_t *pa = json_object_get(fa, "params"), *pb = json_object_get(fb, "params");
	bool given_a = json_is_true(json_object_get(pa, "seed_set"));
	bool given_b = json_is_true(json_object_get(pb, "seed_set"));

	for (int i = 0; i < 2; i++) {
		json_t *p = i ? pb : pa, *s = json_object_get(p, "seed");
		bool given = i ? given_b : given_a;
		char buf[64];

		if (!given && (given_a || given_b) && s) {
			snprintf(buf, sizeof(buf), "%" JSON_INTEGER_FORMAT " (chosen at random)",
				 json_integer_value(s));
			json_object_set_new(p, "seed", json_string(buf));
		} else if (!given_a && !given_b) {
			json_object_del(p, "seed");
		}
		json_object_del(p, "seed_set");
	}
}

/* "job 2 (logs): " in a run of several jobs. */
static const char *job_prefix(const struct result_set *s, unsigned i, char *buf, size_t len)
{
	const char *name = s->jobs[i].job.name;

	snprintf(buf, len, "job %u%s%.64s%s: ", i + 1, name ? " (" : "", name ? name : "",
		 name ? ")" : "");
	return buf;
}

static int diff_pair(struct report_diff *d, const struct result *a, const struct result *b,
		     bool job, const char *prefix, unsigned n)
{
	json_t *fa = facts_of(a, job), *fb = facts_of(b, job);
	int r = -ENOMEM;

	if (fa && fb) {
		if (job)
			seeds(fa, fb);
		r = report_history_diff_json(d, fa, fb, prefix, n);
	}
	json_decref(fa);
	json_decref(fb);
	return r;
}

/* The jobs' count, and a job only one run has. */
static int diff_jobs(struct report_diff *d, const struct result_set *a,
		     const struct result_set *b)
{
	struct walk w = {.d = d, .prefix = "", .job = json_null()};
	char line[256], pfx[128];

	if (a->njobs != b->njobs) {
		json_t *x = json_integer(a->njobs), *y = json_integer(b->njobs);

		snprintf(line, sizeof(line), "jobs: %u -> %u", a->njobs, b->njobs);
		add_line(&w, line);
		add_change(&w, "jobs", NULL, x, y);
		json_decref(x);
		json_decref(y);
	}
	for (unsigned i = 0; i < a->njobs || i < b->njobs; i++) {
		const struct result_set *s = i < a->njobs ? a : b;
		json_t *name, *job;

		if (i < a->njobs && i < b->njobs)
			continue;
		snprintf(line, sizeof(line), "%sonly in run %lld",
			 job_prefix(s, i, pfx, sizeof(pfx)), (long long)(s == a ? d->ida : d->idb));
		add_line(&w, line);
		name = s->jobs[i].job.name ? result_json_str(s->jobs[i].job.name) : json_true();
		job = json_integer(i + 1);
		json_decref(w.job);
		w.job = job;
		add_change(&w, "job", NULL, s == a ? name : NULL, s == b ? name : NULL);
		json_decref(name);
	}
	json_decref(w.job);
	return w.err;
}

int history_differences(const struct result_set *a, const struct result_set *b,
			struct report_diff *d)
{
	bool several = a->njobs > 1 || b->njobs > 1;
	char pfx[128] = "";
	int r;

	if ((r = diff_pair(d, &a->jobs[0], &b->jobs[0], false, "", 0)))
		return r;
	if ((r = diff_jobs(d, a, b)))
		return r;
	for (unsigned i = 0; i < a->njobs && i < b->njobs; i++) {
		if (several)
			job_prefix(a, i, pfx, sizeof(pfx));
		if ((r = diff_pair(d, &a->jobs[i], &b->jobs[i], true, pfx, several ? i + 1 : 0)))
			return r;
	}
	return 0;
}
