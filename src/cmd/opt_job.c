/*
 * The option groups of the commands that run a workload (run, sweep, mark, iorate-mpi run, and
 * iorate's own options among DiskSpd's and SQLIO's): the job, the emulated caps, the output.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "core/runner.h"
#include "model/emulate.h"
#include "report/format.h"
#include "report/mark_fmt.h"
#include "report/sweep_fmt.h"
#include "util/escape.h"
#include "util/parse.h"

#define J(field) .in = OPT_IN_JOB, .off = offsetof(struct job, field)
#define O(field) .in = OPT_IN_OUT, .off = offsetof(struct output_opts, field)

static int set_seed(struct opt_ctx *c, const struct opt *o, const char *val)
{
	int r = opt_set_u64(c, o, val);

	c->job->seed_set = r == 0;
	return r;
}

static int set_pattern(struct opt_ctx *c, const struct opt *o, const char *val)
{
	c->job->pattern = o->letter == 's' ? PATTERN_SEQUENTIAL : PATTERN_RANDOM;
	return 0;
}

static int set_cache(struct opt_ctx *c, const struct opt *o, const char *val)
{
	if (job_cache_parse(val, &c->job->cache))
		return opt_refuse(c, val,
				  "is not a cache mode (direct, buffered, writethrough, directsync)");
	return 0;
}

static int set_bssplit(struct opt_ctx *c, const struct opt *o, const char *val)
{
	const char *why;

	return job_parse_bssplit(c->job, val, &why) ? opt_refuse(c, val, why) : 0;
}

static int set_seq_threads(struct opt_ctx *c, const struct opt *o, const char *val)
{
	if (!strcmp(val, "interleave") || !strcmp(val, "each"))
		c->job->seq_per_thread = val[0] == 'e';
	else
		return opt_refuse(c, val, "is not interleave or each");
	return 0;
}

/* roundrobin[:N], sequential, random[:N] (fio's file_service_type). */
static int set_file_service(struct opt_ctx *c, const struct opt *o, const char *val)
{
	static const char *const names[] = {"roundrobin", "sequential", "random"};
	const char *colon = strchr(val, ':');
	size_t len = colon ? (size_t)(colon - val) : strlen(val);

	for (unsigned i = 0; i < 3; i++) {
		if (strlen(names[i]) != len || strncmp(val, names[i], len))
			continue;
		c->job->file_service = (enum job_file_service)i;
		c->job->file_service_n = 0;
		if (colon && parse_uint(colon + 1, 1, UINT32_MAX, &c->job->file_service_n))
			return opt_refuse(c, val, "has an N that is not a whole number from 1 up");
		return 0;
	}
	return opt_refuse(c, val, "is not roundrobin[:N], sequential[:N] or random[:N]");
}

static int set_verify(struct opt_ctx *c, const struct opt *o, const char *val)
{
	enum verify_sum s = VERIFY_CRC32C;

	if (val && verify_sum_parse(val, &s))
		return opt_refuse(c, val, "is not a checksum iorate makes (crc32c, md5, sha256)");
	c->job->verify = s;
	return 0;
}

/* --time DURATION, or none: no time limit (the run ends at --io-size or --ios). */
static int set_time(struct opt_ctx *c, const struct opt *o, const char *val)
{
	if (!strcmp(val, "none")) {
		c->job->time_ns = 0;
		return 0;
	}
	return opt_set_duration(c, o, val);
}

static int set_dist(struct opt_ctx *c, const struct opt *o, const char *val)
{
	const char *why;

	return job_parse_dist(c->job, val, &why) ? opt_refuse(c, val, why) : 0;
}

/* When this job ends (or fails), end the jobs of its group (fio's exitall) or the whole run. */
static int set_exit_all(struct opt_ctx *c, const struct opt *o, const char *val)
{
	enum job_exit *e = !strcmp(o->name, "exit-on-error") ? &c->job->exit_error
							       : &c->job->exit_what;

	if (!strcmp(val, "group"))
		*e = EXIT_GROUP;
	else if (!strcmp(val, "all"))
		*e = EXIT_ALL;
	else
		return opt_refuse(c, val, "is not group or all");
	return 0;
}

static int set_continue(struct opt_ctx *c, const struct opt *o, const char *val)
{
	const char *why;

	return job_parse_continue(c->job, val, &why) ? opt_refuse(c, val, why) : 0;
}

static int set_ignore_error(struct opt_ctx *c, const struct opt *o, const char *val)
{
	const char *why;

	return job_parse_ignore_error(c->job, val, &why) ? opt_refuse(c, val, why) : 0;
}

static int set_ioprio(struct opt_ctx *c, const struct opt *o, const char *val)
{
	const char *why;

	return job_parse_ioprio(c->job, val, &why) ? opt_refuse(c, val, why) : 0;
}

static int set_cmdprio(struct opt_ctx *c, const struct opt *o, const char *val)
{
	const char *why;

	return job_parse_cmdprio(c->job, val, &why) ? opt_refuse(c, val, why) : 0;
}

static int set_cmdprio_class(struct opt_ctx *c, const struct opt *o, const char *val)
{
	const char *why;

	return job_parse_cmdprio_class(c->job, val, &why) ? opt_refuse(c, val, why) : 0;
}

static int set_cmdprio_split(struct opt_ctx *c, const struct opt *o, const char *val)
{
	const char *why;

	return job_parse_cmdprio_split(c->job, val, &why) ? opt_refuse(c, val, why) : 0;
}

/* --latency-percentile: above 0, at most 100 (fractions too: 99.9). */
static int set_lat_pct(struct opt_ctx *c, const struct opt *o, const char *val)
{
	double v;

	if (parse_double(val, 0, 100, &v) || v <= 0)
		return opt_refuse(c, val, "is not a percent above 0, at most 100 (99.9, say)");
	c->job->lat_pct = v;
	return 0;
}

/* --gap SIZE skips forward; --gap -SIZE goes back (fio's rw=read:-8k). */
static int set_gap(struct opt_ctx *c, const struct opt *o, const char *val)
{
	struct opt back = *o;
	int r;

	c->job->skip = c->job->rewind = 0;
	if (val[0] != '-')
		return opt_set_size(c, o, val);
	back.off = offsetof(struct job, rewind);
	if ((r = opt_set_size(c, &back, val + 1)) == 0 && c->job->rewind == 0)
		return opt_refuse(c, val, "is not a gap: -0 goes nowhere");
	return r;
}

static int set_steady(struct opt_ctx *c, const struct opt *o, const char *val)
{
	const char *why;

	return job_parse_steady(c->job, val, &why) ? opt_refuse(c, val, why) : 0;
}

