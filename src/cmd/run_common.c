#include "cmd/run_common.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "store/history.h"

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	stop_flag = 1;
}

volatile sig_atomic_t *cmd_stop_flag(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	return &stop_flag;
}

void output_opts_init(struct output_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->fmt = &report_text;
	o->ropts.units = UNITS_IEC;
}

struct progress {
	bool on;
	bool drawn;
};

static void progress_tick(void *arg, const struct runner_progress *p)
{
	struct progress *pr = arg;

	if (!pr->on)
		return;
	if (!strcmp(p->phase, "preparing"))
		fprintf(stderr, "\r\033[Kpreparing test file: %3.0f%%", p->prepare_done * 100);
	else if (!strcmp(p->phase, "measuring"))
		fprintf(stderr, "\r\033[K%s %5.1fs / %.1fs, %.0fs left: %.0f IOPS, %.2f MiB/s", p->phase,
			p->elapsed_s, p->total_s,
			p->total_s > p->elapsed_s ? p->total_s - p->elapsed_s : 0, p->iops, p->mibps);
	else
		fprintf(stderr, "\r\033[K%s %5.1fs / %.1fs", p->phase, p->elapsed_s, p->total_s);
	pr->drawn = true;
}

static struct progress progress_state;

void cmd_progress_hooks(struct runner_hooks *h, bool quiet)
{
	memset(h, 0, sizeof(*h));
	progress_state.on = !quiet && isatty(STDERR_FILENO);
	progress_state.drawn = false;
	h->tick = progress_tick;
	h->arg = &progress_state;
	h->stop = cmd_stop_flag();
}

static void progress_clear(void)
{
	if (progress_state.drawn)
		fputs("\r\033[K", stderr);
	progress_state.drawn = false;
}

/*
 * --save: the run already happened and was printed, so a history that cannot be written costs
 * a warning, never the run's exit status.
 */
static void save_result(const struct result *r, const char *db)
{
	struct history *h = NULL;
	char err[512] = "";
	int64_t id;

	if (history_open(db, &h, err, sizeof(err)) || history_save(h, r, &id, err, sizeof(err)))
		fprintf(stderr, "iorate: warning: the run was not saved: %s\n", err);
	else
		fprintf(stderr, "iorate: saved as run %lld in %s\n", (long long)id, history_path(h));
	history_close(h);
}

int cmd_run_failed(int rc, const struct result *r, const char *label)
{
	fprintf(stderr, "iorate: %s%s%s\n", label ? label : "", label ? ": " : "",
		r->errmsg[0] ? r->errmsg : strerror(-rc));
	return !r->started && (rc == -EDOM || rc == -EINVAL) ? EXIT_USAGE : 1;
}

int cmd_print_result(const struct result *r, const struct output_opts *o, int rc)
{
	o->fmt->write(stdout, r, &o->ropts);
	fflush(stdout);
	if (o->save)
		save_result(r, o->db);
	if (rc)
		fprintf(stderr, "iorate: %s\n", r->errmsg[0] ? r->errmsg : strerror(-rc));
	else if (r->interrupted)
		fprintf(stderr, "iorate: interrupted: results cover the %.1f s that ran\n",
			r->seconds);
	return rc ? 1 : r->interrupted ? EXIT_INTERRUPTED : 0;
}

int cmd_run_job(struct job *job, const struct output_opts *o)
{
	struct runner_hooks hooks;
	struct result res;
	char err[256];
	int rc;

	if (job_validate(job, err, sizeof(err)))
		return usage_error("%s", err);
	cmd_progress_hooks(&hooks, o->quiet);
	result_init(&res);
	rc = runner_run(job, &res, &hooks);
	progress_clear();
	if (rc && !res.started) {
		int code = cmd_run_failed(rc, &res, NULL);
		result_release(&res);
		return code;
	}
	if (!res.started && res.interrupted) {
		fprintf(stderr, "iorate: interrupted before the workload started\n");
		result_release(&res);
		return 1;
	}
	int code = cmd_print_result(&res, o, rc);
	result_release(&res);
	return code;
}
