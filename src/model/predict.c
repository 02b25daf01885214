/*
 * The performance model. Every cap is turned into the IOPS the workload would reach were that cap
 * the only one; the prediction is the smallest, and the cap that gives it is the one that binds.
 * Who counts what (host-cache hits, misses, writes; PD's per-VM baseline) follows docs/model.md.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/predict.h"

#define MB 1e6

/* How one I/O of the volume reaches a group of disks and the VM's limits. */
struct group_load {
	double share;           /* of the volume's I/Os that land on the group (count / n) */
	double hit;             /* of its reads, served by the host cache */
	double disk_r, disk_w;  /* reads and writes per I/O that count at its disks */
	double unc, cached;     /* per I/O, counted at the VM's uncached and cached limits */
	double ops;             /* requests per I/O at a disk (I/O unit and stripe pieces) */
	double lat_ms;          /* mean latency of one I/O on the group, with no queue */
};

struct load {
	double bs, rf, wf, pieces, piece, vm_ops, unc_share;
	unsigned n;
	struct group_load g[MODEL_MAX_GROUPS];
	/* The VM's caps each group meets; groups meeting the same column share it. */
	struct model_vm_column col[MODEL_MAX_GROUPS];
	bool has_col[MODEL_MAX_GROUPS];
	unsigned col_first[MODEL_MAX_GROUPS];   /* the first group of the same column */
	double col_share[MODEL_MAX_GROUPS];     /* at the first: the I/O counted at the column */
};

double model_ops_per_io(double bs, double unit)
{
	return unit > 0 ? ceil(bs / unit) : 1;
}

static bool has_cached_cap(const struct cat_vm *vm)
{
	return vm->cached_iops > 0 || vm->cached_mbps > 0;
}

static void add_note(struct model_result *r, struct model_note n)
{
	if (r->nnotes < sizeof(r->notes) / sizeof(r->notes[0]))
		r->notes[r->nnotes++] = n;
}

static void add_limit(struct model_result *r, const char *name, double iops, double bs,
		      double cap, const char *source, struct model_detail detail)
{
	struct model_limit *l;

	if (!(iops > 0) || !isfinite(iops) || r->nlimits >= MODEL_MAX_LIMITS)
		return;
	l = &r->limits[r->nlimits++];
	l->name = name;
	l->iops = iops;
	l->mbps = iops * bs / MB;
	l->cap = cap;
	l->source = source ? source : "";
	l->detail = detail;
}

/* T <= cap / (fraction x ops): the IOPS a cap on part of the traffic allows. */
static double share(double cap, double frac, double ops)
{
	return frac > 0 && cap > 0 ? cap / (frac * ops) : INFINITY;
}

/* ms to move bytes at mbps (MB/s); a rate of 0 moves nothing. */
static double xfer_ms(double bytes, double mbps)
{
	return mbps > 0 ? bytes / (mbps * MB) * 1000 : 0;
}

/*
 * One I/O's latency on a group, with no queue: each request (a stripe piece) takes the disk's
 * service time plus its transfer at one request's rate. A hit is served by the host cache; a
 * write goes to storage (replicated), or only to the cache with readwrite caching.
 */
static double group_latency(const struct model_config *m, const struct model_disk *d,
			    const struct load *l, double hit)
{
	const struct cat_vm *vm = m->vm;
	double rate = d->xfer_mbps > 0 ? d->xfer_mbps : d->mbps;
	double crate = d->xfer_cached_mbps > 0 ? d->xfer_cached_mbps :
		       vm->cached_mbps > 0 ? vm->cached_mbps : rate;
	double miss = d->lat_read_ms + xfer_ms(l->piece, rate);
	double hitl = d->lat_cached_ms + xfer_ms(l->piece, crate);
	double write = d->cache == MODEL_CACHE_READWRITE ? hitl :
		       d->lat_write_ms + xfer_ms(l->piece, rate);

	return l->rf * (hit * hitl + (1 - hit) * miss) + l->wf * write;
}

/* Who counts each I/O of the volume, group by group (docs/model.md, "Host caching"). */
static void compute_load(const struct model_config *m, const struct model_workload *w,
			 struct load *l)
{
	const struct cat_vm *vm = m->vm;
	double unit = m->interleave ? (double)m->interleave : MODEL_INTERLEAVE;
	struct model_hit hit;