static int set_data_pattern(struct opt_ctx *c, const struct opt *o, const char *val)
{
	const char *why;

	return job_parse_pattern(c->job, val, &why) ? opt_refuse(c, val, why) : 0;
}

static int set_engine(struct opt_ctx *c, const struct opt *o, const char *val)
{
	char why[240], near[120];
	/* fio's names (io_uring, libaio, psync) run the engine of the same system calls. */
	const char *name = runner_engine_name(val, near, sizeof(near));

	if (!name || strlen(name) >= sizeof(c->job->engine)) {
		snprintf(why, sizeof(why), "is not an engine of this build (%s)%s", runner_engines(),
			 near);
		return opt_refuse(c, val, why);
	}
	snprintf(c->job->engine, sizeof(c->job->engine), "%s", name);
	/* An engine named here is the one asked for, in place of none. */
	c->job->engine_for[0] = c->job->engine_differs[0] = '\0';
	return 0;
}

static int set_fill(struct opt_ctx *c, const struct opt *o, const char *val)
{
	if (!strcmp(val, "zero"))
		c->job->fill = FILL_ZERO;
	else if (!strcmp(val, "random"))
		c->job->fill = FILL_RANDOM;
	else
		return opt_refuse(c, val, "is not a fill (zero, random)");
	return 0;
}

static int set_arrival(struct opt_ctx *c, const struct opt *o, const char *val)
{
	if (!strcmp(val, "fixed"))
		c->job->arrival = ARRIVAL_FIXED;
	else if (!strcmp(val, "poisson"))
		c->job->arrival = ARRIVAL_POISSON;
	else
		return opt_refuse(c, val, "is not an arrival process (fixed, poisson)");
	return 0;
}

static int set_trace(struct opt_ctx *c, const struct opt *o, const char *val)
{
	free(c->job->trace_path);
	c->job->trace_path = strdup(val);
	return c->job->trace_path ? 0 : -ENOMEM;
}

/* A log's file prefix (fio's write_bw_log=PREFIX and its kin): PREFIX_bw.N.log. */
static int set_log_prefix(struct opt_ctx *c, const struct opt *o, const char *val)
{
	char **p = (char **)(void *)((char *)c->job + o->off);

	if (!*val)
		return opt_refuse(c, val, "is empty: give the prefix of the log's file names");
	free(*p);
	*p = strdup(val);
	return *p ? 0 : -ENOMEM;
}

/* A log's window: whole milliseconds, as fio's log files count time. */
static int set_log_ms(struct opt_ctx *c, const struct opt *o, const char *val)
{
	int r = opt_set_duration(c, o, val);
	uint64_t ns = *(uint64_t *)(void *)((char *)c->job + o->off);

	if (!r && ns % 1000000)
		return opt_refuse(c, val, "is not a whole number of milliseconds (examples: 500ms, "
				  "1s)");
	return r;
}

/* MiB/s caps are kept as MB/s (10^6 B/s), the unit the throttle and the catalog use. */
static int set_mibps(struct opt_ctx *c, const struct opt *o, const char *val)
{
	int r = opt_set_rate(c, o, val);

	if (!r)
		*(double *)((char *)c->job + o->off) *= 1.048576;
	return r;
}

static int set_seconds(struct opt_ctx *c, const struct opt *o, const char *val)
{
	uint64_t ns;
	const char *why = parse_number_why(val);

	if (parse_duration(val, &ns) || ns == 0)
		return opt_refuse(c, val, why ? why : "is not a duration above 0 (examples: 1800, 30m)");
	*(double *)((char *)c->job + o->off) = (double)ns / 1e9;
	return 0;
}

static int set_jobfile(struct opt_ctx *c, const struct opt *o, const char *val)
{
	c->job_file = val;
	return 0;
}

/*
 * --job-name starts the next job of a run of several (parse_jobs() in cmd_run.c splits the command
 * line there); here it names the job being parsed.
 */
static int set_job_name(struct opt_ctx *c, const struct opt *o, const char *val)
{
	char *n = strdup(val);

	if (!n)
		return -ENOMEM;
	free(c->job->name);
	c->job->name = n;
	return 0;
}

/* The job starts a group of its own, after the jobs before it (fio's stonewall). */
static int set_stonewall(struct opt_ctx *c, const struct opt *o, const char *val)
{
	c->job->group++;
	return 0;
}

static int set_dry_run(struct opt_ctx *c, const struct opt *o, const char *val)
{
	c->dry_run = true;
	return 0;
}

static int set_emulate(struct opt_ctx *c, const struct opt *o, const char *val)
{
	c->emulate = val;
	return 0;
}

/*
 * --json and --csv are --format json and --format csv. A format the command lacks is refused
 * here, at parse time, in the table's words ("--format csv: 'iorate mark' prints ..."): the
 * line is printed and its exit code returned, as options.c lets a setter do.
 */
int opt_set_format(struct opt_ctx *c, const struct opt *o, const char *val)
{
	bool alias = strcmp(o->name, "format");
	const char *name = alias ? o->name : val;
	char why[128];

	if (!report_format_known(name))
		return opt_refuse(c, val, report_format_unknown(why, sizeof(why)));
	c->out->format = name;
	snprintf(c->out->format_given, sizeof(c->out->format_given), "--%s%s%s", o->name,
		 alias ? "" : " ", alias ? "" : val);
	/* A command whose subcommand picks the report (history) checks after parsing. */
	if (!c->cmd->output)
		return 0;
	return output_opts_format(c->out, c->cmd->output);
}

/* --brief is the text report cut to its headline: a format of its own, so --json contradicts it. */
int opt_set_brief(struct opt_ctx *c, const struct opt *o, const char *val)
{
	c->out->fmt = report_format_find(&result_formats, "text");
	c->out->ropts.brief = true;
	return 0;
}

int opt_set_units(struct opt_ctx *c, const struct opt *o, const char *val)
{
	if (!strcmp(val, "si"))
		c->out->ropts.units = UNITS_SI;
	else if (!strcmp(val, "iec"))
		c->out->ropts.units = UNITS_IEC;
	else
		return opt_refuse(c, val, "is not a unit system (iec: MiB/s, si: MB/s)");
	c->out->units_given = true;
	return 0;
}

/* --db implies --save: naming a database to save in says enough. */
static int set_db(struct opt_ctx *c, const struct opt *o, const char *val)
{
	c->out->db = val;
	c->out->save = true;
	return 0;
}

/*
 * The workload the model commands take too, one row each so that a name means one thing: --bs
 * (run, sweep, model, plan, cost), --write (run, sweep, model, plan), the pattern, --threads and
 * --depth (run, sweep, model). The model commands parse them into a struct job as well.
 */
