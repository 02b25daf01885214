/*
 * iorate-mpi run: the same job on every rank. Each rank parses the command line, expands %r and
 * %h in its targets, sets them up, and waits in the runner's ready hook until every rank is set
 * up; rank 0 then names a start instant and all start together. Any failure before the start is
 * voted on, so every rank cleans up and exits with the same code, and rank 0 alone prints.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "cmd/cmd_run.h"
#include "cmd/run_common.h"
#include "core/ranks.h"
#include "mpi/mpi_ctx.h"
#include "mpi/mpi_run.h"
#include "util/clock.h"
#include "util/err.h"
#include "util/escape.h"

#define COMM MPI_COMM_WORLD
#define TAG_STOP 7
/* Time for rank 0's start instant to reach every rank, also over a network. */
#define START_MARGIN_NS (100ull * 1000000ull)

const struct command mpi_cmd = {
	.prog = "iorate-mpi",
	.name = "run",
	.summary = "one iorate job on every MPI rank, reported as one run",
	.synopsis = "[options] TARGET...   (under mpirun)",
	.about = "Runs the same iorate job on every MPI rank, on one or many hosts, with the\n"
		 "measured windows starting together, and prints one report of the whole run on\n"
		 "rank 0: totals summed, latency percentiles from the ranks' merged histograms,\n"
		 "and a row per rank. In TARGET (and --trace), %r is the rank and %h the short\n"
		 "hostname, so ranks sharing a host use their own files: /var/tmp/iorate.%r.dat.\n"
		 "Two ranks of one host writing the same path are refused. There is no progress\n"
		 "line. The options are those of 'iorate run'.",
	.groups = run_option_groups,
	.output = &result_formats,
	.examples = "  mpirun -q --allow-run-as-root --oversubscribe -np 4 --mca btl self,vader \\\n"
		    "      iorate-mpi run -b 4k -d 10 --size 256M /var/tmp/iorate.%r.dat\n"
		    "  mpirun -q --hostfile hosts -np 8 iorate-mpi run ... /data/%h.%r\n",
	.exit_status = "(every rank) 0 done, 1 the run failed, 2 bad usage, 128+N stopped by\n"
		       "signal N on any rank (130 Ctrl-C, 143 SIGTERM), partial results printed.",
};

void mpi_run_usage(FILE *f)
{
	options_help(f, &mpi_cmd);
}

void mpi_man(FILE *f)
{
	static const struct command *const cmds[] = {&mpi_cmd, NULL};
	static const struct man_line more[] = {
		{.words = "help", .args = "[--man]"},
		{.words = "--version"},
		{0},
	};

	options_man_page(f, cmds, more);
}

/* The message of a line "iorate: <msg>\n" printed by the cmd layer, without its frame. */
static void strip_message(const char *in, char *out, size_t len)
{
	if (!in)
		in = "";
	if (!strncmp(in, "iorate: ", 8))
		in += 8;
	snprintf(out, len, "%.*s", (int)strcspn(in, "\n"), in);
}

/*
 * Every rank brings its exit code (0 = fine) and message; all leave with the code of the lowest
 * failing rank, whose message rank 0 prints. The rank is named unless it is rank 0 and
 * same_everywhere says every rank would have said the same (a bad option).
 */
static int agree(const struct mpi_ctx *m, int code, const char *msg, bool same_everywhere)
{
	int mine = code ? m->rank : m->size, lowest;
	char buf[512] = "";

	MPI_Allreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, COMM);
	if (lowest == m->size)
		return 0;
	if (m->rank == lowest)
		snprintf(buf, sizeof(buf), "%s", msg);
	MPI_Bcast(buf, sizeof(buf), MPI_CHAR, lowest, COMM);
	MPI_Bcast(&code, 1, MPI_INT, lowest, COMM);
	/* Messages name paths and hosts: escaped as usage_error() does (again is a no-op). */
	if (m->rank == 0) {
		if (lowest == 0 && same_everywhere)
			fputs("iorate: ", stderr);
		else
			fprintf(stderr, "iorate: rank %d: ", lowest);
		escape_fputs(buf, stderr);
		fputc('\n', stderr);
	}
	return code;
}

/* Parses on every rank with stderr caught, so that one line is printed, by rank 0. */
static int parse(const struct mpi_ctx *m, int argc, char **argv, struct job *job,
		 struct output_opts *out, bool *help)
{
	char *cap = NULL, msg[512];
	size_t caplen = 0;
	FILE *saved = stderr, *mem = open_memstream(&cap, &caplen);
	int code;

	if (mem)
		stderr = mem;
	code = cmd_run_parse(&mpi_cmd, argc, argv, job, out, help);
	if (mem) {
		fclose(mem);
		stderr = saved;
	}
	strip_message(cap, msg, sizeof(msg));
	free(cap);
	return agree(m, code, msg, true);
}

