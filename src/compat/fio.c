/*
 * fio job files and command lines into jobs of iorate: what fio_ini.c and fio_cli.c read is
 * taken job by job (its [global]s' lines, then its own), read into its values (fio_opts.c),
 * checked as a whole (every line iorate cannot run is named at once), put in run groups, and
 * each clone of numjobs emitted as one job of the list (fio_job.c), with the explanation of
 * what every option became.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "compat/fio.h"
#include "util/err.h"
#include "util/stop.h"

#define FIO_MAX_JOBS 4096u  /* fio's --max-jobs */

void compat_fio_init(struct compat_fio *f, const struct compat_fio_env *env)
{
	memset(f, 0, sizeof(*f));
	f->env = env;
}

static void job_expl_free(struct compat_fio_job *x)
{
	for (unsigned i = 0; i < x->nitems; i++) {
		free(x->items[i].where);
		free(x->items[i].option);
		free(x->items[i].became);
		free(x->items[i].note);
	}
	free(x->items);
	free(x->equivalent);
	free(x->name);
	free(x->where);
}

void compat_fio_release(struct compat_fio *f)
{
	if (!f)
		return;
	fio_doc_free(f->doc);
	for (unsigned i = 0; i < f->njobs; i++)
		job_expl_free(&f->jobs[i]);
	free(f->jobs);
	for (unsigned i = 0; i < f->nrefused; i++)
		free(f->refused[i]);
	free(f->refused);
	free(f->refused_set);
	memset(f, 0, sizeof(*f));
}

static int need_doc(struct compat_fio *f)
{
	if (!f->doc && !(f->doc = calloc(1, sizeof(*f->doc))))
		return -ENOMEM;
	return 0;
}

int compat_fio_read_file(struct compat_fio *f, const char *path, char *err, size_t errlen)
{
	err[0] = '\0';
	if (need_doc(f))
		return -ENOMEM;
	return fio_ini_read(f, path, err, errlen);
}

/* The [global] lines read so far, in order: each job takes them, then its own lines. */
struct global_lines {
	const struct fio_line **v;
	size_t n, cap;
};