static const struct opt bs_opts[] = {
	{.name = "bs", .letter = 'b', .arg = "SIZE", .help = "bytes per I/O (default 4KiB)",
	 .example = "-b 64k", .set = opt_set_size, J(bs), .min = 1, .max = 1ull << 30},
	{0},
};

static const struct opt write_opts[] = {
	{.name = "write", .letter = 'w', .arg = "PCT",
	 .help = "percent of I/Os that write, 0..100 (default 0)", .example = "-w 30",
	 .set = opt_set_percent, J(write_pct)},
	{0},
};

static const struct opt queue_opts[] = {
	{.name = "random", .letter = 'r', .help = "random offsets (the default)", .example = "-r",
	 .set = set_pattern, .excl = EXCL_PATTERN},
	{.name = "sequential", .letter = 's',
	 .help = "sequential offsets (a target's threads interleave block by block)",
	 .example = "-s", .set = set_pattern, .excl = EXCL_PATTERN},
	{.name = "threads", .letter = 't', .arg = "N", .help = "threads per target (default 1)",
	 .example = "-t 8", .set = opt_set_count, J(threads), .min = 1, .max = JOB_MAX_THREADS},
	{.name = "depth", .letter = 'o', .arg = "N",
	 .help = "outstanding I/Os per thread (default 1; above 1 needs uring or aio)",
	 .example = "-o 32", .set = opt_set_count, J(depth), .min = 1, .max = JOB_MAX_DEPTH},
	{0},
};

