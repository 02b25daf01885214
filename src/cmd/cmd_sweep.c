/*
 * iorate sweep: one workload run several times, varying one parameter (targets, threads, depth,
 * bs, write) and, with several --bs, the block size as well, tabulated one row per value as
 * in a stripe table: Disks | 64K IOPS | 64K MB/s | 8K IOPS | 8K MB/s.
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "core/gate.h"
#include "cmd/fit.h"
#include "cmd/options.h"
#include "cmd/run_common.h"
#include "core/result.h"
#include "core/runner.h"
#include "report/json.h"
#include "report/progress.h"
#include "report/sweep_fmt.h"
#include "util/parse.h"
#include "util/suggest.h"

#ifndef IORATE_VERSION
#define IORATE_VERSION "unknown"
#endif

enum sweep_param { SW_TARGETS, SW_THREADS, SW_DEPTH, SW_BS, SW_WRITE, SW_NPARAMS };

static const struct param {
	const char *name;
	const char *label;       /* column heading of the text table */
	bool sizes;
	uint64_t min, max;
	const char *example;
} params[SW_NPARAMS] = {
	{.name = "targets", .label = "Disks", .sizes = false, .min = 1, .max = 4096,
	 .example = "targets=1..16"},
	{.name = "threads", .label = "Threads", .sizes = false, .min = 1, .max = JOB_MAX_THREADS,
	 .example = "threads=1,2,4,8"},
	{.name = "depth", .label = "Depth", .sizes = false, .min = 1, .max = JOB_MAX_DEPTH,
	 .example = "depth=1..64:x2"},
	{.name = "bs", .label = "Block", .sizes = true, .min = 1, .max = 1ull << 30,
	 .example = "bs=4k,8k,64k,1m"},
	{.name = "write", .label = "Write%", .sizes = false, .min = 0, .max = 100,
	 .example = "write=0..100:25"},
};

struct sweep {
	enum sweep_param param;
	uint64_t *vals;
	size_t nvals;
	uint64_t *bs;            /* the --bs values; one (the job's) when none or one was given */
	size_t nbs;
	struct job base;
	struct output_opts out;
	bool user_keep;
	struct gate_id *made;    /* per target: the test file a run created, removed at the end */
	struct sweep_cell *cells; /* nvals x nbs */
	char *notes[16];
	unsigned nnotes;
};

static int sweep_main(int argc, char **argv);

static const struct opt_group *const sweep_groups[] = {
	&opt_bs, &opt_write, &opt_queue, &opt_workload, &opt_target, &opt_emulation, &opt_output,
	&opt_output_csv, &opt_output_table, &opt_output_units, &opt_output_series,
	&opt_output_interval, &opt_output_quiet, NULL,
};

const struct command cmd_sweep = {
	.name = "sweep",
	.summary = "vary one parameter (targets, threads, depth, bs, write) and tabulate",
	.synopsis = "PARAM=LIST [options] TARGET...",
	.about = "Runs the same workload once per value of PARAM and prints one row per value, with\n"
		 "IOPS, throughput and latency; several --bs give one pair of columns per block\n"
		 "size, as in a stripe table (Disks | 64K IOPS | 64K MiB/s | 8K IOPS | 8K MiB/s).\n"
		 "\n"
		 "PARAM=LIST (lists: 1,2,4  1..16  0..100:25  1..64:x2  4k,8k,64k):\n"
		 "  targets=1..16     use the first N targets; with one directory as the target,\n"
		 "                    N test files are created in it (and removed at the end)\n"
		 "  threads=1,2,4,8   threads per target\n"
		 "  depth=1..64:x2    outstanding I/Os per thread\n"
		 "  bs=4k,8k,64k,1m   block size (or give several --bs)\n"
		 "  write=0..100:25   percent of I/Os that write\n"
		 "\n"
		 "Each run lasts --time (default 10s). Test files are created once and reused by\n"
		 "every run. Every row is checked against the targets before the first runs.\n"
		 "Ctrl-C stops: the rows done are kept, and the row it stopped, marked\n"
		 "interrupted. --trace FILE writes one file per run, named\n"
		 "FILE.PARAM=VALUE.bs=SIZE. The options are those of 'iorate run'; --bs may be\n"
		 "given several times.",
	.groups = sweep_groups,
	.output = &sweep_formats,
	.examples = "  iorate sweep targets=1..16 --bs 64k --bs 8k -t 8 -o 8 -d 30 \\\n"
		    "      --cap-iops 500 --vm-cap-mibps 285 --size 1G /mnt/data\n"
		    "      (a 2015 Azure A4 stripe of 1 to 16 standard disks, emulated)\n"
		    "  iorate sweep depth=1..64:x2 -b 4k -d 10 /mnt/data/test.dat\n"
		    "  iorate sweep write=0..100:25 -b 8k -t 4 -o 16 --csv /dev/nvme0n1 > mix.csv\n"
		    "  iorate sweep threads=1,2,4,8 --engine null --json x > overhead.json\n",
	.exit_status = "0 done, 1 a run failed or a target was refused (the rows done are\n"
		       "printed), 2 bad usage, 128+N stopped by signal N (130: Ctrl-C; the rows\n"
		       "done and the one stopped are printed).",
	.fn = sweep_main,
};

