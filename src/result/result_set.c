#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "result/result_set.h"

void result_set_init(struct result_set *s)
{
	memset(s, 0, sizeof(*s));
	dir_stats_init(&s->total.read);
	dir_stats_init(&s->total.write);
	dir_stats_init(&s->total.trim);
}

static void sum_release(struct result_sum *m)
{
	dir_stats_release(&m->read);
	dir_stats_release(&m->write);
	dir_stats_release(&m->trim);
	free(m->devices);
	free(m->views);
	m->devices = NULL;
	m->ndevices = 0;
	m->views = NULL;
	m->nviews = 0;
}

static void groups_release(struct result_set *s)
{
	for (unsigned g = 0; g < s->ngroups; g++)
		sum_release(&s->groups[g]);
	free(s->groups);
	s->groups = NULL;
	s->ngroups = 0;
	sum_release(&s->total);
}

void result_set_release(struct result_set *s)
{
	if (!s)
		return;
	groups_release(s);
	if (!s->borrowed) {
		for (unsigned i = 0; i < s->njobs; i++)
			result_release(&s->jobs[i]);
		free(s->jobs);
	}
	result_set_init(s);
}

int result_set_take(struct result_set *s, struct result *jobs, unsigned n)
{
	result_set_init(s);
	s->jobs = jobs;
	s->njobs = n;
	return result_set_sum(s);
}

int result_set_view(struct result_set *s, const struct result *jobs, unsigned n)
{
	result_set_init(s);
	s->jobs = (struct result *)jobs;
	s->njobs = n;
	s->borrowed = true;
	return result_set_sum(s);
}

bool result_set_in_group(const struct result_set *s, unsigned i, unsigned g)
{
	return i < s->njobs && g < s->ngroups && s->jobs[i].job.group == s->groups[g].group;
}

const char *result_set_error(const struct result_set *s)
{
	for (unsigned i = 0; i < s->njobs; i++)
		if (result_error(&s->jobs[i]))
			return result_error(&s->jobs[i]);
	return NULL;
}

uint64_t result_set_start_ms(const struct result_set *s)
{
	uint64_t ms = 0;

	for (unsigned i = 0; i < s->njobs; i++)
		if (s->jobs[i].start_unix_ms && (!ms || s->jobs[i].start_unix_ms < ms))
			ms = s->jobs[i].start_unix_ms;
	return ms;
}

/* The device called name in m, added (zeroed) when it is not there yet; NULL out of memory. */
static struct device_counts *device_of(struct result_sum *m, const char *name)
{
	struct device_counts *d;

