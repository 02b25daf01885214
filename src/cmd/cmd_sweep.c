/*
 * iorate sweep: one workload run several times, varying one parameter (targets, threads, depth,
 * bs, write) and, with several --bs, the block size as well, tabulated one row per value as
 * seed 000's stripe table: Disks | 64K IOPS | 64K MB/s | 8K IOPS | 8K MB/s.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "cmd/run_common.h"
#include "core/result.h"
#include "core/runner.h"
#include "report/json.h"
#include "report/sweep_fmt.h"
#include "util/parse.h"

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
	{"targets", "Disks", false, 1, 4096, "targets=1..16"},
	{"threads", "Threads", false, 1, JOB_MAX_THREADS, "threads=1,2,4,8"},
	{"depth", "Depth", false, 1, JOB_MAX_DEPTH, "depth=1..64:x2"},
	{"bs", "Block", true, 1, 1ull << 30, "bs=4k,8k,64k,1m"},
	{"write", "Write%", false, 0, 100, "write=0..100:25"},
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
	char **remove;           /* test files that did not exist before the sweep */
	size_t nremove;
	struct sweep_cell *cells; /* nvals x nbs */
	char *notes[16];
	unsigned nnotes;
	bool progress;
	unsigned run_no, nruns;
	char run_label[96];
};

static void sweep_usage(FILE *f)
{
	fprintf(f,
		"usage: iorate sweep PARAM=LIST [run options] TARGET...\n\n"
		"Runs the same workload once per value of PARAM and prints one row per\n"
		"value, with IOPS, throughput and latency; several --bs give one pair of\n"
		"columns per block size, as in a stripe table\n"
		"(Disks | 64K IOPS | 64K MiB/s | 8K IOPS | 8K MiB/s).\n\n"
		"PARAM=LIST (lists: 1,2,4  1..16  0..100:25  1..64:x2  4k,8k,64k):\n"
		"  targets=1..16     use the first N targets; with one directory as the target,\n"
		"                    N test files are created in it (and removed at the end)\n"
		"  threads=1,2,4,8   threads per target\n"
		"  depth=1..64:x2    outstanding I/Os per thread\n"
		"  bs=4k,8k,64k,1m   block size (or give several --bs)\n"
		"  write=0..100:25   percent of I/Os that write\n"
		"Each run lasts --time (default 10s). Test files are created once and reused\n"
		"by every run. Ctrl-C stops: the rows done are kept. --trace FILE writes one\n"
		"file per run, named FILE.PARAM=VALUE.bs=SIZE.\n\n"
		"Options (as for 'iorate run'; --bs may be given several times):\n");
	options_help(f, OPT_SWEEP);
	fprintf(f,
		"\nExamples:\n"
		"  iorate sweep targets=1..16 --bs 64k --bs 8k -t 8 -o 8 -d 30 \\\n"
		"      --cap-iops 500 --vm-cap-mibps 285 --size 1G /mnt/data  (seed 000)\n"
		"  iorate sweep depth=1..64:x2 -b 4k -d 10 /mnt/data/test.dat\n"
		"  iorate sweep write=0..100:25 -b 8k -t 4 -o 16 --csv /dev/nvme0n1 > mix.csv\n"
		"  iorate sweep threads=1,2,4,8 --engine null --json x > overhead.json\n"
		"Exit status: 0 done, 1 a run failed (the rows done are printed), 2 bad usage,\n"
		"130 interrupted by Ctrl-C or SIGTERM (the rows done are printed).\n");
}

/* The option table keeps the last --bs; a sweep takes each one as it is set. */
static int sweep_on_set(struct opt_ctx *c, const struct opt *o)
{
	struct sweep *s = c->cmd;
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
	return usage_error("sweep: '%.*s' is not a parameter (targets, threads, depth, bs, write)",
			   (int)len, arg);
}

