/*
 * 'iorate fio': a fio command line, unchanged (job options, job files, fio's own options), run
 * as fio would run it. src/compat/fio*.c translates; this applies each setting through the
 * option table of 'iorate run', acts on fio's own options, hands the translation to the report
 * (--dry-run: src/report/dry_run_fmt.c prints it) and runs the jobs through cmd_run_jobs().
 * iorate's own options start with "--" as fio's do: their names are not fio's, so they may
 * stand anywhere (docs/compat.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/cmd_fio.h"
#include "cmd/options.h"
#include "cmd/run_common.h"
#include "core/gate.h"
#include "report/dry_run_fmt.h"
#include "util/escape.h"
#include "util/field.h"

/* ---- the translation through the option table of 'iorate run' ---- */

struct run_sink {
	struct job *cur;
	struct opt_ctx ctx;
	struct output_opts out;
};

/* A setting is applied to its job as if typed on the command line of 'iorate run'. */
static int set_as_run(void *arg, const struct compat_setting *s, char *why, size_t len)
{
	struct run_sink *st = arg;
	const struct opt *o = options_find(&cmd_run_options, s->name);
	int r;

	if (s->job != st->cur) {
		st->cur = s->job;
		st->ctx = (struct opt_ctx){.cmd = &cmd_run_options, .job = s->job, .out = &st->out};
	}
	/* A translator's mistake, not the user's: say so rather than apply something else. */
	if (!o || !o->arg != !s->value || !s->job) {
		snprintf(why, len, "internal: '--%s%s%s' is not an option of 'iorate run'", s->name,
			 s->value ? " " : "", s->value ? s->value : "");
		return -EINVAL;
	}
	if ((r = options_set(&st->ctx, s->name, s->value)))
		snprintf(why, len, "%s", st->ctx.why[0] ? st->ctx.why : strerror(-r));
	return r;
}

void cmd_fio_session_init(struct fio_session *s)
{
	compat_fio_env_system(&s->env);
	compat_fio_init(&s->fio, &s->env);
	job_list_init(&s->jobs);
}

void cmd_fio_session_release(struct fio_session *s)
{
	compat_fio_release(&s->fio);
	job_list_release(&s->jobs);
}

int cmd_fio_translate(struct fio_session *s, const char *label)
{
	struct run_sink st = {0};
	const struct compat_sink sink = {.set = set_as_run, .arg = &st};
	char err[1024];
	int r;

	output_opts_init(&st.out);
	r = compat_fio_translate(&s->fio, &sink, &s->jobs, err, sizeof(err));
	if (r == -ENOMEM)
		return run_error("%s: out of memory", label);
	if (!r)
		return 0;
	if (r == -EINTR) /* the exit status is the signal's (cmd_exit_code) */
		return run_error("%s: %s", label, err);
	usage_error("%s: %s%s", label, err, s->fio.nrefused ? ":" : "");
	for (unsigned i = 0; i < s->fio.nrefused; i++) {
		fputs("  ", stderr);
		escape_fputs(s->fio.refused[i], stderr);
		fputc('\n', stderr);
	}
	return EXIT_USAGE;
}

/* ---- the translation, printed ---- */

/*
 * The translator's records, lent to the report (src/report/dry_run_fmt.c writes them): arrays
 * of pointers into s, freed here once printed.
 */
int cmd_fio_print(const struct fio_session *s, FILE *out, const struct report_format *fmt,
		  const char *then)
{
	struct dry_run_job *jobs = calloc(s->fio.njobs ? s->fio.njobs : 1, sizeof(*jobs));
	struct dry_run_report d = {.jobs = jobs, .njobs = s->fio.njobs, .then = then};
	int r = jobs ? 0 : -ENOMEM;

	for (unsigned i = 0; !r && i < s->fio.njobs; i++) {
		const struct compat_fio_job *x = &s->fio.jobs[i];
		struct dry_run_item *items = calloc(x->nitems ? x->nitems : 1, sizeof(*items));

		if (!items) {
			r = -ENOMEM;
			break;
		}
		for (unsigned k = 0; k < x->nitems; k++)
			items[k] = (struct dry_run_item){
				.where = x->items[k].where, .option = x->items[k].option,
				.became = x->items[k].became, .note = x->items[k].note};
		jobs[i] = (struct dry_run_job){
			.name = x->name, .where = x->where, .clone = x->clone, .clones = x->clones,
			.items = items, .nitems = x->nitems, .equivalent = x->equivalent,
			.job = &s->jobs.jobs[i]};
	}
	if (!r)
		r = REPORT_WRITER(struct dry_run_format, fmt)->write(out, &d);
	for (unsigned i = 0; jobs && i < s->fio.njobs; i++)
		free((void *)jobs[i].items);
	free(jobs);
	return r;
}