	for (unsigned i = 0; i < m->ndevices; i++)
		if (!strcmp(m->devices[i].kernel.name, name))
			return &m->devices[i];
	d = realloc(m->devices, (m->ndevices + 1) * sizeof(*d));
	if (!d)
		return NULL;
	m->devices = d;
	d = &d[m->ndevices++];
	memset(d, 0, sizeof(*d));
	d->kernel.valid = true;
	snprintf(d->kernel.name, sizeof(d->kernel.name), "%s", name);
	return d;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/*
 * A job's block devices into its group. Each job's kernel counts cover its own stretch of the
 * group (set-up to finish), and those stretches overlap: the jobs of a group that share a
 * device each saw the others' I/O to it too. So the group keeps the largest count any of its
 * jobs saw (the last job to finish saw everything), not their sum.
 */
static int devices_add(struct result_sum *m, const struct result *r)
{
	for (unsigned t = 0; t < r->ntargets; t++) {
		const struct target_result *tr = &r->targets[t];
		const struct kernel_counts *k = &tr->kernel;
		struct device_counts *d;

		if (!k->valid)
			continue;
		if (!(d = device_of(m, k->name)))
			return -ENOMEM;
		d->kernel.read_ios = max_u64(d->kernel.read_ios, k->read_ios);
		d->kernel.write_ios = max_u64(d->kernel.write_ios, k->write_ios);
		d->kernel.read_bytes = max_u64(d->kernel.read_bytes, k->read_bytes);
		d->kernel.write_bytes = max_u64(d->kernel.write_bytes, k->write_bytes);
		d->kernel.discard_ios = max_u64(d->kernel.discard_ios, k->discard_ios);
		d->kernel.discard_bytes = max_u64(d->kernel.discard_bytes, k->discard_bytes);
		d->read_ios += tr->read.ios;
		d->write_ios += tr->write.ios;
		d->read_bytes += tr->read.bytes;
		d->write_bytes += tr->write.bytes;
		d->trim_ios += tr->trim.ios;
		d->trim_bytes += tr->trim.bytes;
	}
	return 0;
}

/* Groups run one after another: the run's devices add the groups' counts. */
static int devices_total(struct result_sum *total, const struct result_sum *g)
{
	for (unsigned i = 0; i < g->ndevices; i++) {
		const struct device_counts *s = &g->devices[i];
		struct device_counts *d = device_of(total, s->kernel.name);

		if (!d)
			return -ENOMEM;
		d->kernel.read_ios += s->kernel.read_ios;
		d->kernel.write_ios += s->kernel.write_ios;
		d->kernel.read_bytes += s->kernel.read_bytes;
		d->kernel.write_bytes += s->kernel.write_bytes;
		d->kernel.discard_ios += s->kernel.discard_ios;
		d->kernel.discard_bytes += s->kernel.discard_bytes;
		d->read_ios += s->read_ios;
		d->write_ios += s->write_ios;
		d->read_bytes += s->read_bytes;
		d->write_bytes += s->write_bytes;
		d->trim_ios += s->trim_ios;
		d->trim_bytes += s->trim_bytes;
	}
	return 0;
}

/* The view of the device called name in m, NULL when m has none. */
static struct device_view *view_in(const struct result_sum *m, const char *name)
{
	for (unsigned i = 0; i < m->nviews; i++)
		if (!strcmp(m->views[i].name, name))
			return &m->views[i];
	return NULL;
}

/* v appended to m (its kernel counts, window and role as they are), iorate's counts zero. */
static struct device_view *view_add(struct result_sum *m, const struct device_view *v)
{
	struct device_view *a = realloc(m->views, (m->nviews + 1) * sizeof(*a));