/* The option table keeps the last --bs; a sweep takes each one as it is set. */
static int sweep_on_set(struct opt_ctx *c, const struct opt *o)
{
	struct sweep *s = c->state;
	uint64_t *n;

	if (strcmp(o->name, "bs"))
		return 0;
	if (!(n = realloc(s->bs, (s->nbs + 1) * sizeof(*n))))
		return run_error("out of memory");
	(s->bs = n)[s->nbs++] = c->job->bs;
	return 0;
}

static int parse_param(struct sweep *s, const char *arg, bool *is_param)
{
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : 0;
	struct stat st;
	int r;

	*is_param = false;
	if (!eq || len == 0 || strspn(arg, "abcdefghijklmnopqrstuvwxyz") != len)
		return 0;
	for (unsigned p = 0; p < SW_NPARAMS; p++) {
		if (strlen(params[p].name) != len || strncmp(arg, params[p].name, len))
			continue;
		*is_param = true;
		if (s->vals)
			return usage_error("sweep: %s: one parameter at a time (already "
					   "sweeping %s)", arg, params[s->param].name);
		s->param = p;
		r = parse_list(eq + 1, params[p].sizes, &s->vals, &s->nvals);
		if (r || !s->nvals)
			return usage_error("%s: '%s' is not a list (examples: %s)", params[p].name,
					   eq + 1, params[p].example);
		for (size_t i = 0; i < s->nvals; i++)
			if (s->vals[i] < params[p].min || s->vals[i] > params[p].max)
				return usage_error("%s: %llu is out of range (%llu to %llu)",
						   params[p].name, (unsigned long long)s->vals[i],
						   (unsigned long long)params[p].min,
						   (unsigned long long)params[p].max);
		return 0;
	}
	if (stat(arg, &st) == 0)
		return 0; /* an existing file whose name has an '=' in it */
	*is_param = true;
	char word[64], near[120];
	struct suggest sg;

	snprintf(word, sizeof(word), "%.*s", (int)(len < 63 ? len : 63), arg);
	suggest_init(&sg, word);
	for (unsigned p = 0; p < SW_NPARAMS; p++)
		suggest_add(&sg, params[p].name, NULL);
	return usage_error("sweep: '%s' is not a parameter (targets, threads, depth, bs, write)%s",
			   word, suggest_tail(&sg, NULL, near, sizeof(near)));
}

/*
 * Targets: either as many as the sweep needs, or one directory in which the sweep creates them.
 * Files that do not exist yet are created by the first run that uses them, kept for the next
 * runs (filling a test file once per row would dominate the sweep), and removed at the end.
 */
