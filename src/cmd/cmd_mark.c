/*
 * `iorate mark`: CrystalDiskMark's and KDiskMark's test suite. Every test of the profile reads,
 * then every test writes, then (with --mix) every test mixes the two; each test is a preparing
 * run, discarded, then --runs runs, and --pause passes between tests, as CrystalDiskMark does.
 * The table shows each test's score, the best or the mean of its runs, in the unit asked
 * (src/report/mark_fmt.c); the JSON keeps every run's counts.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>

#include "cmd/cmd.h"
#include "core/gate.h"
#include "cmd/fit.h"
#include "cmd/mark_suite.h"
#include "cmd/options.h"
#include "cmd/run_common.h"
#include "core/runner.h"
#include "report/mark_fmt.h"
#include "report/progress.h"
#include "util/parse.h"

#define UNSET UINT64_MAX /* --measure or --pause not given: the preset's */

struct mark {
	int profile, preset;                /* enum mark_profile, enum mark_preset */
	const struct mark_test *tests[MARK_MAX_TESTS + 1];
	struct job base;
	struct output_opts out;
	unsigned runs;
	uint64_t measure_ns, pause_ns;
	bool read_only, mix, no_prepare;
	unsigned mix_read_pct;
	enum mark_score score;
	enum mark_units units;
	char *path;              /* the file or device measured */
	struct gate_id made;     /* the test file a run created (ino 0: none), removed at the end */
	struct mark_cell cell[MARK_MAX_TESTS][MARK_NDIRS];
	bool ran;                /* a test has run: the next one waits --pause first */
	char engine[16];
	time_t date;
	char kernel[128];
	volatile sig_atomic_t *stop;
	struct progress progress; /* on stderr, only on a terminal */
};

static int mark_main(int argc, char **argv);

static int set_profile(struct opt_ctx *c, const struct opt *o, const char *val)
{
	return mark_opt_profile(c, val, &((struct mark *)c->state)->profile);
}

static int set_preset(struct opt_ctx *c, const struct opt *o, const char *val)
{
	return mark_opt_preset(c, val, &((struct mark *)c->state)->preset);
}

/* A read share gives the Mix tests: asking for their mix says enough. */
static int set_mix_read(struct opt_ctx *c, const struct opt *o, const char *val)
{
	struct mark *m = c->state;

	if (parse_uint(val, 1, 99, &m->mix_read_pct))
		return opt_refuse(c, val, "is not a percentage of reads from 1 to 99");
	m->mix = true;
	return 0;
}

static int set_score(struct opt_ctx *c, const struct opt *o, const char *val)
{
	struct mark *m = c->state;

	if (!strcmp(val, "best"))
		m->score = MARK_SCORE_BEST;
	else if (!strcmp(val, "mean"))
		m->score = MARK_SCORE_MEAN;
	else
		return opt_refuse(c, val, "is not a score (best, mean)");
	return 0;
}

static int set_units(struct opt_ctx *c, const struct opt *o, const char *val)
{
	struct mark *m = c->state;

	for (int u = 0; u < MARK_NUNITS; u++)
		if (!strcmp(val, mark_units_names[u])) {
			m->units = u;
			return 0;
		}
	return opt_refuse(c, val, "is not a unit (si: MB/s, iec: MiB/s, kdiskmark: KDiskMark's "
			  "MB/s)");
}

#define M(field) .in = OPT_IN_CMD, .off = offsetof(struct mark, field)

