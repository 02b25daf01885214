/*
 * The front end of 'iorate diskspd' and 'iorate sqlio': iorate's own options among the foreign
 * flags, the translation printed before the run, and the run itself (src/compat/ translates).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "cmd/cmd_compat.h"
#include "cmd/options.h"
#include "compat/compat.h"
#include "util/escape.h"

#define CC(field) .in = OPT_IN_CMD, .off = offsetof(struct compat_cli, field)

static const struct opt compat_opts[] = {
	{.name = "engine", .arg = "NAME",
	 .help = OPT_ENGINE_HELP,
	 .example = "--engine aio", .set = opt_set_string, CC(engine),
	 .values = "sync uring aio null"},
	/* Applied through run's row (options_set()), which holds it to its bounds. */
	{.name = "size", .arg = "SIZE", .help = OPT_SIZE_HELP, .example = "--size 1G",
	 .set = opt_set_string, CC(size), .min = 1},
	{.name = "allow-write-device",
	 .help = "allow writing to a block device (destroys its data)",
	 .example = "--allow-write-device", .set = opt_set_true, CC(allow_write_device)},
	{.name = "force",
	 .help = "write even to a device that is mounted, held or holds a signature",
	 .example = "--force", .set = opt_set_true, CC(force)},
	{.name = "dry-run",
	 .help = OPT_DRY_RUN_HELP,
	 .example = "--dry-run", .set = opt_set_true, CC(dry_run)},
	{0},
};
const struct opt_group compat_group = {
	.title = "iorate's own options (anywhere among the flags)", .opts = compat_opts};

int compat_cli_parse(struct compat_cli *c, const struct command *cmd, int argc, char **argv)
{
	struct opt_ctx ctx = {.cmd = cmd, .out = &c->out, .state = c};

	memset(c, 0, sizeof(*c));
	output_opts_init(&c->out);
	if (!(c->fargv = calloc((size_t)argc + 1, sizeof(*c->fargv))))
		return run_error("%s: out of memory", cmd->name);
	c->fargv[c->fargc++] = argv[0];
	for (int i = 1; i < argc; i++) {
		int r = options_take(&ctx, argc, argv, &i);
		if (r == -ENOENT && !strncmp(argv[i], "--", 2)) {
			char near[240];

			r = usage_error("%s: %s: not an iorate option here%s (see 'iorate %s --help')",
					cmd->name, argv[i], options_near(cmd, argv[i], near,
									 sizeof(near)), cmd->name);
		}
		if (r == -ENOENT) {
			c->fargv[c->fargc++] = argv[i];
			continue;
		}
		if (r) {
			compat_cli_release(c);
			return r;
		}
	}
	c->help = ctx.help;
	return 0;
}

void compat_cli_release(struct compat_cli *c)
{
	free(c->fargv);
	c->fargv = NULL;
}

static bool is_blockdev(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISBLK(st.st_mode);
}

/* The sink: a setting is applied as if typed on the command line of 'iorate run'. */
static int set_as_run(void *arg, const struct compat_setting *s, char *why, size_t len)
{
	struct opt_ctx *c = arg;
	const struct opt *o = options_find(c->cmd, s->name);
	int r;

	/* A translator's mistake, not the user's: say so rather than apply something else. */
	if (!o || !o->arg != !s->value) {
		snprintf(why, len, "internal: '--%s%s%s' is not an option of 'iorate run'", s->name,
			 s->value ? " " : "", s->value ? s->value : "");
		return -EINVAL;
	}
	if ((r = options_set(c, s->name, s->value)))
		snprintf(why, len, "%s", c->why[0] ? c->why : strerror(-r));
	return r;
}

int compat_cli_translate(compat_translator tr, int argc, char **argv, struct job *j,
			 FILE *explain, char *err, size_t errlen)
{
	struct output_opts out;
	struct opt_ctx ctx = {.cmd = &cmd_run_options, .job = j, .out = &out};
	const struct compat_sink sink = {.set = set_as_run, .arg = &ctx};

	output_opts_init(&out);
	return tr(argc, argv, &sink, j, explain, err, errlen);
}

/* The sink of the job bound last: a fresh context, so each job's options are its own. */
struct binding {
	struct opt_ctx ctx;
	struct output_opts out;
	struct compat_sink sink;
};

static const struct compat_sink *bind_job(void *arg, struct job *j)
{
	struct binding *b = arg;

	output_opts_init(&b->out);
	b->ctx = (struct opt_ctx){.cmd = &cmd_run_options, .job = j, .out = &b->out};
	b->sink = (struct compat_sink){.set = set_as_run, .arg = &b->ctx};
	return &b->sink;
}

int compat_cli_translate_jobs(compat_jobs_translator tr, int argc, char **argv,
			      struct job_list *jobs, FILE *explain, char *err, size_t errlen)
{
	struct binding b;
	const struct compat_jobs out = {.list = jobs, .bind = bind_job, .arg = &b};

	return tr(argc, argv, &out, explain, err, errlen);
}

