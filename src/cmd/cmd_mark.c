/*
 * `iorate mark`: CrystalDiskMark's test suite. Each test (SEQ1M Q8T1, RND4K Q32T1, ...) runs
 * --runs times for reads, then for writes, and the best run is kept, as CrystalDiskMark does;
 * the table reads like CrystalDiskMark's own (MB/s = 10^6 B/s, IOPS, mean latency in µs).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "cmd/run_common.h"
#include "core/runner.h"
#include "report/json.h"
#include "report/mark_fmt.h"
#include "util/parse.h"

#define MT(seq, bs, q, t, name) {name, seq, bs, q, t}
static const struct mark_test t_seq1m_q8t1 = MT(true, 1u << 20, 8, 1, "SEQ1M Q8T1");
static const struct mark_test t_seq1m_q1t1 = MT(true, 1u << 20, 1, 1, "SEQ1M Q1T1");
static const struct mark_test t_seq128k_q32t1 = MT(true, 128u << 10, 32, 1, "SEQ128K Q32T1");
static const struct mark_test t_rnd4k_q32t1 = MT(false, 4u << 10, 32, 1, "RND4K Q32T1");
static const struct mark_test t_rnd4k_q32t16 = MT(false, 4u << 10, 32, 16, "RND4K Q32T16");
static const struct mark_test t_rnd4k_q1t1 = MT(false, 4u << 10, 1, 1, "RND4K Q1T1");

/* CrystalDiskMark 8's profiles: Default, NVMe SSD, Peak Performance, Real World Performance. */
static const struct mark_profile {
	const char *name, *title;
	const struct mark_test *tests[MARK_MAX_TESTS + 1];
} profiles[] = {
	{"default", "Default", {&t_seq1m_q8t1, &t_seq1m_q1t1, &t_rnd4k_q32t1, &t_rnd4k_q1t1}},
	{"nvme", "NVMe SSD", {&t_seq1m_q8t1, &t_seq128k_q32t1, &t_rnd4k_q32t16, &t_rnd4k_q1t1}},
	{"peak", "Peak Performance", {&t_seq1m_q8t1, &t_rnd4k_q32t16}},
	{"real", "Real World Performance", {&t_seq1m_q1t1, &t_rnd4k_q1t1}},
};
#define NPROFILES (sizeof(profiles) / sizeof(profiles[0]))

struct mark {
	const struct mark_profile *prof;
	struct job base;
	struct output_opts out;
	unsigned runs;
	uint64_t measure_ns, interval_ns;
	bool read_only;
	char *path;              /* the file or device measured */
	bool remove;             /* iorate made the file: remove it at the end */
	struct mark_cell cell[MARK_MAX_TESTS][2];
	char engine[16];
	time_t date;
	char kernel[128];
	volatile sig_atomic_t *stop;
	bool tty;                /* progress on stderr, only on a terminal */
};

static void mark_usage(FILE *f)
{
	fprintf(f, "usage: iorate mark [options] DIR|FILE|DEVICE\n\n"
		   "CrystalDiskMark's tests: each runs --runs times, reads then writes, and the "
		   "best "
		   "run is kept.\nA directory gets a temporary test file, removed at the end.\n\n"
		   "  --profile NAME        default (SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, "
		   "RND4K Q1T1),\n                        nvme (SEQ1M Q8T1, SEQ128K Q32T1, "
		   "RND4K Q32T16, RND4K Q1T1),\n                        peak (SEQ1M Q8T1, "
		   "RND4K Q32T16), real (SEQ1M Q1T1, RND4K Q1T1)\n"
		   "  --runs N              runs of each test, best kept (default 5)\n"
		   "  --measure DURATION    length of each run (default 5s)\n"
		   "  --interval DURATION   pause between tests (default 5s)\n"
		   "  --read-only           skip the write tests (a device needs it, or "
		   "--allow-write-device)\n");
	options_help(f, OPT_MARK);
	fprintf(f, "\nExamples:\n  iorate mark /mnt/data\n"
		   "  iorate mark --profile nvme --runs 3 --size 4G /mnt/nvme\n"
		   "  iorate mark --json --runs 1 --measure 2s --interval 0 /mnt/data > "
		   "mark.json\n");
}