/* run and sweep: the rest of the job. */
static const struct opt workload_opts[] = {
	{.name = "time", .letter = 'd', .arg = "DURATION",
	 .help = "measured duration (default 10s); none: until each thread has done its --io-size "
	 "or --ios", .example = "-d 30s", .set = set_time, J(time_ns), .min = 1},
	{.name = "warmup", .letter = 'W', .arg = "DURATION",
	 .help = "run this long first without counting", .example = "-W 5s",
	 .set = opt_set_duration, J(warmup_ns)},
	{.name = "cooldown", .letter = 'C', .arg = "DURATION",
	 .help = "keep running this long after, without counting", .example = "-C 5s",
	 .set = opt_set_duration, J(cooldown_ns)},
	{.name = "batch", .arg = "N",
	 .help = "submit I/Os N at a time (default: each as it is ready with uring and for "
	 "sequential I/O, what is ready in one call with aio; 1 as fio; = --depth: all free "
	 "slots in one call)",
	 .example = "--batch 1", .set = opt_set_count, J(batch), .min = 1,
	 .max = JOB_MAX_DEPTH},
	{.name = "trim", .arg = "PCT",
	 .help = "percent of I/Os that trim (discard) their blocks, 0..100 less --write (default "
	 "0): a hole punched in a file, BLKDISCARD on a device, done synchronously",
	 .example = "--trim 100", .set = opt_set_percent, J(trim_pct)},
	{.name = "trim-write",
	 .help = "every write first trims the blocks it then writes (fio's trimwrite); the trims "
	 "are counted apart", .example = "--trim-write -w 100", .set = opt_set_true,
	 J(trim_write)},
	{.name = "offset", .arg = "SIZE", .help = OPT_OFFSET_HELP,
	 .example = "--offset 1G", .set = opt_set_size, J(offset)},
	{.name = "range", .arg = "SIZE", .help = OPT_RANGE_HELP,
	 .example = "--range 10G", .set = opt_set_size, J(range)},
	{.name = "align", .arg = "SIZE",
	 .help = "random offsets are multiples of this (default: the block size)",
	 .example = "--align 4k", .set = opt_set_size, J(align)},
	{.name = "bssplit", .arg = "MIX",
	 .help = "a mix of block sizes, SIZE/PERCENT:...; READS,WRITES for each direction (fio's "
	 "form)", .example = "--bssplit 8k/70:64k/30", .set = set_bssplit},
	{.name = "distribution", .arg = "KIND",
	 .help = OPT_DISTRIBUTION_HELP,
	 .example = "--distribution zipf:1.2", .set = set_dist,
	 .values = "uniform zipf pareto normal zoned zoned_abs sequence"},
	{.name = "random-pct", .arg = "PCT",
	 .help = "percent of I/Os at random offsets, the others continue sequentially (DiskSpd "
	 "-rs)", .example = "--random-pct 20", .set = opt_set_percent, J(random_pct)},
	{.name = "seq-threads", .arg = "HOW",
	 .help = "sequential threads of a target: interleave block by block (default), or each "
	 "sweep the whole region (fio's jobs, DiskSpd without -si)", .example = "--seq-threads each",
	 .set = set_seq_threads, .values = "interleave each"},
	{.name = "thread-stride", .arg = "SIZE",
	 .help = "with --seq-threads each: thread k starts k x SIZE into the region (DiskSpd -T)",
	 .example = "--thread-stride 1g", .set = opt_set_size, J(thread_stride)},
	{.name = "io-size", .arg = "SIZE",
	 .help = "each thread stops after issuing SIZE bytes (as well as at --time; fio io_size)",
	 .example = "--io-size 1g", .set = opt_set_size, J(io_bytes), .min = 1},
	{.name = "verify",
	 .help = "every written block carries a header and crc32c; reads check what they find, "
	 "and the end reads back all that was written (exit 1 on a bad block)",
	 .example = "--verify -w 50", .set = set_verify},
	{.name = "verify-sum", .arg = "KIND",
	 .help = "--verify with this checksum: crc32c (default), md5 or sha256",
	 .example = "--verify-sum sha256", .set = set_verify,
	 .values = "crc32c md5 sha256"},
	{.name = "verify-block", .arg = "SIZE",
	 .help = "bytes per verified block (default: the smallest I/O size; at least 512)",
	 .example = "--verify-block 4k", .set = opt_set_size, J(verify_block), .min = 512,
	 .max = 1ull << 30},
	{.name = "shared-threads",
	 .help = "--threads in all, each serving every target (fio's nrfiles, DiskSpd -F), not "
	 "per target: many small files cost little", .example = "--shared-threads -t 4",
	 .set = opt_set_true, J(shared_threads)},
	{.name = "file-service", .arg = "HOW",
	 .help = "with --shared-threads, how a thread moves between targets: roundrobin[:N] "
	 "(default, N I/Os each), sequential[:N] (a pass over each), random[:N]",
	 .example = "--file-service random", .set = set_file_service,
	 .values = "roundrobin sequential random"},
	{.name = "gap", .arg = "SIZE",
	 .help = "sequential: skip this many bytes after each I/O (fio rw=read:SIZE); -SIZE: "
	 "each I/O starts SIZE before the end of the one before, so -8k with 4k blocks reads "
	 "backwards (fio rw=read:-8k)",
	 .example = "--gap 60k", .set = set_gap, J(skip)},
	{.name = "until-full",
	 .help = "write sequentially until the target is full: a file grows over the free space "
	 "of its filesystem until a write is refused (ENOSPC), a device to its end; the job ends "
	 "there (fio's fill_device)", .example = "--until-full --sequential -w 100 --time none",
	 .set = opt_set_true, J(until_full)},
	{.name = "zone-size", .arg = "SIZE",
	 .help = "strided zones: I/O stays in a zone of --zone-range bytes until SIZE bytes were "
	 "moved, then moves on by the range and --zone-skip (fio's zonemode=strided, zonesize)",
	 .example = "--zone-size 256m --zone-skip 2g", .set = opt_set_size, J(zone_size)},
	{.name = "zone-range", .arg = "SIZE",
	 .help = "the length of a strided zone (default --zone-size); fio's zonerange",
	 .example = "--zone-size 16k --zone-range 64k", .set = opt_set_size, J(zone_range)},
	{.name = "zone-skip", .arg = "SIZE",
	 .help = "bytes skipped between strided zones; fio's zoneskip",
	 .example = "--zone-size 256m --zone-skip 2g", .set = opt_set_size, J(zone_skip)},
	{.name = "zbd",
	 .help = "emulated zones of --zone-size bytes from the target's start: each is written "
	 "only at its write pointer (random writes pick a zone, sequential within it), a full "
	 "zone is reset before it is written again, reads read only what was written, a trim "
	 "resets its zones (fio's zonemode=zbd on a file or a device that is not zoned)",
	 .example = "--zbd --zone-size 256m -w 100", .set = opt_set_true, J(zbd)},
	{.name = "zone-capacity", .arg = "SIZE",
	 .help = "--zbd: the writable bytes of a zone (default: all of it); fio's zonecapacity",
	 .example = "--zbd --zone-size 256m --zone-capacity 200m", .set = opt_set_size,
	 J(zone_capacity), .min = 1},
	{.name = "max-open-zones", .arg = "N",
	 .help = "--zbd: at most N zones of a target written at once (default: any); fio's "
	 "max_open_zones", .example = "--zbd --zone-size 256m --max-open-zones 32",
	 .set = opt_set_count, J(max_open_zones)},
	{.name = "job-max-open-zones", .arg = "N",
	 .help = "--zbd: at most N zones written at once by this job; fio's job_max_open_zones",
	 .example = "--zbd --zone-size 256m --job-max-open-zones 4", .set = opt_set_count,
	 J(job_max_open_zones)},
	{.name = "zone-reset-threshold", .arg = "FRACTION",
	 .help = "--zbd: once the zones in range hold this share of it, --zone-reset-frequency "
	 "applies; fio's zone_reset_threshold", .example = "--zone-reset-threshold 0.7",
	 .set = opt_set_rate, J(zone_reset_threshold)},
	{.name = "zone-reset-frequency", .arg = "FRACTION",
	 .help = "--zbd: past the threshold, every 1/FRACTION-th write resets its zone first "
	 "(garbage collection); fio's zone_reset_frequency",
	 .example = "--zone-reset-threshold 0.7 --zone-reset-frequency 0.125",
	 .set = opt_set_rate, J(zone_reset_frequency)},
	{.name = "read-beyond-wp",
	 .help = "--zbd: reads go where they are drawn, past the write pointer too; fio's "
	 "read_beyond_wp", .example = "--zbd --zone-size 256m --read-beyond-wp",
	 .set = opt_set_true, J(read_beyond_wp)},
	{.name = "sprandom",
	 .help = "precondition an SSD for random writes: write the region once over its physical "
	 "capacity (size plus --spr-op), in regions whose invalid blocks match a steady state "
	 "(Desnoyers 2012); one thread, random writes; the job ends with the pass (fio's sprandom)",
	 .example = "--sprandom -w 100 -b 4k --time none", .set = opt_set_true, J(sprandom)},
	{.name = "spr-op", .arg = "FRACTION",
	 .help = "--sprandom: the device's over-provisioning, above 0 and below 1 (default 0.15)",
	 .example = "--sprandom --spr-op 0.21", .set = opt_set_rate, J(spr_op)},
	{.name = "spr-num-regions", .arg = "N",
	 .help = "--sprandom: regions of the pass (default 100; more: finer on a large device)",
	 .example = "--sprandom --spr-num-regions 400", .set = opt_set_count, J(spr_regions),
	 .min = 1},
	{.name = "spr-cs", .arg = "SIZE",
	 .help = "--sprandom: the device's cache: rewrites wait a region so the cache cannot merge "
	 "them with the writes they replace (default 0: none)",
	 .example = "--sprandom --spr-cs 8m", .set = opt_set_size, J(spr_cache)},
	{.name = "fsync", .arg = "N", .help = "fsync after every N writes of a thread",
	 .example = "--fsync 64", .set = opt_set_count, J(fsync_every)},
	{.name = "fdatasync", .arg = "N", .help = "fdatasync after every N writes of a thread",
	 .example = "--fdatasync 1", .set = opt_set_count, J(fdatasync_every)},
	{.name = "end-fsync",
	 .help = "fsync every target when the job's I/O is done; the job ends when it returns",
	 .example = "--end-fsync", .set = opt_set_true, J(end_fsync)},
	{.name = "thinktime", .arg = "DURATION",
	 .help = "each thread pauses this long after every --thinktime-blocks I/Os",
	 .example = "--thinktime 2ms", .set = opt_set_duration, J(thinktime_ns)},
	{.name = "thinktime-blocks", .arg = "N", .help = "I/Os between pauses (default 1)",
	 .example = "--thinktime-blocks 16", .set = opt_set_count, J(thinktime_blocks), .min = 1},
	{.name = "start-delay", .arg = "DURATION",
	 .help = "start this long after the others of the run (fio startdelay)",
	 .example = "--start-delay 5s", .set = opt_set_duration, J(startdelay_ns)},
	{.name = "compress", .arg = "PCT",
	 .help = "writes compress to about PCT percent: each --compress-chunk is random bytes, "
	 "then PCT percent of zeros (or --data-pattern); fio's buffer_compress_percentage",
	 .example = "--compress 50", .set = opt_set_percent, J(compress_pct)},
	{.name = "compress-chunk", .arg = "SIZE",
	 .help = "the unit of --compress (default 512; 0: the whole block)",
	 .example = "--compress-chunk 4k", .set = opt_set_size, J(compress_chunk)},
	{.name = "dedupe", .arg = "PCT",
	 .help = "PCT percent of written blocks repeat an earlier block: the last new one, or "
	 "one of --dedupe-set; fio's dedupe_percentage",
	 .example = "--dedupe 30", .set = opt_set_percent, J(dedupe_pct)},
	{.name = "dedupe-set", .arg = "PCT",
	 .help = "--dedupe's repeated blocks are drawn from a working set of PCT percent of the "
	 "region's blocks (fio's dedupe_mode=working_set)",
	 .example = "--dedupe 50 --dedupe-set 10", .set = opt_set_percent, J(dedupe_set_pct)},
	{.name = "dedupe-global",
	 .help = "every job with it draws from the same --dedupe-set (fio's dedupe_global)",
	 .example = "--dedupe 50 --dedupe-set 10 --dedupe-global", .set = opt_set_true,
	 J(dedupe_global)},
	{.name = "data-pattern", .arg = "BYTES",
	 .help = "writes carry these bytes repeated (or in --compress's share): 0xHEX, a decimal "
	 "integer, \"TEXT\", in any order; fio's buffer_pattern",
	 .example = "--data-pattern 0xdeadbeef", .set = set_data_pattern},
	{.name = "refill",
	 .help = "new random contents for every write (normally each buffer is filled once); "
	 "fio's refill_buffers", .example = "--refill", .set = opt_set_true, J(refill)},
	{.name = "scramble",
	 .help = "stamp each 512 bytes of a write with its offset, so rewritten buffers do not "
	 "deduplicate; fio's scramble_buffers", .example = "--scramble", .set = opt_set_true,
	 J(scramble)},
	{.name = "no-latency",
	 .help = "count I/Os without timing each one (measures the tool's overhead)",
	 .example = "--no-latency", .set = opt_set_true, J(no_latency)},
	{.name = "ios", .arg = "N", .help = "stop each thread after N I/Os (as well as at --time)",
	 .example = "--ios 1000", .set = opt_set_u64, J(ios_per_thread)},
	{.name = "trace", .arg = "FILE",
	 .help = "write every issued I/O (target thread R|W offset length) to FILE",
	 .example = "--trace io.log", .set = set_trace},
	{.name = "ioprio", .arg = "CLASS[:LEVEL]",
	 .help = "the I/O priority of the job's threads: rt, be or idle, LEVEL 0 (highest) to 7 "
	 "(default 4); fio's prioclass and prio", .example = "--ioprio idle", .set = set_ioprio,
	 .values = "rt be idle"},
	{.name = "cmdprio", .arg = "PCT[,PCT]",
	 .help = "this percent of reads (and, after a comma, of writes) carry their own I/O "
	 "priority, --cmdprio-class; the result shows their latency apart; uring and aio only; "
	 "fio's cmdprio_percentage", .example = "--cmdprio 10", .set = set_cmdprio},
	{.name = "cmdprio-class", .arg = "CLASS[:LEVEL][,CLASS[:LEVEL]]",
	 .help = "the priority --cmdprio and --cmdprio-split give: rt, be or idle, LEVEL 0 "
	 "(highest, the default) to 7; default rt:0; fio's cmdprio_class and cmdprio",
	 .example = "--cmdprio 10 --cmdprio-class be:0", .set = set_cmdprio_class,
	 .values = "rt be idle"},
	{.name = "cmdprio-split", .arg = "BS/PCT[/CLASS[/LEVEL]]:...[,...]",
	 .help = "the percent of each I/O size that carries a priority (its own, or "
	 "--cmdprio-class's); sizes not listed carry none; fio's cmdprio_bssplit",
	 .example = "--bssplit 4k/50:64k/50 --cmdprio-split 4k/100:64k/0",
	 .set = set_cmdprio_split},
	{.name = "latency-target", .arg = "DURATION",
	 .help = "find the deepest queue (up to --depth) whose I/Os keep within DURATION: each "
	 "thread starts at depth 1, doubles while a window holds, halves when one does not, and "
	 "once the depth settles runs a last window at it, reported apart, then ends; fio's "
	 "latency_target", .example = "--depth 64 --latency-target 2ms --latency-window 1s",
	 .set = opt_set_duration, J(lat_target_ns)},
	{.name = "latency-window", .arg = "DURATION",
	 .help = "how long each depth of --latency-target runs before it is judged (default 0: "
	 "after every I/O); fio's latency_window", .example = "--latency-window 500ms",
	 .set = opt_set_duration, J(lat_window_ns)},
	{.name = "latency-percentile", .arg = "PCT",
	 .help = "the percent of a window's I/Os that must keep within --latency-target (default "
	 "100: every one, and one over it at depth 1 fails the job); fio's latency_percentile",
	 .example = "--latency-percentile 99.9", .set = set_lat_pct},
	{.name = "latency-run",
	 .help = "--latency-target searches until the run ends instead of stopping at the depth "
	 "it settles on; fio's latency_run", .example = "--latency-run", .set = opt_set_true,
	 J(lat_run)},
	{.name = "sequence-stride",
	 .help = "with --distribution sequence:I,J,...: each pass of the indices is the next group "
	 "of as many blocks (2,0,1 then 5,3,4, ...), not the same blocks again; a newer fio's "
	 "random_sequence_stride", .example = "--distribution sequence:2,0,1 --sequence-stride",
	 .set = opt_set_true, J(seq_stride)},
	{.name = "atomic",
	 .help = "writes are atomic: each is stored whole or not at all after a power failure "
	 "(RWF_ATOMIC, Linux 6.11); the target must offer it (statx) for every write size, with "
	 "direct I/O; fio's atomic", .example = "--atomic -w 100 -b 16k", .set = opt_set_true,
	 J(atomic)},
	{.name = "sqpoll",
	 .help = "uring: a kernel thread takes the I/Os as they are queued, saving the system "
	 "call that submits them (IORING_SETUP_SQPOLL; fio's sqthread_poll)",
	 .example = "--engine uring --sqpoll", .set = opt_set_true, J(sqpoll)},
	{.name = "hipri",
	 .help = "pvsync2: each read and write is polled for its completion (RWF_HIPRI; fio's "
	 "hipri)", .example = "--engine pvsync2 --hipri", .set = opt_set_true, J(hipri)},
	{.name = "nowait",
	 .help = "pvsync2: an I/O that would block fails with EAGAIN instead (RWF_NOWAIT; fio's "
	 "nowait)", .example = "--engine pvsync2 --nowait", .set = opt_set_true, J(nowait)},
	{.name = "dontcache",
	 .help = "pvsync2, buffered I/O: the pages an I/O used leave the page cache after it "
	 "(RWF_DONTCACHE, Linux 6.14; fio's uncached)", .example = "--engine pvsync2 --cache "
	 "buffered --dontcache", .set = opt_set_true, J(dontcache)},
	{.name = "steady", .arg = "CRIT:LIMIT",
	 .help = "end the job once its rate is steady over --steady-time: iops, bw or lat (every "
	 "sample within LIMIT of the mean; lat: each sample's mean latency), iops_slope, "
	 "bw_slope or lat_slope (the slope per sample within LIMIT); LIMIT a number (lat: a "
	 "duration, microseconds without a unit) or a percent of the mean; fio's steadystate",
	 .example = "--steady iops_slope:0.5% --steady-time 60s", .set = set_steady,
	 .values = "iops iops_slope bw bw_slope lat lat_slope"},
	{.name = "steady-time", .arg = "DURATION",
	 .help = "the window --steady judges, its last samples (fio's ss_dur)",
	 .example = "--steady-time 60s", .set = opt_set_duration, J(steady_dur_ns)},
	{.name = "steady-ramp", .arg = "DURATION",
	 .help = "measured time before --steady's samples start (fio's ss_ramp)",
	 .example = "--steady-ramp 10s", .set = opt_set_duration, J(steady_ramp_ns)},
	{.name = "steady-interval", .arg = "DURATION",
	 .help = "how long each --steady sample is, whole seconds (default 1s)",
	 .example = "--steady-interval 10s", .set = opt_set_duration, J(steady_interval_ns)},
	{.name = "continue-on-error", .arg = "KINDS",
	 .help = "count failed I/Os of these kinds and go on: none (default), read, write, io, "
	 "verify, all (EIO and EILSEQ, or the errnos of --ignore-error)",
	 .example = "--continue-on-error write", .set = set_continue,
	 .values = "none read write io verify all"},
	{.name = "ignore-error", .arg = "LISTS",
	 .help = "with --continue-on-error, the errnos to go on after: READS[,WRITES[,VERIFY]], "
	 "each NAME:NUMBER:... (fio's ignore_error)", .example = "--ignore-error ,ENOSPC:EIO",
	 .set = set_ignore_error},

	{0},
};

