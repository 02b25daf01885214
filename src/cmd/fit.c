/*
 * Sweep and mark run many jobs on the same targets: each combination is tried against what the
 * targets are before the first job runs, so that a row that cannot run is refused up front, not
 * after the rows before it have filled files and measured.
 */
#include "cmd/fit.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/runner.h"
#include "core/target.h"

/*
 * What path is now: 0 and its identity in *id (what a link leads to: {0, 0} when nothing),
 * -ENOENT when the run will create it, or another -errno the run's own open will explain.
 */
static int target_id(const char *path, struct stat *st, struct gate_id *id)
{
	int hold = gate_hold(path, false, st);

	if (hold < 0)
		return hold;
	close(hold);
	*id = (struct gate_id){.dev = st->st_dev, .ino = st->st_ino};
	if (!S_ISLNK(st->st_mode))
		return 0;
	/* target_open judges the link; the id makes a name swapped meanwhile refused, not made. */
	if ((hold = gate_hold(path, true, st)) < 0) {
		*id = (struct gate_id){0};
		return 0;
	}
	close(hold);
	*id = (struct gate_id){.dev = st->st_dev, .ino = st->st_ino};
	return 0;
}

/* One target of the job; t is closed (nothing removed: nothing is created) before returning. */
static int target_fits(const struct job *job, const char *path, char *err, size_t errlen)
{
	struct job j = *job; /* a shallow copy, only read */
	struct target t;
	struct gate_id id;
	struct stat st;
	int r = runner_engine_no_io(job->engine) ? -ENOENT : target_id(path, &st, &id);

	/* --atomic is judged on the file once it is made; the run refuses it then. */
	j.atomic = false;
	if (r == -ENOENT)
		r = runner_engine_no_io(job->engine)
			    ? target_virtual(&t, path, job, err, errlen)
			    : target_virtual(&t, path, &j, err, errlen);
	else if (r < 0)
		return 0; /* the run says why it cannot open it */
	else if (job->grow && S_ISREG(st.st_mode) && (uint64_t)st.st_size < job->size)
		r = target_virtual(&t, path, &j, err, errlen); /* the run grows it to --size */
	else
		r = target_open(&t, path, job, &id, NULL, NULL, cmd_stop_flag(), err, errlen);
	target_close(&t, true);
	return r;
}

int cmd_job_fits(const struct job *job, char *err, size_t errlen)
{
	int r;

	for (unsigned i = 0; i < job->ntargets; i++)
		if ((r = target_fits(job, job->targets[i], err, errlen)))
			return r;
	return 0;
}
