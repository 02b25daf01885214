#include "cmd/options.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "engine/engine.h"
#include "model/emulate.h"
#include "util/parse.h"

#define F(field) offsetof(struct job, field)
#define FIELD(c, o, type) ((type *)((char *)(c)->job + (o)->off))

static int bad(const struct opt *o, const char *val, const char *what)
{
	return usage_error("--%s: '%s' %s", o->name, val, what);
}

static int set_size(struct opt_ctx *c, const struct opt *o, const char *val)
{
	int r = parse_size(val, FIELD(c, o, uint64_t));

	if (r == -ERANGE)
		return bad(o, val, "does not fit in 64 bits");
	if (r)
		return bad(o, val, "is not a size (examples: " PARSE_SIZE_EXAMPLES ")");
	return 0;
}

/* Block size: also above 0 and at most 1 GiB. */
static int set_bs(struct opt_ctx *c, const struct opt *o, const char *val)
{
	int r = set_size(c, o, val);

	if (r)
		return r;
	if (c->job->bs == 0)
		return bad(o, val, "is not a block size: it must be at least 1 byte");
	if (c->job->bs > (1ull << 30))
		return bad(o, val, "is larger than the 1GiB limit");
	return 0;
}

static int set_duration(struct opt_ctx *c, const struct opt *o, const char *val)
{
	int r = parse_duration(val, FIELD(c, o, uint64_t));

	if (r)
		return bad(o, val, "is not a duration (examples: " PARSE_DURATION_EXAMPLES ")");
	return 0;
}

static int set_time(struct opt_ctx *c, const struct opt *o, const char *val)
{
	int r = set_duration(c, o, val);

	if (!r && c->job->time_ns == 0)
		return bad(o, val, "is not a duration above 0 (examples: " PARSE_DURATION_EXAMPLES ")");
	return r;
}

static int set_count(struct opt_ctx *c, const struct opt *o, const char *val, unsigned min,
		     unsigned max)
{
	int r = parse_uint(val, min, max, FIELD(c, o, unsigned));

	if (r == -ERANGE)
		return usage_error("--%s: '%s' is out of range (%u to %u)", o->name, val, min, max);
	if (r)
		return bad(o, val, "is not a whole number");
	return 0;
}

static int set_threads(struct opt_ctx *c, const struct opt *o, const char *val)
{
	return set_count(c, o, val, 1, JOB_MAX_THREADS);
}

static int set_depth_count(struct opt_ctx *c, const struct opt *o, const char *val)
{
	return set_count(c, o, val, 1, JOB_MAX_DEPTH);
}

static int set_uint0(struct opt_ctx *c, const struct opt *o, const char *val)
{
	return set_count(c, o, val, 0, 1u << 30);
}

static int set_u64(struct opt_ctx *c, const struct opt *o, const char *val)
{
	int r = parse_u64(val, 0, UINT64_MAX, FIELD(c, o, uint64_t));

	if (r)
		return bad(o, val, r == -ERANGE ? "does not fit in 64 bits" : "is not a whole number");
	return 0;
}

static int set_seed(struct opt_ctx *c, const struct opt *o, const char *val)
{
	int r = set_u64(c, o, val);

	c->job->seed_set = r == 0;
	return r;
}

static int set_percent(struct opt_ctx *c, const struct opt *o, const char *val)
{
	int r = parse_percent(val, FIELD(c, o, unsigned));

	if (r)
		return bad(o, val, "is not a percentage from 0 to 100");
	return 0;
}

static int set_rate(struct opt_ctx *c, const struct opt *o, const char *val)
{
	int r = parse_double(val, 0, 1e12, FIELD(c, o, double));

	if (r || *FIELD(c, o, double) <= 0)
		return bad(o, val, "is not a rate above 0 (examples: 500, 2.5, 1e5)");
	return 0;
}