	memset(l, 0, sizeof(*l));
	model_read_hit(m, w, &hit);
	l->bs = (double)w->bs;
	l->wf = w->write_pct / 100.0;
	l->rf = 1 - l->wf;
	for (unsigned i = 0; i < m->ngroups; i++)
		l->n += m->disks[i].count;
	/* A stripe splits an I/O into interleave-sized requests, sent to the members at once. */
	l->pieces = l->n > 1 && l->bs > unit ? ceil(l->bs / unit) : 1;
	l->piece = l->pieces > 1 ? unit : l->bs;
	l->vm_ops = l->pieces * model_ops_per_io(l->piece, vm->io_unit_kib * 1024);
	for (unsigned i = 0; i < m->ngroups; i++) {
		const struct model_disk *d = &m->disks[i];
		struct group_load *g = &l->g[i];
		bool cached = d->cache != MODEL_CACHE_NONE && d->cache != MODEL_CACHE_DEFAULT;
		bool at_disk = d->type && d->type->hits_count_against_disk;

		g->share = (double)d->count / l->n;
		g->hit = cached ? hit.pct / 100 : 0;
		g->disk_r = l->rf * (cached && !at_disk ? 1 - g->hit : 1);
		g->disk_w = l->wf;
		/* 2015: all I/O of a cached disk counted at the cached limit; now misses and
		 * writes count at both, hits at the cached one only (or, unpublished, uncached). */
		g->unc = !cached ? 1 : at_disk ? 0 : has_cached_cap(vm) ? g->disk_r + l->wf : 1;
		g->cached = cached && has_cached_cap(vm) ? 1 : 0;
		g->ops = l->pieces * model_ops_per_io(l->piece, d->io_unit);
		g->lat_ms = group_latency(m, d, l, g->hit);
		l->unc_share += g->share * g->unc;
	}
	for (unsigned i = 0; i < m->ngroups; i++) {
		const char *fam = m->disks[i].type ? m->disks[i].type->family : NULL;

		l->has_col[i] = fam && !model_vm_column(m, fam, &l->col[i]);
		l->col_first[i] = i;
		/* One column, one cap for all its groups; groups without one, by family. */
		for (unsigned k = 0; k < i; k++)
			if (l->has_col[k] == l->has_col[i] && (l->has_col[i] ?
			    l->col[k].row == l->col[i].row :
			    fam && !strcasecmp(m->disks[k].type->family, fam))) {
				l->col_first[i] = k;
				break;
			}
		l->col_share[l->col_first[i]] += l->g[i].share * l->g[i].unc;
	}
}

int model_vm_column(const struct model_config *m, const char *family,
		    struct model_vm_column *col)
{
	const struct cat_vm *vm = m->vm;
	const struct cat_family_caps *fc = catalog_vm_column(vm, family, m->controller);

	if (fc) {
		*col = (struct model_vm_column){.row = fc, .iops = fc->iops,
			.write_iops = fc->write_iops, .mbps = fc->mbps, .write_mbps = fc->write_mbps,
			.burst_iops = fc->burst_iops, .burst_mbps = fc->burst_mbps, .mib = fc->mib,
			.source = fc->source ? fc->source : vm->source};
		return 0;
	}
	*col = (struct model_vm_column){.iops = vm->uncached_iops, .mbps = vm->uncached_mbps,
		.burst_iops = vm->burst_iops, .burst_mbps = vm->burst_mbps, .mib = vm->uncached_mib,
		.source = vm->uncached_source ? vm->uncached_source : vm->source};
	return vm->uncached_iops > 0 || vm->uncached_mbps > 0 ? 0 : -ENOENT;
}

/* Whether a column bursts above its caps (a bucket of the VM's burst_seconds at full burst). */
static bool col_bursts(const struct cat_vm *vm, const struct model_vm_column *c)
{
	return vm->burst_seconds > 0 && (c->burst_iops > c->iops || c->burst_mbps > c->mbps);
}

/* The mean latency of one I/O of the volume, with no queue. */
static double volume_latency(const struct model_config *m, const struct load *l)
{
	double lat = 0;

	for (unsigned i = 0; i < m->ngroups; i++)
		lat = l->pieces > 1 ? fmax(lat, l->g[i].lat_ms) : lat + l->g[i].share * l->g[i].lat_ms;
	return lat;
}

