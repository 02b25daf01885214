/*
 * fio's command line, as fio 3.33 reads it (init.c): its own options (--output, --output-format,
 * --section, ...) for the front end; job options, those before the first --name for every job
 * (fio's defaults, job files' jobs included), each --name starting a job (--name=global: a
 * [global]); then the job files named, read in order after the command line's jobs. A job
 * option takes its value after '=' or as the next word, as fio's getopt does; a bool or a flag
 * only after '='.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compat/fio.h"

/* fio's own options and what becomes of them. */
enum own { OWN_OUTPUT, OWN_FORMAT, OWN_MINIMAL, OWN_APPEND_TERSE, OWN_TERSE_VERSION, OWN_ETA,
	   OWN_SECTION, OWN_READONLY, OWN_SHOWCMD, OWN_PARSE_ONLY, OWN_NONE, OWN_REFUSED };

static const struct {
	const char *name;
	enum own what;
	bool value;              /* takes one */
	const char *why;         /* OWN_REFUSED: why */
} own_opts[] = {
	{.name = "output", .what = OWN_OUTPUT, .value = true},
	{.name = "output-format", .what = OWN_FORMAT, .value = true},
	{.name = "eta", .what = OWN_ETA, .value = true},
	{.name = "section", .what = OWN_SECTION, .value = true},
	{.name = "readonly", .what = OWN_READONLY},
	{.name = "showcmd", .what = OWN_SHOWCMD},
	{.name = "parse-only", .what = OWN_PARSE_ONLY},
	{.name = "eta-newline", .what = OWN_NONE, .value = true},
	{.name = "eta-interval", .what = OWN_NONE, .value = true},
	{.name = "status-interval", .what = OWN_NONE, .value = true},
	{.name = "max-jobs", .what = OWN_NONE, .value = true},
	{.name = "alloc-size", .what = OWN_NONE, .value = true},
	{.name = "warnings-fatal", .what = OWN_NONE},
	{.name = "aux-path", .what = OWN_NONE, .value = true},
	{.name = "latency-log", .what = OWN_NONE},
	{.name = "bandwidth-log", .what = OWN_NONE},
	{.name = "minimal", .what = OWN_MINIMAL},
	{.name = "append-terse", .what = OWN_APPEND_TERSE},
	{.name = "terse-version", .what = OWN_TERSE_VERSION, .value = true},
	{.name = "version", .what = OWN_REFUSED, .why = "'iorate --version' prints iorate's"},
	{.name = "cmdhelp", .what = OWN_REFUSED, .why = "docs/compat.md lists what iorate makes "
	 "of each option of fio"},
	{.name = "enghelp", .what = OWN_REFUSED, .why = "docs/compat.md lists the engines"},
	{.name = "debug", .what = OWN_REFUSED, .why = "fio's debug logs"},
	{.name = "client", .what = OWN_REFUSED, .why = "fio's client/server mode"},
	{.name = "server", .what = OWN_REFUSED, .why = "fio's client/server mode"},
	{.name = "server-internal", .what = OWN_REFUSED, .why = "fio's client/server mode"},
	{.name = "daemonize", .what = OWN_REFUSED, .why = "fio's client/server mode"},
	{.name = "remote-config", .what = OWN_REFUSED, .why = "fio's client/server mode"},
	{.name = "profile", .what = OWN_REFUSED, .why = "fio's built-in profiles"},
	{.name = "inflate-log", .what = OWN_REFUSED, .why = "fio's logs"},
	{.name = "crctest", .what = OWN_REFUSED, .why = "fio's self-tests"},
	{.name = "cpuclock-test", .what = OWN_REFUSED, .why = "fio's self-tests"},
	{.name = "memcpytest", .what = OWN_REFUSED, .why = "fio's self-tests"},
	{.name = "idle-prof", .what = OWN_REFUSED, .why = "CPU idleness profiling"},
	{.name = "trigger-file", .what = OWN_REFUSED, .why = "fio's triggers"},
	{.name = "trigger-timeout", .what = OWN_REFUSED, .why = "fio's triggers"},
	{.name = "trigger", .what = OWN_REFUSED, .why = "fio's triggers"},
	{.name = "trigger-remote", .what = OWN_REFUSED, .why = "fio's triggers"},
	{.name = "merge-blktrace-only", .what = OWN_REFUSED, .why = "merging block traces"},
};

struct cli {
	struct compat_fio *f;
	struct fio_section *cur;     /* NULL: the next option opens the command line's [global] */
	bool skipping;               /* in a job --section leaves out */
	const char *files[64];
	unsigned nfiles;
	char *err;
	size_t errlen;
};

