/* iorate run: one workload against one or more targets, reported exactly. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd_run.h"
#include "cmd/cmd_fio.h"
#include "cmd/options.h"
#include "compat/compat.h"
#include "cmd/run_common.h"
#include "core/runner.h"
#include "report/dry_run_fmt.h"

static int run_main(int argc, char **argv);

static void run_more_help(FILE *f)
{
	fprintf(f, "\nEngines built in: %s.\n", runner_engines());
}

const struct command cmd_run = {
	.name = "run",
	.summary = "generate an I/O workload against files or devices and report it exactly",
	.synopsis = "[options] TARGET...",
	.about = "Generates I/O against each TARGET (a file, created and filled when missing, or a\n"
		 "block device) for --time, with --threads per target and --depth I/Os in flight\n"
		 "per thread, and reports I/Os, bytes, IOPS, throughput, latency percentiles and\n"
		 "CPU, per target and in total. Several targets are measured together, like a\n"
		 "stripe. Options have DiskSpd's letter where it has one.\n"
		 "Sizes: 4k = 4KiB = 4096 bytes. Durations: 30, 30s, 500ms, 5m, 1h. Counts and\n"
		 "percentages are decimal.",
	.groups = run_option_groups,
	.output = &result_formats,
	.examples =
		"  iorate run -b 64k -d 30 -t 8 -o 8 /mnt/data/test.dat      (diskspd -b64k -d30 -t8 -o8)\n"
		"  iorate run -b 8k -w 30 -t 4 -o 16 --json /mnt/data/t > r.json\n"
		"  iorate run -s -b 1M -o 8 --cache direct /dev/nvme0n1        (read-only)\n"
		"  iorate run --cap-iops 500 --vm-cap-mbps 285 a b c          (emulate cloud caps)\n",
	.exit_status = "0 done, 1 the run failed (partial results printed), 2 bad usage,\n"
		       "128+N stopped by signal N (130: Ctrl-C), partial results printed.",
	.more_help = run_more_help,
	.fn = run_main,
};

/* Whether --job is given, with its file or not. */
static bool job_flag(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--job") || !strncmp(argv[i], "--job=", 6))
			return true;
	return false;
}

/* The FILE of --job FILE or --job=FILE, or NULL. */
static const char *job_file_arg(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--job") && i + 1 < argc)
			return argv[i + 1];
		if (!strncmp(argv[i], "--job=", 6))
			return argv[i] + 6;
	}
	return NULL;
}

/* A fio job file's jobs, translated through the option table (src/cmd/cmd_fio.c). */
static int load_job_file(struct fio_session *s, const char *path)
{
	char err[1024];
	int r = compat_fio_read_file(&s->fio, path, err, sizeof(err));

	if (r == -ENOMEM)
		return run_error("out of memory");
	if (r)
		return r == -EINVAL ? usage_error("--job: %s", err) : run_error("--job: %s", err);
	return cmd_fio_translate(s, "--job");
}

/*
 * The command line after the job file's settings, so that its options override the file's:
 * options, targets (which replace the job's files), emulation, caps. 0 or the exit code.
 */
static int run_parse_into(const struct command *cmd, struct opt_ctx *c, int argc, char **argv,
			  bool replace_targets)
{
	const char *prog = cmd->prog ? cmd->prog : "iorate";
	struct job *job = c->job;
	int first = 0, rc;

	if ((rc = options_parse(c, argc, argv, &first)) || c->help)
		return rc;
	if (replace_targets && first < argc)
		for (unsigned i = 0; i < job->ntargets; i++)
			free(job->targets[i]);
	if (replace_targets && first < argc)
		job->ntargets = 0;
	for (int i = first; i < argc; i++)
		if (job_add_target(job, argv[i]) < 0)
			return run_error("out of memory");
	/* The null engine touches nothing: a target is only a name in the report. */
	if (!job->ntargets && !strcmp(job->engine, "null"))
		job_add_target(job, "null");
	if (!job->ntargets)
		return usage_error("run: no target: name a file or block device (see '%s run "
				   "--help')", prog);
	if (c->emulate && (rc = options_emulate(job, c->emulate)))
		return rc;
	if ((rc = options_check_caps(job)))
		return rc;
	if (job_set_command_line(job, prog, argc, argv))
		return run_error("out of memory");
	return 0;
}

int cmd_run_parse(const struct command *cmd, int argc, char **argv, struct job *job,
		  struct output_opts *out, bool *help)
{
	struct opt_ctx c = {.cmd = cmd, .job = job, .out = out};
	const char *path = job_file_arg(argc, argv);
	struct fio_session s;
	int rc = 0;