/* MiB/s caps are kept as MB/s (10^6 B/s), the unit the throttle and the catalog use. */
static int set_mibps(struct opt_ctx *c, const struct opt *o, const char *val)
{
	int r = set_rate(c, o, val);

	if (!r)
		*FIELD(c, o, double) *= 1.048576;
	return r;
}

static int set_seconds(struct opt_ctx *c, const struct opt *o, const char *val)
{
	uint64_t ns;

	if (parse_duration(val, &ns) || ns == 0)
		return bad(o, val, "is not a duration above 0 (examples: 1800, 30m)");
	*FIELD(c, o, double) = (double)ns / 1e9;
	return 0;
}

static int set_true(struct opt_ctx *c, const struct opt *o, const char *val)
{
	*FIELD(c, o, bool) = true;
	return 0;
}

static int set_random(struct opt_ctx *c, const struct opt *o, const char *val)
{
	c->job->pattern = PATTERN_RANDOM;
	return 0;
}

static int set_sequential(struct opt_ctx *c, const struct opt *o, const char *val)
{
	c->job->pattern = PATTERN_SEQUENTIAL;
	return 0;
}

static int set_cache(struct opt_ctx *c, const struct opt *o, const char *val)
{
	if (job_cache_parse(val, &c->job->cache))
		return bad(o, val, "is not a cache mode (direct, buffered, writethrough, directsync)");
	return 0;
}

static int set_engine(struct opt_ctx *c, const struct opt *o, const char *val)
{
	if (!engine_find(val))
		return usage_error("--engine: '%s' is not an engine of this build (%s)", val,
				   engine_names());
	snprintf(c->job->engine, sizeof(c->job->engine), "%s", val);
	return 0;
}

static int set_fill(struct opt_ctx *c, const struct opt *o, const char *val)
{
	if (!strcmp(val, "zero"))
		c->job->fill = FILL_ZERO;
	else if (!strcmp(val, "random"))
		c->job->fill = FILL_RANDOM;
	else
		return bad(o, val, "is not a fill (zero, random)");
	return 0;
}

static int set_arrival(struct opt_ctx *c, const struct opt *o, const char *val)
{
	if (!strcmp(val, "fixed"))
		c->job->arrival = ARRIVAL_FIXED;
	else if (!strcmp(val, "poisson"))
		c->job->arrival = ARRIVAL_POISSON;
	else
		return bad(o, val, "is not an arrival process (fixed, poisson)");
	return 0;
}

static int set_trace(struct opt_ctx *c, const struct opt *o, const char *val)
{
	free(c->job->trace_path);
	c->job->trace_path = strdup(val);
	return c->job->trace_path ? 0 : run_error("out of memory");
}

static int set_units(struct opt_ctx *c, const struct opt *o, const char *val)
{
	if (!strcmp(val, "si"))
		c->out->ropts.units = UNITS_SI;
	else if (!strcmp(val, "iec"))
		c->out->ropts.units = UNITS_IEC;
	else
		return bad(o, val, "is not a unit system (iec: MiB/s, si: MB/s)");
	return 0;
}

static int set_format(struct opt_ctx *c, const struct opt *o, const char *val)
{
	const struct report_ops *f = report_find(val);

	if (!f)
		return bad(o, val, "is not an output format (text, json, csv)");
	c->out->fmt = f;
	return 0;
}

static int set_json(struct opt_ctx *c, const struct opt *o, const char *val)
{
	return set_format(c, o, "json");
}

static int set_csv(struct opt_ctx *c, const struct opt *o, const char *val)
{
	return set_format(c, o, "csv");
}

static int set_quiet(struct opt_ctx *c, const struct opt *o, const char *val)
{
	c->out->quiet = true;
	return 0;
}

static int set_series(struct opt_ctx *c, const struct opt *o, const char *val)
{
	c->out->ropts.series = true;
	return 0;
}

static int set_save(struct opt_ctx *c, const struct opt *o, const char *val)
{
	c->out->save = true;
	return 0;
}

