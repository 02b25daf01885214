/* The options and catalog handling that the model commands share (model_common.h). */
#include <getopt.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/model_common.h"
#include "util/parse.h"

void model_opts_init(struct model_opts *o, const char *cmd, void (*usage)(FILE *f))
{
	memset(o, 0, sizeof(*o));
	o->cmd = cmd;
	o->usage = usage;
	o->cache = MODEL_CACHE_NONE;
	o->bs = 4096;
}

int model_getopt(struct model_opts *o, int argc, char **argv, const char *so,
		 const struct option *lo)
{
	char opts[64];
	bool plus = so[0] == '+';
	int c;

	/* A leading ':' (after any '+') makes a missing value ':' rather than '?'. */
	snprintf(opts, sizeof(opts), "%s:%s", plus ? "+" : "", so + plus);
	opterr = 0;
	c = getopt_long(argc, argv, opts, lo, NULL);
	if (c != ':' && c != '?')
		return c;
	const char *word = argv[optind - 1 < argc ? optind - 1 : argc - 1];
	char shortopt[3] = {'-', (char)optopt, '\0'};
	const char *name = optopt > 0 && optopt < 128 ? shortopt : word;

	if (c == ':')
		snprintf(o->bad, sizeof(o->bad), "%s: %s needs a value", o->cmd, name);
	else
		snprintf(o->bad, sizeof(o->bad), "%s: unknown option '%s'", o->cmd, name);
	return MO_BAD;
}

int model_opts_take(struct model_opts *o, int c, const char *arg)
{
	switch (c) {
	case MO_BAD:
		return usage_error("%s (see 'iorate %s --help')", o->bad, o->cmd);
	case MO_VM:
		o->vm = arg;
		return 0;
	case MO_DISK:
		if (o->nspecs > MODEL_MAX_GROUPS)
			return usage_error("--disk: at most %d groups", MODEL_MAX_GROUPS);
		o->specs[o->nspecs++] = (char *)arg;
		return 0;
	case MO_CACHE:
		if (model_cache_parse(arg, &o->cache))
			return usage_error("--cache: '%s' is not a cache mode (none, readonly, "
					   "readwrite)", arg);
		return 0;
	case MO_PROVIDER:
		o->provider = arg;
		return 0;
	case MO_CATALOG:
		if (o->nfiles >= MODEL_MAX_CATALOG_FILES)
			return usage_error("--catalog: at most %d files", MODEL_MAX_CATALOG_FILES);
		o->files[o->nfiles++] = (char *)arg;
		return 0;
	case MO_BS:
		if (parse_size(arg, &o->bs) || !o->bs)
			return usage_error("--bs: '%s' is not a size (examples: %s)", arg,
					   PARSE_SIZE_EXAMPLES);
		return 0;
	case MO_WRITE:
		if (parse_percent(arg, &o->write_pct))
			return usage_error("--write: '%s' is not a percentage (0 to 100)", arg);
		return 0;
	case MO_JSON:
		o->json = true;
		return 0;
	case 'h':
		o->usage(stdout);
		o->help = true;
		return 0;
	default:
		return usage_error("%s: unknown option (see 'iorate %s --help')", o->cmd, o->cmd);
	}
}

int model_opts_no_args(const struct model_opts *o, int argc, char **argv)
{
	if (optind < argc)
		return usage_error("%s: unexpected argument '%s'", o->cmd, argv[optind]);
	return 0;
}

int model_opts_catalog(const struct model_opts *o, struct catalog *c)
{
	char err[512];

	if (model_catalog_open(c, o->files, o->nfiles, err, sizeof(err)))
		return usage_error("--catalog: %s", err);
	return 0;
}

int model_opts_config(const struct model_opts *o, const struct catalog *c,
		      struct model_config *m)
{
	char err[512];

	if (model_config_resolve(c, o->vm, o->provider, o->specs, o->nspecs, o->cache, m, err,
				 sizeof(err)))
		return usage_error("%s", err);
	return 0;
}