static const struct opt mark_opts[] = {
	{.name = "profile", .arg = "NAME",
	 .help = MARK_PROFILE_HELP, .example = "--profile peak",
	 .set = set_profile, .values = "default peak real demo"},
	{.name = "preset", .arg = "NAME",
	 .help = MARK_PRESET_HELP, .example = "--preset nvme",
	 .set = set_preset, .values = "standard nvme flash"},
	{.name = "mix", .help = "also run each test as a read/write mix, after the writes",
	 .example = "--mix", .set = opt_set_true, M(mix)},
	{.name = "mix-read", .arg = "PCT",
	 .help = "the Mix tests' share of reads, 1 to 99 (default 70, as both tools); implies "
	 "--mix", .example = "--mix-read 50", .set = set_mix_read},
	{.name = "score", .arg = "HOW",
	 .help = "what the table shows of each test's runs: best (default: highest MB/s and "
	 "IOPS, lowest latency, as CrystalDiskMark) or mean (as KDiskMark's Default profile)",
	 .example = "--score mean", .set = set_score, .values = "best mean"},
	{.name = "units", .arg = "UNITS", .help = OPT_UNITS_HELP, .example = "--units kdiskmark",
	 .set = set_units, .values = "si iec kdiskmark"},
	{.name = "runs", .arg = "N", .help = "measured runs of each test (default 5)",
	 .example = "--runs 3", .set = opt_set_count, M(runs), .min = 1, .max = MARK_MAX_RUNS},
	{.name = "measure", .arg = "DURATION",
	 .help = "length of each run (default 5s, 1s with --preset flash)",
	 .example = "--measure 2s", .set = opt_set_duration, M(measure_ns), .min = 1},
	{.name = "pause", .arg = "DURATION",
	 .help = "pause between tests (default 5s, 30s with --preset flash)",
	 .example = "--pause 0", .set = opt_set_duration, M(pause_ns)},
	{.name = "no-prepare",
	 .help = "no preparing run before each test (CrystalDiskMark runs one and discards it; "
	 "KDiskMark does not)", .example = "--no-prepare", .set = opt_set_true, M(no_prepare)},
	{.name = "read-only",
	 .help = "skip the write and Mix tests (a device needs it, or --allow-write-device)",
	 .example = "--read-only", .set = opt_set_true, M(read_only)},
	{0},
};
static const struct opt_group mark_group = {.title = "Tests", .opts = mark_opts};
static const struct opt_group *const mark_groups[] = {
	&mark_group, &opt_target, &opt_output, &opt_output_csv, &opt_output_table,
	&opt_output_quiet, NULL,
};

/* run's and sweep's --interval is their series'; CrystalDiskMark's "Interval" is --pause here. */
static const struct opt_moved mark_moved[] = {
	{.name = "interval", .instead = "mark's pause between tests is --pause; --interval is the "
	 "series interval of 'iorate run' and 'iorate sweep'"},
	{0},
};

const struct command cmd_mark = {
	.name = "mark",
	.summary = "CrystalDiskMark's and KDiskMark's test suite (SEQ1M Q8T1, RND4K Q32T1, ...)",
	.synopsis = "[options] DIR|FILE|DEVICE",
	.about = "Every test of the profile reads, then every test writes, then with --mix every\n"
		 "test mixes reads and writes. A test is a preparing run, discarded, then --runs\n"
		 "runs; the table shows their best (CrystalDiskMark) or their mean (--score\n"
		 "mean, KDiskMark), and says which, in MB/s of 10^6 bytes unless --units says\n"
		 "otherwise. A Mix test's figures are its reads and writes together. --json\n"
		 "keeps every run's counts. A directory gets a temporary test file, removed at\n"
		 "the end.",
	.groups = mark_groups,
	.moved = mark_moved,
	.output = &mark_formats,
	.examples = "  iorate mark /mnt/data\n"
		    "  iorate mark --profile peak --preset nvme --runs 3 --size 4G /mnt/nvme\n"
		    "  iorate mark --mix --score mean --units kdiskmark /mnt/data\n"
		    "  iorate mark --json --runs 1 --measure 2s --pause 0 /mnt/data > m.json\n",
	.exit_status = "0 done, 1 a test failed, 2 bad usage, 128+N stopped by signal N (the\n"
		       "tests done are printed).",
	.fn = mark_main,
};

/* A directory gets a test file of its own; a missing file is made by the runner. */
static int mark_target(struct mark *m, const char *arg)
{
	struct stat st;

	if (!stat(arg, &st) && S_ISDIR(st.st_mode)) {
		/* A name nobody can guess, so none can be planted there beforehand. */
		char p[PATH_MAX];
		int r = gate_unique_name(arg, "iorate-mark.", ".dat", p, sizeof(p));
		if (r)
			return run_error("%s: %s", arg, strerror(-r));
		return (m->path = strdup(p)) ? 0 : run_error("out of memory");
	}
	if (!(m->path = strdup(arg)))
		return run_error("out of memory");
	if (!stat(arg, &st) && S_ISBLK(st.st_mode) && !m->read_only &&
	    !m->base.allow_write_device)
		return usage_error("mark: %s: the write tests destroy a device's data; add "
				   "--allow-write-device to confirm, or --read-only", arg);
	return 0;
}