/* Takes mark's own options out of argv; the rest goes to the shared option table. */
static int mark_own_options(struct mark *m, int argc, char **argv, int *nargc, char **nargv)
{
	*nargc = 0;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v = NULL, *eq;
		static const char *const own[] = {"--profile", "--runs", "--measure", "--interval"};
		size_t k;

		for (k = 0; k < 4; k++) {
			size_t n = strlen(own[k]);
			if (!strncmp(a, own[k], n) && (a[n] == '\0' || a[n] == '='))
				break;
		}
		if (!strcmp(a, "--read-only")) {
			m->read_only = true;
			continue;
		}
		if (k == 4 || i == 0) {
			nargv[(*nargc)++] = argv[i];
			continue;
		}
		if ((eq = strchr(a, '=')))
			v = eq + 1;
		else if (i + 1 < argc)
			v = argv[++i];
		else
			return usage_error("%s: needs a value", own[k]);
		if (k == 0) {
			m->prof = NULL;
			for (size_t p = 0; p < NPROFILES; p++)
				if (!strcmp(v, profiles[p].name))
					m->prof = &profiles[p];
			if (!m->prof)
				return usage_error("--profile: '%s' is not a profile (default, "
						   "nvme, "
						   "peak, real)",
						   v);
		} else if (k == 1 && parse_uint(v, 1, MARK_MAX_RUNS, &m->runs)) {
			return usage_error("--runs: '%s' is not a count from 1 to %u", v, MARK_MAX_RUNS);
		} else if (k >= 2 && parse_duration(v, k == 2 ? &m->measure_ns : &m->interval_ns)) {
			return usage_error("%s: '%s' is not a duration (examples: %s)", own[k], v,
					   PARSE_DURATION_EXAMPLES);
		}
	}
	if (!m->measure_ns)
		return usage_error("--measure: must be above 0");
	nargv[*nargc] = NULL;
	return 0;
}

/* A directory gets a test file of its own; a missing file is made by the runner. */
static int mark_target(struct mark *m, const char *arg)
{
	struct stat st;

	if (!stat(arg, &st) && S_ISDIR(st.st_mode)) {
		if (asprintf(&m->path, "%s/iorate-mark.%ld.dat", arg, (long)getpid()) < 0)
			return run_error("out of memory");
		return 0;
	}
	if (!(m->path = strdup(arg)))
		return run_error("out of memory");
	if (!stat(arg, &st) && S_ISBLK(st.st_mode) && !m->read_only &&
	    !m->base.allow_write_device)
		return usage_error("mark: %s: the write tests destroy a device's data; add "
				   "--allow-write-device to confirm, or --read-only", arg);
	return 0;
}

static void mark_job(const struct mark_test *t, bool write, uint64_t ns, struct job *j)
{
	j->bs = t->bs;
	j->depth = t->depth;
	j->threads = t->threads;
	j->pattern = t->seq ? PATTERN_SEQUENTIAL : PATTERN_RANDOM;
	j->write_pct = write ? 100 : 0;
	j->time_ns = ns;
	j->warmup_ns = 0;
	j->cooldown_ns = 0;
	j->keep = true;          /* kept across runs; mark removes its own file at the end */
}

/* Runs one job; returns 0, the exit code 2 for a bad job, or 1 when the run failed. */
static int mark_run1(struct mark *m, const struct mark_test *t, bool write, uint64_t ns,
		     struct result *res)
{
	struct job j;
	char err[256];
	int r;

	result_init(res);
	if (job_copy(&j, &m->base))
		return run_error("out of memory");
	mark_job(t, write, ns, &j);
	if (job_validate(&j, err, sizeof(err))) {
		job_release(&j);
		return usage_error("mark: %s: %s", t->name, err);
	}
	struct runner_hooks hooks = {.stop = m->stop};
	r = runner_run(&j, res, &hooks);
	job_release(&j);
	if (res->targets && res->ntargets && res->targets[0].created)
		m->remove = true;
	if (r) {
		char label[64];

		snprintf(label, sizeof(label), "mark: %s %s", t->name, write ? "write" : "read");
		return cmd_run_failed(r, res, label);
	}
	return 0;
}

static void mark_sleep(struct mark *m, uint64_t ns)
{
	while (ns && !*m->stop) {
		uint64_t step = ns < 100000000ull ? ns : 100000000ull;
		struct timespec ts = {0, (long)step};

		nanosleep(&ts, NULL);
		ns -= step;
	}
}