/* --db implies --save: naming a database to save in says enough. */
static int set_db(struct opt_ctx *c, const struct opt *o, const char *val)
{
	c->out->db = val;
	c->out->save = true;
	return 0;
}

static int set_jobfile(struct opt_ctx *c, const struct opt *o, const char *val)
{
	c->job_file = val;
	return 0;
}

static int set_emulate(struct opt_ctx *c, const struct opt *o, const char *val)
{
	c->emulate = val;
	return 0;
}

static int set_help(struct opt_ctx *c, const struct opt *o, const char *val)
{
	c->help = true;
	return 0;
}

#define ALL (OPT_RUN | OPT_SWEEP | OPT_MARK)
#define RS (OPT_RUN | OPT_SWEEP)

const struct opt run_options[] = {
	{"bs", 'b', "SIZE", "bytes per I/O (default 4KiB)", "-b 64k", set_bs, F(bs), RS},
	{"time", 'd', "DURATION", "measured duration (default 10s)", "-d 30s", set_time,
	 F(time_ns), RS},
	{"warmup", 'W', "DURATION", "run this long first without counting", "-W 5s",
	 set_duration, F(warmup_ns), RS},
	{"cooldown", 'C', "DURATION", "keep running this long after, without counting", "-C 5s",
	 set_duration, F(cooldown_ns), RS},
	{"threads", 't', "N", "threads per target (default 1)", "-t 8", set_threads,
	 F(threads), RS},
	{"depth", 'o', "N", "outstanding I/Os per thread (default 1; above 1 needs uring or aio)",
	 "-o 32", set_depth_count, F(depth), RS},
	{"batch", 0, "N",
	 "submit I/Os N at a time (default 1, as fio; = --depth: all free slots in one call)",
	 "--batch 1", set_depth_count, F(batch), RS},
	{"write", 'w', "PCT", "percent of I/Os that write, 0..100 (default 0)", "-w 30",
	 set_percent, F(write_pct), RS},
	{"random", 'r', NULL, "random offsets, aligned to --align (the default)", "-r", set_random,
	 0, RS},
	{"sequential", 's', NULL, "sequential: a target's threads interleave block by block",
	 "-s", set_sequential, 0, RS},
	{"size", 'c', "SIZE", "size of a test file to create when missing (default 1GiB)",
	 "-c 4G", set_size, F(size), ALL},
	{"offset", 0, "SIZE", "use the target from this byte on", "--offset 1G", set_size,
	 F(offset), RS},
	{"range", 0, "SIZE", "use only this many bytes from --offset", "--range 10G", set_size,
	 F(range), RS},
	{"align", 0, "SIZE", "random offsets are multiples of this (default: the block size)",
	 "--align 4k", set_size, F(align), RS},
	{"cache", 0, "MODE",
	 "direct (O_DIRECT, default), buffered, writethrough (O_DSYNC), directsync (both)",
	 "--cache buffered", set_cache, 0, ALL},
	{"fsync", 0, "N", "fsync after every N writes of a thread", "--fsync 64", set_uint0,
	 F(fsync_every), RS},
	{"seed", 0, "N", "seed for offsets and data: the same seed issues the same offsets",
	 "--seed 42", set_seed, F(seed), ALL},
	{"engine", 0, "NAME", "sync, uring, aio or null (default: uring where it works, else sync)",
	 "--engine aio", set_engine, 0, ALL},
	{"fill", 0, "KIND", "contents of a new test file: random (default, incompressible) or zero",
	 "--fill zero", set_fill, 0, ALL},
	{"keep", 0, NULL, "keep a test file iorate created (normally removed at the end)", "--keep",
	 set_true, F(keep), ALL},
	{"allow-write-device", 0, NULL, "allow writing to a block device (destroys its data)",
	 "--allow-write-device -w 100 /dev/loop0", set_true, F(allow_write_device), ALL},
	{"force", 0, NULL, "write even to a device that is mounted or holds a filesystem",
	 "--force", set_true, F(force), ALL},
	{"no-latency", 0, NULL, "count I/Os without timing each one (measures the tool's overhead)",
	 "--no-latency", set_true, F(no_latency), RS},
	{"ios", 0, "N", "stop each thread after N I/Os (as well as at --time)", "--ios 1000",
	 set_u64, F(ios_per_thread), RS},
	{"trace", 0, "FILE", "write every issued I/O (target thread R|W offset length) to FILE",
	 "--trace io.log", set_trace, 0, RS},
	{"cap-iops", 0, "N", "emulate a disk: at most N I/Os per second per target",
	 "--cap-iops 500", set_rate, F(cap.iops), RS},
	{"cap-mbps", 0, "N", "emulate a disk: at most N MB/s (10^6 B/s) per target",
	 "--cap-mbps 60", set_rate, F(cap.mbps), RS},
	{"cap-mibps", 0, "N", "the same in MiB/s (2^20 B/s), as DiskSpd prints MB/s",
	 "--cap-mibps 60", set_mibps, F(cap.mbps), RS},
	{"burst-iops", 0, "N", "disk burst rate while credits last (with --burst-seconds)",
	 "--burst-iops 3500", set_rate, F(cap.burst_iops), RS},
	{"burst-mbps", 0, "N", "disk burst MB/s while credits last", "--burst-mbps 170", set_rate,
	 F(cap.burst_mbps), RS},
	{"burst-seconds", 0, "DURATION", "how long a full credit bucket sustains the burst",
	 "--burst-seconds 30m", set_seconds, F(cap.burst_seconds), RS},
	{"vm-cap-iops", 0, "N", "emulate a VM: at most N I/Os per second over all targets",
	 "--vm-cap-iops 6400", set_rate, F(vm_cap.iops), RS},
	{"vm-cap-mbps", 0, "N", "emulate a VM: at most N MB/s over all targets", "--vm-cap-mbps 64",
	 set_rate, F(vm_cap.mbps), RS},
	{"vm-cap-mibps", 0, "N", "the same in MiB/s (2^20 B/s)", "--vm-cap-mibps 285", set_mibps,
	 F(vm_cap.mbps), RS},
	{"vm-burst-iops", 0, "N", "VM burst IOPS while credits last", "--vm-burst-iops 20000",
	 set_rate, F(vm_cap.burst_iops), RS},
	{"vm-burst-mbps", 0, "N", "VM burst MB/s while credits last", "--vm-burst-mbps 1200",
	 set_rate, F(vm_cap.burst_mbps), RS},
	{"vm-burst-seconds", 0, "DURATION", "how long the VM's full credit bucket lasts",
	 "--vm-burst-seconds 30m", set_seconds, F(vm_cap.burst_seconds), RS},
	{"cap-io-unit", 0, "SIZE", "I/Os larger than this count as several (Azure premium: 256KiB)",
	 "--cap-io-unit 256k", set_size, F(cap_io_unit), RS},
	{"emulate", 0, "PROFILE", "take caps from the catalog: PROVIDER:VM+[N]xDISK",
	 "--emulate azure-2015:DS2+2xP30", set_emulate, 0, RS},
	{"rate-iops", 0, "N", "open loop: issue N I/Os per second per target on a schedule",
	 "--rate-iops 2000", set_rate, F(rate_iops), RS},
	{"arrival", 0, "KIND", "open-loop schedule: fixed (default) or poisson",
	 "--arrival poisson", set_arrival, 0, RS},
	{"job", 0, "FILE", "read the workload from a fio job file", "--job db.fio", set_jobfile, 0,
	 OPT_RUN},
	{"json", 0, NULL, "print JSON on stdout (schema in docs/json.md)", "--json", set_json, 0,
	 ALL},
	{"csv", 0, NULL, "print CSV, one row per target and direction", "--csv", set_csv, 0, ALL},
	{"format", 0, "FMT", "text (default), json or csv", "--format csv", set_format, 0, ALL},
	{"units", 0, "UNITS", "throughput in iec (MiB/s, default) or si (MB/s)", "--units si",
	 set_units, 0, ALL},
	{"series", 0, NULL, "text: also print the per-second series", "--series", set_series, 0,
	 RS},
	{"save", 0, NULL, "also keep the result in the history ('iorate history', docs/history.md)",
	 "--save", set_save, 0, OPT_RUN},
	{"db", 0, "FILE", "the history database for --save (default: see 'iorate history --help')",
	 "--db runs.db", set_db, 0, OPT_RUN},
	{"quiet", 'q', NULL, "no live progress line", "-q", set_quiet, 0, ALL},
	{"help", 'h', NULL, "this help", "--help", set_help, 0, ALL},
	{NULL},
};