static int own_index(const char *name)
{
	for (size_t i = 0; i < sizeof(own_opts) / sizeof(own_opts[0]); i++)
		if (!strcmp(name, own_opts[i].name))
			return (int)i;
	return -1;
}

static int own_option(struct cli *c, int i, const char *val, const char *arg)
{
	struct compat_fio *f = c->f;

	if (own_opts[i].what == OWN_REFUSED)
		return err_set(c->err, c->errlen, -EINVAL, "%s: iorate has no %s", arg,
			       own_opts[i].why);
	if (own_opts[i].value && !val)
		return err_set(c->err, c->errlen, -EINVAL, "%s: needs a value (--%s=...)", arg,
			       own_opts[i].name);
	switch (own_opts[i].what) {
	case OWN_OUTPUT: f->output = val; break;
	case OWN_FORMAT: f->output_format = val, f->append_terse = false; break;
	case OWN_MINIMAL: f->output_format = "terse", f->append_terse = false; break;
	case OWN_APPEND_TERSE: f->append_terse = true; break;
	case OWN_TERSE_VERSION: f->terse_version = val; break;
	case OWN_ETA: f->eta = val; break;
	case OWN_READONLY: f->readonly = true; break;
	case OWN_SHOWCMD: f->showcmd = true; break;
	case OWN_PARSE_ONLY: f->parse_only = true; break;
	case OWN_SECTION:
		if (f->nsections == sizeof(f->sections) / sizeof(f->sections[0]))
			return err_set(c->err, c->errlen, -EINVAL, "%s: more than 32 sections",
				       arg);
		f->sections[f->nsections++] = val;
		break;
	default: break;
	}
	return 0;
}

/* --name=X starts a job (or a [global]); any other job option goes to the current one. */
static int job_option(struct cli *c, const char *key, const char *val)
{
	if (!strcmp(key, "name") && val) {
		c->skipping = fio_section_skipped(c->f, val);
		c->cur = c->skipping ? NULL : fio_doc_section(c->f->doc, val, "command line");
		return c->skipping || c->cur ? 0 : -ENOMEM;
	}
	if (c->skipping)
		return 0;
	if (!c->cur && !(c->cur = fio_doc_section(c->f->doc, "global", "command line")))
		return -ENOMEM;
	return fio_section_add(c->cur, c->f->env, key, val, "command line", true, c->err,
			       c->errlen);
}

/* Whether a job option takes the next word as its value ("--bs 4k"): not a bool or a flag. */
static bool takes_next(const char *key)
{
	const struct fio_opt *op = fio_opt_find(key);

	return op && op->type != FT_SET && op->type != FT_BOOL;
}

static int cli_arg(struct cli *c, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *eq, *val = NULL;
	char key[128];
	size_t n;
	int own;

	if (a[0] != '-' || !a[1]) {
		if (c->nfiles == sizeof(c->files) / sizeof(c->files[0]))
			return err_set(c->err, c->errlen, -EINVAL, "%s: more than 64 job files", a);
		c->files[c->nfiles++] = a;
		return 0;
	}
	/* fio reads long options with one dash too (getopt_long_only). */
	const char *name = a + 1 + (a[1] == '-');
	eq = strchr(name, '=');
	n = eq ? (size_t)(eq - name) : strlen(name);
	if (!n || n >= sizeof(key))
		return err_set(c->err, c->errlen, -EINVAL, "%s: not an option of fio", a);
	memcpy(key, name, n);
	key[n] = '\0';
	val = eq ? eq + 1 : NULL;
	if ((own = own_index(key)) >= 0) {
		if (!val && own_opts[own].value && *i + 1 < argc)
			val = argv[++*i];
		return own_option(c, own, val, a);
	}
	if (!val && *i + 1 < argc && takes_next(key))
		val = argv[++*i];
	return job_option(c, key, val);
}

int compat_fio_read_argv(struct compat_fio *f, int argc, char **argv, char *err, size_t errlen)
{
	struct cli c = {.f = f, .err = err, .errlen = errlen};
	int r = 0;

	err[0] = '\0';
	if (!f->doc && !(f->doc = calloc(1, sizeof(*f->doc))))
		return -ENOMEM;
	for (int i = 1; i < argc && !r; i++)
		r = cli_arg(&c, argc, argv, &i);
	for (unsigned i = 0; i < c.nfiles && !r; i++)
		r = fio_ini_read(f, c.files[i], err, errlen);
	return r;
}