/* run, sweep and mark: the target and how it is set up. */
static const struct opt target_opts[] = {
	{.name = "size", .letter = 'c', .arg = "SIZE",
	 .help = OPT_SIZE_HELP, .example = "-c 4G",
	 .set = opt_set_size, J(size), .min = 1},
	{.name = "cache", .arg = "MODE",
	 .help = "direct (O_DIRECT, default), buffered, writethrough (O_DSYNC), directsync (both)",
	 .example = "--cache buffered", .set = set_cache,
	 .values = "direct buffered writethrough directsync"},
	{.name = "no-invalidate",
	 .help = "keep the targets' page cache (normally dropped before the run, as fio does)",
	 .example = "--no-invalidate", .set = opt_set_false, J(invalidate)},
	{.name = "seed", .arg = "N",
	 .help = OPT_SEED_HELP,
	 .example = "--seed 42", .set = set_seed, J(seed)},
	{.name = "engine", .arg = "NAME",
	 .help = OPT_ENGINE_HELP,
	 .example = "--engine aio", .set = set_engine,
	 .values = "sync uring aio posixaio pvsync pvsync2 null fault"},
	{.name = "fill", .arg = "KIND",
	 .help = "contents of a new test file: random (default, incompressible) or zero",
	 .example = "--fill zero", .set = set_fill, .values = "random zero"},
	{.name = "keep", .help = OPT_KEEP_HELP,
	 .example = "--keep", .set = opt_set_true, J(keep)},
	{.name = "allow-write-device",
	 .help = "allow writing to a block device (destroys its data)",
	 .example = "--allow-write-device -w 100 /dev/loop0", .set = opt_set_true,
	 J(allow_write_device)},
	{.name = "force",
	 .help = "write even to a device that is mounted, held or holds a signature",
	 .example = "--force", .set = opt_set_true, J(force)},
	{0},
};

