/* The options and catalog handling that the model commands share (model_common.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/model_common.h"
#include "core/job.h"
#include "model/settings.h"
#include "report/model_fmt.h"
#include "util/parse.h"

#define MO(field) .in = OPT_IN_CMD, .off = offsetof(struct model_opts, field)

static int set_host_cache(struct opt_ctx *c, const struct opt *o, const char *val)
{
	struct model_opts *m = c->state;

	if (model_cache_parse(val, &m->cache))
		return opt_refuse(c, val, "is not a host cache mode (none, readonly, readwrite)");
	return 0;
}

static int set_read_hit(struct opt_ctx *c, const struct opt *o, const char *val)
{
	int r = opt_set_percent(c, o, val);

	if (!r)
		((struct model_opts *)c->state)->read_hit_given = true;
	return r;
}

static int set_cache_state(struct opt_ctx *c, const struct opt *o, const char *val)
{
	struct model_opts *m = c->state;

	if (!strcmp(val, "warm"))
		m->cache_state = MODEL_STATE_WARM;
	else if (!strcmp(val, "cold"))
		m->cache_state = MODEL_STATE_COLD;
	else
		return opt_refuse(c, val, "is not a cache state (warm, cold)");
	return 0;
}

/* run's forms (job_parse_dist), kept as the model reads them. */
static int set_distribution(struct opt_ctx *c, const struct opt *o, const char *val)
{
	struct model_opts *m = c->state;
	struct job *j = calloc(1, sizeof(*j));
	const char *why = NULL;
	int r;

	if (!j)
		return opt_refuse(c, val, "cannot be held (out of memory)");
	if (!(r = job_parse_dist(j, val, &why))) {
		m->skew = (struct model_skew){.dist = j->dist, .param = j->dist_param,
					      .nzones = j->nzones};
		memcpy(m->skew.zones, j->zones, sizeof(m->skew.zones));
		r = model_skew_check(&m->skew, &why);
	}
	free(j);
	return r ? opt_refuse(c, val, why) : 0;
}

static int set_controller(struct opt_ctx *c, const struct opt *o, const char *val)
{
	struct model_opts *m = c->state;

	if (!catalog_controller_known(val))
		return opt_refuse(c, val, "is not a disk controller (scsi, nvme)");
	m->controller = val;
	return 0;
}

/* model, explain, cost: the VM and its disks. */
static const struct opt vm_opts[] = {
	{.name = "vm", .arg = "NAME", .help = "VM size, optionally CATALOG:NAME",
	 .example = "--vm azure-2015:DS2", .set = opt_set_string, MO(vm)},
	{.name = "disk", .arg = "SPEC",
	 .help = "[Nx]TYPE[:SIZE][:iops=N][:mbps=N][:burst=ondemand][:cache=MODE], 'os' (the OS "
	 "disk) or 'local' (the temp disk); repeatable: the groups are striped together, each with "
	 "its own host cache. mbps= is in the unit the provider provisions in: MiB/s for AWS (EBS) "
	 "and GCP, MB/s (10^6 B/s) for Azure", .example = "--disk 3xP30:cache=readonly",
	 .set = opt_set_strings, MO(specs), .max = MODEL_MAX_GROUPS + 1},
	{0},
};

/* model, explain. */
static const struct opt host_cache_opts[] = {
	{.name = "host-cache", .arg = "MODE",
	 .help = "host cache of the disk groups that give no :cache= (none, readonly, readwrite); "
	 "unless given, none for data disks and readwrite for the OS disk",
	 .example = "--host-cache readonly", .set = set_host_cache,
	 .values = "none readonly readwrite"},
	{0},
};

/* model, explain, plan. */
static const struct opt read_hit_opts[] = {
	{.name = "read-hit", .arg = "PCT",
	 .help = "percent of reads the host cache serves on cached disks, overriding what "
	 "--working-set gives (without either: 0, a cold cache)", .example = "--read-hit 90",
	 .set = set_read_hit, MO(read_hit)},
	{0},
};

