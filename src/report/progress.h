#ifndef IORATE_REPORT_PROGRESS_H
#define IORATE_REPORT_PROGRESS_H
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "core/runner.h"

/*
 * The live progress line of run, sweep and mark: one line on stderr, redrawn in place, and only
 * when stderr is a terminal (a log or a pipe gets none). A command may prefix it with a label
 * ("[3/8] threads=4 bs=64KiB", "SEQ1M Q8T1 read, run 2 of 5"); then comes the run's own
 * state: "measuring  3.0s / 10.0s, 7s left: 5120 IOPS, 20.00 MiB/s". The line is cleared
 * before results or messages are printed.
 */
struct progress {
	FILE *f;                /* stderr */
	bool on;                /* drawing: f is a terminal and --quiet was not given */
	bool lines;             /* f is no terminal: each label is a line (progress_init_steps) */
	bool drawn;             /* a line is on the terminal, to clear before anything else */
	char label[256];        /* escaped: it may hold a path the user typed */
};

/* Draws on stderr when it is a terminal and quiet is false; else every call does nothing. */
void progress_init(struct progress *p, bool quiet);

/*
 * For a few slow steps (catalog prices' downloads, page by page): drawn as above on a
 * terminal, and elsewhere each label written as a line of its own, so a log shows the steps.
 */
void progress_init_steps(struct progress *p, bool quiet);

/* Sets the label from a format (the whole of it escaped) and draws it alone until a tick. */
void progress_label(struct progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A runner hook (runner_hooks.tick, arg = the struct progress): draws the run's state. */
void progress_tick(void *arg, const struct runner_progress *rp);

/* Hooks that draw on p and stop at *stop (may be NULL). */
void progress_hooks(struct progress *p, struct runner_hooks *h, volatile sig_atomic_t *stop);

/* Removes the line, if one is drawn, so what is printed next starts on a clean line. */
void progress_clear(struct progress *p);

#endif
