/* iorate run: one workload against one or more targets, reported exactly. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/compat.h"
#include "cmd/options.h"
#include "cmd/run_common.h"
#include "engine/engine.h"

static void run_usage(FILE *f)
{
	fprintf(f,
		"usage: iorate run [options] TARGET...\n\n"
		"Generates I/O against each TARGET (a file, created and filled when missing, or a\n"
		"block device) for --time, with --threads per target and --depth I/Os in flight per\n"
		"thread, and reports I/Os, bytes, IOPS, throughput, latency percentiles and CPU, per\n"
		"target and in total. Several targets are measured together, like a stripe.\n"
		"Sizes: 4k = 4KiB = 4096 bytes. Durations: 30, 30s, 500ms, 5m, 1h.\n\n"
		"Options (DiskSpd's letter where it has one):\n");
	options_help(f, OPT_RUN);
	fprintf(f,
		"\nEngines built in: %s.\n"
		"Examples:\n"
		"  iorate run -b 64k -d 30 -t 8 -o 8 /mnt/data/test.dat      (diskspd -b64k -d30 -t8 -o8)\n"
		"  iorate run -b 8k -w 30 -t 4 -o 16 --json /mnt/data/t > r.json\n"
		"  iorate run -s -b 1M -o 8 --cache direct /dev/nvme0n1        (read-only)\n"
		"  iorate run --cap-iops 500 --vm-cap-mbps 285 a b c          (emulate cloud caps)\n"
		"Exit status: 0 done, 1 the run failed (partial results printed), 2 bad usage,\n"
		"130 interrupted by Ctrl-C or SIGTERM (partial results printed).\n",
		engine_names());
}

/* --job FILE is applied first, so options on the command line override the job file. */
static int load_job_file(int argc, char **argv, struct job *job)
{
	char err[512];

	for (int i = 1; i < argc; i++) {
		const char *path = NULL;
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--job") && i + 1 < argc)
			path = argv[i + 1];
		else if (!strncmp(argv[i], "--job=", 6))
			path = argv[i] + 6;
		if (!path)
			continue;
		int r = compat_fio_load(path, job, err, sizeof(err));
		if (r)
			return r == -EINVAL ? usage_error("--job: %s", err) : run_error("--job: %s", err);
		return 0;
	}
	return 0;
}

int cmd_run_parse(const char *prog, int argc, char **argv, struct job *job,
		  struct output_opts *out, bool *help)
{
	struct opt_ctx c = {.job = job, .out = out};
	int first = 0, rc;

	*help = false;
	if ((rc = load_job_file(argc, argv, job)))
		return rc;
	if ((rc = options_parse(&c, OPT_RUN, argc, argv, &first)))
		return rc;
	if (c.help) {
		*help = true;
		return 0;
	}
	for (int i = first; i < argc; i++)
		if (job_add_target(job, argv[i]) < 0)
			return run_error("out of memory");
	/* The null engine touches nothing: a target is only a name in the report. */
	if (!job->ntargets && !strcmp(job->engine, "null"))
		job_add_target(job, "null");
	if (!job->ntargets)
		return usage_error("run: no target: name a file or block device (see '%s run "
				   "--help')", prog);
	if (c.emulate && (rc = options_emulate(job, c.emulate)))
		return rc;
	if ((rc = options_check_caps(job)))
		return rc;
	if (job_set_command_line(job, prog, argc, argv))
		return run_error("out of memory");
	return 0;
}

int cmd_run(int argc, char **argv)
{
	struct job job;
	struct output_opts out;
	bool help;
	int rc;

	/* For tools/gen-man.sh: the option list as man page paragraphs, from the same table. */
	if (argc == 2 && !strcmp(argv[1], "--man-options")) {
		options_man(stdout, OPT_RUN);
		return 0;
	}
	job_init(&job);
	output_opts_init(&out);
	if ((rc = cmd_run_parse("iorate", argc, argv, &job, &out, &help)))
		goto out;
	if (help)
		run_usage(stdout);
	else
		rc = cmd_run_job(&job, &out);
out:
	job_release(&job);
	return rc;
}