void cmd_fio_announce(const struct fio_session *s, const char *label)
{
	for (unsigned i = 0; i < s->fio.njobs; i++) {
		const struct compat_fio_job *x = &s->fio.jobs[i];
		char n[256];

		if (x->clone == 1) {
			fprintf(stderr, "iorate: %s: ... and %u more jobs '%s' like it (numjobs)\n",
				label, x->clones - 1, escape_buf(x->name, n, sizeof(n)));
			continue;
		}
		if (x->clone)
			continue;
		fprintf(stderr, "iorate: %s: job '%s' (group %u): iorate run ", label,
			escape_buf(x->name, n, sizeof(n)), s->jobs.jobs[i].group);
		escape_fputs(x->equivalent, stderr);
		fputc('\n', stderr);
	}
}

/* ---- the command ---- */

struct fio_own {
	bool allow_write_device, force, keep, verbose;
};

#define OWN(field) .in = OPT_IN_CMD, .off = offsetof(struct fio_own, field)

static const struct opt fio_own_opts[] = {
	{.name = "allow-write-device",
	 .help = "allow writing to a block device (destroys its data)",
	 .example = "--allow-write-device", .set = opt_set_true, OWN(allow_write_device)},
	{.name = "force",
	 .help = "write even to a device that is mounted, held or holds a signature",
	 .example = "--force", .set = opt_set_true, OWN(force)},
	{.name = "keep", .help = OPT_KEEP_HELP,
	 .example = "--keep", .set = opt_set_true, OWN(keep)},
	{.name = "verbose", .help = "print each job's 'iorate run' equivalent on stderr before "
	 "running (-v; --dry-run prints it and runs nothing)", .example = "--verbose",
	 .set = opt_set_true, OWN(verbose)},
	{0},
};
static const struct opt_group fio_own_group = {
	.title = "iorate's own options (anywhere among fio's; their names are not fio's)",
	.opts = fio_own_opts};

/* iorate's options out of argv (as the table has them), fio's left in fargv. */
static int parse_own(struct opt_ctx *ctx, int argc, char **argv, char **fargv, int *fargc)
{
	*fargc = 0;
	fargv[(*fargc)++] = argv[0];
	for (int i = 1; i < argc; i++) {
		int r = options_take(ctx, argc, argv, &i);
		if (r == -ENOENT && !strcmp(argv[i], "-h"))
			ctx->help = true;
		else if (r == -ENOENT && !strcmp(argv[i], "-q"))
			ctx->out->quiet = true;
		else if (r == -ENOENT && !strcmp(argv[i], "-v"))
			((struct fio_own *)ctx->state)->verbose = true;
		else if (r == -ENOENT)
			fargv[(*fargc)++] = argv[i];
		else if (r)
			return r;
	}
	fargv[*fargc] = NULL;
	return 0;
}

/* fio's output formats, as its bits: the order it prints them in when several are asked. */
enum { FIO_OUT_TERSE = 1, FIO_OUT_JSON = 2, FIO_OUT_PLUS = 4, FIO_OUT_NORMAL = 8 };

/* fio's --output-format list ("json,normal"; --minimal: terse) into bits; -1 for a bad word. */
static int format_bits(const char *v, bool append_terse, const char **bad, size_t *badlen)
{
	int bits = 0;

	for (const char *p = v; ; ) {
		size_t n = strcspn(p, ",");

		if (n == 5 && !strncmp(p, "terse", 5))
			bits |= FIO_OUT_TERSE;
		else if ((n == 7 && !strncmp(p, "minimal", 7)) || (n == 3 && !strncmp(p, "csv", 3)))
			bits |= FIO_OUT_TERSE;
		else if (n == 4 && !strncmp(p, "json", 4))
			bits |= FIO_OUT_JSON;
		else if (n == 5 && !strncmp(p, "json+", 5))
			bits |= FIO_OUT_JSON | FIO_OUT_PLUS;
		else if (n == 6 && !strncmp(p, "normal", 6))
			bits |= FIO_OUT_NORMAL;
		else {
			*bad = p, *badlen = n;
			return -1;
		}
		if (!p[n])
			break;
		p += n + 1;
	}
	return bits | (append_terse ? FIO_OUT_TERSE : 0);
}