	if (!a)
		return NULL;
	m->views = a;
	a = &a[m->nviews++];
	*a = *v;
	a->read_ios = a->write_ios = a->read_bytes = a->write_bytes = 0;
	a->trim_ios = a->trim_bytes = 0;
	return a;
}

/* iorate's own counts of a device view added to another's. */
static void view_counts_add(struct device_view *d, const struct device_view *v)
{
	d->read_ios += v->read_ios;
	d->write_ios += v->write_ios;
	d->read_bytes += v->read_bytes;
	d->write_bytes += v->write_bytes;
	d->trim_ios += v->trim_ios;
	d->trim_bytes += v->trim_bytes;
}

/*
 * A job's devices into its group. Every job of a group holds the group's counts for the devices
 * under its own targets (one pair of snapshots), so a device shared by several jobs is counted
 * once, with the first job's counts; iorate's I/O to it is each job's added.
 */
static int views_add(struct result_sum *m, const struct result *r)
{
	for (unsigned i = 0; i < r->ndevices; i++) {
		const struct device_view *v = &r->devices[i];
		struct device_view *d = view_in(m, v->name);

		if (!d && !(d = view_add(m, v)))
			return -ENOMEM;
		view_counts_add(d, v);
	}
	return 0;
}

static void disk_counts_add(struct disk_counts *d, const struct disk_counts *s)
{
	d->read_ios += s->read_ios;
	d->read_merges += s->read_merges;
	d->read_bytes += s->read_bytes;
	d->read_ms += s->read_ms;
	d->write_ios += s->write_ios;
	d->write_merges += s->write_merges;
	d->write_bytes += s->write_bytes;
	d->write_ms += s->write_ms;
	d->in_flight = s->in_flight; /* at the end of the last group */
	d->busy_ms += s->busy_ms;
	d->queue_ms += s->queue_ms;
	d->discard_ios += s->discard_ios;
	d->discard_merges += s->discard_merges;
	d->discard_bytes += s->discard_bytes;
	d->discard_ms += s->discard_ms;
	d->flush_ios += s->flush_ios;
	d->flush_ms += s->flush_ms;
	d->has_discard = d->has_discard && s->has_discard;
	d->has_flush = d->has_flush && s->has_flush;
}

/* Groups run one after another: the run's devices add the groups' counts and windows. */
static int views_total(struct result_sum *total, const struct result_sum *g)
{
	for (unsigned i = 0; i < g->nviews; i++) {
		const struct device_view *v = &g->views[i];
		struct device_view *d = view_in(total, v->name);

		if (!d) {
			if (!(d = view_add(total, v)))
				return -ENOMEM;
			memset(&d->disk, 0, sizeof(d->disk));
			d->disk.has_discard = v->disk.has_discard;
			d->disk.has_flush = v->disk.has_flush;
			d->seconds = 0;
		}
		disk_counts_add(&d->disk, &v->disk);
		d->seconds += v->seconds;
		view_counts_add(d, v);
	}
	return 0;
}

/* Group m (its number set) from the jobs of that number. */
static int group_sum(const struct result_set *s, struct result_sum *m)
{
	double first = 0, last = 0;
	int rc = 0;

	dir_stats_init(&m->read);
	dir_stats_init(&m->write);
	dir_stats_init(&m->trim);
	for (unsigned i = 0; i < s->njobs && !rc; i++) {
		const struct result *r = &s->jobs[i];

		if (r->job.group != m->group)
			continue;
		m->njobs++;
		if (!r->started)
			continue;
		double a = result_window_start(r), b = a + r->seconds;

		first = !m->nstarted || a < first ? a : first;
		last = !m->nstarted || b > last ? b : last;
		if (!m->nstarted++)
			m->cpu = r->cpu; /* the group's, as every job of it holds */
		m->interrupted |= r->interrupted;
		if (!(rc = dir_stats_merge(&m->read, &r->read)) &&
		    !(rc = dir_stats_merge(&m->write, &r->write)) &&
		    !(rc = dir_stats_merge(&m->trim, &r->trim)) && !(rc = devices_add(m, r)))
			rc = views_add(m, r);
	}
	m->seconds = m->nstarted ? last - first : 0;
	return rc;
}

/* The total's CPU: each group's share of the run's time. */
static void cpu_weigh(struct cpu_usage *c, const struct cpu_usage *g, double w)
{
	c->ncpus = g->ncpus > c->ncpus ? g->ncpus : c->ncpus;
	c->user += g->user * w;
	c->system += g->system * w;
	c->iowait += g->iowait * w;
	c->idle += g->idle * w;
	c->proc_user += g->proc_user * w;
	c->proc_system += g->proc_system * w;
}

/* The groups' numbers, ascending and distinct, into s->groups (allocated). */
static int groups_number(struct result_set *s)
{
	unsigned n = 0;

	s->groups = calloc(s->njobs ? s->njobs : 1, sizeof(*s->groups));
	if (!s->groups)
		return -ENOMEM;
	for (unsigned i = 0; i < s->njobs; i++) {
		unsigned g = s->jobs[i].job.group, k = 0;

		while (k < n && s->groups[k].group < g)
			k++;
		if (k < n && s->groups[k].group == g)
			continue;
		memmove(&s->groups[k + 1], &s->groups[k], (n - k) * sizeof(*s->groups));
		memset(&s->groups[k], 0, sizeof(*s->groups));
		s->groups[k].group = g;
		n++;
	}
	s->ngroups = n;
	return 0;
}

int result_set_sum(struct result_set *s)
{
	struct result_sum *t = &s->total;
	int rc;

	groups_release(s);
	memset(t, 0, sizeof(*t));
	dir_stats_init(&t->read);
	dir_stats_init(&t->write);
	dir_stats_init(&t->trim);
	/* One job is its own result: nothing to add up. */
	if (s->njobs < 2)
		return 0;
	if ((rc = groups_number(s)))
		return rc;
	for (unsigned g = 0; g < s->ngroups; g++)
		if ((rc = group_sum(s, &s->groups[g])))
			return rc;
	t->group = s->ngroups;
	for (unsigned g = 0; g < s->ngroups; g++) {
		const struct result_sum *m = &s->groups[g];

		t->njobs += m->njobs;
		t->nstarted += m->nstarted;
		t->seconds += m->seconds;
		t->interrupted |= m->interrupted;
		if ((rc = dir_stats_merge(&t->read, &m->read)) ||
		    (rc = dir_stats_merge(&t->write, &m->write)) ||
		    (rc = dir_stats_merge(&t->trim, &m->trim)) || (rc = devices_total(t, m)) ||
		    (rc = views_total(t, m)))
			return rc;
	}
	for (unsigned g = 0; g < s->ngroups && t->seconds > 0; g++)
		cpu_weigh(&t->cpu, &s->groups[g].cpu, s->groups[g].seconds / t->seconds);
	return 0;
}