/* Whether direction d runs at all. */
static bool mark_runs_dir(const struct mark *m, enum mark_dir d)
{
	return d == MARK_READ || (!m->read_only && (d == MARK_WRITE || m->mix));
}

static void mark_job(const struct mark *m, const struct mark_test *t, enum mark_dir d,
		     struct job *j)
{
	j->bs = t->bs;
	j->depth = t->depth;
	j->threads = t->threads;
	j->pattern = t->seq ? PATTERN_SEQUENTIAL : PATTERN_RANDOM;
	j->write_pct = d == MARK_READ ? 0 : d == MARK_WRITE ? 100 : 100 - m->mix_read_pct;
	j->time_ns = m->measure_ns;
	j->warmup_ns = 0;
	j->cooldown_ns = 0;
	j->keep = true;          /* kept across runs; mark removes its own file at the end */
}

/*
 * Every test's job is checked before the first I/O, against the target as it is (or as the
 * test file will be made: --size): a bad combination is found up front, not after a fill.
 */
static int mark_check(struct mark *m)
{
	char err[PATH_MAX + 256];
	int r = gate_use(m->path, "a target", NULL) ? run_error("out of memory") : 0;

	if (!r)
		r = output_opts_check(&m->out);

	for (int d = 0; !r && d < MARK_NDIRS; d++) {
		for (unsigned i = 0; !r && mark_runs_dir(m, d) && m->tests[i]; i++) {
			const struct mark_test *t = m->tests[i];
			struct job j;
			int bad;

			if (job_copy(&j, &m->base))
				return run_error("out of memory");
			mark_job(m, t, d, &j);
			if (job_validate(&j, err, sizeof(err)) ||
			    runner_precheck(&j, err, sizeof(err)))
				bad = -EINVAL;
			else
				bad = cmd_job_fits(&j, err, sizeof(err));
			job_release(&j);
			if (bad == -ENOMEM)
				r = run_error("out of memory");
			else if (bad == -EDOM || bad == -EINVAL)
				r = usage_error("mark: %s %s: %s", t->name, mark_dir_names[d], err);
			else if (bad) /* a safety refusal, or a target that cannot be opened */
				r = run_error("mark: %s %s: %s", t->name, mark_dir_names[d], err);
		}
	}
	return r;
}

/* Runs one job; returns 0, the exit code 2 for a bad job, or 1 when the run failed. */
static int mark_run1(struct mark *m, const struct mark_test *t, enum mark_dir d,
		     struct result *res)
{
	struct job j;
	char err[256];
	int r;

	result_init(res);
	if (job_copy(&j, &m->base))
		return run_error("out of memory");
	mark_job(m, t, d, &j);
	if (job_validate(&j, err, sizeof(err))) {
		job_release(&j);
		return usage_error("mark: %s %s: %s", t->name, mark_dir_names[d], err);
	}
	struct runner_hooks hooks;
	progress_hooks(&m->progress, &hooks, m->stop);
	r = runner_run(&j, res, &hooks);
	cmd_result_spell(res);
	progress_clear(&m->progress);
	job_release(&j);
	if (!m->engine[0] && res->engine[0]) {
		snprintf(m->engine, sizeof(m->engine), "%s", res->engine);
		snprintf(m->kernel, sizeof(m->kernel), "%s", res->host.kernel);
	}
	/* The file the first run made is the only one later runs may use, and the one removed. */
	if (res->ntargets && res->targets[0].created && !m->made.ino) {
		m->made = res->targets[0].id;
		job_expect(&m->base, 0, &m->made);
	}
	if (r) {
		char label[64];

		snprintf(label, sizeof(label), "mark: %s %s", t->name, mark_dir_names[d]);
		return cmd_run_failed(r, res, label);
	}
	return 0;
}

static void mark_sleep(struct mark *m, uint64_t ns)
{
	while (ns && !*m->stop) {
		uint64_t step = ns < 100000000ull ? ns : 100000000ull;
		struct timespec ts = {.tv_sec = 0, .tv_nsec = (long)step};

		nanosleep(&ts, NULL);
		ns -= step;
	}
}