static int expand(const struct mpi_ctx *m, char **s, char *err, size_t errlen)
{
	char buf[PATH_MAX], *dup;
	int r = ranks_expand(*s, (unsigned)m->rank, m->host, buf, sizeof(buf), err, errlen);

	if (r)
		return r;
	if (!(dup = strdup(buf)))
		return err_set(err, errlen, -ENOMEM, "out of memory");
	free(*s);
	*s = dup;
	return 0;
}

/* %r and %h in targets and --trace; then the job is checked as iorate run checks it. */
static int prepare(const struct mpi_ctx *m, struct job *job)
{
	char err[512] = "";
	int r = 0;

	for (unsigned i = 0; i < job->ntargets && !r; i++)
		r = expand(m, &job->targets[i], err, sizeof(err));
	if (!r && job->trace_path)
		r = expand(m, &job->trace_path, err, sizeof(err));
	if (!r && job_validate(job, err, sizeof(err)))
		r = -EINVAL;
	return agree(m, r ? EXIT_USAGE : 0, err, true);
}

/*
 * Rank 0 looks at every rank's files (host, path, whether it would be created or written) and
 * refuses, before any I/O, two ranks of one host on the same file.
 */
static int check_clash(const struct mpi_ctx *m, const struct job *job)
{
	bool no_io = runner_engine_no_io(job->engine[0] ? job->engine : "sync");
	char *mine = NULL, *all = NULL, msg[512] = "";
	size_t len = 0;
	FILE *f = open_memstream(&mine, &len);
	int n = 0, code = 0, *counts = NULL, *displs = NULL, total = 0;

	/* Out of memory here still takes part in the gather (with nothing), then says so. */
	if (f) {
		fprintf(f, "%s", m->host);
		fputc('\0', f);
		for (unsigned i = 0; i < job->ntargets && !no_io; i++)
			fprintf(f, "%d%s%c", job->write_pct > 0 || access(job->targets[i], F_OK) != 0,
				job->targets[i], '\0');
		if (job->trace_path)
			fprintf(f, "1%s%c", job->trace_path, '\0');
		fclose(f);
		n = (int)len;
	} else {
		code = 1;
		snprintf(msg, sizeof(msg), "out of memory");
	}
	if (m->rank == 0) {
		counts = calloc((size_t)m->size, sizeof(int));
		displs = calloc((size_t)m->size, sizeof(int));
	}
	MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, COMM);
	if (m->rank == 0) {
		for (int i = 0; i < m->size; i++) {
			displs[i] = total;
			total += counts[i];
		}
		all = malloc((size_t)total + 1);
	}
	MPI_Gatherv(mine, n, MPI_CHAR, all, counts, displs, MPI_CHAR, 0, COMM);
	if (m->rank == 0) {
		struct rank_target *t = calloc((size_t)total + 1, sizeof(*t));
		unsigned nt = 0, a, b;

		for (int i = 0; t && i < m->size; i++) {
			const char *p = all + displs[i], *end = p + counts[i], *host = p;
			if (!counts[i])
				continue;
			for (p += strlen(p) + 1; p < end; p += strlen(p) + 1)
				t[nt++] = (struct rank_target){.rank = (unsigned)i, .host = host,
					.path = p + 1, .writes = p[0] == '1'};
		}
		if (!t) {
			code = 1;
			snprintf(msg, sizeof(msg), "out of memory");
		} else if (ranks_find_clash(t, nt, &a, &b)) {
			code = EXIT_USAGE;
			snprintf(msg, sizeof(msg), "%s: ranks %u and %u on %s would both write it; put "
				 "%%r in the path (e.g. %s.%%r) to give each rank its own file",
				 t[a].path, t[a].rank, t[b].rank, t[a].host, t[a].path);
		}
		free(t);
	}
	free(mine);
	free(all);
	free(counts);
	free(displs);
	return agree(m, code, msg, true);
}

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * The set-up vote: every rank calls it once, set up or not. A rank whose set-up failed never
 * reaches the ready hook, so it votes after runner_run returns.
 */
static bool setup_vote(struct mpi_ctx *m, bool ok)
{
	int bad = !ok, any;

	m->setup_synced = true;
	MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, COMM);
	return !any;
}

/*
 * The ready hook: once every rank is set up, rank 0 names a start instant on CLOCK_REALTIME and
 * each rank sleeps until it (exact on one host; across hosts as close as their clocks are).
 */
