/*
 * The parameters two stored runs differ in, for 'iorate history compare', in words. What differs
 * is found by src/stats/diff.c (a walk of both runs' JSON, so a field added to the result is
 * compared without new code); the table below only names each field by the option that sets
 * it and says how to print its value. A field it does not know is named by its JSON path.
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
#include "stats/diff.h"
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

/* Where the wording is: the lines and changes it adds to. */
struct words {
	struct report_diff *d;
	int err;
};

static void add_line(struct words *w, const char *line)
{
	if (json_array_append_new(w->d->text, result_json_str(line)))
		w->err = -ENOMEM;
}

static void add_change(struct words *w, unsigned job, const char *key, const char *option,
		       const json_t *a, const json_t *b)
{
	json_t *c = json_pack("{s:o,s:s,s:o,s:O,s:O}", "job", job ? json_integer(job) : json_null(),
			      "key", key, "option", option ? json_string(option) : json_null(),
			      "a", a ? a : json_null(), "b", b ? b : json_null());

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

/* "job 2 (logs): " for a job of a run of several; "" for the run. */
static const char *prefix_of(const struct stats_diff_item *it, char *buf, size_t len)
{
	const char *name = it->job_name;

	if (!it->job)
		return "";
	snprintf(buf, len, "job %u%s%.64s%s: ", it->job, name ? " (" : "", name ? name : "",
		 name ? ")" : "");
	return buf;
}

/* A seed iorate chose, as a comparison shows it: "42 (chosen at random)". */
static json_t *seed_words(const json_t *v, bool chosen)
{
	char buf[64];

	if (!chosen || !v)
		return v ? json_incref((json_t *)v) : NULL;
	snprintf(buf, sizeof(buf), "%" JSON_INTEGER_FORMAT " (chosen at random)",
		 json_integer_value(v));
	return json_string(buf);
}

static void value_words(struct words *w, const struct stats_diff_item *it, const char *pfx)
{
	const struct param_name *p = name_of(it->key);
	json_t *a = seed_words(it->a, it->chosen_a), *b = seed_words(it->b, it->chosen_b);
	char label[160], va[512], vb[512], line[1400];

	label_of(p, it->key, label, sizeof(label));
	fmt_value(a, p ? p->kind : K_JSON, false, va, sizeof(va));
	fmt_value(b, p ? p->kind : K_JSON, false, vb, sizeof(vb));
	if (!strcmp(va, vb)) {
		fmt_value(a, p ? p->kind : K_JSON, true, va, sizeof(va));
		fmt_value(b, p ? p->kind : K_JSON, true, vb, sizeof(vb));
	}
	snprintf(line, sizeof(line), "%s%s: %s -> %s", pfx, label, va, vb);
	add_line(w, line);
	add_change(w, it->job, it->key, p && p->opt ? label : NULL, a, b);
	json_decref(a);
	json_decref(b);
}

static void item_words(struct words *w, const struct stats_diff_item *it)
{
	char pbuf[128], line[512], label[160], sub[300];
	const char *pfx = prefix_of(it, pbuf, sizeof(pbuf));
	long long id = it->only_b ? w->d->idb : w->d->ida;

	switch (it->kind) {
	case STATS_DIFF_VALUE:
		value_words(w, it, pfx);
		break;
	case STATS_DIFF_ELEMENT:
		/* The whole object is no use to a reader: the line says which run has it. */
		snprintf(line, sizeof(line), "%s%s %zu: only in run %lld", pfx,
			 label_of(name_of(it->key), it->key, label, sizeof(label)), it->index + 1,
			 id);
		add_line(w, line);
		snprintf(sub, sizeof(sub), "%s[%zu]", it->key, it->index);
		add_change(w, it->job, sub, NULL, it->a, it->b);
		break;
	case STATS_DIFF_NJOBS:
		snprintf(line, sizeof(line), "jobs: %" JSON_INTEGER_FORMAT " -> %" JSON_INTEGER_FORMAT,
			 json_integer_value(it->a), json_integer_value(it->b));
		add_line(w, line);
		add_change(w, 0, it->key, NULL, it->a, it->b);
		break;
	case STATS_DIFF_JOB: {
		json_t *name = it->job_name ? result_json_str(it->job_name) : json_true();

		snprintf(line, sizeof(line), "%sonly in run %lld", pfx, id);
		add_line(w, line);
		add_change(w, it->job, it->key, NULL, it->only_b ? NULL : name,
			   it->only_b ? name : NULL);
		json_decref(name);
		break;
	}
	}
}

int report_history_diff_words(struct report_diff *d, const struct stats_diff *s)
{
	struct words w = {.d = d};

	for (size_t i = 0; i < s->n && !w.err; i++)
		item_words(&w, &s->item[i]);
	return w.err;
}

int history_differences(const struct result_set *a, const struct result_set *b,
			struct report_diff *d)
{
	struct stats_run ra = {.jobs = a->jobs, .njobs = a->njobs};
	struct stats_run rb = {.jobs = b->jobs, .njobs = b->njobs};
	struct stats_diff s = {0};
	int r = stats_run_diff(&ra, &rb, result_to_json, &s);

	if (!r)
		r = report_history_diff_words(d, &s);
	stats_diff_free(&s);
	return r;
}