	*help = false;
	if (path) {
		/* One job: iorate-mpi runs one job per rank. */
		cmd_fio_session_init(&s);
		if (!(rc = load_job_file(&s, path)) && s.jobs.n != 1)
			rc = usage_error("--job: %s has %u jobs; '%s %s' runs one ('iorate run "
					 "--job' runs them all)", path, s.jobs.n,
					 cmd->prog ? cmd->prog : "iorate", cmd->name);
		if (!rc) {
			job_release(job);
			rc = job_copy(job, &s.jobs.jobs[0]) ? run_error("out of memory") : 0;
		}
		cmd_fio_session_release(&s);
		if (rc)
			return rc;
	}
	if ((rc = run_parse_into(cmd, &c, argc, argv, path != NULL)))
		return rc;
	*help = c.help;
	if (c.dry_run && cmd != &cmd_run)
		return usage_error("--dry-run: '%s %s' has no dry run", cmd->prog ? cmd->prog :
				   "iorate", cmd->name);
	return 0;
}

/*
 * The file's translation; in text, then the command line, whose options apply over every job
 * (the JSON's params are the jobs with them applied).
 */
static int print_dry_run(const struct fio_session *s, struct output_opts *out)
{
	int rc = output_opts_format(out, &dry_run_formats);
	FILE *f;

	if (rc)
		return rc;
	if (!(f = cmd_stdout_open()))
		return 1;
	return cmd_stdout_close(f, cmd_fio_print(s, f, out->fmt,
						  s->jobs.n ? s->jobs.jobs[0].command_line : NULL));
}

/* One job, checked as a run would be, then shown: nothing is opened or made. */
static int dry_run_job(const struct job *job, struct output_opts *out)
{
	char line[2048];
	struct dry_run_report d = {.job = job};
	FILE *f;
	int rc;

	if ((rc = output_opts_format(out, &dry_run_formats)))
		return rc;
	if ((rc = cmd_jobs_judge(job, 1)))
		return rc;
	/* The 'iorate run' line is compat's translation of the job; the report prints it. */
	d.equivalent = compat_run_equivalent(job, line, sizeof(line));
	if (!(f = cmd_stdout_open()))
		return 1;
	return cmd_stdout_close(f, REPORT_WRITER(struct dry_run_format, out->fmt)->write(f, &d));
}

/* iorate run --job FILE: every job of the file, the command line applied to each. */
static int run_jobs_file(int argc, char **argv, const char *path)
{
	struct fio_session s;
	struct output_opts out;
	struct opt_ctx c = {0};
	int rc;

	output_opts_init(&out);
	cmd_fio_session_init(&s);
	if ((rc = load_job_file(&s, path)))
		goto out;
	for (unsigned i = 0; i < s.jobs.n && !rc && !c.help; i++) {
		c = (struct opt_ctx){.cmd = &cmd_run, .job = &s.jobs.jobs[i], .out = &out};
		rc = run_parse_into(&cmd_run, &c, argc, argv, true);
	}
	if (rc)
		goto out;
	if (c.help)
		options_help(stdout, &cmd_run);
	else if (c.dry_run)
		rc = cmd_jobs_judge(s.jobs.jobs, s.jobs.n) ?: print_dry_run(&s, &out);
	else
		rc = cmd_run_jobs(&s.jobs, &out);
out:
	cmd_fio_session_release(&s);
	return rc;
}

/* Whether argv[i] starts a job: --job-name NAME or --job-name=NAME. */
static bool job_start(char **argv, int i)
{
	return !strcmp(argv[i], "--job-name") || !strncmp(argv[i], "--job-name=", 11);
}

/*
 * A run of several jobs on iorate run's command line: each --job-name NAME starts a job, whose
 * options and targets are those after it (until the next --job-name); the options and
 * targets before the first --job-name are every job's, its own options after them (so they
 * win) and its own targets instead of them. --stonewall puts a job in a new group, after the
 * jobs before it. has_jobs() says whether argv holds a --job-name (before any "--");
 * parse_jobs() adds the jobs to l, each as cmd_run_parse() makes one (the command line
 * recorded whole). Returns 0, or the exit code after printing why; *help as cmd_run_parse's.
 */
static bool has_jobs(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (job_start(argv, i))
			return true;
	return false;
}

/*
 * Parses a copy of args[0..n) (args[0] the command's name) into v, with a scratch job and
 * output, to learn where its words (targets) are: options_parse() moves them to the end, from
 * *first, keeping the options in their order. Returns 0, or the exit code after printing why.
 */
static int scratch_parse(const struct command *cmd, int n, char **args, char **v, int *first,
			 unsigned *group, bool *help)
{
	struct output_opts out;
	struct job job;
	struct opt_ctx c = {.cmd = cmd, .job = &job, .out = &out};
	int rc;

	memmove(v, args, (size_t)n * sizeof(*v));
	job_init(&job);
	output_opts_init(&out);
	rc = options_parse(&c, n, v, first);
	*group = job.group;
	*help = c.help;
	job_release(&job);
	return rc;
}

