/*
 * The kernel's view of the block devices under the targets: /proc/diskstats read at the start
 * and the end of a group's measured window (the runner takes the snapshots), and the change
 * given to each job for the devices under its own targets.
 */
#include "core/diskstats.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/target.h"

#define NFIELDS 17

/* Counters after "major minor name": how many were read (up to NFIELDS), or -EINVAL. */
static int fields(const char *p, uint64_t v[NFIELDS])
{
	int n = 0;

	for (;;) {
		char *end;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9' || n == NFIELDS)
			break;
		errno = 0;
		v[n++] = strtoull(p, &end, 10);
		if (errno)
			return -EINVAL;
		p = end;
	}
	/* A later kernel may print more counters; anything else ends the line. */
	if (n < NFIELDS && *p && *p != '\n')
		return -EINVAL;
	return n;
}

/* Sectors as bytes; a count no device reaches (2^55 sectors) is refused. */
static int bytes_of(uint64_t sectors, uint64_t *bytes)
{
	if (sectors > UINT64_MAX / 512)
		return -EINVAL;
	*bytes = sectors * 512;
	return 0;
}

int diskstats_parse(const char *line, char *name, size_t len, struct disk_counts *out)
{
	uint64_t v[NFIELDS] = {0};
	unsigned ma, mi;
	char nm[64];
	int used = 0, n;

	if (sscanf(line, "%u %u %63s%n", &ma, &mi, nm, &used) != 3 || strlen(nm) >= len ||
	    (n = fields(line + used, v)) < 11)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->read_ios = v[0];
	out->read_merges = v[1];
	out->read_ms = v[3];
	out->write_ios = v[4];
	out->write_merges = v[5];
	out->write_ms = v[7];
	out->in_flight = v[8];
	out->busy_ms = v[9];
	out->queue_ms = v[10];
	out->has_discard = n >= 15;
	out->discard_ios = v[11];
	out->discard_merges = v[12];
	out->discard_ms = v[14];
	out->has_flush = n >= 17;
	out->flush_ios = v[15];
	out->flush_ms = v[16];
	if (bytes_of(v[2], &out->read_bytes) || bytes_of(v[6], &out->write_bytes) ||
	    bytes_of(v[13], &out->discard_bytes))
		return -EINVAL;
	memcpy(name, nm, strlen(nm) + 1);
	return 0;
}

/* A count: one that went back belongs to another device of the same name, and counts 0. */
static uint64_t count_since(uint64_t before, uint64_t after)
{
	return after >= before ? after - before : 0;
}

/* A time in ms, printed in 32 bits by the kernel. */
static uint64_t ms_since(uint64_t before, uint64_t after)
{
	if (after >= before)
		return after - before;
	return before < (1ull << 32) ? (1ull << 32) - before + after : 0;
}

void diskstats_delta(const struct disk_counts *before, const struct disk_counts *after,
		     struct disk_counts *out)
{
	struct disk_counts b = *before, a = *after; /* out may be either */

	out->read_ios = count_since(b.read_ios, a.read_ios);
	out->read_merges = count_since(b.read_merges, a.read_merges);
	out->read_bytes = count_since(b.read_bytes, a.read_bytes);
	out->read_ms = ms_since(b.read_ms, a.read_ms);
	out->write_ios = count_since(b.write_ios, a.write_ios);
	out->write_merges = count_since(b.write_merges, a.write_merges);
	out->write_bytes = count_since(b.write_bytes, a.write_bytes);
	out->write_ms = ms_since(b.write_ms, a.write_ms);
	out->in_flight = a.in_flight;
	out->busy_ms = ms_since(b.busy_ms, a.busy_ms);
	out->queue_ms = ms_since(b.queue_ms, a.queue_ms);
	out->discard_ios = count_since(b.discard_ios, a.discard_ios);
	out->discard_merges = count_since(b.discard_merges, a.discard_merges);
	out->discard_bytes = count_since(b.discard_bytes, a.discard_bytes);
	out->discard_ms = ms_since(b.discard_ms, a.discard_ms);
	out->flush_ios = count_since(b.flush_ios, a.flush_ios);
	out->flush_ms = ms_since(b.flush_ms, a.flush_ms);
	out->has_discard = b.has_discard && a.has_discard;
	out->has_flush = b.has_flush && a.has_flush;
}

/* The devices under one distinct device number among a job's targets. */
struct watch_stack {
	dev_t dev;
	unsigned n;
	unsigned view[DEVICE_STACK_MAX];  /* indexes into the job's views */
};

/* A job watched: its views (its result's devices once filled), and each target's stack. */
struct disk_watch_job {
	struct result *res;
	struct device_view *views;
	unsigned nviews;
	struct watch_stack *stacks;
	unsigned nstacks;
	unsigned *tstack;                /* per target: its stack, or UINT_MAX */
};