/* model, plan. */
static const struct opt working_set_opts[] = {
	{.name = "working-set", .arg = "SIZE",
	 .help = "bytes the workload touches over the volume: with the VM's host-cache size it "
	 "gives the read-hit ratio of cached disks (--read-hit wins); explain reads the run's own",
	 .example = "--working-set 100GiB", .set = opt_set_size, MO(working_set), .min = 1},
	{0},
};

/* model, plan, explain. */
static const struct opt cache_state_opts[] = {
	{.name = "cache-state", .arg = "STATE",
	 .help = "what --working-set predicts: warm (default: the steady state, after a first "
	 "pass) or cold (the first pass, every read a miss)", .example = "--cache-state cold",
	 .set = set_cache_state, .values = "warm cold"},
	{0},
};

/* model, plan. */
static const struct opt distribution_opts[] = {
	{.name = "distribution", .arg = "KIND",
	 .help = OPT_DISTRIBUTION_HELP,
	 .example = "--distribution zipf:1.2", .set = set_distribution},
	{0},
};

/* model, explain: how the volume is built. */
static const struct opt volume_opts[] = {
	{.name = "interleave", .arg = "SIZE",
	 .help = "stripe unit of a volume of several disks (default 256KiB, Storage Spaces' "
	 "default): a larger I/O is split into requests of this size",
	 .example = "--interleave 64k", .set = opt_set_size, MO(interleave), .min = 4096,
	 .max = 1ull << 30},
	{.name = "controller", .arg = "TYPE",
	 .help = "the VM's disk controller (scsi, nvme) where its size publishes caps for each "
	 "(Azure Ebsv5: NVMe's are higher); unless given, the one a new VM of the size gets",
	 .example = "--controller nvme", .set = set_controller, .values = "scsi nvme"},
	{0},
};

/* Every model command. */
static const struct opt catalog_opts[] = {
	{.name = "provider", .arg = "CAT", .help = "look names up in one catalog or provider only "
	 "(catalog prices: whose price list to read: azure, aws)",
	 .example = "--provider azure-2015", .set = opt_set_string, MO(provider)},
	{.name = "catalog", .arg = "FILE",
	 .help = "add or override catalog entries and prices (repeatable)",
	 .example = "--catalog mine.json", .set = opt_set_strings, MO(files), .max = 16},
	{0},
};

/* Every model command, after --json (opt_output): the formats they print. */
static const struct opt format_opts[] = {
	{.name = "format", .arg = "FMT", .help = OPT_FORMAT_HELP, .example = "--format json",
	 .set = opt_set_format, .excl = EXCL_FORMAT, .values = "text json"},
	{0},
};

const struct opt_group opt_model_vm = {.title = "Configuration", .opts = vm_opts};
const struct opt_group opt_model_host_cache = {.title = "Configuration", .opts = host_cache_opts};
const struct opt_group opt_model_read_hit = {.title = "Configuration", .opts = read_hit_opts};
const struct opt_group opt_model_working_set = {.title = "Configuration", .opts = working_set_opts};
const struct opt_group opt_model_cache_state = {.title = "Configuration", .opts = cache_state_opts};
const struct opt_group opt_model_distribution = {.title = "Configuration",
						 .opts = distribution_opts};
const struct opt_group opt_model_volume = {.title = "Configuration", .opts = volume_opts};
const struct opt_group opt_model_catalog = {.title = "Configuration", .opts = catalog_opts};
const struct opt_group opt_model_format = {.title = "Output", .opts = format_opts};

void model_opts_init(struct model_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->cache = MODEL_CACHE_DEFAULT;
	output_opts_init(&o->out);
}

/* The name was checked when given (opt_set_format); whether the command prints it, here. */
int model_opts_format(struct model_opts *o, const struct report_formats *kind)
{
	int r = output_opts_format(&o->out, kind);

	o->fmt = o->out.fmt;
	return r;
}