static int on_ready(void *arg)
{
	struct mpi_ctx *m = arg;
	uint64_t start = 0, now_rt, now;

	if (!setup_vote(m, true))
		return -ECANCELED;
	if (m->rank == 0)
		start = realtime_ns() + START_MARGIN_NS;
	MPI_Bcast(&start, 1, MPI_UINT64_T, 0, COMM);
	now = clock_ns();
	now_rt = realtime_ns();
	if (start > now_rt)
		clock_sleep_until(now + (start - now_rt));
	m->woke_rt_ns = realtime_ns();
	MPI_Irecv(&m->stop_in, 1, MPI_INT, MPI_ANY_SOURCE, TAG_STOP, COMM, &m->stop_req);
	return 0;
}

/*
 * Runs on the runner's thread about every 100 ms: a rank stopped by a signal tells the others,
 * and a stop from another rank stops this one, so a Ctrl-C anywhere ends the run everywhere.
 */
static void on_tick(void *arg, const struct runner_progress *p)
{
	struct mpi_ctx *m = arg;
	int got = 0;

	if (m->stop_req != MPI_REQUEST_NULL) {
		MPI_Test(&m->stop_req, &got, MPI_STATUS_IGNORE);
		if (got)
			*m->stop = 1;
	}
	if (*m->stop && !m->stop_sent && !got) {
		int one = 1;

		for (int r = 0; r < m->size; r++)
			if (r != m->rank)
				MPI_Send(&one, 1, MPI_INT, r, TAG_STOP, COMM);
	}
	if (*m->stop)
		m->stop_sent = true;
}

static void stop_listen_end(struct mpi_ctx *m)
{
	if (m->stop_req == MPI_REQUEST_NULL)
		return;
	MPI_Cancel(&m->stop_req);
	MPI_Wait(&m->stop_req, MPI_STATUS_IGNORE);
}

static int run_job(struct mpi_ctx *m, struct job *job, const struct output_opts *o)
{
	struct runner_hooks hooks = {.tick = on_tick, .arg = m, .ready = on_ready, .ready_arg = m};
	struct result res, agg;
	char msg[512];
	int rc, code;

	m->stop = cmd_stop_flag();
	hooks.stop = m->stop;
	m->stop_req = MPI_REQUEST_NULL;
	result_init(&res);
	result_init(&agg);
	rc = runner_run(job, &res, &hooks);
	cmd_result_spell(&res);
	if (!m->setup_synced)
		setup_vote(m, false);
	stop_listen_end(m);
	/* A signal on any rank stops them all; every rank exits with 128 + that signal. */
	int sig = *m->stop, any_sig = 0;
	MPI_Allreduce(&sig, &any_sig, 1, MPI_INT, MPI_MAX, COMM);
	/*
	 * One more vote, so that every rank takes the same path even when one failed after the
	 * set-up vote (a thread that would not start): no report then, only the first failure.
	 */
	code = 0;
	msg[0] = '\0';
	if (!res.started && rc != -ECANCELED) { /* -ECANCELED: another rank failed, it says why */
		code = rc == -EDOM || rc == -EINVAL ? EXIT_USAGE : 1;
		snprintf(msg, sizeof(msg), "%s", !rc ? "interrupted before the workload started"
					 : res.errmsg[0] ? res.errmsg : strerror(-rc));
	}
	if ((code = agree(m, code, msg, false)))
		goto out;
	if ((rc = mpi_gather_result(m, &res, &agg))) {
		code = run_error("cannot gather the ranks' results: %s",
				 rc == -EINVAL ? agg.errmsg : "out of memory");
		goto vote;
	}
	code = 0;
	if (m->rank == 0) {
		/* The report, the history and the closing line, as iorate run prints them. */
		code = cmd_print_result(&agg, o, agg.error);
	}
vote:
	MPI_Bcast(&code, 1, MPI_INT, 0, COMM);
out:
	if (any_sig && (code == EXIT_INTERRUPTED || !res.started))
		code = 128 + any_sig;
	result_release(&res);
	result_release(&agg);
	return code;
}

int mpi_cmd_run(int argc, char **argv)
{
	struct mpi_ctx m = {0};
	struct output_opts out;
	struct job job;
	bool help = false;
	int rc;

	MPI_Comm_rank(COMM, &m.rank);
	MPI_Comm_size(COMM, &m.size);
	if (gethostname(m.host, sizeof(m.host) - 1))
		snprintf(m.host, sizeof(m.host), "unknown");
	job_init(&job);
	output_opts_init(&out);
	if ((rc = parse(&m, argc, argv, &job, &out, &help)))
		goto out;
	if (help) {
		if (m.rank == 0)
			mpi_run_usage(stdout);
		goto out;
	}
	out.quiet = true; /* N ranks cannot share one progress line */
	if ((rc = prepare(&m, &job)) || (rc = check_clash(&m, &job)))
		goto out;
	rc = run_job(&m, &job, &out);
out:
	job_release(&job);
	return rc;
}