int options_parse(struct opt_ctx *c, unsigned group, int argc, char **argv, int *first)
{
	struct option lo[128];
	char so[256];
	const struct opt *byidx[128];
	size_t n = 0, sn = 0;
	int r = 0;

	so[sn++] = ':'; /* report a missing argument as ':' */
	for (const struct opt *o = run_options; o->name; o++) {
		if (!(o->groups & group))
			continue;
		if (n + 1 >= sizeof(lo) / sizeof(lo[0]) || sn + 3 >= sizeof(so))
			return usage_error("internal: the option table outgrew options_parse()");
		lo[n] = (struct option){o->name, o->arg ? required_argument : no_argument, NULL,
					256 + (int)n};
		byidx[n++] = o;
		if (o->letter) {
			so[sn++] = o->letter;
			if (o->arg)
				so[sn++] = ':';
		}
	}
	lo[n] = (struct option){0};
	so[sn] = '\0';
	optind = 1;
	opterr = 0;
	for (;;) {
		int li = -1, ch = getopt_long(argc, argv, so, lo, &li);
		const struct opt *o = NULL;
		if (ch == -1)
			break;
		if (ch == '?') {
			if (optopt >= 256)
				return usage_error("%s: unexpected argument (see 'iorate %s --help')",
						   argv[optind - 1], argv[0]);
			if (optopt)
				return usage_error("-%c: unknown option (see 'iorate %s --help')",
						   optopt, argv[0]);
			return usage_error("%s: unknown option (see 'iorate %s --help')",
					   argv[optind - 1], argv[0]);
		}
		if (ch == ':')
			return usage_error("%s: needs an argument (see 'iorate %s --help')",
					   argv[optind - 1], argv[0]);
		if (ch >= 256)
			o = byidx[ch - 256];
		else
			for (size_t i = 0; i < n && !o; i++)
				if (byidx[i]->letter == ch)
					o = byidx[i];
		if (!o)
			return usage_error("-%c: unknown option", ch);
		if ((r = o->set(c, o, optarg)) || (c->on_set && (r = c->on_set(c, o))))
			return r;
	}
	*first = optind;
	return 0;
}

