#ifndef IORATE_CMD_CMD_H
#define IORATE_CMD_CMD_H

/*
 * Every subcommand is one function in src/cmd/cmd_<name>.c: it gets argv with argv[0] set to the
 * subcommand's name, prints its own results and errors, and returns the process exit code:
 * 0 success, 1 the work failed (I/O error, safety refusal), 2 bad usage.
 */
int cmd_run(int argc, char **argv);
int cmd_mark(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_diskspd(int argc, char **argv);
int cmd_sqlio(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_cost(int argc, char **argv);
int cmd_catalog(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_report(int argc, char **argv);

/* Prints "iorate: <what>: <why>" on stderr; returns 2 so usage errors can `return usage_error()`. */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Same line, returns 1: for failures of the work itself. */
int run_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define EXIT_USAGE 2
/* Stopped by SIGINT/SIGTERM: the partial results were printed (128 + SIGINT, as shells do). */
#define EXIT_INTERRUPTED 130

#endif