static void local_limits(const struct model_config *m, const struct model_workload *w,
			 struct model_result *r)
{
	const struct cat_vm *vm = m->vm;
	const struct model_disk *d = &m->disks[0];
	const char *src = vm->local_source ? vm->local_source : vm->source;
	double bs = (double)w->bs, wf = w->write_pct / 100.0, rf = 1 - wf;
	double out = (double)w->threads * w->depth;
	double lat = rf * (d->lat_read_ms + xfer_ms(bs, d->mbps)) +
		     wf * (d->lat_write_ms + xfer_ms(bs, d->write_mbps > 0 ? d->write_mbps : d->mbps));

	add_limit(r, "local_iops", d->iops, bs, d->iops, src, (struct model_detail){
		  .kind = MODEL_DETAIL_LOCAL_IOPS, .name = vm->name, .a = d->iops});
	if (d->write_mbps > 0) {
		add_limit(r, "local_mbps", fmin(share(d->mbps * MB / bs, rf, 1),
						share(d->write_mbps * MB / bs, wf, 1)), bs, d->mbps,
			  src, (struct model_detail){.kind = MODEL_DETAIL_LOCAL_MBPS,
			  .name = vm->name, .a = d->mbps, .b = d->write_mbps});
	} else {
		add_limit(r, "local_mbps", d->mbps * MB / bs, bs, d->mbps, src, (struct model_detail){
			  .kind = MODEL_DETAIL_LOCAL_MBPS, .name = vm->name, .a = d->mbps});
	}
	add_limit(r, "queue_depth", out / (lat / 1000), bs, out,
		  vm->local_latency_source ? vm->local_latency_source : src, (struct model_detail){
		  .kind = MODEL_DETAIL_QUEUE, .n = w->threads, .k = w->depth, .a = lat});
	r->service_ms = lat;
}

/*
 * Who sets a stripe's pace: the members of d's type and caps (k of all l->n), in a detail of
 * kind with the figure a.
 */
static struct model_detail pace(const struct model_config *m, const struct load *l,
				const struct model_disk *d, enum model_detail_kind kind, double a)
{
	unsigned k = 0;

	for (unsigned i = 0; i < m->ngroups; i++)
		if (m->disks[i].type == d->type && m->disks[i].iops == d->iops &&
		    m->disks[i].mbps == d->mbps)
			k += m->disks[i].count;
	return (struct model_detail){.kind = kind, .name = d->type->name, .n = l->n, .k = k,
				     .a = a};
}

/* The disks' own caps, group by group; the slowest member sets the stripe's pace. */
static void disk_limits(const struct model_config *m, const struct load *l, bool burst,
			struct model_result *r)
{
	double best_i = INFINITY, best_m = INFINITY, cap_i = 0, cap_m = 0;
	const struct model_disk *si = NULL, *sm = NULL;
	struct model_detail dt;

	for (unsigned i = 0; i < m->ngroups; i++) {
		const struct model_disk *d = &m->disks[i];
		const struct group_load *g = &l->g[i];
		bool b = burst && d->burst_iops > 0;
		double iops = b ? d->burst_iops : d->iops;
		double mbps = b ? fmax(d->burst_mbps, d->mbps) : d->mbps;
		double ti, tm;

		if (d->type->baseline_per_vm)
			continue; /* shared by the VM's disks of the type: family_limits() */
		ti = d->write_iops > 0 ? fmin(share(l->n * iops, g->disk_r, g->ops),
					      share(l->n * d->write_iops, g->disk_w, g->ops)) :
			share(l->n * iops, g->disk_r + g->disk_w, g->ops);
		tm = share(l->n * mbps * MB / l->bs, g->disk_r + g->disk_w, 1);
		if (ti < best_i)
			best_i = ti, cap_i = iops, si = d;
		if (tm < best_m)
			best_m = tm, cap_m = mbps, sm = d;
	}
	if (si) {
		dt = pace(m, l, si, MODEL_DETAIL_DISK_IOPS, cap_i);
		dt.flags = (burst && si->burst_iops > 0 ? MODEL_DETAIL_BURST : 0) |
			   (l->g[si - m->disks].ops > 1 ? MODEL_DETAIL_SEVERAL : 0) |
			   (l->g[si - m->disks].disk_r < l->rf ? MODEL_DETAIL_HITS_SPARE : 0);
		add_limit(r, "disk_iops", best_i, l->bs, cap_i * l->n, si->type->source, dt);
	}
	if (sm) {
		dt = pace(m, l, sm, MODEL_DETAIL_DISK_MBPS, model_mbps_in_unit(sm->type, cap_m));
		dt.unit = model_mbps_unit(sm->type);
		dt.flags = burst && sm->burst_mbps > sm->mbps ? MODEL_DETAIL_BURST : 0;
		add_limit(r, "disk_mbps", best_m, l->bs, cap_m * l->n, sm->type->source, dt);
	}
}

