#ifndef IORATE_CMD_MODEL_COMMON_H
#define IORATE_CMD_MODEL_COMMON_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cmd/options.h"
#include "model/config.h"
#include "report/format.h"

/*
 * The options the model commands (model, plan, explain, cost, catalog) share: --vm, --disk,
 * --host-cache, --read-hit, --working-set, --cache-state, --distribution, --interleave,
 * --controller, --provider, --catalog, --bs, --write, --format (--json). A command's own options
 * structure starts with a struct model_opts, so the shared group's fields lie at the same
 * offsets in it.
 */
struct model_opts {
	const char *vm, *provider;
	struct opt_strs specs;              /* --disk, one more than allowed so resolving says so */
	struct opt_strs files;              /* --catalog */
	enum model_cache cache;             /* --host-cache; MODEL_CACHE_DEFAULT unless given */
	unsigned read_hit;                  /* --read-hit, percent of reads the host cache serves */
	bool read_hit_given;                /* --read-hit was given: it wins over --working-set */
	uint64_t working_set;               /* --working-set, bytes; 0 unless given */
	enum model_cache_state cache_state; /* --cache-state; warm (the steady state) unless given */
	struct model_skew skew;             /* --distribution of random offsets; uniform */
	uint64_t interleave;                /* --interleave, the stripe unit; 0 = 256 KiB */
	const char *controller;             /* --controller scsi|nvme; NULL: the VM's default */
	/* The workload, as 'iorate run' takes it and defaults it (job_init()) */
	uint64_t bs;                        /* --bs */
	unsigned write_pct;                 /* --write */
	unsigned threads, depth;            /* --threads, --depth (model) */
	bool sequential;                    /* -s (model) */
	struct output_opts out;             /* --format NAME or --json, as the job commands take them */
	const struct report_format *fmt;    /* the format, once model_opts_format() found it */
	bool lists_conflicts;               /* the command prints the layers' conflicts itself */
	/* Called after each option is set (opt_ctx.on_set), in command-line order; may be NULL. */
	int (*on_set)(struct opt_ctx *c, const struct opt *o);
};

/*
 * The groups of the model commands' shared options, each taken whole by whoever lists it:
 * opt_model_vm (--vm, --disk: model, explain, cost), opt_model_host_cache (model, explain),
 * opt_model_read_hit (model, explain, plan), opt_model_working_set (model, plan),
 * opt_model_cache_state (model, plan, explain), opt_model_distribution (model, plan),
 * opt_model_volume (--interleave, --controller: model, explain), opt_model_catalog (--provider,
 * --catalog: all), opt_model_format (all). The workload is run's: opt_bs, opt_write, opt_queue.
 */
extern const struct opt_group opt_model_vm, opt_model_host_cache, opt_model_read_hit,
	opt_model_working_set, opt_model_cache_state, opt_model_distribution, opt_model_volume,
	opt_model_catalog, opt_model_format;

/* The help of --region and --currency, rows of plan's, cost's and catalog's own. */
#define MODEL_REGION_HELP                                                                        \
	"the price region (Azure: northeurope, eastus...; AWS: us-east-1...): catalog prices: "   \
	"the one to download; plan, cost: default the settings file's, else each catalog's "      \
	"first: downloaded prices, then the built-in"
#define MODEL_CURRENCY_HELP                                                                      \
	"the price currency: catalog prices: the one to download (default USD; AWS publishes "   \
	"USD only); plan, cost: default the settings file's, else that of the first price in "    \
	"scope, USD for the built-in ones"
#define MODEL_IOPS_HELP                                                                          \
	"I/Os a second of the volume: plan: what it must do; cost config: what it does while "    \
	"the VM runs, billed on disks priced per operation (Azure Standard SSD and HDD; without " \
	"it that price is named and not counted)"

void model_opts_init(struct model_opts *o);

/*
 * Parses the command's options into state (which starts with a struct model_opts): 0, or the
 * exit code after printing why. *help is set (and the help printed) for --help; *first is the
 * index of the first word that is not an option.
 */
int model_opts_parse(const struct command *cmd, void *state, int argc, char **argv, int *first,
		     bool *help);

/*
 * The format asked for, in the table of what the command prints (report/format.h), in o->fmt:
 * 0, or EXIT_USAGE after saying which formats the command prints. model_opts_parse() calls it
 * for model, plan and explain; cost and catalog call it once their subcommand is known.
 */
int model_opts_format(struct model_opts *o, const struct report_formats *kind);

/*
 * The exit code after a report writer returned rc: 0, or 1 after saying why the output could
 * not be written (nothing for a closed pipe: the signal's exit status says it).
 */
int model_opts_written(int rc);

/* EXIT_USAGE when words are left over (for commands that take none). */
int model_opts_no_args(const struct command *cmd, int first, int argc, char **argv);

/*
 * Loads the layered catalog (catalog_open_layers(): the --catalog files, the built-in catalogs,
 * the installed ones, the user's imported entries and downloaded prices) into c; EXIT_USAGE on
 * error. Figures of the installed or user catalog that differ from a lower layer's are noted
 * on stderr, unless the command lists them itself (lists_conflicts).
 */
int model_opts_catalog(const struct model_opts *o, struct catalog *c);

/*
 * The user's catalog directory: $XDG_DATA_HOME/iorate/catalog, else
 * $HOME/.local/share/iorate/catalog; NULL when neither variable is set.
 */
const char *model_opts_user_dir(char *buf, size_t len);

struct settings;
/*
 * Reads the settings file into st and fills *region and *currency where the command line gave
 * none, each *_from set to the file's name as shown. 0; EXIT_USAGE for a bad file (its line
 * named), EXIT_FAIL when it cannot be read; the message printed.
 */
int model_opts_settings(struct settings *st, const char **region, const char **region_from,
			const char **currency, const char **currency_from);

/* --provider names a catalog or a provider of the loaded catalog: 0, or EXIT_USAGE. */
int model_opts_provider(const struct model_opts *o, const struct catalog *c);

/*
 * Resolves --vm, --disk, --host-cache, --read-hit, --working-set, --cache-state,
 * --distribution, --interleave and --controller in the catalog into m;
 * EXIT_USAGE on error.
 */
int model_opts_config(const struct model_opts *o, const struct catalog *c,
		      struct model_config *m);

#endif