void disk_watch_init(struct disk_watch *w)
{
	memset(w, 0, sizeof(*w));
}

void disk_watch_release(struct disk_watch *w)
{
	for (unsigned i = 0; w && i < w->njobs; i++) {
		free(w->jobs[i].views);
		free(w->jobs[i].stacks);
		free(w->jobs[i].tstack);
	}
	if (w) {
		free(w->jobs);
		free(w->dev);
		disk_watch_init(w);
	}
}

/* The watched device called name, added when new; NULL out of memory. */
static struct disk_watch_dev *watch_dev(struct disk_watch *w, const char *name)
{
	struct disk_watch_dev *d;

	for (unsigned i = 0; i < w->ndev; i++)
		if (!strcmp(w->dev[i].name, name))
			return &w->dev[i];
	if (!(d = realloc(w->dev, (w->ndev + 1) * sizeof(*d))))
		return NULL;
	w->dev = d;
	d = &d[w->ndev++];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	return d;
}

/* Node k of s as one of the job's views: its index, or -ENOMEM. */
static int view_of(struct disk_watch *w, struct disk_watch_job *j, const struct device_stack *s,
		   unsigned k)
{
	const struct device_node *node = &s->node[k];
	struct device_view *v;

	for (unsigned i = 0; i < j->nviews; i++)
		if (!strcmp(j->views[i].name, node->name))
			return (int)i;
	if (!watch_dev(w, node->name) ||
	    !(v = realloc(j->views, (j->nviews + 1) * sizeof(*v))))
		return -ENOMEM;
	j->views = v;
	v = &v[j->nviews];
	memset(v, 0, sizeof(*v));
	snprintf(v->name, sizeof(v->name), "%s", node->name);
	v->role = node->role;
	if (node->role != DEVICE_TARGET)
		snprintf(v->of, sizeof(v->of), "%s", s->node[node->of].name);
	return (int)j->nviews++;
}

/* The stack of the devices under dev among the job's, resolved when new: its index. */
static int stack_of(struct disk_watch *w, struct disk_watch_job *j, dev_t dev, const char *path)
{
	struct device_stack s;
	struct watch_stack *ws;
	int r;

	for (unsigned i = 0; i < j->nstacks; i++)
		if (j->stacks[i].dev == dev)
			return (int)i;
	if (!(ws = realloc(j->stacks, (j->nstacks + 1) * sizeof(*ws))))
		return -ENOMEM;
	j->stacks = ws;
	ws = &ws[j->nstacks];
	ws->dev = dev;
	ws->n = 0;
	/* Kept empty when it cannot be resolved, so that it is tried once. */
	if ((r = device_stack(w->env, dev, &s)) && r != -ENODEV)
		result_add_note(j->res, "which block devices are under %s is unknown (%s): they "
				"are not shown", path, strerror(-r));
	for (unsigned k = 0; !r && k < s.n; k++) {
		int v = view_of(w, j, &s, k);

		if (v < 0)
			return v;
		ws->view[ws->n++] = (unsigned)v;
	}
	return (int)j->nstacks++;
}

int disk_watch_add(struct disk_watch *w, struct result *res, const struct target *t,
		   unsigned n)
{
	struct disk_watch_job *j = realloc(w->jobs, (w->njobs + 1) * sizeof(*j));

	if (!j)
		return -ENOMEM;
	w->jobs = j;
	j = &j[w->njobs++];
	memset(j, 0, sizeof(*j));
	j->res = res;
	int r = (j->tstack = calloc(n ? n : 1, sizeof(*j->tstack))) ? 0 : -ENOMEM;

	for (unsigned i = 0; !r && i < n; i++) {
		int k = t[i].fd < 0 ? INT_MAX : stack_of(w, j, t[i].dev, t[i].path);

		if (k < 0)
			r = k;
		else
			j->tstack[i] = k == INT_MAX ? UINT_MAX : (unsigned)k;
	}
	if (!r)
		return 0;
	/* A job half set up would be counted through stacks it does not have: it goes unwatched. */
	free(j->tstack);
	free(j->stacks);
	free(j->views);
	w->njobs--;
	result_add_note(res, "the kernel's counts of the devices are missing: %s", strerror(-r));
	return r;
}

/* One pass over /proc/diskstats: the counters of every watched device, as start or end. */
static int snapshot(struct disk_watch *w, bool end)
{
	FILE *f = fopen(w->path ? w->path : "/proc/diskstats", "r");
	char line[512], name[32];
	struct disk_counts c;

	if (!f)
		return w->error = -errno;
	while (fgets(line, sizeof(line), f)) {
		if (diskstats_parse(line, name, sizeof(name), &c))
			continue;
		for (unsigned i = 0; i < w->ndev; i++) {
			struct disk_watch_dev *d = &w->dev[i];

			if (strcmp(d->name, name))
				continue;
			*(end ? &d->end : &d->start) = c;
			*(end ? &d->ended : &d->started) = true;
		}
	}
	fclose(f);
	return 0;
}