/* GCP Persistent Disk: one baseline per VM and type, plus per GiB of all its disks of the type. */
static void family_limits(const struct model_config *m, const struct load *l,
			  struct model_result *r)
{
	for (unsigned i = 0; i < m->ngroups; i++) {
		const struct cat_disk *t = m->disks[i].type;
		const struct group_load *g = &l->g[i];
		double gib = 0, iops = 0, wiops = 0, mbps = 0, sh = 0;
		bool first = true;

		if (!t->baseline_per_vm)
			continue;
		for (unsigned k = 0; k < m->ngroups; k++) {
			const struct model_disk *d = &m->disks[k];

			if (d->type != t)
				continue;
			first &= k >= i;
			gib += d->count * d->gib;
			iops += d->count * d->iops;
			wiops += d->count * d->write_iops;
			mbps += d->count * d->mbps;
			sh += l->g[k].share;
		}
		if (!first)
			continue;
		iops = fmin(t->iops + iops, t->iops_max > 0 ? t->iops_max : INFINITY);
		mbps = fmin(t->mbps + mbps, t->mbps_max > 0 ? t->mbps_max : INFINITY);
		add_limit(r, "disk_iops", wiops > 0 ? fmin(share(iops, sh * g->disk_r, g->ops),
							   share(wiops, sh * g->disk_w, g->ops)) :
			  share(iops, sh * (g->disk_r + g->disk_w), g->ops), l->bs, iops, t->source,
			  (struct model_detail){.kind = MODEL_DETAIL_POOL_IOPS, .name = t->name,
			  .a = t->iops, .b = t->iops_per_gib, .c = gib});
		add_limit(r, "disk_mbps", share(mbps * MB / l->bs, sh * (g->disk_r + g->disk_w), 1),
			  l->bs, mbps, t->source, (struct model_detail){
			  .kind = MODEL_DETAIL_POOL_MBPS, .name = t->name,
			  .a = model_mbps_in_unit(t, mbps), .unit = model_mbps_unit(t), .c = gib});
	}
}

/*
 * The VM's uncached limits, each column over the share of I/O that counts at it: the caps of
 * a family's own column (GCP's per disk type, Azure's Premium SSD v2 and Ultra Disk, the NVMe
 * controller's), else the VM's uncached caps. A bursting column gives its burst caps.
 */
static void vm_column_limits(const struct model_config *m, const struct load *l, bool burst,
			     struct model_result *r)
{
	const struct cat_vm *vm = m->vm;

	for (unsigned i = 0; i < m->ngroups; i++) {
		const struct model_vm_column *c = &l->col[i];
		double sh = l->col_share[i];

		if (l->col_first[i] != i)
			continue;
		if (!l->has_col[i]) {
			/* GCP's caps are by disk type; a machine type with none (N4) has none. */
			if (vm->nfcaps || (vm->provider && !strcmp(vm->provider, "gcp")))
				add_note(r, (struct model_note){.kind = MODEL_NOTE_NO_VM_LIMIT,
					 .vm = vm->name, .family = m->disks[i].type->family});
			continue;
		}
		bool b = burst && col_bursts(vm, c);
		double ci = b ? fmax(c->burst_iops, c->iops) : c->iops;
		double cm = b ? fmax(c->burst_mbps, c->mbps) : c->mbps;
		double wi = c->write_iops > 0 ? c->write_iops : ci;
		double wm = c->write_mbps > 0 ? c->write_mbps : cm;
		double ti = c->write_iops > 0 ?
			fmin(share(ci, sh * l->rf, l->vm_ops), share(wi, sh * l->wf, l->vm_ops)) :
			share(ci, sh, l->vm_ops);
		double tm = c->write_mbps > 0 ?
			fmin(share(cm * MB / l->bs, sh * l->rf, 1), share(wm * MB / l->bs, sh * l->wf, 1)) :
			share(cm * MB / l->bs, sh, 1);
		double u = c->mib ? 1.048576 : 1;
		/* GCP: a read and a write figure per disk type. */
		unsigned rw = c->row && !c->row->column ? MODEL_DETAIL_READ_WRITE : 0;
		unsigned fl = rw ? rw : b ? MODEL_DETAIL_BURST : 0;

		add_limit(r, "vm_uncached_iops", ti, l->bs, ci, c->source, (struct model_detail){
			  .kind = MODEL_DETAIL_VM_IOPS, .flags = fl, .name = vm->name,
			  .column = c->row, .a = ci, .b = wi});
		add_limit(r, "vm_uncached_mbps", tm, l->bs, cm, c->source, (struct model_detail){
			  .kind = MODEL_DETAIL_VM_MBPS, .flags = fl, .name = vm->name,
			  .column = c->row, .a = cm / u, .b = wm / u,
			  .unit = c->mib ? "MiB/s" : "MB/s"});
	}
}

