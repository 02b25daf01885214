#ifndef IORATE_CMD_CMD_FIO_H
#define IORATE_CMD_CMD_FIO_H
/*
 * fio job files and command lines through the option table of 'iorate run': shared by
 * 'iorate fio' (cmd_fio.c) and 'iorate run --job FILE' (cmd_run.c).
 */
#include <stdbool.h>
#include <stdio.h>

#include "compat/compat.h"
#include "core/job.h"
#include "report/format.h"

struct fio_session {
	struct compat_fio_env env;
	struct compat_fio fio;
	struct job_list jobs;
};

void cmd_fio_session_init(struct fio_session *s);
void cmd_fio_session_release(struct fio_session *s);

/*
 * Translates what s->fio has read into s->jobs, each setting applied through the option table
 * of 'iorate run' (a value is judged as 'iorate run' judges it, refused under the fio option's
 * name). Prints why not ("LABEL: ...", every option that cannot run on a line of its own) and
 * returns the exit code: 0, 2, or 1 when out of memory.
 */
int cmd_fio_translate(struct fio_session *s, const char *label);

/*
 * What each option became, job by job, in fmt (one of dry_run_formats: text or JSON,
 * docs/compat.md), on out; then: a command line whose options apply over every job, added to
 * the text, or NULL. 0, or -errno.
 */
int cmd_fio_print(const struct fio_session *s, FILE *out, const struct report_format *fmt,
		  const char *then);

/* One line per job on stderr before a run: its name, group and equivalent 'iorate run'. */
void cmd_fio_announce(const struct fio_session *s, const char *label);

#endif