static int remember_new(struct sweep *s, const char *path)
{
	struct stat st;
	char **n;

	if (s->user_keep || stat(path, &st) == 0 || errno != ENOENT)
		return 0;
	if (!(n = realloc(s->remove, (s->nremove + 1) * sizeof(*n))))
		return -ENOMEM;
	s->remove = n;
	if (!(n[s->nremove] = strdup(path)))
		return -ENOMEM;
	s->nremove++;
	return 0;
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
		for (unsigned i = 0; i < need; i++) {
			char p[4096];
			snprintf(p, sizeof(p), "%s/iorate-sweep-%02u.dat", paths[0], i + 1);
			if (job_add_target(&s->base, p) || remember_new(s, p))
				return run_error("out of memory");
		}
		return 0;
	}
	if ((unsigned)n < need)
		return usage_error("targets=: the sweep goes up to %u targets but %d %s given; "
				   "name %u, or one directory to create them in", need, n,
				   n == 1 ? "is" : "are", need);
	for (int i = 0; i < n; i++)
		if (job_add_target(&s->base, paths[i]) || remember_new(s, paths[i]))
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
	};
}

static void sweep_tick(void *arg, const struct runner_progress *p)
{
	struct sweep *s = arg;

	if (!s->progress)
		return;
	if (!strcmp(p->phase, "preparing"))
		fprintf(stderr, "\r\033[K[%u/%u] %s: preparing test file %3.0f%%", s->run_no,
			s->nruns, s->run_label, p->prepare_done * 100);
	else if (!strcmp(p->phase, "measuring"))
		fprintf(stderr, "\r\033[K[%u/%u] %s: %.1fs / %.1fs, %.0f IOPS, %.2f MiB/s",
			s->run_no, s->nruns, s->run_label, p->elapsed_s, p->total_s, p->iops,
			p->mibps);
	else
		fprintf(stderr, "\r\033[K[%u/%u] %s: %s", s->run_no, s->nruns, s->run_label,
			p->phase);
	fflush(stderr);
}