int model_opts_parse(const struct command *cmd, void *state, int argc, char **argv, int *first,
		     bool *help)
{
	struct model_opts *mo = state;
	/* The workload options are run's rows (opt_bs, ...): they set a job, read back after. */
	struct job j;
	struct opt_ctx c = {.cmd = cmd, .job = &j, .out = &mo->out, .state = state,
			    .on_set = mo->on_set};
	int r;

	job_init(&j);
	r = options_parse(&c, argc, argv, first);
	mo->bs = j.bs;
	mo->write_pct = j.write_pct;
	mo->threads = j.threads;
	mo->depth = j.depth;
	mo->sequential = j.pattern == PATTERN_SEQUENTIAL;
	job_release(&j);
	*help = c.help;
	if (!r && c.help)
		options_help(stdout, cmd);
	else if (!r && cmd->output)
		r = model_opts_format(state, cmd->output);
	return r;
}

int model_opts_written(int rc)
{
	if (!rc)
		return 0;
	return rc == -EPIPE ? 1 : run_error("cannot write the output: %s", strerror(-rc));
}

int model_opts_no_args(const struct command *cmd, int first, int argc, char **argv)
{
	if (first < argc)
		return usage_error("%s: unexpected argument '%s' (see 'iorate %s --help')",
				   cmd->name, argv[first], cmd->name);
	return 0;
}

int model_opts_provider(const struct model_opts *o, const struct catalog *c)
{
	if (!o->provider || catalog_has(c, o->provider))
		return 0;
	for (size_t i = 0; i < c->nvms; i++)
		if (!strcmp(c->vms[i].provider, o->provider))
			return 0;
	return usage_error("--provider: no catalog or provider '%s' (azure, azure-2015, aws, gcp)",
			   o->provider);
}

const char *model_opts_user_dir(char *buf, size_t len)
{
	return catalog_user_dir(buf, len);
}

/* Figures of a higher layer that differ from a lower one's: said once, on stderr. */
static void note_conflicts(const struct catalog *c)
{
	unsigned n[CAT_FILE + 1] = {0};

	for (size_t i = 0; i < c->nconflicts; i++)
		n[c->conflicts[i].layer]++;
	for (int l = CAT_INSTALLED; l <= CAT_USER; l++)
		if (n[l])
			fprintf(stderr, "iorate: note: %u figure%s of the %s catalog differ%s from "
				"the catalog below it and %s used ('iorate catalog list' names "
				"them)\n", n[l], n[l] == 1 ? "" : "s", catalog_layer_name(l),
				n[l] == 1 ? "s" : "", n[l] == 1 ? "is" : "are");
}

int model_opts_catalog(const struct model_opts *o, struct catalog *c)
{
	char err[768], inst[4096], user[4096];
	struct catalog_layers l = {.files = (char *const *)o->files.v, .nfiles = o->files.n,
		.installed = catalog_installed_dir(inst, sizeof(inst)),
		.user = catalog_user_dir(user, sizeof(user))};

	if (catalog_open_layers(c, &l, err, sizeof(err)))
		return usage_error("--catalog: %s", err);
	if (!o->lists_conflicts)
		note_conflicts(c);
	return 0;
}

int model_opts_config(const struct model_opts *o, const struct catalog *c,
		      struct model_config *m)
{
	char err[512];

	if (model_config_resolve(c, o->vm, o->provider, (char *const *)o->specs.v, o->specs.n,
				 o->cache, m, err, sizeof(err)))
		return usage_error("%s", err);
	m->read_hit = o->read_hit;
	m->read_hit_set = o->read_hit_given;
	m->working_set = (double)o->working_set;
	m->cache_state = o->cache_state;
	m->skew = o->skew;
	m->interleave = o->interleave;
	m->controller = o->controller;
	if (model_check_controller(m, err, sizeof(err)))
		return usage_error("%s", err);
	return 0;
}

int model_opts_settings(struct settings *st, const char **region, const char **region_from,
			const char **currency, const char **currency_from)
{
	char err[PATH_MAX + 256];
	int r;

	if ((r = settings_load(st, err, sizeof(err))))
		return r == -EINVAL ? usage_error("%s", err) : run_error("%s", err);
	if (!*region && st->region) {
		*region = st->region;
		*region_from = st->shown;
	}
	if (!*currency && st->currency) {
		*currency = st->currency;
		*currency_from = st->shown;
	}
	return 0;
}