/* run alone: a run of several jobs, their logs and how they end each other. */
static const struct opt jobs_opts[] = {
	{.name = "flow", .arg = "WEIGHT",
	 .help = "flow control: the threads of the run's jobs with one --flow-id issue I/Os in the "
	 "proportion of their weights (1 to 1000); fio's flow",
	 .example = "--job-name log --flow 1 --job-name data --flow 8", .set = opt_set_count,
	 J(flow), .min = 1, .max = 1000},
	{.name = "flow-id", .arg = "N", .help = "the flow a --flow job belongs to (default 0)",
	 .example = "--flow-id 1", .set = opt_set_count, J(flow_id)},
	{.name = "flow-sleep", .arg = "DURATION",
	 .help = "a thread held back by --flow waits for its I/Os in flight, then this long "
	 "(default: it asks again at once); fio's flow_sleep",
	 .example = "--flow-sleep 1ms", .set = opt_set_duration, J(flow_sleep_ns)},
	{.name = "log-bw", .arg = "PREFIX",
	 .help = "write fio's bandwidth log, PREFIX_bw.N.log (N the job's number in the run): "
	 "\"time, KiB/s, direction, block size, priority\" per I/O, or per --log-avg; fio's "
	 "write_bw_log", .example = "--log-bw run1", .set = set_log_prefix, J(log.bw)},
	{.name = "log-iops", .arg = "PREFIX",
	 .help = "write fio's IOPS log, PREFIX_iops.N.log; fio's write_iops_log",
	 .example = "--log-iops run1", .set = set_log_prefix, J(log.iops)},
	{.name = "log-lat", .arg = "PREFIX",
	 .help = "write fio's latency logs in ns, PREFIX_lat.N.log, PREFIX_clat.N.log (the same "
	 "values: iorate times one latency per I/O) and an empty PREFIX_slat.N.log; fio's "
	 "write_lat_log", .example = "--log-lat run1", .set = set_log_prefix, J(log.lat)},
	{.name = "log-hist", .arg = "PREFIX",
	 .help = "write fio's latency histogram log, PREFIX_clat_hist.N.log: a line of fio's 1856 "
	 "bins per direction every --log-hist-interval; fio's write_hist_log",
	 .example = "--log-hist run1 --log-hist-interval 1s", .set = set_log_prefix,
	 J(log.hist)},
	{.name = "log-avg", .arg = "DURATION",
	 .help = "the logs hold an entry per direction for each window this long (whole ms), "
	 "not one per I/O: the mean latency, the rate; fio's log_avg_msec",
	 .example = "--log-bw run1 --log-avg 500ms", .set = set_log_ms, J(log.avg_ns), .min = 1},
	{.name = "log-hist-interval", .arg = "DURATION",
	 .help = "the window of --log-hist (whole ms; without it the file stays empty, as "
	 "fio's); fio's log_hist_msec", .example = "--log-hist-interval 1s", .set = set_log_ms,
	 J(log.hist_ns), .min = 1},
	{.name = "log-max",
	 .help = "--log-avg's entries hold the window's largest value, not its mean; fio's "
	 "log_max_value", .example = "--log-avg 1s --log-max", .set = opt_set_true,
	 J(log.max)},
	{.name = "log-offset",
	 .help = "the logs' entries hold each I/O's offset after its block size; fio's log_offset",
	 .example = "--log-lat run1 --log-offset", .set = opt_set_true, J(log.offset)},
	{.name = "log-prio",
	 .help = "the logs' last column is each I/O's priority in full (0xCLASSLEVEL), not "
	 "whether it is real-time; fio's log_prio", .example = "--log-prio", .set = opt_set_true,
	 J(log.prio)},
	{.name = "log-shared",
	 .help = "the logs' names carry no job number (PREFIX_bw.log): jobs with one prefix "
	 "share each file; fio's per_job_logs=0", .example = "--log-shared",
	 .set = opt_set_true, J(log.shared)},
	{.name = "job", .arg = "FILE", .help = "read the workload from a fio job file",
	 .example = "--job db.fio", .set = set_jobfile},
	{.name = "job-name", .arg = "NAME",
	 .help = "start another job of the run, named NAME: the options and targets after it are "
	 "its own, those before the first --job-name every job's", .example = "--job-name logs",
	 .set = set_job_name},
	{.name = "stonewall",
	 .help = "after --job-name: this job waits for the jobs before it and starts a new group",
	 .example = "--stonewall", .set = set_stonewall},
	{.name = "exit-all", .arg = "SCOPE",
	 .help = "when this job ends, end the others of its group (group; later groups still "
	 "run) or the whole run (all); fio's exitall", .example = "--exit-all group",
	 .set = set_exit_all, .values = "group all"},
	{.name = "exit-on-error", .arg = "SCOPE",
	 .help = "when this job fails, end the others of its group (group) or the whole run "
	 "(all); fio's exitall_on_error", .example = "--exit-on-error all",
	 .set = set_exit_all, .values = "group all"},
	{0},
};