/* The VM's uncached and cached limits, each over the share of I/O that counts at it. */
static void vm_limits(const struct model_config *m, const struct load *l, bool burst,
		      struct model_result *r)
{
	const struct cat_vm *vm = m->vm;
	double csh = 0;

	vm_column_limits(m, l, burst, r);
	for (unsigned i = 0; i < m->ngroups; i++)
		csh += l->g[i].share * l->g[i].cached;
	if (csh <= 0)
		return;
	add_limit(r, "vm_cached_iops", share(vm->cached_iops, csh, l->vm_ops), l->bs,
		  vm->cached_iops, vm->source, (struct model_detail){
		  .kind = MODEL_DETAIL_CACHED_IOPS, .name = vm->name, .a = vm->cached_iops});
	add_limit(r, "vm_cached_mbps", share(vm->cached_mbps * MB / l->bs, csh, 1), l->bs,
		  vm->cached_mbps, vm->source, (struct model_detail){
		  .kind = MODEL_DETAIL_CACHED_MBPS, .name = vm->name,
		  .a = vm->cached_mib ? vm->cached_mbps / 1.048576 : vm->cached_mbps,
		  .unit = vm->cached_mib ? "MiB/s" : "MB/s"});
}

/* What the model assumed about the host cache, said once per prediction. */
static void cache_notes(const struct model_config *m, const struct load *l,
			struct model_result *r)
{
	bool any = false, at_disk = false, hits = false;

	for (unsigned i = 0; i < m->ngroups; i++) {
		const struct model_disk *d = &m->disks[i];

		hits |= l->g[i].hit > 0;
		if (d->local || d->cache == MODEL_CACHE_NONE || d->cache == MODEL_CACHE_DEFAULT)
			continue;
		any = true;
		at_disk |= d->type->hits_count_against_disk;
	}
	if (!any || l->rf <= 0)
		return;
	if (at_disk)
		add_note(r, (struct model_note){.kind = MODEL_NOTE_HITS_AT_DISK});
	if (!has_cached_cap(m->vm) && hits)
		add_note(r, (struct model_note){.kind = MODEL_NOTE_NO_CACHED_LIMIT,
			 .vm = m->vm->name});
	double gib = 0;
	for (unsigned i = 0; i < m->ngroups; i++)
		gib += m->disks[i].count * m->disks[i].gib;
	/* Its hits were worked out for data the disks cannot hold: say so rather than hide it. */
	if (!m->read_hit_set && gib > 0 && m->working_set > gib * 1073741824.0)
		add_note(r, (struct model_note){.kind = MODEL_NOTE_WS_OVER_VOLUME,
			 .a = m->working_set / 1073741824.0, .b = gib});
}