static int globals_add(struct global_lines *g, const struct fio_section *s)
{
	if (g->n + s->n > g->cap) {
		size_t cap = g->cap ? g->cap : 64;
		while (cap < g->n + s->n)
			cap *= 2;
		const struct fio_line **v = realloc(g->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		g->v = v;
		g->cap = cap;
	}
	for (unsigned j = 0; j < s->n; j++)
		g->v[g->n++] = &s->lines[j];
	return 0;
}

/* The lines a job section reads: the [global]s before it, in order, then its own. */
static const struct fio_line **job_lines(const struct global_lines *g, const struct fio_section *s,
					 unsigned *n)
{
	size_t total = g->n + s->n;
	const struct fio_line **v = malloc((total ? total : 1) * sizeof(*v));

	if (!v)
		return NULL;
	if (g->n)
		memcpy(v, g->v, g->n * sizeof(*v));
	for (unsigned j = 0; j < s->n; j++)
		v[g->n + j] = &s->lines[j];
	*n = (unsigned)total;
	return v;
}

/* One job section, read. */
struct fio_read_job {
	const struct fio_section *sec;
	const struct fio_line **lines;
	unsigned nlines;
	struct fio_opts o;
	unsigned group;
};

static void read_jobs_free(struct fio_read_job *rj, unsigned n)
{
	for (unsigned i = 0; rj && i < n; i++)
		free(rj[i].lines);
	free(rj);
}

/* The run group of each job: stonewall starts one after all before; wait_for follows one. */
static int assign_groups(struct compat_fio *f, struct fio_read_job *rj, unsigned n)
{
	unsigned cur = 0, max = 0, report = 0;
	bool exitall = false;

	for (unsigned i = 0; i < n; i++)
		exitall |= rj[i].o.exitall;
	for (unsigned i = 0; i < n; i++) {
		struct fio_opts *o = &rj[i].o;
		/* fio's reporting groups, which exitall's "group" ends: each stonewall or new_group
		 * after the first job starts one. */
		if (i && (o->stonewall || o->new_group || rj[i].sec->file_stonewall))
			report++;
		o->report_group = report;
		o->exitall_run = exitall;
		if (i && (o->stonewall || rj[i].sec->file_stonewall))
			cur = max + 1;
		rj[i].group = cur;
		if (o->wait_for) {
			unsigned k = 0;
			for (; k < i; k++)
				if (!strcmp(rj[k].o.name ? rj[k].o.name : rj[k].sec->name,
					    o->wait_for))
					break;
			if (k == i)
				return fio_refuse(f, o->src[FO_WAIT_FOR], false,
						  "no job named '%s' comes before it",
						  o->wait_for);
			if (rj[k].group + 1 > rj[i].group)
				rj[i].group = rj[k].group + 1;
		}
		max = rj[i].group > max ? rj[i].group : max;
	}
	return 0;
}

/* fio --readonly: a job that writes is refused before anything. */
static int check_readonly(struct compat_fio *f, struct fio_read_job *rj, unsigned n)
{
	int r = 0;

	for (unsigned i = 0; f->readonly && i < n && !r; i++)
		if (rj[i].o.rw || rj[i].o.trim)
			r = fio_refuse(f, rj[i].o.src[FO_RW] ? rj[i].o.src[FO_RW] : rj[i].lines[0],
				       false, "writes, and --readonly was given");
	return r;
}

static int read_all(struct compat_fio *f, struct fio_read_job **out, unsigned *nout, char *err,
		    size_t errlen)
{
	struct fio_read_job *rj = NULL;
	struct global_lines gl = {0};
	unsigned n = 0, njobs = 0;
	uint64_t read = 0;
	int r = 0;

	/* More sections than fio runs jobs are refused before any is read (numjobs >= 1). */
	for (unsigned i = 0; f->doc && i < f->doc->n; i++)
		njobs += !f->doc->s[i].global;
	if (njobs > FIO_MAX_JOBS)
		return err_set(err, errlen, -EINVAL, "%u job sections: fio runs at most %u jobs "
			       "(its --max-jobs)", njobs, FIO_MAX_JOBS);
	if (njobs && !(rj = calloc(njobs, sizeof(*rj))))
		return -ENOMEM;
	for (unsigned i = 0; f->doc && i < f->doc->n && !r; i++) {
		if (f->doc->s[i].global) {
			r = globals_add(&gl, &f->doc->s[i]);
			continue;
		}
		if (stop_requested()) {
			r = err_set(err, errlen, -EINTR, "interrupted while reading the jobs");
			break;
		}
		if ((read += gl.n + f->doc->s[i].n) > FIO_MAX_LINES_READ) {
			r = err_set(err, errlen, -EINVAL, "%s: with the [global] lines before each "
				    "job, the jobs read more than %u lines; give fewer [global] "
				    "lines or jobs", f->doc->s[i].where, FIO_MAX_LINES_READ);
			break;
		}
		rj[n] = (struct fio_read_job){.sec = &f->doc->s[i]};
		if (!(rj[n].lines = job_lines(&gl, &f->doc->s[i], &rj[n].nlines)))
			r = -ENOMEM;
		else
			r = fio_opts_read(f, &rj[n].o, rj[n].lines, rj[n].nlines);
		n++;
	}
	free(gl.v);
	if (!r)
		r = assign_groups(f, rj, n);
	if (!r)
		r = check_readonly(f, rj, n);
	*out = rj;
	*nout = n;
	return r;
}

static int item_add(struct compat_fio_job *x, const char *where, const char *option,
		    const char *became, const char *note)
{
	struct compat_fio_item *it = realloc(x->items, (x->nitems + 1) * sizeof(*it));

	if (!it)
		return -ENOMEM;
	x->items = it;
	it = &it[x->nitems];
	*it = (struct compat_fio_item){.where = strdup(where), .option = strdup(option),
				       .became = strdup(became),
				       .note = note ? strdup(note) : NULL};
	if (!it->where || !it->option || !it->became || (note && !it->note)) {
		free(it->where);
		free(it->option);
		free(it->became);
		free(it->note);
		return -ENOMEM;
	}
	x->nitems++;
	return 0;
}

/* What a line that became no setting says: of no effect, or overridden by a later one. */
static int item_quiet(struct compat_fio_job *x, const struct fio_line *l,
		      const struct fio_opts *o)
{
	const struct fio_opt *op = fio_opt_find(l->key);
	char by[512];

	if (op && op->how == FH_NOEFFECT)
		return item_add(x, l->where, l->typed, "(no effect)", op->why);
	if (op && op->how == FH_REFUSED)
		return item_add(x, l->where, l->typed, "(no effect)", "asks nothing of iorate");
	if (op && op->id != FO_NONE && o->src[op->id] && o->src[op->id] != l) {
		snprintf(by, sizeof(by), "(overridden by %s)", o->src[op->id]->where);
		return item_add(x, l->where, l->typed, by, NULL);
	}
	return item_add(x, l->where, l->typed, "(read with the options it goes with)", NULL);
}

/* An item of line l; a ${NAME} not set is said first (fio reads it as empty, as here). */
static int item_add_unset(struct compat_fio_job *x, const struct fio_line *l, const char *became,
			  const char *note)
{
	char *n = NULL;
	int r;

	if (!l->unset)
		return item_add(x, l->where, l->typed, became, note);
	if (asprintf(&n, "%s is not set: read as empty, as fio does (%s)%s%s", l->unset,
		     l->val ? l->val : "",
		     note ? "; " : "", note ? note : "") < 0)
		return -ENOMEM;
	r = item_add(x, l->where, l->typed, became, n);
	free(n);
	return r;
}

/* The explanation in the order of the lines, then fio's defaults. */
static int explain_job(struct fio_emit *e, const struct fio_read_job *rj)
{
	int r = 0;

	for (unsigned i = 0; i < rj->nlines && !r; i++) {
		bool any = false;
		for (unsigned k = 0; k < e->nrecs && !r; k++) {
			if (e->recs[k].line != rj->lines[i])
				continue;
			any = true;
			r = item_add_unset(e->ex, rj->lines[i], e->recs[k].became,
					   e->recs[k].note);
		}
		if (!any && !r)
			r = item_quiet(e->ex, rj->lines[i], &rj->o);
	}
	for (unsigned k = 0; k < e->nrecs && !r; k++)
		if (!e->recs[k].line)
			r = item_add(e->ex, "default", e->recs[k].option, e->recs[k].became,
				     e->recs[k].note);
	return r;
}

static void recs_free(struct fio_emit *e)
{
	for (unsigned k = 0; k < e->nrecs; k++) {
		free(e->recs[k].option);
		free(e->recs[k].became);
		free(e->recs[k].note);
	}
	free(e->recs);
	e->recs = NULL;
	e->nrecs = 0;
}

/* The equivalent 'iorate run' options, then the job's targets. */
static int equivalent_targets(struct fio_emit *e)
{
	char *s = e->equivalent ? strdup(e->equivalent) : strdup(""), *n;

	for (unsigned i = 0; s && i < e->j->ntargets; i++) {
		if (asprintf(&n, "%s %s", s, e->j->targets[i]) < 0)
			n = NULL;
		free(s);
		s = n;
	}
	if (!s)
		return -ENOMEM;
	e->ex->equivalent = s;
	return 0;
}

/* Clone k of a job read: one job of the list, its settings and its explanation. */
static int emit_clone(struct compat_fio *f, const struct compat_sink *sink, struct job_list *jobs,
		      const struct fio_read_job *rj, unsigned k, char *err, size_t errlen)
{
	const char *name = rj->o.name ? rj->o.name : rj->sec->name;
	struct compat_fio_job *xs = realloc(f->jobs, (f->njobs + 1) * sizeof(*xs));
	struct fio_emit e = {.f = f, .sink = sink, .err = err, .errlen = errlen};
	int r;

	if (!xs)
		return -ENOMEM;
	f->jobs = xs;
	e.ex = &xs[f->njobs];
	*e.ex = (struct compat_fio_job){.name = strdup(name), .where = strdup(rj->sec->where),
					.clone = k, .clones = rj->o.numjobs};
	f->njobs++;
	if (!(e.j = job_list_add(jobs)) || !e.ex->name || !e.ex->where ||
	    !(e.j->name = strdup(name)))
		return -ENOMEM;
	e.j->group = rj->group;
	e.jobno = jobs->n - 1;
	strcpy(e.j->origin, "fio");
	if (!(r = fio_job_emit(&e, &rj->o, rj->sec->name, k)))
		r = explain_job(&e, rj);
	if (!r)
		r = equivalent_targets(&e);
	recs_free(&e);
	free(e.equivalent);
	return r;
}

/* The files a job names: filename='s list, else nrfiles. */
static uint64_t job_files(const struct fio_opts *o)
{
	uint64_t n = 1;

	if (!o->filename)
		return o->nrfiles;
	for (const char *p = o->filename; *p; p++)
		if (*p == '\\' && p[1] == ':')
			p++;
		else if (*p == ':')
			n++;
	return n;
}

/* fio runs at most 4096 jobs (its --max-jobs); iorate opens at most 65536 files in a run. */
static int check_counts(const struct fio_read_job *rj, unsigned n, char *err, size_t errlen)
{
	uint64_t jobs = 0, files = 0;

	for (unsigned i = 0; i < n; i++) {
		jobs += rj[i].o.numjobs;
		files += rj[i].o.numjobs * job_files(&rj[i].o);
	}
	if (jobs > FIO_MAX_JOBS)
		return err_set(err, errlen, -EINVAL, "%llu jobs with their numjobs: fio runs at "
			       "most %u (its --max-jobs)", (unsigned long long)jobs, FIO_MAX_JOBS);
	if (files > 65536)
		return err_set(err, errlen, -EINVAL, "%llu files in all: iorate opens at most "
			       "65536 in a run", (unsigned long long)files);
	return 0;
}

int compat_fio_translate(struct compat_fio *f, const struct compat_sink *sink,
			 struct job_list *jobs, char *err, size_t errlen)
{
	struct fio_read_job *rj = NULL;
	unsigned n = 0;
	int r;

	err[0] = '\0';
	if ((r = read_all(f, &rj, &n, err, errlen)))
		goto out;
	if (f->nrefused) {
		r = err_set(err, errlen, -EINVAL, "%u option%s cannot run in iorate (nothing ran)",
			    f->nrefused, f->nrefused == 1 ? "" : "s");
		goto out;
	}
	if (!n) {
		r = err_set(err, errlen, -EINVAL, "no job: give a job file with a [jobname] "
			    "section, or --name=NAME and its options");
		goto out;
	}
	if ((r = check_counts(rj, n, err, errlen)))
		goto out;
	for (unsigned i = 0; i < n && !r; i++)
		for (unsigned k = 0; k < rj[i].o.numjobs && !r; k++)
			r = stop_requested() ? err_set(err, errlen, -EINTR, "interrupted while "
						       "translating the jobs")
					     : emit_clone(f, sink, jobs, &rj[i], k, err, errlen);
out:
	read_jobs_free(rj, n);
	return r;
}

/* fio --showcmd: [global]s without --name, jobs after their --name, as fio prints it. */
void compat_fio_showcmd(const struct compat_fio *f, FILE *out)
{
	fputs("fio", out);
	for (unsigned i = 0; f->doc && i < f->doc->n; i++) {
		const struct fio_section *s = &f->doc->s[i];
		if (!s->global)
			fprintf(out, " --name=%s", s->name);
		for (unsigned k = 0; k < s->n; k++)
			fprintf(out, " --%s%s%s", s->lines[k].key, s->lines[k].val ? "=" : "",
				s->lines[k].val ? s->lines[k].val : "");
	}
	fputc('\n', out);
}

/* ---- the system, as fio sees it ---- */

static const char *sys_getenv(void *arg, const char *name)
{
	return getenv(name);
}

static int sys_read(void *arg, const char *path, char **text)
{
	FILE *fp = strcmp(path, "-") ? fopen(path, "re") : stdin;
	size_t cap = 0, len = 0;
	char *buf = NULL;
	int r = 0;

	if (!fp)
		return -errno;
	for (;;) {
		if (len + 4097 > cap) {
			char *nb = realloc(buf, cap = cap ? cap * 2 : 8192);
			if (!nb || cap > (64u << 20)) {
				free(nb ? nb : buf);
				if (fp != stdin)
					fclose(fp);
				return nb ? -EFBIG : -ENOMEM;
			}
			buf = nb;
		}
		size_t got = fread(buf + len, 1, 4096, fp);
		len += got;
		if (got < 4096)
			break;
	}
	if (ferror(fp))
		r = -EIO;
	if (fp != stdin)
		fclose(fp);
	if (r) {
		free(buf);
		return r;
	}
	buf[len] = '\0';
	*text = buf;
	return 0;
}

/*
 * A block device's capacity from /sys/dev/block/MAJ:MIN/size (in 512-byte sectors, whatever
 * the device's own sector size): the device itself is not opened.
 */
static int sys_stat(void *arg, const char *path, uint64_t *size, bool *regular)
{
	struct stat st;
	char sys[96];
	unsigned long long sectors;
	FILE *fp;
	int r = 0;

	if (stat(path, &st))
		return -errno;
	*regular = S_ISREG(st.st_mode);
	*size = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
	if (!S_ISBLK(st.st_mode))
		return 0;
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/size", major(st.st_rdev),
		 minor(st.st_rdev));
	if (!(fp = fopen(sys, "re")))
		return -errno;
	if (fscanf(fp, "%llu", &sectors) != 1 || sectors > UINT64_MAX / 512)
		r = -EIO;
	else
		*size = (uint64_t)sectors * 512;
	fclose(fp);
	return r;
}

void compat_fio_env_system(struct compat_fio_env *env)
{
	long page = sysconf(_SC_PAGESIZE), pages = sysconf(_SC_PHYS_PAGES);
	long cpus = sysconf(_SC_NPROCESSORS_CONF);

	*env = (struct compat_fio_env){
		.getenv = sys_getenv, .read = sys_read, .stat = sys_stat,
		.pagesize = page > 0 ? (uint64_t)page : 4096,
		.mb_memory = page > 0 && pages > 0 ? (uint64_t)page * (uint64_t)pages >> 20 : 0,
		.ncpus = cpus > 0 ? (uint64_t)cpus : 1,
	};
}