static const struct opt emulation_opts[] = {
	{.name = "cap-iops", .arg = "N",
	 .help = "emulate a disk: at most N I/Os per second per target",
	 .example = "--cap-iops 500", .set = opt_set_rate, J(cap.iops)},
	{.name = "cap-mbps", .arg = "N",
	 .help = "emulate a disk: at most N MB/s (10^6 B/s) per target", .example = "--cap-mbps 60",
	 .set = opt_set_rate, J(cap.mbps), .excl = EXCL_CAP_MBPS},
	{.name = "cap-mibps", .arg = "N",
	 .help = "the same in MiB/s (2^20 B/s), as DiskSpd prints MB/s",
	 .example = "--cap-mibps 60", .set = set_mibps, J(cap.mbps), .excl = EXCL_CAP_MBPS},
	{.name = "burst-iops", .arg = "N",
	 .help = "disk burst rate while credits last (with --burst-seconds)",
	 .example = "--burst-iops 3500", .set = opt_set_rate, J(cap.burst_iops)},
	{.name = "burst-mbps", .arg = "N", .help = "disk burst MB/s while credits last",
	 .example = "--burst-mbps 170", .set = opt_set_rate, J(cap.burst_mbps)},
	{.name = "burst-seconds", .arg = "DURATION",
	 .help = "how long a full credit bucket sustains the burst",
	 .example = "--burst-seconds 30m", .set = set_seconds, J(cap.burst_seconds)},
	{.name = "vm-cap-iops", .arg = "N",
	 .help = "emulate a VM: at most N I/Os per second over all targets",
	 .example = "--vm-cap-iops 6400", .set = opt_set_rate, J(vm_cap.iops)},
	{.name = "vm-cap-mbps", .arg = "N", .help = "emulate a VM: at most N MB/s over all targets",
	 .example = "--vm-cap-mbps 64", .set = opt_set_rate, J(vm_cap.mbps),
	 .excl = EXCL_VM_CAP_MBPS},
	{.name = "vm-cap-mibps", .arg = "N", .help = "the same in MiB/s (2^20 B/s)",
	 .example = "--vm-cap-mibps 285", .set = set_mibps, J(vm_cap.mbps),
	 .excl = EXCL_VM_CAP_MBPS},
	{.name = "vm-burst-iops", .arg = "N", .help = "VM burst IOPS while credits last",
	 .example = "--vm-burst-iops 20000", .set = opt_set_rate, J(vm_cap.burst_iops)},
	{.name = "vm-burst-mbps", .arg = "N", .help = "VM burst MB/s while credits last",
	 .example = "--vm-burst-mbps 1200", .set = opt_set_rate, J(vm_cap.burst_mbps)},
	{.name = "vm-burst-seconds", .arg = "DURATION",
	 .help = "how long the VM's full credit bucket lasts", .example = "--vm-burst-seconds 30m",
	 .set = set_seconds, J(vm_cap.burst_seconds)},
	{.name = "cap-io-unit", .arg = "SIZE",
	 .help = "I/Os larger than this count as several (Azure premium: 256KiB)",
	 .example = "--cap-io-unit 256k", .set = opt_set_size, J(cap_io_unit)},
	{.name = "emulate", .arg = "PROFILE",
	 .help = "take caps from the catalog: PROVIDER:VM+[N]xDISK",
	 .example = "--emulate azure-2015:DS2+2xP30", .set = set_emulate},
	{.name = "rate-iops", .arg = "N",
	 .help = "open loop: issue N I/Os per second per target on a schedule",
	 .example = "--rate-iops 2000", .set = opt_set_rate, J(rate_iops)},
	{.name = "arrival", .arg = "KIND", .help = "open-loop schedule: fixed (default) or poisson",
	 .example = "--arrival poisson", .set = set_arrival, .values = "fixed poisson"},

	{0},
};

/*
 * The output options, a group for each set of the commands that take them. --json: every
 * command that prints a report (run, sweep, mark, the translators, the model commands, history,
 * verify).
 */
static const struct opt output_opts[] = {
	{.name = "json", .help = "print JSON on stdout (--format json; a run's fields: docs/json.md)",
	 .example = "--json", .set = opt_set_format, .excl = EXCL_FORMAT},
	{0},
};