int disk_watch_start(struct disk_watch *w)
{
	w->started = true;
	return w->ndev ? snapshot(w, false) : 0;
}

int disk_watch_end(struct disk_watch *w)
{
	return w->ndev ? snapshot(w, true) : 0;
}

/*
 * The group's window, as result_set_sum() computes it: from its jobs' earliest start to their
 * latest end; one job's is its own.
 */
static double group_seconds(const struct disk_watch *w)
{
	double first = 0, last = 0;

	if (w->njobs == 1)
		return w->jobs[0].res->seconds;
	for (unsigned i = 0; i < w->njobs; i++) {
		const struct result *r = w->jobs[i].res;
		double a = result_window_start(r), b = a + r->seconds;

		first = !i || a < first ? a : first;
		last = !i || b > last ? b : last;
	}
	return last - first;
}

/* iorate's I/O to each target, added to every device under it. */
static void add_ours(struct disk_watch_job *j)
{
	const struct result *r = j->res;

	for (unsigned t = 0; t < r->ntargets; t++) {
		const struct target_result *tr = &r->targets[t];
		const struct watch_stack *s;

		if (j->tstack[t] == UINT_MAX)
			continue;
		s = &j->stacks[j->tstack[t]];
		for (unsigned k = 0; k < s->n; k++) {
			struct device_view *v = &j->views[s->view[k]];

			v->read_ios += tr->read.ios;
			v->write_ios += tr->write.ios;
			v->read_bytes += tr->read.bytes;
			v->write_bytes += tr->write.bytes;
			v->trim_ios += tr->trim.ios;
			v->trim_bytes += tr->trim.bytes;
		}
	}
}

/* A block target's own counts, as the JSON's targets[].kernel has always held them. */
static void target_kernel(struct disk_watch_job *j, const bool *seen)
{
	struct result *r = j->res;

	for (unsigned t = 0; t < r->ntargets; t++) {
		struct target_result *tr = &r->targets[t];
		const struct device_view *v;

		if (!tr->is_blockdev || j->tstack[t] == UINT_MAX || !j->stacks[j->tstack[t]].n ||
		    !seen[j->stacks[j->tstack[t]].view[0]])
			continue;
		v = &j->views[j->stacks[j->tstack[t]].view[0]];
		tr->kernel = (struct kernel_counts){.valid = true, .read_ios = v->disk.read_ios,
						    .write_ios = v->disk.write_ios,
						    .read_bytes = v->disk.read_bytes,
						    .write_bytes = v->disk.write_bytes,
						    .discard_ios = v->disk.discard_ios,
						    .discard_bytes = v->disk.discard_bytes};
		snprintf(tr->kernel.name, sizeof(tr->kernel.name), "%s", tr->device);
	}
}

static const struct disk_watch_dev *watched(const struct disk_watch *w, const char *name)
{
	for (unsigned i = 0; i < w->ndev; i++)
		if (!strcmp(w->dev[i].name, name))
			return w->dev[i].started && w->dev[i].ended ? &w->dev[i] : NULL;
	return NULL;
}

/* Job j's views counted and moved into its result, those the kernel did not list left out. */
static void fill_job(const struct disk_watch *w, struct disk_watch_job *j, double seconds)
{
	bool *seen = calloc(j->nviews ? j->nviews : 1, sizeof(*seen));
	struct result *r = j->res;
	unsigned n = 0;

	if (!seen)
		return;
	add_ours(j);
	for (unsigned i = 0; i < j->nviews; i++) {
		const struct disk_watch_dev *d = watched(w, j->views[i].name);

		if (!(seen[i] = d != NULL))
			continue;
		diskstats_delta(&d->start, &d->end, &j->views[i].disk);
		j->views[i].seconds = seconds;
	}
	target_kernel(j, seen);
	for (unsigned i = 0; i < j->nviews; i++)
		if (seen[i])
			j->views[n++] = j->views[i];
	free(seen);
	free(r->devices);
	r->devices = n ? j->views : NULL;
	r->ndevices = n;
	if (!n)
		free(j->views);
	j->views = NULL;
	j->nviews = 0;
}

void disk_watch_fill(struct disk_watch *w)
{
	double seconds = group_seconds(w);

	for (unsigned i = 0; i < w->njobs; i++) {
		if (w->error)
			result_add_note(w->jobs[i].res, "the kernel's counts of the devices are "
					"missing: /proc/diskstats: %s", strerror(-w->error));
		fill_job(w, &w->jobs[i], seconds);
	}
}