static int mark_suite(struct mark *m)
{
	struct result prep;
	int r;

	/* The preparing pass lays out the file and settles the device; its result is dropped. */
	if (m->tty)
		fprintf(stderr, "\r\033[Kpreparing %s", m->path);
	r = mark_run1(m, m->prof->tests[0], false,
		      m->measure_ns < 1000000000ull ? m->measure_ns : 1000000000ull, &prep);
	snprintf(m->engine, sizeof(m->engine), "%s", prep.engine);
	snprintf(m->kernel, sizeof(m->kernel), "%s", prep.host.kernel);
	result_release(&prep);
	if (r)
		return r;
	for (unsigned i = 0; i < MARK_MAX_TESTS && m->prof->tests[i]; i++) {
		for (int w = 0; w < (m->read_only ? 1 : 2); w++) {
			struct mark_cell *c = &m->cell[i][w];
			const struct mark_test *t = m->prof->tests[i];

			mark_sleep(m, m->interval_ns);
			for (unsigned k = 0; k < m->runs && !*m->stop; k++) {
				struct result res;
				struct dir_summary s;

				if (m->tty)
					fprintf(stderr, "\r\033[K%s %s, run %u of %u", t->name,
						w ? "write" : "read", k + 1, m->runs);
				if ((r = mark_run1(m, t, w, m->measure_ns, &res))) {
					result_release(&res);
					return r;
				}
				if (res.interrupted) {
					result_release(&res);
					break;
				}
				dir_stats_summarize(w ? &res.write : &res.read, res.seconds, &s);
				c->run_mbps[c->nruns++] = s.mbps;
				if (!c->done || s.mbps > c->sum.mbps) {
					if (c->done)
						result_release(&c->best);
					c->best = res;
					c->sum = s;
					c->best_run = k;
					c->done = true;
				} else {
					result_release(&res);
				}
			}
			if (*m->stop)
				return EXIT_INTERRUPTED;
		}
	}
	return 0;
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

int cmd_mark(int argc, char **argv)
{
	struct mark m = {.prof = &profiles[0], .runs = 5, .measure_ns = 5000000000ull,
			 .interval_ns = 5000000000ull};
	struct opt_ctx c = {.job = &m.base, .out = &m.out};
	char **nargv = calloc((size_t)argc + 1, sizeof(*nargv));
	int nargc, first = 0, rc;

	job_init(&m.base);
	output_opts_init(&m.out);
	strcpy(m.base.origin, "mark");
	m.base.size = JOB_DEFAULT_FILE_SIZE;
	if (!nargv) {
		rc = run_error("out of memory");
		goto out;
	}
	if ((rc = mark_own_options(&m, argc, argv, &nargc, nargv)))
		goto out;
	if ((rc = options_parse(&c, OPT_MARK, nargc, nargv, &first)))
		goto out;
	if (c.help) {
		mark_usage(stdout);
		goto out;
	}
	if (nargc - first != 1) {
		rc = usage_error("mark: name one directory, file or device to measure (see 'iorate "
				 "mark --help')");
		goto out;
	}
	if ((rc = mark_target(&m, nargv[first])))
		goto out;
	if (job_add_target(&m.base, m.path) || job_set_command_line(&m.base, "iorate", argc, argv)) {
		rc = run_error("out of memory");
		goto out;
	}
	m.stop = cmd_stop_flag();
	m.date = time(NULL);
	m.tty = !m.out.quiet && isatty(STDERR_FILENO);
	rc = mark_suite(&m);
	if (m.tty)
		fputs("\r\033[K", stderr);
	if (!rc || rc == EXIT_INTERRUPTED) {
		char use[4200];
		mark_fs_use(&m, use, sizeof(use));
		struct mark_table t = {
			.profile = m.prof->name, .title = m.prof->title, .tests = m.prof->tests,
			.cell = (const struct mark_cell(*)[2])m.cell, .read_only = m.read_only,
			.base = &m.base, .path = m.path, .fs_use = use, .engine = m.engine,
			.kernel = m.kernel, .runs = m.runs, .measure_ns = m.measure_ns,
			.interval_ns = m.interval_ns, .date = m.date};
		if (m.out.fmt == &report_json)
			mark_fmt_json(stdout, &t);
		else if (m.out.fmt == &report_csv)
			mark_fmt_csv(stdout, &t);
		else
			mark_fmt_text(stdout, &t);
		if (rc)
			fprintf(stderr, "iorate: mark: interrupted: the table shows the runs that "
				"finished\n");
	}
out:
	if (m.remove && !m.base.keep && m.path)
		unlink(m.path);
	for (unsigned i = 0; i < MARK_MAX_TESTS; i++)
		for (int w = 0; w < 2; w++)
			if (m.cell[i][w].done)
				result_release(&m.cell[i][w].best);
	free(m.path);
	free(nargv);
	job_release(&m.base);
	return rc;
}
