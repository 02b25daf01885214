/*
 * iorate verify: checks targets that a run with --verify wrote, block by block, after the fact
 * (a copy, a reboot, a failover later): every block that carries an iorate header must be
 * intact, at its own offset, and from the same run.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "core/verify_jobs.h"
#include "core/verify_scan.h"
#include "report/progress.h"
#include "report/verify_fmt.h"
#include "result/result_json.h"

static int verify_main(int argc, char **argv);

/* The jobs of --result's file, each a run of its own. */
struct saved {
	struct result *runs;
	size_t n;
};

struct vopts {
	uint64_t block, seed, offset, range;
	const char *result;
	struct output_opts out;  /* --format, --json: verify_formats'; -q */
};

#define V(field) .in = OPT_IN_CMD, .off = offsetof(struct vopts, field)

static const struct opt verify_opts[] = {
	{.name = "block", .arg = "SIZE",
	 .help = "bytes per block (default: what most iorate headers found say)",
	 .example = "--block 4k", .set = opt_set_size, V(block), .min = 512, .max = 1u << 20},
	/* From 1: a seed of 0 is the scan's "any run" (verify_scan.c). */
	{.name = "seed", .arg = "N", .help = OPT_SEED_HELP, .example = "--seed 8144501239",
	 .set = opt_set_u64, V(seed), .min = 1},
	{.name = "result", .arg = "FILE",
	 .help = "the run's saved result (--json of run, of one job or several, or of sweep: every "
	 "run it holds): their seeds, block sizes and targets say which blocks belong, not the "
	 "headers, and the blocks each wrote which writes were lost", .example = "--result run.json",
	 .set = opt_set_string, V(result)},
	{.name = "offset", .arg = "SIZE", .help = OPT_OFFSET_HELP, .example = "--offset 1G",
	 .set = opt_set_size, V(offset)},
	{.name = "range", .arg = "SIZE", .help = OPT_RANGE_HELP, .example = "--range 10G",
	 .set = opt_set_size, V(range)},
	{0},
};

/* --json and -q are the shared rows (opt_output, opt_output_quiet), into vopts.out. */
static const struct opt verify_format_opts[] = {
	{.name = "format", .arg = "FMT", .help = OPT_FORMAT_HELP, .example = "--format json",
	 .set = opt_set_format, .excl = EXCL_FORMAT, .values = "text json"},
	{0},
};

static const struct opt_group verify_group = {.title = "Options", .opts = verify_opts};
static const struct opt_group verify_format = {.title = "Output", .opts = verify_format_opts};
static const struct opt_group *const verify_groups[] = {&verify_group, &opt_output,
							 &verify_format, &opt_output_quiet, NULL};

const struct command cmd_verify = {
	.name = "verify",
	.summary = "check targets a run with --verify wrote, after the fact",
	.synopsis = "[options] TARGET...",
	.about = "Reads every block of each target (directly, not from the page cache) and checks\n"
		 "the blocks that carry an iorate header: the checksum (corrupted or torn blocks),\n"
		 "the offset the header names (misdirected writes), and the run (a block of another\n"
		 "run). A block without a header (zeroed, say) that the run wrote is a lost write:\n"
		 "the saved result (--result) records the blocks a verifying run wrote; without it,\n"
		 "a hole in a sequential run's sweep (its headers' generations say the sweep wrote\n"
		 "it) is one, and other blocks without a header between the run's own are counted\n"
		 "as suspicious, not judged. A stale block of the same run looks intact here; the\n"
		 "run itself catches those when it reads back what it wrote. Give the targets of one\n"
		 "run; block size and run are what most headers say (two runs about equally common\n"
		 "are refused) unless --block and --seed, or the run's saved result, say.",
	.groups = verify_groups,
	.examples = "  iorate run --verify -w 100 -s --io-size 1g --keep /mnt/data/v.dat\n"
		    "  iorate verify /mnt/data/v.dat\n"
		    "  iorate verify --json --seed 8144501239 /dev/sdb\n"
		    "  iorate run --verify -w 100 --keep --json a.dat b.dat > run.json\n"
		    "  iorate verify --result run.json a.dat b.dat\n",
	.exit_status = "0 every block with a header is intact and no write was lost, 1 bad blocks\n"
		       "or lost writes (or a read failed), 2 bad usage (or no iorate block was found,\n"
		       "or two runs' blocks are about equally common).",
	.fn = verify_main,
};

static void progress_cb(void *arg, double done)
{
	struct progress *p = arg;

	progress_label(p, "verifying: %.0f%%", done * 100);
}

/*
 * The targets of one job of a result that are path: its seed and their index, into s. 0, or
 * the block size of a job whose blocks differ in size from those already found.
 */