static int set_targets(struct sweep *s, char **paths, int n)
{
	unsigned need = 1;
	struct stat st;

	if (s->param == SW_TARGETS)
		for (size_t i = 0; i < s->nvals; i++)
			if (s->vals[i] > need)
				need = (unsigned)s->vals[i];
	if (n == 0)
		return usage_error("sweep: no target: name files, block devices or one directory "
				   "(see 'iorate sweep --help')");
	if (n == 1 && stat(paths[0], &st) == 0 && S_ISDIR(st.st_mode)) {
		/* Names nobody can guess, so none can be planted there beforehand. */
		for (unsigned i = 0; i < need; i++) {
			char p[4096], prefix[32];
			snprintf(prefix, sizeof(prefix), "iorate-sweep-%02u.", i + 1);
			int r = gate_unique_name(paths[0], prefix, ".dat", p, sizeof(p));
			if (r)
				return run_error("%s: %s", paths[0], strerror(-r));
			if (job_add_target(&s->base, p))
				return run_error("out of memory");
		}
	} else if ((unsigned)n < need) {
		return usage_error("targets=: the sweep goes up to %u targets but %d %s given; "
				   "name %u, or one directory to create them in", need, n,
				   n == 1 ? "is" : "are", need);
	} else {
		for (int i = 0; i < n; i++)
			if (job_add_target(&s->base, paths[i]))
				return run_error("out of memory");
	}
	if (!(s->made = calloc(s->base.ntargets, sizeof(*s->made))))
		return run_error("out of memory");
	return 0;
}

/* The job of value i with block size bs. */
static int make_job(const struct sweep *s, size_t i, uint64_t bs, struct job *j)
{
	uint64_t v = s->vals[i];
	int r;

	if ((r = job_copy(j, &s->base)))
		return r;
	j->bs = bs;
	j->keep = true; /* the sweep removes what it created, once, at the end */
	switch (s->param) {
	case SW_TARGETS:
		for (unsigned t = (unsigned)v; t < j->ntargets; t++)
			free(j->targets[t]);
		j->ntargets = (unsigned)v;
		break;
	case SW_THREADS:
		j->threads = (unsigned)v;
		break;
	case SW_DEPTH:
		j->depth = (unsigned)v;
		break;
	case SW_BS:
		j->bs = v;
		break;
	case SW_WRITE:
		j->write_pct = (unsigned)v;
		break;
	default:
		break;
	}
	if (j->trace_path) {
		/* --trace FILE: a file per run, FILE.threads=8.bs=64KiB, not one overwritten each run */
		char vb[32], bb[32], *path;

		if (s->param == SW_BS)
			snprintf(vb, sizeof(vb), "bs=%s", fmt_size(j->bs, bb, sizeof(bb)));
		else
			snprintf(vb, sizeof(vb), "%s=%llu.bs=%s", params[s->param].name,
				 (unsigned long long)v, fmt_size(j->bs, bb, sizeof(bb)));
		if (asprintf(&path, "%s.%s", j->trace_path, vb) < 0)
			return -ENOMEM;
		free(j->trace_path);
		j->trace_path = path;
	}
	return 0;
}

/*
 * --trace FILE names a file per row, FILE.PARAM=VALUE.bs=SIZE: FILE itself must be a name a
 * regular file could have, never a device, FIFO or link whose path the rows' names would extend
 * (`--trace /dev/sdb` made /dev/sdb.threads=1.bs=4KiB).
 */
static int trace_base_check(const char *path)
{
	char err[PATH_MAX + 256];
	int r;

	if (!path)
		return 0;
	if (!strcmp(path, "-"))
		return usage_error(FIELD("trace") " -: a sweep writes one trace per row, to files "
				   "named after FILE; give " FIELD("trace") " a file name");
	if ((r = gate_check_db(FIELD("trace"), path, err, sizeof(err))))
		return r == -EINVAL ? usage_error("%s (a sweep names its traces after it)", err)
				    : run_error("%s", err);
	return 0;
}

/* The view of the sweep the report formats read (src/report/sweep_fmt.c). */
static struct sweep_table table_of(const struct sweep *s)
{
	return (struct sweep_table){
		.param = params[s->param].name,
		.label = params[s->param].label,
		.sizes = params[s->param].sizes,
		.bs_swept = s->param == SW_BS,
		.vals = s->vals,
		.nvals = s->nvals,
		.bs = s->bs,
		.nbs = s->nbs,
		.cells = s->cells,
		.command_line = s->base.command_line,
		.units = s->out.ropts.units,
		.notes = s->notes,
		.nnotes = s->nnotes,
	};
}