/* One steady state: the caps in force (with or without burst credits) turned into limits. */
static void solve(const struct model_config *m, const struct model_workload *w, bool disk_burst,
		  bool vm_burst, struct model_result *r)
{
	double out = (double)w->threads * w->depth;
	struct load l;

	r->nlimits = 0;
	r->nnotes = 0;
	if (m->disks[0].local) {
		local_limits(m, w, r);
		goto pick;
	}
	compute_load(m, w, &l);
	disk_limits(m, &l, disk_burst, r);
	family_limits(m, &l, r);
	vm_limits(m, &l, vm_burst, r);
	if (m->account) {
		const struct group_load *g = NULL;
		double sh = 0;

		for (unsigned i = 0; i < m->ngroups; i++)
			if (m->disks[i].type->account) {
				g = &l.g[i];
				sh += g->share * (g->disk_r + g->disk_w);
			}
		add_limit(r, "account_iops", share(m->account->iops, sh, g ? g->ops : 1), l.bs,
			  m->account->iops, m->account->source, (struct model_detail){
			  .kind = MODEL_DETAIL_ACCOUNT_IOPS, .name = m->account->name,
			  .a = m->account->iops});
	}
	r->service_ms = volume_latency(m, &l);
	add_limit(r, "queue_depth", out / (r->service_ms / 1000), l.bs, out,
		  m->disks[0].type->latency_source ? m->disks[0].type->latency_source :
		  m->disks[0].type->source, (struct model_detail){.kind = MODEL_DETAIL_QUEUE,
		  .n = w->threads, .k = w->depth, .a = r->service_ms});
	cache_notes(m, &l, r);
pick:
	r->iops = INFINITY;
	for (unsigned i = 0; i < r->nlimits; i++)
		if (r->limits[i].iops < r->iops * (1 - 1e-9)) {
			r->iops = r->limits[i].iops;
			r->binding = r->limits[i].name;
			r->binding_limit = i;
		}
	r->mbps = r->iops * (double)w->bs / MB;
	/* Little's law: with the cap holding the rate, the queue waits. */
	r->latency_ms = fmax(r->service_ms, out / r->iops * 1000);
}

struct credits {
	double disk_ios[MODEL_MAX_GROUPS], disk_mb[MODEL_MAX_GROUPS];
	double vm_ios[MODEL_MAX_GROUPS], vm_mb[MODEL_MAX_GROUPS];   /* per column (first group) */
	double drain_d[MODEL_MAX_GROUPS][2], drain_v[MODEL_MAX_GROUPS][2];
};

/* Whether group i holds a bursting column's bucket (its first group). */
static bool col_bucket(const struct model_config *m, const struct load *l, unsigned i)
{
	return l->col_first[i] == i && l->has_col[i] && col_bursts(m->vm, &l->col[i]);
}

/* A drain worth ending a phase for: above rounding, relative to the cap it is over. */
static bool draining(double drain, double cap)
{
	return drain > 1e-9 * fmax(1, cap);
}

/* How fast each bucket drains at rate T (I/Os of the volume per second); the phase's length. */
static double drains(const struct model_config *m, const struct load *l, double T, bool db,
		     bool vb, struct credits *cr, double step)
{
	for (unsigned i = 0; i < m->ngroups && db; i++) {
		const struct model_disk *d = &m->disks[i];
		const struct group_load *g = &l->g[i];
		double per = T * (g->disk_r + g->disk_w) / l->n;

		cr->drain_d[i][0] = per * g->ops - d->iops;
		cr->drain_d[i][1] = per * l->bs / MB - d->mbps;
		if (cr->drain_d[i][0] > 1e-9 && cr->disk_ios[i] > 0)
			step = fmin(step, cr->disk_ios[i] / cr->drain_d[i][0]);
		if (cr->drain_d[i][1] > 1e-9 && cr->disk_mb[i] > 0)
			step = fmin(step, cr->disk_mb[i] / cr->drain_d[i][1]);
	}
	for (unsigned i = 0; i < m->ngroups && vb; i++) {
		const struct model_vm_column *c = &l->col[i];

		if (!col_bucket(m, l, i))
			continue;
		/* The rate above a column's caps drains its bucket. */
		cr->drain_v[i][0] = T * l->col_share[i] * l->vm_ops - c->iops;
		cr->drain_v[i][1] = T * l->col_share[i] * l->bs / MB - c->mbps;
		if (draining(cr->drain_v[i][0], c->iops) && c->iops > 0)
			step = fmin(step, cr->vm_ios[i] / cr->drain_v[i][0]);
		if (draining(cr->drain_v[i][1], c->mbps) && c->mbps > 0)
			step = fmin(step, cr->vm_mb[i] / cr->drain_v[i][1]);
	}
	return step;
}