/* run, sweep, mark, the translators, history. */
static const struct opt output_csv_opts[] = {
	{.name = "csv", .help = "print CSV (--format csv; columns in docs/csv.md)",
	 .example = "--csv", .set = opt_set_format, .excl = EXCL_FORMAT},
	{0},
};

/* The commands that print one run's result (run, iorate-mpi run, fio, diskspd, sqlio), history. */
static const struct opt output_fio_json_opts[] = {
	{.name = "fio-json",
	 .help = "print fio 3.33's JSON layout, for tools that read fio's (docs/fio-json.md)",
	 .example = "--fio-json", .set = opt_set_format, .excl = EXCL_FORMAT},
	{0},
};

/*
 * --format: one help text, a row for each set of formats (the completion offers a command's
 * own); a format the command does not print is refused naming those it does.
 */
static const struct opt output_result_opts[] = {
	{.name = "format", .arg = "FMT", .help = OPT_FORMAT_HELP, .example = "--format csv",
	 .set = opt_set_format, .excl = EXCL_FORMAT,
	 .values = "text json csv fio-json fio-json+ fio-terse"},
	{0},
};

/* sweep and mark: a table. */
static const struct opt output_table_opts[] = {
	{.name = "format", .arg = "FMT", .help = OPT_FORMAT_HELP, .example = "--format csv",
	 .set = opt_set_format, .excl = EXCL_FORMAT, .values = "text json csv"},
	{0},
};

/* run, sweep, the translators and history; mark and report have their own, of other defaults. */
static const struct opt output_units_opts[] = {
	{.name = "units", .arg = "UNITS", .help = OPT_UNITS_HELP, .example = "--units si",
	 .set = opt_set_units, .values = "iec si"},
	{0},
};

/* run, sweep, history. */
static const struct opt output_series_opts[] = {
	{.name = "series", .help = "text: also print the series (a line per --interval)",
	 .example = "--series", .set = opt_set_true, O(ropts.series)},
	{0},
};

/* run and sweep. */
static const struct opt output_interval_opts[] = {
	{.name = "interval", .arg = "DURATION",
	 .help = "the series' interval, 10ms to 1h (default: 100ms when every job of the group "
	 "has a --time of at most 10s, else 1s)", .example = "--interval 250ms",
	 .set = opt_set_duration, J(interval_ns), .min = 1},
	{0},
};

/* The commands that print one run's result, history. */
static const struct opt output_brief_opts[] = {
	{.name = "brief",
	 .help = "print only the headline: 'read 20,178 IOPS, 78.8 MiB/s, p99 81.7 us on 1 "
	 "target, ...' (a line per group and the total for several jobs)", .example = "--brief",
	 .set = opt_set_brief, .excl = EXCL_FORMAT},
	{0},
};

/* run alone (and fio, which runs as run does). */
static const struct opt output_save_opts[] = {
	{.name = "save",
	 .help = "also keep the result in the history ('iorate history', docs/history.md)",
	 .example = "--save", .set = opt_set_true, O(save)},
	{.name = "db", .arg = "FILE", .help = OPT_DB_HELP, .example = "--db runs.db",
	 .set = set_db},
	{0},
};

/* Every command that runs or reads I/O (run, sweep, mark, the translators, verify). */
static const struct opt output_quiet_opts[] = {
	{.name = "quiet", .letter = 'q', .help = "no live progress line", .example = "-q",
	 .set = opt_set_true, O(quiet)},
	{0},
};

/* run alone (and fio). */
static const struct opt output_dry_run_opts[] = {
	{.name = "dry-run", .help = OPT_DRY_RUN_HELP, .example = "--dry-run", .set = set_dry_run},
	{0},
};

const struct opt_group opt_bs = {.title = "Workload", .opts = bs_opts};
const struct opt_group opt_write = {.title = "Workload", .opts = write_opts};
const struct opt_group opt_queue = {.title = "Workload", .opts = queue_opts};
const struct opt_group opt_workload = {.title = "Workload", .opts = workload_opts};
const struct opt_group opt_target = {.title = "Workload", .opts = target_opts};
const struct opt_group opt_jobs = {.title = "Workload", .opts = jobs_opts};
const struct opt_group opt_emulation = {.title = "Emulated cloud caps and open loop",
					 .opts = emulation_opts};
const struct opt_group opt_output = {.title = "Output", .opts = output_opts};
const struct opt_group opt_output_csv = {.title = "Output", .opts = output_csv_opts};
const struct opt_group opt_output_fio_json = {.title = "Output", .opts = output_fio_json_opts};
const struct opt_group opt_output_result = {.title = "Output", .opts = output_result_opts};
const struct opt_group opt_output_table = {.title = "Output", .opts = output_table_opts};
const struct opt_group opt_output_units = {.title = "Output", .opts = output_units_opts};
const struct opt_group opt_output_series = {.title = "Output", .opts = output_series_opts};
const struct opt_group opt_output_interval = {.title = "Output", .opts = output_interval_opts};
const struct opt_group opt_output_brief = {.title = "Output", .opts = output_brief_opts};
const struct opt_group opt_output_save = {.title = "Output", .opts = output_save_opts};
const struct opt_group opt_output_quiet = {.title = "Output", .opts = output_quiet_opts};
const struct opt_group opt_output_dry_run = {.title = "Output", .opts = output_dry_run_opts};

const struct opt_group *const run_option_groups[] = {
	&opt_bs, &opt_write, &opt_queue, &opt_workload, &opt_target, &opt_jobs, &opt_emulation,
	&opt_output, &opt_output_csv, &opt_output_fio_json, &opt_output_result, &opt_output_units,
	&opt_output_series, &opt_output_interval, &opt_output_brief, &opt_output_save,
	&opt_output_quiet, &opt_output_dry_run, NULL,
};

/*
 * run's options without the command: the DiskSpd, SQLIO and fio front ends set a job through
 * them, and need nothing of run's own (its main, its help), so they do not call back into it.
 */
const struct command cmd_run_options = {.name = "run", .groups = run_option_groups,
					.output = &result_formats};

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
	free(j->emulate);
	if (!(j->emulate = strdup(profile)))
		return run_error("out of memory");
	merge_caps(&j->cap, &disk);
	merge_caps(&j->vm_cap, &vm);
	if (!j->cap_io_unit)
		j->cap_io_unit = unit;
	if (ndisks && j->ntargets && ndisks != j->ntargets) {
		char *p = escape_dup(profile);

		fprintf(stderr,
			"iorate: warning: --emulate %s has %u disk%s but the run has %u target%s; "
			"each target gets one disk's caps\n",
			p ? p : "", ndisks, ndisks == 1 ? "" : "s", j->ntargets,
			j->ntargets == 1 ? "" : "s");
		free(p);
	}
	return 0;
}