/* Run k's counts join the test's; the run itself is kept if its throughput is the highest. */
static void keep_run(struct mark_cell *c, struct result *res)
{
	struct mark_run *r = &c->runs[c->nruns];
	struct mark_figures now, top;
	const struct dir_stats *dir[2] = {&res->read, &res->write};

	r->seconds = res->seconds;
	for (int w = 0; w < 2; w++) {
		r->ios[w] = dir[w]->ios;
		r->bytes[w] = dir[w]->bytes;
		r->lat_n[w] = dir[w]->lat_n;
		r->lat_sum_ns[w] = dir[w]->lat_sum;
	}
	mark_run_figures(r, &now);
	if (c->done)
		mark_run_figures(&c->runs[c->best_run], &top);
	if (c->done && now.mbps <= top.mbps) {
		result_release(res);
	} else {
		if (c->done)
			result_release(&c->best);
		c->best = *res;
		c->best_run = c->nruns;
		c->done = true;
	}
	c->nruns++;
}

/* One test in one direction: the pause after the test before, the preparing run, the runs. */
static int mark_test(struct mark *m, unsigned i, enum mark_dir d)
{
	const struct mark_test *t = m->tests[i];
	struct mark_cell *c = &m->cell[i][d];
	const char *dir = mark_dir_names[d];
	struct result res;
	int r;

	/* The next test's line stands during the pause before it. */
	progress_label(&m->progress, "%s %s, %s", t->name, dir,
		       m->no_prepare ? "run 1" : "preparing");
	if (m->ran)
		mark_sleep(m, m->pause_ns);
	m->ran = true;
	if (!m->no_prepare && !*m->stop) {
		r = mark_run1(m, t, d, &res);
		result_release(&res);
		if (r)
			return r;
	}
	for (unsigned k = 0; k < m->runs && !*m->stop; k++) {
		progress_label(&m->progress, "%s %s, run %u of %u", t->name, dir, k + 1, m->runs);
		if ((r = mark_run1(m, t, d, &res))) {
			result_release(&res);
			return r;
		}
		if (res.interrupted) {
			result_release(&res);
			break;
		}
		keep_run(c, &res);
	}
	return *m->stop ? EXIT_INTERRUPTED : 0;
}

/* Reads, writes, then the Mix, each over the profile's tests in order, as both tools run them. */
static int mark_suite(struct mark *m)
{
	int r = 0;

	for (int d = 0; !r && d < MARK_NDIRS; d++)
		for (unsigned i = 0; !r && mark_runs_dir(m, d) && m->tests[i]; i++)
			r = mark_test(m, i, d);
	return r;
}

/* "[/mnt/data: 12% (12/100GiB)]", as CrystalDiskMark shows the drive's use. */
static void mark_fs_use(const struct mark *m, char *buf, size_t len)
{
	char dir[4096], real[PATH_MAX], *slash;
	struct statvfs vfs;

	snprintf(dir, sizeof(dir), "%s", m->path);
	if ((slash = strrchr(dir, '/')))
		*(slash == dir ? slash + 1 : slash) = '\0';
	else
		strcpy(dir, ".");
	if (realpath(dir, real))
		snprintf(dir, sizeof(dir), "%s", real);
	if (statvfs(dir, &vfs) || !vfs.f_blocks) {
		snprintf(buf, len, "[%s]", m->path);
		return;
	}
	double total = (double)vfs.f_blocks * vfs.f_frsize / (1 << 30);
	double used = total - (double)vfs.f_bfree * vfs.f_frsize / (1 << 30);
	snprintf(buf, len, "[%s: %.0f%% (%.1f/%.1fGiB)]", dir, used / total * 100, used, total);
}