/* Spends a phase's credit; says which buckets emptied. */
static void spend(const struct model_config *m, const struct load *l, struct credits *cr,
		  double step, bool *db, bool *vb)
{
	bool empty_d = false, empty_v = false;

	for (unsigned i = 0; i < m->ngroups && *db; i++) {
		cr->disk_ios[i] -= fmax(0, cr->drain_d[i][0]) * step;
		cr->disk_mb[i] -= fmax(0, cr->drain_d[i][1]) * step;
		empty_d |= (cr->drain_d[i][0] > 1e-9 && cr->disk_ios[i] <= 1e-6) ||
			   (cr->drain_d[i][1] > 1e-9 && cr->disk_mb[i] <= 1e-6);
	}
	for (unsigned i = 0; i < m->ngroups && *vb; i++) {
		if (!col_bucket(m, l, i))
			continue;
		cr->vm_ios[i] -= fmax(0, cr->drain_v[i][0]) * step;
		cr->vm_mb[i] -= fmax(0, cr->drain_v[i][1]) * step;
		empty_v |= (l->col[i].iops > 0 && draining(cr->drain_v[i][0], l->col[i].iops) &&
			    cr->vm_ios[i] <= 1e-6) ||
			   (l->col[i].mbps > 0 && draining(cr->drain_v[i][1], l->col[i].mbps) &&
			    cr->vm_mb[i] <= 1e-6);
	}
	*db = *db && !empty_d;
	*vb = *vb && !empty_v;
	if (!empty_d && !empty_v)
		*db = *vb = false; /* rounding left a crumb of credit: treat it as spent */
}

/*
 * Walks the run through its burst phases: in each, the model gives the rate; the rate above the
 * sustained caps drains the credit buckets; when one empties, that burst ends. A VM column's
 * bucket holds burst_seconds at its full burst rate (Azure: 30 minutes) and starts full; a
 * steady workload never runs below the caps while a bucket is short, so none refills here
 * (the emulator's throttle refills them: docs/model.md, "Bursting").
 */
static void timeline(const struct model_config *m, const struct model_workload *w,
		     double duration, struct model_result *r)
{
	const struct cat_vm *vm = m->vm;
	struct model_result tmp;
	struct credits cr = {0};
	struct load l;
	bool db = false, vb = false;
	double t = 0, sum_i = 0;

	compute_load(m, w, &l);
	for (unsigned i = 0; i < m->ngroups; i++) {
		const struct model_vm_column *c = &l.col[i];

		cr.disk_ios[i] = m->disks[i].bucket_ios;
		cr.disk_mb[i] = m->disks[i].bucket_mb;
		db |= m->disks[i].burst_iops > 0;
		if (!col_bucket(m, &l, i))
			continue;
		vb = true;
		cr.vm_ios[i] = vm->burst_seconds * fmax(0, c->burst_iops - c->iops);
		cr.vm_mb[i] = vm->burst_seconds * fmax(0, c->burst_mbps - c->mbps);
	}
	r->nphases = 0;
	while (t < duration && r->nphases < 8) {
		double step;
		bool last;

		solve(m, w, db, vb, &tmp);
		step = drains(m, &l, tmp.iops, db, vb, &cr, duration - t);
		last = step >= duration - t - 1e-9;
		r->phases[r->nphases++] = (struct model_phase){
			.start_s = t, .end_s = t + step, .iops = tmp.iops, .mbps = tmp.mbps,
			.binding = tmp.binding};
		sum_i += tmp.iops * step;
		t += step;
		if (last)
			break;
		spend(m, &l, &cr, step, &db, &vb);
	}
	r->duration_s = duration;
	r->avg_iops = t > 0 ? sum_i / t : 0;
	r->avg_mbps = r->avg_iops * (double)w->bs / MB;
}

int model_predict(const struct model_config *m, const struct model_workload *w, double duration_s,
		  struct model_result *r)
{
	struct model_result start;

	memset(r, 0, sizeof(*r));
	if (!m->vm || !m->ngroups || !w->bs || !w->threads || !w->depth || w->write_pct > 100)
		return -EINVAL;
	solve(m, w, false, false, r);
	solve(m, w, true, true, &start);
	if (start.iops > r->iops * 1.0001) {
		struct model_result tl;

		r->bursts = true;
		r->burst_iops = start.iops;
		r->burst_mbps = start.mbps;
		r->burst_binding = start.binding;
		timeline(m, w, 1e9, &tl);
		r->burst_seconds = tl.nphases > 1 ? tl.phases[0].end_s : INFINITY;
	}
	if (duration_s > 0)
		timeline(m, w, duration_s, r);
	model_read_hit(m, w, &r->hit);
	return 0;
}
