/* The one progress line of the commands that run a workload, and of catalog prices (progress.h). */
#include "report/progress.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/escape.h"

/* Carriage return and erase-line: the line is redrawn where it stands. */
#define REDRAW "\r\033[K"

void progress_init(struct progress *p, bool quiet)
{
	memset(p, 0, sizeof(*p));
	p->f = stderr;
	p->on = !quiet && isatty(fileno(stderr));
}

void progress_init_steps(struct progress *p, bool quiet)
{
	progress_init(p, quiet);
	p->lines = !quiet && !p->on;
	p->on = !quiet;
}

static void draw(struct progress *p, const char *state)
{
	if (p->lines) {
		fprintf(p->f, "%s\n", p->label);
		return;
	}
	fprintf(p->f, REDRAW "%s%s%s", p->label, *p->label && *state ? ": " : "", state);
	fflush(p->f);
	p->drawn = true;
}

void progress_label(struct progress *p, const char *fmt, ...)
{
	char *text = NULL;
	va_list ap;

	if (!p->on)
		return;
	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	escape_buf(text, p->label, sizeof(p->label));
	free(text);
	draw(p, "");
}

void progress_tick(void *arg, const struct runner_progress *rp)
{
	struct progress *p = arg;
	char s[160];

	if (!p->on || p->lines)
		return;
	if (!strcmp(rp->phase, "preparing"))
		snprintf(s, sizeof(s), "preparing test file: %3.0f%%", rp->prepare_done * 100);
	else if (!strcmp(rp->phase, "measuring") && rp->total_s <= 0)
		snprintf(s, sizeof(s), "%s %5.1fs (until each thread's I/O is done): %.0f IOPS, "
			 "%.2f MiB/s", rp->phase, rp->elapsed_s, rp->iops, rp->mibps);
	else if (!strcmp(rp->phase, "measuring"))
		snprintf(s, sizeof(s), "%s %5.1fs / %.1fs, %.0fs left: %.0f IOPS, %.2f MiB/s",
			 rp->phase, rp->elapsed_s, rp->total_s,
			 rp->total_s > rp->elapsed_s ? rp->total_s - rp->elapsed_s : 0, rp->iops,
			 rp->mibps);
	else
		snprintf(s, sizeof(s), "%s %5.1fs / %.1fs", rp->phase, rp->elapsed_s, rp->total_s);
	draw(p, s);
}

void progress_hooks(struct progress *p, struct runner_hooks *h, volatile sig_atomic_t *stop)
{
	*h = (struct runner_hooks){.tick = progress_tick, .arg = p, .stop = stop};
}

void progress_clear(struct progress *p)
{
	if (!p->drawn)
		return;
	fputs(REDRAW, p->f);
	fflush(p->f);
	p->drawn = false;
}
