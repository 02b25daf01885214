#ifndef IORATE_CMD_CMD_H
#define IORATE_CMD_CMD_H

/*
 * Every subcommand is a `struct command` (src/cmd/options.h) in src/cmd/cmd_<name>.c: its fn
 * gets argv with argv[0] set to the subcommand's name, prints its own results and errors, and
 * returns the process exit code: 0 success, 1 the work failed (I/O error, safety refusal),
 * 2 bad usage. src/main.c lists them.
 */
struct command;
extern const struct command cmd_run, cmd_mark, cmd_sweep, cmd_diskspd, cmd_sqlio, cmd_fio,
	cmd_model, cmd_plan, cmd_explain, cmd_cost, cmd_catalog, cmd_history, cmd_report,
	cmd_verify;
/* All of them, NULL-terminated (src/cmd/commands.c). */
extern const struct command *const iorate_commands[];

#include <stddef.h>
#include <stdio.h>

#include "util/field.h"

/*
 * Prints "iorate: <what>: <why>" on stderr, fields named by the core (FIELD("depth")) spelled as
 * the front end in use spells them; returns 2 so usage errors can `return usage_error()`.
 */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Same line, returns 1: for failures of the work itself. */
int run_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * How the front end in use spells fields (DiskSpd: depth is "-o") and field=value remedies
 * (DiskSpd: "-Sb"); NULL: iorate's "--depth", "--cache buffered". src/compat/ has them.
 */
void cmd_set_speller(const struct field_spelling *s);
/* msg with its fields spelled that way, into out; returns the length needed. */
size_t cmd_spell(char *out, size_t len, const char *msg);

/*
 * Standard output for a report, as a stream that keeps the first write error with its errno
 * (gate_stdout_open()): cmd_stdout_open() returns it, or NULL after saying so on stderr.
 * cmd_stdout_close() closes it; r is what the writers returned (0 or -errno). Returns 0, or 1
 * after one line naming the error: "iorate: standard output: No space left on device".
 */
FILE *cmd_stdout_open(void);
/*
 * Refuses standard output on a device (gate_stdout_check()) before any command runs, unless
 * --force is among the words: 0, or the exit status after saying why.
 */
int cmd_stdout_check(int argc, char **argv);
int cmd_stdout_close(FILE *f, int r);

#define EXIT_USAGE 2
/* Stopped by a signal: the partial results were printed; the process exits 128 + the signal. */
#define EXIT_INTERRUPTED 130

/*
 * SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1/2, SIGALRM and SIGPIPE set one flag (to the first
 * signal's number) instead of ending the process, so that work stops at a safe point: partial
 * results printed or saved, created files removed. main() installs them for every command.
 */
void cmd_signals_install(void);
/* The flag: 0, or the signal that asked to stop. */
#include <signal.h>
volatile sig_atomic_t *cmd_stop_flag(void);
/* code, or 128 + the signal when one asked to stop: what the process exits with. */
int cmd_exit_code(int code);

#endif