/*
 * fio's --output-format (a list), --minimal, --append-terse and --terse-version: normal is
 * iorate's text report; json, json+ and terse are the formats fio-json, fio-json+ and
 * fio-terse of src/report/; several print in fio's order, terse, json, normal (this is the one
 * place that asks).
 */
static int output_format(const struct compat_fio *f, const struct opt_ctx *ctx,
			 struct output_opts *out)
{
	const char *v = f->output_format ? f->output_format : "normal", *bad = NULL;
	const struct report_format *fmts[3];
	unsigned n = 0;
	size_t badlen = 0;
	int bits = format_bits(v, f->append_terse, &bad, &badlen);

	if (bits < 0)
		return usage_error("fio: --output-format=%s: '%.*s' is not terse, json, json+ or "
				   "normal", v, (int)badlen, bad);
	if (f->terse_version && strcmp(f->terse_version, "3"))
		return usage_error("fio: --terse-version=%s: iorate writes terse version 3 (fio's "
				   "default) only", f->terse_version);
	if (bits == FIO_OUT_NORMAL)
		return 0;
	if (ctx->given[EXCL_FORMAT][0])
		return usage_error("fio: --output-format=%s and %s cannot be used together", v,
				   ctx->given[EXCL_FORMAT]);
	/* fio's layouts are of runs: a dry run refuses them as it refuses --fio-json. */
	if (ctx->dry_run)
		return usage_error("fio: --output-format=%s: 'iorate fio --dry-run' prints text "
				   "or json (--json, iorate's own)", v);
	if (bits & FIO_OUT_TERSE)
		fmts[n++] = report_format_find(&result_formats, "fio-terse");
	if (bits & FIO_OUT_JSON)
		fmts[n++] = report_format_find(&result_formats, bits & FIO_OUT_PLUS ? "fio-json+"
								       : "fio-json");
	if (bits & FIO_OUT_NORMAL)
		fmts[n++] = out->fmt;
	out->fmt = fmts[0];
	for (unsigned k = 1; k < n; k++)
		out->also[k - 1] = fmts[k];
	return 0;
}

static int fio_eta(const struct compat_fio *f, struct output_opts *out)
{
	if (!f->eta)
		return 0;
	if (strcmp(f->eta, "never") && strcmp(f->eta, "always") && strcmp(f->eta, "auto"))
		return usage_error("fio: --eta=%s: is not always, never or auto", f->eta);
	/* iorate's progress line is its ETA: shown on a terminal, never with --eta=never. */
	if (!strcmp(f->eta, "never"))
		out->quiet = true;
	return 0;
}

static bool is_blockdev(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISBLK(st.st_mode);
}

/* iorate's own options apply to every job, through the same table; the command line is kept. */
static int apply_own(struct fio_session *s, const struct fio_own *own, int argc, char **argv)
{
	for (unsigned i = 0; i < s->jobs.n; i++) {
		struct job *j = &s->jobs.jobs[i];
		struct output_opts out;
		struct opt_ctx c = {.cmd = &cmd_run_options, .job = j, .out = &out};

		output_opts_init(&out);
		if ((own->allow_write_device && options_set(&c, "allow-write-device", NULL)) ||
		    (own->force && options_set(&c, "force", NULL)) ||
		    (own->keep && options_set(&c, "keep", NULL)) ||
		    job_set_command_line(j, "iorate", argc, argv))
			return run_error("fio: out of memory");
		for (unsigned t = 0; t < j->ntargets; t++)
			if (job_writes(j) && !j->allow_write_device && is_blockdev(j->targets[t]))
				return usage_error("fio: %s: job '%s' writes to this block device, "
						   "which destroys its data; add "
						   "--allow-write-device to confirm", j->targets[t],
						   j->name ? j->name : "?");
	}
	return 0;
}

/* What was written to the memory file mfd, onto f. 0 or -errno. */
static int copy_out(int mfd, FILE *f)
{
	char buf[65536];
	ssize_t n;

	if (lseek(mfd, 0, SEEK_SET) < 0)
		return -errno;
	while ((n = read(mfd, buf, sizeof(buf))) > 0)
		if (fwrite(buf, 1, (size_t)n, f) != (size_t)n)
			return -EIO;
	return n < 0 ? -errno : 0;
}

/* --dry-run's translation on standard output (with --output, the memory file in its place). */
static int print_translation(const struct fio_session *s, const struct output_opts *out)
{
	FILE *f = cmd_stdout_open();

	return f ? cmd_stdout_close(f, cmd_fio_print(s, f, out->fmt, NULL)) : 1;
}