void options_help(FILE *f, unsigned group)
{
	for (const struct opt *o = run_options; o->name; o++) {
		char head[64];
		if (!(o->groups & group))
			continue;
		if (o->letter)
			snprintf(head, sizeof(head), "-%c, --%s%s%s", o->letter, o->name,
				 o->arg ? " " : "", o->arg ? o->arg : "");
		else
			snprintf(head, sizeof(head), "    --%s%s%s", o->name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		fprintf(f, "  %-30s %s\n  %-30s   e.g. %s\n", head, o->help, "", o->example);
	}
}

void options_man(FILE *f, unsigned group)
{
	for (const struct opt *o = run_options; o->name; o++) {
		if (!(o->groups & group))
			continue;
		fprintf(f, ".TP\n");
		if (o->letter)
			fprintf(f, "\\fB\\-%c\\fR, ", o->letter);
		fprintf(f, "\\fB\\-\\-%s\\fR", o->name);
		if (o->arg)
			fprintf(f, " \\fI%s\\fR", o->arg);
		fprintf(f, "\n%s. Example: \\fB", o->help);
		for (const char *p = o->example; *p; p++)
			fprintf(f, *p == '-' ? "\\-" : "%c", *p);
		fprintf(f, "\\fR\n");
	}
}

static int check_one(const char *pfx, const struct job_caps *k)
{
	if ((k->burst_iops > 0 && k->iops <= 0) || (k->burst_mbps > 0 && k->mbps <= 0))
		return usage_error("--%sburst-*: a burst needs a base cap (--%scap-iops/--%scap-mbps)",
				   pfx, pfx, pfx);
	if (k->burst_iops > 0 && k->burst_iops < k->iops)
		return usage_error("--%sburst-iops: %g is below the base cap %g", pfx, k->burst_iops,
				   k->iops);
	if (k->burst_mbps > 0 && k->burst_mbps < k->mbps)
		return usage_error("--%sburst-mbps: %g is below the base cap %g", pfx, k->burst_mbps,
				   k->mbps);
	if ((k->burst_iops > 0 || k->burst_mbps > 0) && k->burst_seconds <= 0)
		return usage_error("--%sburst-seconds: a burst needs the duration a full bucket lasts",
				   pfx);
	return 0;
}

int options_check_caps(const struct job *j)
{
	int r;

	if ((r = check_one("", &j->cap)) || (r = check_one("vm-", &j->vm_cap)))
		return r;
	if (j->rate_iops > 0) {
		double lim = 0;
		if (j->cap.iops > 0)
			lim = (j->cap.burst_iops > j->cap.iops ? j->cap.burst_iops : j->cap.iops);
		if (j->vm_cap.iops > 0) {
			double v = j->vm_cap.burst_iops > j->vm_cap.iops ? j->vm_cap.burst_iops
									  : j->vm_cap.iops;
			v /= j->ntargets ? j->ntargets : 1;
			if (lim == 0 || v < lim)
				lim = v;
		}
		if (lim > 0 && j->rate_iops > lim)
			fprintf(stderr,
				"iorate: warning: --rate-iops %g per target is above the cap of %g; "
				"the schedule will fall behind\n",
				j->rate_iops, lim);
	} else if (j->arrival != ARRIVAL_CLOSED) {
		return usage_error("--arrival: needs --rate-iops (an open-loop rate)");
	}
	return 0;
}

static void merge_caps(struct job_caps *dst, const struct job_caps *src)
{
	/* Caps given explicitly on the command line win over the profile's. */
	if (dst->iops <= 0)
		dst->iops = src->iops;
	if (dst->mbps <= 0)
		dst->mbps = src->mbps;
	if (dst->burst_iops <= 0)
		dst->burst_iops = src->burst_iops;
	if (dst->burst_mbps <= 0)
		dst->burst_mbps = src->burst_mbps;
	if (dst->burst_seconds <= 0)
		dst->burst_seconds = src->burst_seconds;
}

int options_emulate(struct job *j, const char *profile)
{
	struct job_caps disk = {0}, vm = {0};
	unsigned ndisks = 0;
	uint64_t unit = 0;
	char err[512] = "";
	int r;

	if ((r = emulate_profile(profile, &disk, &ndisks, &vm, &unit, err, sizeof(err))))
		return usage_error("--emulate: %s", err[0] ? err : strerror(-r));
	merge_caps(&j->cap, &disk);
	merge_caps(&j->vm_cap, &vm);
	if (!j->cap_io_unit)
		j->cap_io_unit = unit;
	if (ndisks && j->ntargets && ndisks != j->ntargets)
		fprintf(stderr,
			"iorate: warning: --emulate %s has %u disk%s but the run has %u target%s; "
			"each target gets one disk's caps\n",
			profile, ndisks, ndisks == 1 ? "" : "s", j->ntargets,
			j->ntargets == 1 ? "" : "s");
	return 0;
}