static void progress_clear(const struct sweep *s)
{
	if (s->progress) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
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

/*
 * Runs every (value, block size) in order. Returns 0, the exit code of a run that failed, or
 * EXIT_INTERRUPTED; the rows done are printed in any case.
 */
static int sweep_run(struct sweep *s)
{
	volatile sig_atomic_t *stop = cmd_stop_flag();
	struct runner_hooks hooks = {.tick = sweep_tick, .arg = s, .stop = stop};
	bool text = s->out.fmt == &report_text, json = s->out.fmt == &report_json;
	const struct sweep_table tab = table_of(s);
	int code = 0;

	s->nruns = (unsigned)(s->nvals * s->nbs);
	s->progress = !s->out.quiet && isatty(STDERR_FILENO);
	if (text)
		sweep_fmt_text_header(stdout, &tab);
	else if (!json)
		sweep_fmt_csv_header(stdout, &tab);
	for (size_t i = 0; i < s->nvals && !code; i++) {
		for (size_t k = 0; k < s->nbs && !code; k++) {
			struct sweep_cell *c = &s->cells[i * s->nbs + k];
			uint64_t bs = s->param == SW_BS ? s->vals[i] : s->bs[k];
			char b1[32], b2[32];
			struct result res;
			struct job j;
			int rc;

			if (*stop) {
				code = EXIT_INTERRUPTED;
				break;
			}
			if (make_job(s, i, bs, &j))
				return run_error("out of memory");
			s->run_no++;
			snprintf(s->run_label, sizeof(s->run_label), "%s=%s bs=%s",
				 params[s->param].name, sweep_fmt_value(&tab, s->vals[i], b1, sizeof(b1)),
				 fmt_size(bs, b2, sizeof(b2)));
			result_init(&res);
			rc = runner_run(&j, &res, &hooks);
			progress_clear(s);
			if (rc || !res.started) {
				if (res.interrupted || (*stop && !rc)) {
					code = EXIT_INTERRUPTED;
				} else {
					code = cmd_run_failed(rc, &res, s->run_label);
				}
			} else if (res.interrupted) {
				code = EXIT_INTERRUPTED;
			} else {
				/* Read and write together, leaving res whole for its JSON. */
				struct dir_stats tot;
				result_dir_total(&res.read, &res.write, &tot);
				dir_stats_summarize(&tot, res.seconds, &c->tot);
				c->seconds = res.seconds;
				c->done = true;
				keep_notes(s, &res);
				if (json)
					c->run = report_json_result(&res);
			}
			result_release(&res);
			job_release(&j);
		}
		if (code)
			break;
		if (text)
			sweep_fmt_text_row(stdout, &tab, i);
		else if (!json)
			sweep_fmt_csv_rows(stdout, &tab, i);
	}
	if (json)
		sweep_fmt_json(stdout, &tab, code == EXIT_INTERRUPTED);
	if (text)
		for (unsigned n = 0; n < s->nnotes; n++)
			printf("note: %s\n", s->notes[n]);
	fflush(stdout);
	if (code == EXIT_INTERRUPTED) {
		/* A row is done when every block size of it is. */
		size_t rows = 0;
		for (size_t i = 0; i < s->nvals; i++) {
			bool all = true;
			for (size_t k = 0; k < s->nbs; k++)
				all = all && s->cells[i * s->nbs + k].done;
			rows += all;
		}
		fprintf(stderr, "iorate: interrupted: %zu of %zu rows done\n", rows, s->nvals);
	}
	return code;
}

static void sweep_release(struct sweep *s)
{
	for (size_t i = 0; i < s->nremove; i++) {
		unlink(s->remove[i]);
		free(s->remove[i]);
	}
	free(s->remove);
	for (size_t i = 0; s->cells && i < s->nvals * s->nbs; i++)
		json_decref(s->cells[i].run);
	for (unsigned n = 0; n < s->nnotes; n++)
		free(s->notes[n]);
	free(s->cells);
	free(s->vals);
	free(s->bs);
	job_release(&s->base);
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep s = {0};
	struct opt_ctx c = {.job = &s.base, .out = &s.out, .on_set = sweep_on_set, .cmd = &s};
	char **av = calloc((size_t)argc + 1, sizeof(*av)), **paths = NULL;
	int ac = argc, first = 0, npaths = 0, rc;

	job_init(&s.base);
	output_opts_init(&s.out);
	if (!av || !(paths = calloc((size_t)argc + 1, sizeof(*paths)))) {
		rc = run_error("out of memory");
		goto out;
	}
	memcpy(av, argv, (size_t)argc * sizeof(*av));
	if ((rc = options_parse(&c, OPT_SWEEP, ac, av, &first)))
		goto out;
	if (c.help) {
		sweep_usage(stdout);
		goto out;
	}
	for (int i = first; i < ac; i++) {
		bool is_param;
		if ((rc = parse_param(&s, av[i], &is_param)))
			goto out;
		if (!is_param)
			paths[npaths++] = av[i];
	}
	if (!s.vals && s.nbs > 1) {
		/* Only several --bs: sweep the block size. */
		s.param = SW_BS;
		s.vals = s.bs;
		s.nvals = s.nbs;
		s.bs = NULL;
		s.nbs = 0;
	}
	if (!s.vals) {
		rc = usage_error("sweep: name the parameter to vary, e.g. targets=1..16, "
				 "depth=1..64:x2 (see 'iorate sweep --help')");
		goto out;
	}
	if (s.param == SW_BS && s.nbs) {
		rc = usage_error("--bs: bs= already varies the block size; give one or the other");
		goto out;
	}
	if (s.nbs == 0) {
		/* No --bs: the job's own block size, the default or a --job file's. */
		if (!(s.bs = malloc(sizeof(*s.bs)))) {
			rc = run_error("out of memory");
			goto out;
		}
		s.bs[s.nbs++] = s.base.bs;
	}
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
	/* Every combination is validated before the first I/O; what depends on the target itself
	 * (a block larger than it, direct I/O alignment) is checked when its run opens it. */
	for (size_t i = 0; i < s.nvals; i++) {
		for (size_t k = 0; k < s.nbs; k++) {
			struct job j;
			char err[256];
			if (make_job(&s, i, s.param == SW_BS ? s.vals[i] : s.bs[k], &j)) {
				rc = run_error("out of memory");
				goto out;
			}
			int bad = job_validate(&j, err, sizeof(err));
			job_release(&j);
			if (bad) {
				rc = usage_error("%s", err);
				goto out;
			}
		}
	}
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
