/*
 * libFuzzer target: fio command lines and job files are translated into jobs, through the
 * option table of 'iorate run' as 'iorate fio' does, or refused with a message; never a crash.
 * The words before the first blank line are the command line (after argv[0] "fio"), what
 * follows it the job file "job.fio"; an input without a blank line is the job file alone. The
 * machine is a table: "inc.fio" is the only other file, /dev/fuzz a 1 GiB device, $HOME set.
 * A job made holds only what the table allows.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "compat/compat.h"
#include "fuzz_compat.h"
#include "fuzz_util.h"

static const char *job_text;

static const char *f_getenv(void *arg, const char *name)
{
	return !strcmp(name, "HOME") ? "/home/fuzz" : NULL;
}

static int f_read(void *arg, const char *path, char **text)
{
	const char *t = !strcmp(path, "job.fio") ? job_text
			: !strcmp(path, "inc.fio") ? "bs=8k\niodepth=4\n" : NULL;

	if (!t)
		return -ENOENT;
	return (*text = strdup(t)) ? 0 : -ENOMEM;
}

static int f_stat(void *arg, const char *path, uint64_t *size, bool *regular)
{
	if (strcmp(path, "/dev/fuzz"))
		return -ENOENT;
	*size = 1ull << 30;
	*regular = false;
	return 0;
}

static const struct compat_fio_env env = {
	.getenv = f_getenv, .read = f_read, .stat = f_stat,
	.pagesize = 4096, .mb_memory = 1024, .ncpus = 2,
};

struct sink_state {
	struct job *cur;
	struct opt_ctx ctx;
	struct output_opts out;
};

/* As 'iorate fio' applies a setting: through the option table of 'iorate run'. */
static int sink_set(void *arg, const struct compat_setting *s, char *why, size_t len)
{
	struct sink_state *st = arg;
	const struct opt *o = options_find(&cmd_run, s->name);
	int r;

	/* A setting 'iorate run' has not is the translator's mistake. */
	if (!o || !o->arg != !s->value || !s->job)
		abort();
	if (s->job != st->cur) {
		st->cur = s->job;
		st->ctx = (struct opt_ctx){.cmd = &cmd_run, .job = s->job, .out = &st->out};
	}
	if ((r = options_set(&st->ctx, s->name, s->value)))
		snprintf(why, len, "%s", st->ctx.why);
	return r;
}

static void translate(int argc, char **argv)
{
	struct sink_state st = {0};
	struct compat_sink sink = {.set = sink_set, .arg = &st};
	struct compat_fio f;
	struct job_list jobs;
	char err[1024];
	int r;

	output_opts_init(&st.out);
	compat_fio_init(&f, &env);
	job_list_init(&jobs);
	r = compat_fio_read_argv(&f, argc, argv, err, sizeof(err));
	if (!r)
		r = compat_fio_translate(&f, &sink, &jobs, err, sizeof(err));
	if (!r) {
		for (unsigned i = 0; i < jobs.n; i++)
			if (!fuzz_within_table(&jobs.jobs[i]) || f.jobs[i].nitems == 0)
				abort();
	} else if (r != -ENOMEM && !err[0]) {
		/* (A translator's own mistake aborts in sink_set(); err may quote the input.) */
		abort();
	}
	FILE *null = fopen("/dev/null", "w");
	if (!null)
		abort();
	compat_fio_showcmd(&f, null);
	fclose(null);
	compat_fio_release(&f);
	job_list_release(&jobs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *sep = memmem(data, size, "\n\n", 2);
	char *text = sep ? fuzz_cstr(sep + 2, size - (size_t)(sep - data) - 2)
			 : fuzz_cstr(data, size);
	char *only[] = {"fio", "job.fio", NULL};
	int argc = 2;
	char **argv = sep ? fuzz_argv(data, (size_t)(sep - data), "fio", &argc) : only;

	if (!text || !argv)
		abort();
	job_text = text;
	translate(argc, argv);
	if (sep)
		fuzz_argv_free(argv);
	free(text);
	return 0;
}
