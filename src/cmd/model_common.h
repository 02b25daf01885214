#ifndef IORATE_CMD_MODEL_COMMON_H
#define IORATE_CMD_MODEL_COMMON_H
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model/config.h"

/*
 * The options the model commands (model, plan, explain, cost, catalog) share: --vm, --disk,
 * --cache, --provider, --catalog, --bs, --write, --json and --help. Each command lists the ones
 * it takes in its option table with the MO_* codes, numbers its own options from MO_NEXT, handles
 * its own in a switch and gives every other code to model_opts_take().
 */
enum {
	/* Options with a short form use its letter as the code, so -b and --bs come back alike;
	 * a command that takes one also puts the letter in its short option string ("b:w:h"). */
	MO_BS = 'b', MO_WRITE = 'w',
	MO_BAD = 255, /* model_getopt(): an unknown option or a missing value (o->bad says which) */
	MO_VM = 256, MO_DISK, MO_CACHE, MO_PROVIDER, MO_CATALOG, MO_JSON,
	MO_NEXT
};

#define MO_OPT_VM       {"vm", required_argument, NULL, MO_VM}
#define MO_OPT_DISK     {"disk", required_argument, NULL, MO_DISK}
#define MO_OPT_CACHE    {"cache", required_argument, NULL, MO_CACHE}
#define MO_OPT_PROVIDER {"provider", required_argument, NULL, MO_PROVIDER}
#define MO_OPT_CATALOG  {"catalog", required_argument, NULL, MO_CATALOG}
#define MO_OPT_BS       {"bs", required_argument, NULL, MO_BS}
#define MO_OPT_WRITE    {"write", required_argument, NULL, MO_WRITE}
#define MO_OPT_JSON     {"json", no_argument, NULL, MO_JSON}
#define MO_OPT_HELP     {"help", no_argument, NULL, 'h'}

#define MODEL_MAX_CATALOG_FILES 16

struct model_opts {
	const char *cmd;                    /* "model": names the command in messages */
	void (*usage)(FILE *f);             /* prints the command's --help */
	const char *vm, *provider;
	char *specs[MODEL_MAX_GROUPS + 1];  /* one more, so resolving says how many are allowed */
	unsigned nspecs;
	char *files[MODEL_MAX_CATALOG_FILES];
	unsigned nfiles;
	enum model_cache cache;
	uint64_t bs;                        /* --bs, 4 KiB unless given */
	unsigned write_pct;                 /* --write, 0 unless given */
	bool json;
	bool help;                          /* --help was printed: the command returns 0 */
	char bad[160];                      /* what MO_BAD was about */
};

void model_opts_init(struct model_opts *o, const char *cmd, void (*usage)(FILE *f));

/*
 * getopt_long for the model commands, which reports a bad option once, by iorate: getopt's own
 * message is off, and an unknown option or a missing value comes back as MO_BAD with o->bad
 * naming it, for model_opts_take() to refuse. so is the short option string ("+h" allowed).
 */
int model_getopt(struct model_opts *o, int argc, char **argv, const char *so,
		 const struct option *lo);

/*
 * Takes one option of the shared set (c as getopt_long returned it): 0, or EXIT_USAGE with the
 * message printed. -h prints the usage and sets o->help; any other code is an unknown option.
 */
int model_opts_take(struct model_opts *o, int c, const char *arg);

/* After the loop: EXIT_USAGE when words are left over (for commands that take none). */
int model_opts_no_args(const struct model_opts *o, int argc, char **argv);

/* Loads the --catalog files and the built-in catalogs into c; EXIT_USAGE on error. */
int model_opts_catalog(const struct model_opts *o, struct catalog *c);

/* Resolves --vm, --disk and --cache in the catalog into m; EXIT_USAGE on error. */
int model_opts_config(const struct model_opts *o, const struct catalog *c,
		      struct model_config *m);

#endif