static uint32_t from_run(const struct result *r, const char *path, struct verify_scan *s)
{
	uint32_t block = r->verify.block;

	if (r->verify.sum == VERIFY_NONE || !r->job.seed || block < VERIFY_MIN_BLOCK ||
	    block > (1u << 20))
		return 0;
	for (unsigned k = 0; k < r->ntargets; k++) {
		const char *p = r->targets[k].path;

		if (!p || !verify_same_target(p, path) || s->nfrom == VERIFY_SCAN_FROM)
			continue;
		if (!s->block)
			s->block = block;
		else if (s->block != block)
			return block;
		s->written[s->nfrom] = NULL;
		for (unsigned w = 0; w < r->verify.nwritten; w++)
			if (r->verify.written[w].target == k && !s->written[s->nfrom])
				s->written[s->nfrom] = &r->verify.written[w];
		s->from[s->nfrom++] = (struct verify_origin){.seed = r->job.seed, .target = k};
		s->res.sum = r->verify.sum;
	}
	return 0;
}

/* --result: what the saved runs (every job of the file) say of path. 0, or the exit code. */
static int from_result(const char *file, const struct saved *saved, const char *path,
		       struct verify_scan *s)
{
	uint32_t other = 0;

	for (size_t i = 0; i < saved->n && !other; i++)
		other = from_run(&saved->runs[i], path, s);
	if (other)
		return usage_error("--result: the jobs of %s wrote %s in blocks of %u and of %u "
				   "bytes; check each region with its own --block and --seed",
				   file, path, s->block, other);
	if (!s->nfrom)
		return usage_error("--result: %s records no run with --verify that wrote %s", file,
				   path);
	return 0;
}

/* Checks every target into one result; the exit code. */
static int check_all(const struct vopts *o, const struct saved *saved, char **paths, unsigned n)
{
	struct verify_scan *s = calloc(n, sizeof(*s));
	struct verify_target_report *t = calloc(n, sizeof(*t));
	char (*errs)[512] = calloc(n, sizeof(*errs));
	struct verify_result all = {0};
	struct progress p;
	int code = 0;

	if (!s || !t || !errs) {
		free(s), free(t), free(errs);
		return run_error("out of memory");
	}
	progress_init(&p, o->out.quiet || o->out.fmt->for_programs);
	for (unsigned i = 0; i < n && !code; i++) {
		s[i] = (struct verify_scan){.block = (uint32_t)o->block, .seed = o->seed, .target = i};
		if (saved && (code = from_result(o->result, saved, paths[i], &s[i])))
			break;
		progress_label(&p, "verifying %s", paths[i]);
		int r = verify_scan_path(paths[i], o->offset, o->range, &s[i], progress_cb, &p,
					 cmd_stop_flag(), errs[i], sizeof(errs[i]));
		progress_clear(&p);
		t[i] = (struct verify_target_report){.path = paths[i], .unwritten = s[i].unwritten,
						     .lost = s[i].lost + s[i].lost_unplaced,
						     .lost_unplaced = s[i].lost_unplaced,
						     .suspicious = s[i].suspicious, .error = r,
						     .errmsg = errs[i]};
		if (r == -EINVAL || r == -ENOENT || r == -ENOTUNIQ)
			code = usage_error("%s", errs[i]);
		else if (r && r != -EINTR)
			run_error("%s", errs[i]);
		all.sum = all.sum ? all.sum : s[i].res.sum;
		all.block = all.block ? all.block : s[i].block;
		all.checked += s[i].res.checked;
		all.bad += s[i].res.bad - s[i].res.nbads;
		for (unsigned k = 0; k < s[i].res.nbads; k++)
			verify_result_add(&all, &s[i].res.bads[k]);
	}
	if (!code) {
		verify_result_sort(&all);
		struct verify_report rep = {.result = &all, .targets = t,
					    .paths = (const char *const *)paths, .n = n};

		FILE *f = cmd_stdout_open();

		code = f ? cmd_stdout_close(f, REPORT_WRITER(struct verify_format,
							     o->out.fmt)->write(f, &rep)) : 1;
		code = all.bad ? 1 : code;
		for (unsigned i = 0; i < n; i++)
			code = t[i].error ? 1 : code;
	}
	for (unsigned i = 0; i < n; i++)
		verify_result_release(&s[i].res);
	verify_result_release(&all);
	free(s), free(t), free(errs);
	return code;
}

static int verify_main(int argc, char **argv)
{
	struct vopts o = {0};
	struct opt_ctx c = {.cmd = &cmd_verify, .out = &o.out, .state = &o};
	int first = 0, rc;

	output_opts_init(&o.out);
	if ((rc = options_parse(&c, argc, argv, &first)))
		return rc;
	if (c.help) {
		options_help(stdout, &cmd_verify);
		return 0;
	}
	if ((rc = output_opts_format(&o.out, &verify_formats)))
		return rc;
	if (first >= argc)
		return usage_error("verify: no target: name the files or devices a run with "
				   "--verify wrote (see 'iorate verify --help')");
	if (o.result && o.seed)
		return usage_error("verify: --seed and --result both name the run; give one");
	if (o.result) {
		struct saved saved;
		char err[512];

		if (result_json_load_file(o.result, &saved.runs, &saved.n, err, sizeof(err)))
			return usage_error("--result: %s", err);
		rc = check_all(&o, &saved, argv + first, (unsigned)(argc - first));
		result_array_free(saved.runs, saved.n);
		return rc;
	}
	return check_all(&o, NULL, argv + first, (unsigned)(argc - first));
}