/* The table in the format asked; 0, or 1 when it could not be written. */
static int mark_print(struct mark *m)
{
	const struct mark_preset_info *ps = &mark_presets[m->preset];
	char use[4200];

	mark_fs_use(m, use, sizeof(use));
	struct mark_table t = {
		.profile = mark_profiles[m->profile].name,
		.title = mark_profiles[m->profile].title,
		.preset = ps->name,
		.preset_title = m->preset == MARK_PRESET_STANDARD ? NULL : ps->title,
		.tests = m->tests,
		.cell = (const struct mark_cell(*)[MARK_NDIRS])m->cell,
		.read_only = m->read_only,
		.mix = m->mix,
		.mix_read_pct = m->mix_read_pct,
		.prepare = !m->no_prepare,
		.score = m->score,
		.units = m->units,
		.base = &m->base,
		.path = m->path,
		.fs_use = use,
		.engine = m->engine,
		.kernel = m->kernel,
		.runs = m->runs,
		.measure_ns = m->measure_ns,
		.pause_ns = m->pause_ns,
		.date = m->date,
	};
	FILE *f = cmd_stdout_open();

	return f ? cmd_stdout_close(f, REPORT_WRITER(struct mark_format,
						     m->out.fmt)->write(f, &t)) : 1;
}

/* What the options leave open: the preset's times, the profile's tests, and whether they fit. */
static int mark_settle(struct mark *m)
{
	const struct mark_preset_info *ps = &mark_presets[m->preset];

	if (m->measure_ns == UNSET)
		m->measure_ns = ps->measure_ns;
	if (m->pause_ns == UNSET)
		m->pause_ns = ps->pause_ns;
	if (m->mix && !mark_profiles[m->profile].has_mix)
		return usage_error("mark: --mix: the %s profile has no Mix tests",
				   mark_profiles[m->profile].name);
	mark_suite_tests(m->profile, m->preset, m->tests);
	return 0;
}

static void mark_free(struct mark *m)
{
	if (m->made.ino && !m->base.keep &&
	    gate_unlink_created(m->path, &m->made) == -ESTALE)
		run_error("warning: %s was replaced by a file iorate did not create; it was left "
			  "in place", m->path);
	for (unsigned i = 0; i < MARK_MAX_TESTS; i++)
		for (int d = 0; d < MARK_NDIRS; d++)
			if (m->cell[i][d].done)
				result_release(&m->cell[i][d].best);
	free(m->path);
	job_release(&m->base);
	free(m);
}

/* Parses the command line into m: 0, or the exit code; *help when --help was asked. */
static int mark_parse(struct mark *m, int argc, char **argv, bool *help)
{
	struct opt_ctx c = {.cmd = &cmd_mark, .job = &m->base, .out = &m->out, .state = m};
	int first = 0, rc;

	/* The format named (checked as it was given), or text, from mark's own table. */
	if ((rc = options_parse(&c, argc, argv, &first)) ||
	    (rc = output_opts_format(&m->out, &mark_formats)))
		return rc;
	if ((*help = c.help))
		return 0;
	if (argc - first != 1)
		return usage_error("mark: name one directory, file or device to measure (see "
				   "'iorate mark --help')");
	if ((rc = mark_settle(m)) || (rc = mark_target(m, argv[first])))
		return rc;
	if (job_add_target(&m->base, m->path) ||
	    job_set_command_line(&m->base, "iorate", argc, argv))
		return run_error("out of memory");
	return 0;
}

static int mark_main(int argc, char **argv)
{
	struct mark *m = calloc(1, sizeof(*m));
	bool help = false;
	int rc;

	if (!m)
		return run_error("out of memory");
	*m = (struct mark){.runs = 5, .measure_ns = UNSET, .pause_ns = UNSET,
			   .mix_read_pct = 70};
	job_init(&m->base);
	output_opts_init(&m->out);
	strcpy(m->base.origin, "mark");
	m->base.size = JOB_DEFAULT_FILE_SIZE;
	if ((rc = mark_parse(m, argc, argv, &help)) || help) {
		if (!rc)
			options_help(stdout, &cmd_mark);
		goto out;
	}
	if ((rc = mark_check(m)))
		goto out;
	m->stop = cmd_stop_flag();
	m->date = time(NULL);
	progress_init(&m->progress, m->out.quiet);
	rc = mark_suite(m);
	progress_clear(&m->progress);
	if (!rc || rc == EXIT_INTERRUPTED) {
		int p = mark_print(m);

		if (rc)
			fprintf(stderr, "iorate: mark: interrupted: the table shows the runs that "
				"finished\n");
		else
			rc = p;
	}
out:
	mark_free(m);
	return rc;
}