static void keep_notes(struct sweep *s, const struct result *res)
{
	for (unsigned n = 0; n < res->nnotes; n++) {
		bool seen = false;
		for (unsigned k = 0; k < s->nnotes && !seen; k++)
			seen = !strcmp(s->notes[k], res->notes[n]);
		if (!seen && s->nnotes < sizeof(s->notes) / sizeof(s->notes[0]) &&
		    (s->notes[s->nnotes] = strdup(res->notes[n])))
			s->nnotes++;
	}
}

/* A file a run created is kept for the next runs, which must find that very file there. */
static void note_created(struct sweep *s, const struct result *res)
{
	for (unsigned t = 0; t < res->ntargets && t < s->base.ntargets; t++) {
		if (!res->targets[t].created || s->made[t].ino)
			continue;
		s->made[t] = res->targets[t].id;
		job_expect(&s->base, t, &s->made[t]);
	}
}

/* Takes in the cell what a run that finished measured: read and write together. */
static void keep_cell(struct sweep *s, struct sweep_cell *c, const struct result *res)
{
	struct dir_stats tot;

	if (result_dir_total(&res->read, &res->write, &res->trim, &tot))
		dir_stats_init(&tot);
	dir_stats_summarize(&tot, res->seconds, &c->tot);
	dir_stats_release(&tot);
	c->seconds = res->seconds;
	c->done = true;
	keep_notes(s, res);
	/* Only a format that embeds the runs pays for their JSON. */
	if (REPORT_WRITER(struct sweep_format, s->out.fmt)->ops->runs)
		c->run = report_json_result(res);
}

/* The block size of value i's k-th column. */
static uint64_t row_bs(const struct sweep *s, size_t i, size_t k)
{
	return s->param == SW_BS ? s->vals[i] : s->bs[k];
}

/* How messages name value i with block size k: "depth=8 bs=64KiB", or "bs=8MiB" when bs= varies. */
static const char *row_label(const struct sweep *s, size_t i, size_t k, char *buf, size_t len)
{
	const struct sweep_table tab = table_of(s);
	char b1[32], b2[32];

	if (s->param == SW_BS)
		snprintf(buf, len, "bs=%s", fmt_size(s->vals[i], b2, sizeof(b2)));
	else
		snprintf(buf, len, "%s=%s bs=%s", params[s->param].name,
			 sweep_fmt_value(&tab, s->vals[i], b1, sizeof(b1)),
			 fmt_size(s->bs[k], b2, sizeof(b2)));
	return buf;
}

/* Runs value i with block size k: 0, or the exit code that ends the sweep. */
static int sweep_one(struct sweep *s, size_t i, size_t k, struct progress *pr,
		     const struct runner_hooks *hooks)
{
	struct sweep_cell *c = &s->cells[i * s->nbs + k];
	char label[96];
	struct result res;
	struct job j;
	int rc, code = 0;

	if (make_job(s, i, row_bs(s, i, k), &j))
		return run_error("out of memory");
	row_label(s, i, k, label, sizeof(label));
	progress_label(pr, "[%zu/%zu] %s", i * s->nbs + k + 1, s->nvals * s->nbs, label);
	result_init(&res);
	rc = runner_run(&j, &res, hooks);
	cmd_result_spell(&res);
	progress_clear(pr);
	note_created(s, &res);
	if (rc || !res.started) {
		code = res.interrupted || (*hooks->stop && !rc) ? EXIT_INTERRUPTED
							    : cmd_run_failed(rc, &res, label);
	} else {
		/* A run stopped by a signal is kept too, marked: what it measured, as run prints. */
		keep_cell(s, c, &res);
		c->interrupted = res.interrupted;
		code = res.interrupted ? EXIT_INTERRUPTED : 0;
	}
	result_release(&res);
	job_release(&j);
	return code;
}

/*
 * "iorate: interrupted: 3 of 8 rows done": a row is done when every block size of it ran to
 * its end; the one stopped is named with the seconds it covers.
 */
