/*
 * fio's log files: their names, and opening and committing them through the write gate
 * (src/core/joblog.h). What goes in them is src/core/worker_log.c's.
 */
#include "core/joblog.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"
#include "util/field.h"

void job_logs_release(struct job_logs *l)
{
	free(l->bw);
	free(l->iops);
	free(l->lat);
	free(l->hist);
	l->bw = l->iops = l->lat = l->hist = NULL;
}

static int dup_or_null(char **dst, const char *src)
{
	*dst = NULL;
	return src && !(*dst = strdup(src)) ? -ENOMEM : 0;
}

int job_logs_copy(struct job_logs *dst, const struct job_logs *src)
{
	*dst = *src;
	if (dup_or_null(&dst->bw, src->bw) || dup_or_null(&dst->iops, src->iops) ||
	    dup_or_null(&dst->lat, src->lat) || dup_or_null(&dst->hist, src->hist)) {
		job_logs_release(dst);
		return -ENOMEM;
	}
	return 0;
}

bool job_logs_on(const struct job *j)
{
	return j->log.bw || j->log.iops || j->log.lat || j->log.hist;
}

/* The prefix a kind of log takes, and fio's word for the kind. */
static const char *prefix_of(const struct job_logs *l, enum log_kind k)
{
	switch (k) {
	case LOG_BW:
		return l->bw;
	case LOG_IOPS:
		return l->iops;
	case LOG_HIST:
		return l->hist;
	default:
		return l->lat;
	}
}

static const char *const kind_word[LOG_KINDS] = {
	[LOG_BW] = "bw", [LOG_IOPS] = "iops", [LOG_LAT] = "lat",
	[LOG_SLAT] = "slat", [LOG_CLAT] = "clat", [LOG_HIST] = "clat_hist",
};

/* The option that asks for a kind, for messages. */
static const char *const kind_field[LOG_KINDS] = {
	[LOG_BW] = FIELD("log-bw"), [LOG_IOPS] = FIELD("log-iops"), [LOG_LAT] = FIELD("log-lat"),
	[LOG_SLAT] = FIELD("log-lat"), [LOG_CLAT] = FIELD("log-lat"),
	[LOG_HIST] = FIELD("log-hist"),
};

int joblog_name(const struct job_logs *l, enum log_kind k, unsigned num, char *buf, size_t len)
{
	int n;

	if (l->shared)
		n = snprintf(buf, len, "%s_%s.log", prefix_of(l, k), kind_word[k]);
	else
		n = snprintf(buf, len, "%s_%s.%u.log", prefix_of(l, k), kind_word[k], num);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* The output already open at path (a name several jobs give), or NULL. */
static FILE *find_open(const struct log_set *ls, const char *path)
{
	for (unsigned i = 0; i < ls->nouts; i++)
		if (!strcmp(ls->outs[i].path, path))
			return ls->outs[i].f;
	return NULL;
}

int log_set_open(struct log_set *ls, const struct job *jobs, unsigned n, unsigned *bad,
		 char *err, size_t errlen)
{
	char path[4096];
	int r;

	memset(ls, 0, sizeof(*ls));
	for (unsigned i = 0; i < n; i++)
		if (job_logs_on(&jobs[i]))
			break;
		else if (i + 1 == n)
			return 0;
	if (!n || !(ls->jobs = calloc(n, sizeof(*ls->jobs))) ||
	    !(ls->outs = calloc((size_t)n * LOG_KINDS, sizeof(*ls->outs))))
		return n ? err_set(err, errlen, -ENOMEM, "out of memory") : 0;
	for (unsigned i = 0; i < n; i++) {
		for (unsigned k = 0; k < LOG_KINDS; k++) {
			FILE *f;
			*bad = i;
			if (!prefix_of(&jobs[i].log, k))
				continue;
			if (joblog_name(&jobs[i].log, k, i + 1, path, sizeof(path))) {
				r = err_set(err, errlen, -ENAMETOOLONG, "%s: the log's name is too "
					    "long", kind_field[k]);
				goto fail;
			}
			if (!(f = find_open(ls, path))) {
				struct gate_out *o = &ls->outs[ls->nouts];
				if ((r = gate_out_open(o, kind_field[k], path, err, errlen)))
					goto fail;
				ls->nouts++;
				/* A stopped run's logs still tell what it did, as fio's do. */
				o->partial = true;
				f = o->f;
			}
			ls->jobs[i].f[k] = f;
		}
	}
	return 0;
fail:
	/* Nothing is left of the logs already opened: no file was written yet. */
	for (unsigned i = 0; i < ls->nouts; i++)
		gate_out_abort(&ls->outs[i]);
	free(ls->outs);
	free(ls->jobs);
	memset(ls, 0, sizeof(*ls));
	return r;
}

int log_set_commit(struct log_set *ls, char *err, size_t errlen)
{
	char why[512];
	int rc = 0;

	for (unsigned i = 0; i < ls->nouts; i++) {
		int r = gate_out_commit(&ls->outs[i], why, sizeof(why));
		if (r && !rc)
			rc = err_set(err, errlen, r, "%s", why);
	}
	free(ls->outs);
	free(ls->jobs);
	memset(ls, 0, sizeof(*ls));
	return rc;
}