/*
 * --output=FILE: what would go to stdout goes to FILE, through the write gate (a new file,
 * renamed into place once complete). The report is written to memory meanwhile: the gate's
 * stream has no descriptor to put in stdout's place.
 */
static int with_output(struct fio_session *s, const struct output_opts *out, bool dry_run)
{
	struct gate_out go = {0};
	char err[512];
	int saved = -1, mfd = -1, rc, r;

	if (s->fio.output) {
		if ((r = gate_out_open(&go, "--output", s->fio.output, err, sizeof(err))))
			return r == -EINVAL ? usage_error("fio: %s", err)
					    : run_error("fio: %s", err);
		go.partial = true; /* an interrupted run's report, as it is printed */
		fflush(stdout);
		if ((mfd = memfd_create("iorate-output", MFD_CLOEXEC)) < 0 ||
		    (saved = dup(STDOUT_FILENO)) < 0 || dup2(mfd, STDOUT_FILENO) < 0) {
			r = errno;
			gate_out_abort(&go);
			if (mfd >= 0)
				close(mfd);
			return run_error("fio: --output: %s", strerror(r));
		}
	}
	rc = dry_run ? print_translation(s, out) : cmd_run_jobs(&s->jobs, out);
	if (saved < 0)
		return rc;
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	if ((r = copy_out(mfd, go.f))) {
		gate_out_abort(&go);
		rc = rc ? rc : run_error("fio: --output %s: %s", s->fio.output, strerror(-r));
	} else if ((r = gate_out_commit(&go, err, sizeof(err)))) {
		rc = rc ? rc : run_error("fio: %s", err);
	}
	close(mfd);
	return rc;
}

/*
 * --output is judged before the jobs are echoed, so that a refusal is the only line: not a
 * device, FIFO or link, and none of the jobs' files (the job files are noted as read).
 */
static int check_output(const struct fio_session *s)
{
	char err[512];
	int r;

	if (!s->fio.output)
		return 0;
	if (runner_note_targets(s->jobs.jobs, s->jobs.n))
		return run_error("fio: out of memory");
	if ((r = gate_check_output("--output", s->fio.output, err, sizeof(err))))
		return r == -EINVAL ? usage_error("fio: %s", err) : run_error("fio: %s", err);
	return 0;
}

/* The field a core message is first about ("bssplit" of FIELD("bssplit")), into name. */
static bool first_field(const char *msg, char *name, size_t len)
{
	const char *a = strchr(msg, FIELD_OPEN), *b = a ? strchr(a, FIELD_CLOSE) : NULL;
	size_t n = a && b ? strcspn(a + 1, "=\002") : 0;

	if (!n || n >= len)
		return false;
	memcpy(name, a + 1, n);
	name[n] = '\0';
	return true;
}

/* The line of job x that became --name (the first, as the job file has them), or NULL. */
static const struct compat_fio_item *item_of(const struct compat_fio_job *x, const char *name)
{
	size_t n = strlen(name);

	for (unsigned k = 0; k < x->nitems; k++) {
		const char *b = x->items[k].became;
		if (!strncmp(b, "--", 2) && !strncmp(b + 2, name, n) && (!b[n + 2] || b[n + 2] == ' '))
			return &x->items[k];
	}
	return NULL;
}

/*
 * The checks a run makes before it touches a target, made here for the dry run and the run
 * alike, so that both accept and refuse the same jobs. A refusal names the fio line that set
 * what it is about, "db.fio:7: bssplit=4k/50:64k/40: ...", else the job's section.
 */
static int check_jobs(const struct fio_session *s)
{
	char err[512], field[64], open[80];
	const struct compat_fio_item *it = NULL;
	const struct compat_fio_job *x;
	const char *rest = err;
	unsigned bad;
	int r = runner_check_jobs(s->jobs.jobs, s->jobs.n, &bad, err, sizeof(err));

	if (!r)
		return 0;
	if (r == -ENOMEM)
		return run_error("fio: out of memory");
	if (bad >= s->fio.njobs)
		return cmd_check_failed(r, "fio: %s", err);
	x = &s->fio.jobs[bad];
	if (first_field(err, field, sizeof(field)) && (it = item_of(x, field)) &&
	    strcmp(it->where, "default")) {
		/* The option is named by its line: the message need not start with it again. */
		snprintf(open, sizeof(open), "%c%s%c: ", FIELD_OPEN, field, FIELD_CLOSE);
		if (!strncmp(err, open, strlen(open)))
			rest = err + strlen(open);
		return cmd_check_failed(r, "fio: %s: %s: %s", it->where, it->option, rest);
	}
	/* (the whole line is escaped when printed) */
	return cmd_check_failed(r, "fio: %s: job '%s': %s", x->where, x->name, err);
}