/* iorate's own options among the foreign flags, through the same table: after the translation. */
static int apply_own(const struct compat_cli *c, struct job *j)
{
	struct output_opts out;
	struct opt_ctx ctx = {.cmd = &cmd_run_options, .job = j, .out = &out};
	const char *bad = NULL;

	output_opts_init(&out);
	if (c->engine && options_set(&ctx, "engine", c->engine))
		bad = "engine";
	else if (c->size && options_set(&ctx, "size", c->size))
		bad = "size";
	/* The foreign tools leave the files they create; the one iorate named is removed. */
	else if (c->size && !j->scratch && options_set(&ctx, "keep", NULL))
		bad = "keep";
	else if (c->allow_write_device && options_set(&ctx, "allow-write-device", NULL))
		bad = "allow-write-device";
	else if (c->force && options_set(&ctx, "force", NULL))
		bad = "force";
	return bad ? usage_error("--%s: %s", bad, ctx.why) : 0;
}

/* A job of the run, in j's group or an earlier one, creates t when missing. */
static bool created_before(const struct job_list *jobs, const struct job *j, const char *t)
{
	for (unsigned k = 0; k < jobs->n; k++) {
		const struct job *o = &jobs->jobs[k];
		for (unsigned i = 0; o->size && o->group <= j->group && i < o->ntargets; i++)
			if (!strcmp(o->targets[i], t))
				return true;
	}
	return false;
}

/* Refuses, before anything runs, what would destroy a device or find no file. */
static int check_targets(const struct compat_cli *c, const struct job_list *jobs,
			 const struct job *j, const char *tool)
{
	for (unsigned i = 0; i < j->ntargets; i++) {
		const char *t = j->targets[i];
		struct stat st;

		if (job_writes(j) && !j->allow_write_device && is_blockdev(t))
			return usage_error("%s: %s: writing to a block device destroys its "
					   "data; add --allow-write-device to confirm", tool, t);
		if (!j->size && !j->scratch && !c->dry_run && !created_before(jobs, j, t) &&
		    stat(t, &st))
			return usage_error("%s: '%s' does not exist; %s", tool, t,
					   !strcmp(tool, "diskspd")
						   ? "DiskSpd creates a file only with -c<size>, "
						     "e.g. -c1G (in a profile, <FileSize>)"
						   : "give its size with --size 1G or in a -F "
						     "parameter file");
	}
	return 0;
}

/* "  = iorate run ...", after the job's name and group when the run has several jobs. */
static void print_equivalent(const struct job_list *jobs, unsigned i)
{
	const struct job *j = &jobs->jobs[i];
	char line[2048];

	fputs("  = ", stderr);
	if (jobs->n > 1) {
		escape_fputs(j->name ? j->name : "?", stderr);
		fprintf(stderr, " (group %u): ", j->group);
	}
	escape_fputs(compat_run_equivalent(j, line, sizeof(line)), stderr);
	fputc('\n', stderr);
}

int compat_cli_run(struct compat_cli *c, struct job_list *jobs, int argc, char **argv,
		   const char *tool, const char *explained)
{
	int r;

	for (unsigned i = 0; i < jobs->n; i++) {
		if ((r = apply_own(c, &jobs->jobs[i])))
			return r;
		/* The record keeps what the user typed, iorate's options included. */
		if (job_set_command_line(&jobs->jobs[i], "iorate", argc, argv))
			return run_error("%s: out of memory", tool);
	}
	/* explained is escaped line by line by compat_explain(); the rest here. */
	fprintf(stderr, "iorate: %s: what each flag became in: ", tool);
	escape_fputs(jobs->n ? jobs->jobs[0].command_line : "", stderr);
	fputc('\n', stderr);
	if (explained)
		fputs(explained, stderr);
	for (unsigned i = 0; i < jobs->n; i++)
		print_equivalent(jobs, i);
	for (unsigned i = 0; i < jobs->n; i++)
		if ((r = check_targets(c, jobs, &jobs->jobs[i], tool)))
			return r;
	if (c->dry_run)
		return 0;
	return cmd_run_jobs(jobs, &c->out);
}

/* The translation (printed only once complete, so a bad flag prints just the error), the run. */
static int cli_main(int argc, char **argv, const struct command *cmd, compat_translator tr,
		    compat_jobs_translator trj)
{
	const char *tool = cmd->name;
	struct compat_cli c;
	char err[4096], *ex = NULL;
	size_t exlen = 0;
	struct job_list jobs;
	struct job *j;
	FILE *mem;
	int r;

	if ((r = compat_cli_parse(&c, cmd, argc, argv)))
		return r;
	if (c.help) {
		options_help(stdout, cmd);
		compat_cli_release(&c);
		return 0;
	}
	job_list_init(&jobs);
	mem = open_memstream(&ex, &exlen);
	if (trj)
		r = compat_cli_translate_jobs(trj, c.fargc, c.fargv, &jobs, mem, err, sizeof(err));
	else if (!(j = job_list_add(&jobs)))
		r = -ENOMEM;
	else
		r = compat_cli_translate(tr, c.fargc, c.fargv, j, mem, err, sizeof(err));
	if (mem)
		fclose(mem);
	if (r == -ENOMEM)
		r = run_error("%s: out of memory", tool);
	else if (r)
		r = usage_error("%s: %s", tool, err);
	else
		r = compat_cli_run(&c, &jobs, argc, argv, tool, ex);
	free(ex);
	job_list_release(&jobs);
	compat_cli_release(&c);
	return r;
}

int compat_cli_main(int argc, char **argv, const struct command *cmd, compat_translator tr)
{
	return cli_main(argc, argv, cmd, tr, NULL);
}

int compat_cli_main_jobs(int argc, char **argv, const struct command *cmd,
			 compat_jobs_translator tr)
{
	return cli_main(argc, argv, cmd, NULL, tr);
}