/* The words of a command line: what each job is parsed from. */
struct split {
	char **shared;          /* the command's name, then the options before the first job */
	int nshared, nwords;    /* ... followed by the shared targets, nwords of them */
	char **v;               /* scratch room for one job's arguments */
};

/*
 * Job own[0..n) (from its --job-name): parsed from the shared options, then its own, then its
 * targets, or the shared ones when it names none. prev is the group of the job before it.
 */
static int parse_job(const struct command *cmd, const struct split *sp, char **own, int n,
		     unsigned prev, struct job *job, struct output_opts *o, bool *help)
{
	int first, k = sp->nshared, rc;
	unsigned group;

	sp->v[0] = sp->shared[0];
	memcpy(sp->v + 1, own, (size_t)n * sizeof(*own));
	if ((rc = scratch_parse(cmd, n + 1, sp->v, sp->v, &first, &group, help)) || *help)
		return rc;
	memcpy(sp->v, sp->shared, (size_t)k * sizeof(*own));
	memcpy(sp->v + k, own, (size_t)n * sizeof(*own));
	k += n;
	if (first == n + 1) {
		memcpy(sp->v + k, sp->shared + sp->nshared, (size_t)sp->nwords * sizeof(*own));
		k += sp->nwords;
	}
	job->group = prev;
	return cmd_run_parse(cmd, k, sp->v, job, o, help);
}

/* The shared part, argv[0..end): its options first, its targets after (sp->shared). */
static int parse_shared(const struct command *cmd, int argc, char **argv, int end,
			struct split *sp, bool *help)
{
	unsigned group;
	int first, rc;

	if (!(sp->shared = calloc((size_t)argc + 1, sizeof(char *))) ||
	    !(sp->v = calloc((size_t)argc * 2 + 1, sizeof(char *))))
		return run_error("out of memory");
	if ((rc = scratch_parse(cmd, end, argv, sp->shared, &first, &group, help)) || *help)
		return rc;
	if (group)
		return usage_error("--stonewall: only after a --job-name (it starts that job's "
				   "group)");
	sp->nshared = first;
	sp->nwords = end - first;
	return 0;
}

static int parse_jobs(const struct command *cmd, int argc, char **argv, struct job_list *l,
		      struct output_opts *o, bool *help)
{
	const char *prog = cmd->prog ? cmd->prog : "iorate";
	struct split sp = {0};
	int start = 1, rc;
	unsigned prev = 0;

	*help = false;
	while (start < argc && !job_start(argv, start))
		start++;
	rc = parse_shared(cmd, argc, argv, start, &sp, help);
	while (!rc && !*help && start < argc) {
		int end = start + 1;
		struct job *job;

		while (end < argc && strcmp(argv[end - 1], "--") && !job_start(argv, end))
			end++;
		if (strcmp(argv[end - 1], "--") == 0)
			end = argc; /* after "--", every word is the last job's */
		if (!(job = job_list_add(l)))
			rc = run_error("out of memory");
		else if (!(rc = parse_job(cmd, &sp, argv + start, end - start, prev, job, o,
					  help)) && job_set_command_line(job, prog, argc, argv))
			rc = run_error("out of memory");
		prev = job ? job->group : prev;
		start = end;
	}
	free(sp.shared);
	free(sp.v);
	return rc;
}

/* --job-name ... --job-name ...: a run of several jobs from the command line. */
static int run_jobs(int argc, char **argv)
{
	struct job_list jobs;
	struct output_opts out;
	bool help;
	int rc;

	job_list_init(&jobs);
	output_opts_init(&out);
	if (!(rc = parse_jobs(&cmd_run, argc, argv, &jobs, &out, &help))) {
		if (help)
			options_help(stdout, &cmd_run);
		else
			rc = cmd_run_jobs(&jobs, &out);
	}
	job_list_release(&jobs);
	return rc;
}

static int run_main(int argc, char **argv)
{
	const char *path = job_file_arg(argc, argv);
	struct opt_ctx c = {.cmd = &cmd_run};
	struct output_opts out;
	struct job job;
	int rc;

	/* Named before the file is read: its own errors would hide this one. */
	if ((path || job_flag(argc, argv)) && has_jobs(argc, argv))
		return usage_error("--job-name: not with --job (a job file names its own jobs)");
	if (path)
		return run_jobs_file(argc, argv, path);
	if (has_jobs(argc, argv))
		return run_jobs(argc, argv);
	job_init(&job);
	output_opts_init(&out);
	c.job = &job;
	c.out = &out;
	if ((rc = run_parse_into(&cmd_run, &c, argc, argv, false)))
		goto out;
	if (c.help) {
		options_help(stdout, &cmd_run);
	} else if (c.dry_run) {
		rc = dry_run_job(&job, &out);
	} else {
		rc = cmd_run_job(&job, &out);
	}
out:
	job_release(&job);
	return rc;
}