static void say_interrupted(const struct sweep *s)
{
	size_t rows = 0;

	for (size_t i = 0; i < s->nvals; i++) {
		bool all = true;
		for (size_t k = 0; k < s->nbs; k++)
			all = all && s->cells[i * s->nbs + k].done &&
			      !s->cells[i * s->nbs + k].interrupted;
		rows += all;
	}
	fprintf(stderr, "iorate: interrupted: %zu of %zu rows done\n", rows, s->nvals);
	for (size_t n = 0; n < s->nvals * s->nbs; n++) {
		char label[96];

		if (!s->cells[n].interrupted)
			continue;
		row_label(s, n / s->nbs, n % s->nbs, label, sizeof(label));
		fprintf(stderr, "iorate: %s was stopped: its figures cover the %.1f s that ran\n",
			label, s->cells[n].seconds);
	}
}

/* Whether value i has a cell to print: every one when the sweep went on, any when it stopped. */
static bool row_ran(const struct sweep *s, size_t i)
{
	for (size_t k = 0; k < s->nbs; k++)
		if (s->cells[i * s->nbs + k].done)
			return true;
	return false;
}

/*
 * Runs every (value, block size) in order. Returns 0, the exit code of a run that failed, or
 * EXIT_INTERRUPTED; the rows done are printed in any case.
 */
static int sweep_run(struct sweep *s)
{
	const struct report_sweep_ops *fmt = REPORT_WRITER(struct sweep_format, s->out.fmt)->ops;
	struct sweep_table tab = table_of(s);
	struct runner_hooks hooks;
	struct progress pr;
	int code = 0;
	/* Standard output keeps its first write error (ENOSPC), said once at the end. */
	FILE *f = cmd_stdout_open();

	if (!f)
		return 1;
	progress_init(&pr, s->out.quiet);
	progress_hooks(&pr, &hooks, cmd_stop_flag());
	fmt->begin(f, &tab);
	for (size_t i = 0; i < s->nvals && !code; i++) {
		for (size_t k = 0; k < s->nbs && !code; k++)
			code = *hooks.stop ? EXIT_INTERRUPTED : sweep_one(s, i, k, &pr, &hooks);
		if (!code || (code == EXIT_INTERRUPTED && row_ran(s, i)))
			fmt->row(f, &tab, i);
		fflush(f); /* each row as it is measured */
	}
	tab = table_of(s); /* with the notes of every run */
	if (cmd_stdout_close(f, fmt->end(f, &tab, code == EXIT_INTERRUPTED)))
		return code ? code : 1;
	if (code == EXIT_INTERRUPTED)
		say_interrupted(s);
	return code;
}

static void sweep_release(struct sweep *s)
{
	for (unsigned t = 0; s->made && t < s->base.ntargets; t++) {
		if (!s->made[t].ino || s->user_keep)
			continue;
		if (gate_unlink_created(s->base.targets[t], &s->made[t]) == -ESTALE)
			run_error("warning: %s was replaced by a file iorate did not create; it "
				  "was left in place", s->base.targets[t]);
	}
	free(s->made);
	for (size_t i = 0; s->cells && i < s->nvals * s->nbs; i++)
		json_decref(s->cells[i].run);
	for (unsigned n = 0; n < s->nnotes; n++)
		free(s->notes[n]);
	free(s->cells);
	free(s->vals);
	free(s->bs);
	job_release(&s->base);
}

/* The values swept and the block sizes of each: 0, or the exit code after saying why. */
static int sweep_values(struct sweep *s)
{
	if (!s->vals && s->nbs > 1) {
		/* Only several --bs: sweep the block size. */
		s->param = SW_BS;
		s->vals = s->bs;
		s->nvals = s->nbs;
		s->bs = NULL;
		s->nbs = 0;
	}
	if (!s->vals)
		return usage_error("sweep: name the parameter to vary, e.g. targets=1..16, "
				   "depth=1..64:x2 (see 'iorate sweep --help')");
	if (s->param == SW_BS && s->nbs)
		return usage_error("--bs: bs= already varies the block size; give one or the other");
	if (s->nbs == 0) {
		/* No --bs: the job's own block size, the default or a --job file's. */
		if (!(s->bs = malloc(sizeof(*s->bs))))
			return run_error("out of memory");
		s->bs[s->nbs++] = s->base.bs;
	}
	return 0;
}