static int fio_run(struct fio_session *s, struct opt_ctx *ctx, const struct fio_own *own,
		   int argc, char **argv, int fargc, char **fargv)
{
	char err[1024];
	int r;

	/* A format the dry run does not print is refused before any file is read. */
	if (ctx->dry_run && (r = output_opts_format(ctx->out, &fio_dry_run_formats)))
		return r;
	if ((r = compat_fio_read_argv(&s->fio, fargc, fargv, err, sizeof(err))))
		return r == -ENOMEM ? run_error("fio: out of memory")
		       : r == -EINVAL ? usage_error("fio: %s", err) : run_error("fio: %s", err);
	if (s->fio.showcmd) {
		compat_fio_showcmd(&s->fio, stdout);
		return 0;
	}
	if ((r = output_format(&s->fio, ctx, ctx->out)) || (r = fio_eta(&s->fio, ctx->out)) ||
	    (r = cmd_fio_translate(s, "fio")) || (r = apply_own(s, own, argc, argv)))
		return r;
	if (s->fio.parse_only && !ctx->dry_run)
		return 0;
	/* The core's messages name fields as fio's options. */
	cmd_set_speller(&compat_fio_spelling);
	if ((r = check_output(s)) || (r = check_jobs(s)))
		return r;
	/* fio prints no translation: only -v shows it (notes that change figures still print). */
	if (!ctx->dry_run && !ctx->out->quiet && own->verbose)
		cmd_fio_announce(s, "fio");
	return with_output(s, ctx->out, ctx->dry_run);
}

static int fio_main(int argc, char **argv)
{
	struct fio_own own = {0};
	struct output_opts out;
	struct opt_ctx ctx = {.cmd = &cmd_fio, .out = &out, .state = &own};
	struct fio_session s;
	char **fargv = calloc((size_t)argc + 1, sizeof(*fargv));
	int fargc, rc;

	if (!fargv)
		return run_error("fio: out of memory");
	output_opts_init(&out);
	cmd_fio_session_init(&s);
	if (!(rc = parse_own(&ctx, argc, argv, fargv, &fargc))) {
		if (ctx.help)
			options_help(stdout, &cmd_fio);
		else
			rc = fio_run(&s, &ctx, &own, argc, argv, fargc, fargv);
	}
	cmd_fio_session_release(&s);
	free(fargv);
	return rc;
}

static const struct opt_group *const fio_groups[] = {
	&fio_own_group, &opt_output, &opt_output_csv, &opt_output_fio_json, &opt_output_result,
	&opt_output_units, &opt_output_series, &opt_output_interval, &opt_output_brief,
	&opt_output_save, &opt_output_quiet, &opt_output_dry_run, NULL,
};

const struct command cmd_fio = {
	.name = "fio",
	.summary = "run a fio command line or job files (--name=a --rw=randread ... / a.fio) as "
		   "fio would",
	.synopsis = "[fio options] [JOBFILE...] [iorate options]",
	.about = "Runs a fio command line unchanged: job options before the first --name apply\n"
		 "to every job, each --name starts one; job files (JOBFILE, or --section of them)\n"
		 "are read as fio reads them: [global] and job sections, include, ${VAR}, $ncpus,\n"
		 "numjobs, stonewall. Each of fio's jobs (each clone of numjobs) runs as a job of\n"
		 "iorate; every option becomes settings of 'iorate run', judged by its rules and\n"
		 "refused under the fio option's name. An option iorate does not have is refused\n"
		 "with every other one of the files, each with its file and line; options that\n"
		 "only tune fio's reports or processes are accepted as of no effect. --dry-run\n"
		 "prints what each option became and runs nothing.\n"
		 "\n"
		 "fio's own options: --output=FILE, --output-format=normal|json|json+|terse (or a\n"
		 "list: json,normal), --minimal, --section=NAME, --readonly, --eta=never, --showcmd,\n"
		 "--parse-only (docs/compat.md has the rest).",
	.groups = fio_groups,
	.output = &result_formats,
	.examples = "  iorate fio --name=a --rw=randread --bs=4k --iodepth=64 --ioengine=libaio "
		    "--direct=1 --filename=/mnt/data/f --size=1g --runtime=30 --time_based\n"
		    "  iorate fio --dry-run db.fio\n"
		    "  iorate fio --dry-run --json --section=seq-read profile.fio > t.json\n",
	.exit_status = "as 'iorate run'; 2 when an option cannot run (all of them are named).",
	.fn = fio_main,
};