/*
 * Every combination is validated before the first I/O: the options, then each row against its
 * targets as they are (a block larger than a target, a write row on a device without
 * --allow-write-device or holding a filesystem, direct I/O alignment), so that no row runs
 * before a later one is found impossible.
 */
static int sweep_check(const struct sweep *s)
{
	for (size_t i = 0; i < s->nvals; i++) {
		for (size_t k = 0; k < s->nbs; k++) {
			char err[PATH_MAX + 256], label[96];
			struct job j;
			int bad;

			if (make_job(s, i, row_bs(s, i, k), &j))
				return run_error("out of memory");
			if ((bad = job_validate(&j, err, sizeof(err))) ||
			    (bad = runner_precheck(&j, err, sizeof(err)))) {
				job_release(&j);
				return usage_error("%s", err);
			}
			bad = cmd_job_fits(&j, err, sizeof(err));
			job_release(&j);
			row_label(s, i, k, label, sizeof(label));
			if (bad == -EDOM || bad == -EINVAL)
				return usage_error("%s: %s", label, err);
			if (bad == -ENOMEM)
				return run_error("out of memory");
			if (bad)
				return run_error("%s: %s", label, err);
		}
	}
	return 0;
}

static int sweep_main(int argc, char **argv)
{
	struct sweep s = {0};
	struct opt_ctx c = {.cmd = &cmd_sweep, .job = &s.base, .out = &s.out,
			    .on_set = sweep_on_set, .state = &s};
	char **av = calloc((size_t)argc + 1, sizeof(*av)), **paths = NULL;
	int ac = argc, first = 0, npaths = 0, rc;

	job_init(&s.base);
	output_opts_init(&s.out);
	if (!av || !(paths = calloc((size_t)argc + 1, sizeof(*paths)))) {
		rc = run_error("out of memory");
		goto out;
	}
	memcpy(av, argv, (size_t)argc * sizeof(*av));
	/* The format named (checked as it was given), or text, from sweep's own table. */
	if ((rc = options_parse(&c, ac, av, &first)) ||
	    (rc = output_opts_format(&s.out, &sweep_formats)))
		goto out;
	if (c.help) {
		options_help(stdout, &cmd_sweep);
		goto out;
	}
	for (int i = first; i < ac; i++) {
		bool is_param;
		if ((rc = parse_param(&s, av[i], &is_param)))
			goto out;
		if (!is_param)
			paths[npaths++] = av[i];
	}
	if ((rc = sweep_values(&s)))
		goto out;
	s.user_keep = s.base.keep;
	if ((rc = set_targets(&s, paths, npaths)))
		goto out;
	if (c.emulate) {
		/* One disk's caps per target whatever a row's count: no warning about it. */
		unsigned n = s.base.ntargets;
		if (s.param == SW_TARGETS)
			s.base.ntargets = 0;
		rc = options_emulate(&s.base, c.emulate);
		s.base.ntargets = n;
		if (rc)
			goto out;
	}
	if ((rc = options_check_caps(&s.base)))
		goto out;
	if (job_set_command_line(&s.base, "iorate", argc, argv)) {
		rc = run_error("out of memory");
		goto out;
	}
	/* Outputs first: a --trace naming the --db is refused before a target is filled. */
	if ((rc = cmd_jobs_uses(&s.base, 1, &s.out)) || (rc = output_opts_check(&s.out)) ||
	    (rc = trace_base_check(s.base.trace_path)) || (rc = sweep_check(&s)))
		goto out;
	if (!(s.cells = calloc(s.nvals * s.nbs, sizeof(*s.cells)))) {
		rc = run_error("out of memory");
		goto out;
	}
	rc = sweep_run(&s);
out:
	sweep_release(&s);
	free(av);
	free(paths);
	return rc;
}
