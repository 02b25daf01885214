/*
 * The performance model. Every cap is turned into the IOPS the workload would reach were that cap
 * the only one; the prediction is the smallest, and the cap that gives it is the one that binds.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/predict.h"
#include "util/parse.h"

#define MB 1e6
#define STRIPE_UNIT 65536.0 /* Storage Spaces' default interleave: large I/Os span members */

const char *model_cache_name(enum model_cache c)
{
	return c == MODEL_CACHE_READONLY ? "readonly" : c == MODEL_CACHE_READWRITE ? "readwrite" :
									     "none";
}

int model_cache_parse(const char *s, enum model_cache *c)
{
	if (!strcasecmp(s, "none") || !strcasecmp(s, "off"))
		*c = MODEL_CACHE_NONE;
	else if (!strcasecmp(s, "readonly") || !strcasecmp(s, "ro") || !strcasecmp(s, "read"))
		*c = MODEL_CACHE_READONLY;
	else if (!strcasecmp(s, "readwrite") || !strcasecmp(s, "rw"))
		*c = MODEL_CACHE_READWRITE;
	else
		return -EINVAL;
	return 0;
}

static double clampd(double v, double lo, double hi)
{
	if (hi > 0 && v > hi)
		v = hi;
	return v < lo ? lo : v;
}

static void local_disk(const struct cat_vm *vm, struct model_disk *d)
{
	d->local = true;
	d->gib = vm->local_gib;
	d->iops = vm->local_iops;
	d->mbps = vm->local_mbps;
	d->lat_read_ms = d->lat_write_ms = d->lat_cached_ms =
		vm->local_latency_ms > 0 ? vm->local_latency_ms : 0.1;
}

/*
 * Per-disk caps of a per-GiB rule: provisioned types (pv2, ultra, gp3, io1/io2, Hyperdisk) take
 * iops= and mbps= within what the size allows; the others (gp2, st1, sc1, PD) derive them.
 */
static int rule_caps(const struct cat_disk *t, double req_iops, double req_mbps,
		     struct model_disk *d, char *err, size_t errlen)
{
	double g = d->gib;

	if (t->provisioned) {
		double maxi = t->iops_free_gib > 0 ?
			t->iops + t->iops_per_gib * fmax(0, g - t->iops_free_gib) :
			fmax(t->iops, t->iops_per_gib * g);
		double maxm;

		maxi = clampd(maxi, 0, t->iops_max);
		if (req_iops > maxi) {
			snprintf(err, errlen, "%s: %.0f GiB allows at most %.0f IOPS, not %.0f",
				 d->spec, g, maxi, req_iops);
			return -EINVAL;
		}
		d->iops = req_iops > 0 ? req_iops : t->iops > 0 ? t->iops : maxi;
		if (d->iops < t->iops_min) {
			snprintf(err, errlen, "%s: at least %.0f IOPS must be provisioned", d->spec,
				 t->iops_min);
			return -EINVAL;
		}
		maxm = t->mbps_per_iops > 0 ? fmax(t->mbps, t->mbps_per_iops * d->iops) : t->mbps;
		maxm = clampd(maxm, 0, t->mbps_max);
		if (req_mbps > maxm + 1e-9) {
			snprintf(err, errlen, "%s: %.0f IOPS allow at most %.0f MB/s, not %.0f",
				 d->spec, d->iops, maxm, req_mbps);
			return -EINVAL;
		}
		d->mbps = req_mbps > 0 ? req_mbps : t->mbps > 0 ? t->mbps : maxm;
		d->mbps = clampd(d->mbps, t->mbps_min, 0);
		return 0;
	}
	if (req_iops > 0 || req_mbps > 0) {
		snprintf(err, errlen, "%s: %s derives its performance from its size; iops= and mbps= "
			 "apply to provisioned types (pv2, ultra, gp3, io1, io2, hyperdisk-balanced)",
			 d->spec, t->name);
		return -EINVAL;
	}
	d->iops = clampd(t->iops + t->iops_per_gib * g, t->iops_min, t->iops_max);
	if (t->write_iops_per_gib > 0)
		d->write_iops = clampd(t->write_iops_per_gib * g, t->iops_min, t->iops_max);
	if (t->nsteps) {
		for (unsigned i = 0; i < t->nsteps; i++)
			if (g >= t->mbps_steps[i][0])
				d->mbps = t->mbps_steps[i][1];
	} else {
		d->mbps = clampd(t->mbps + t->mbps_per_gib * g, t->mbps_min, t->mbps_max);
	}
	if (t->burst_mbps_per_gib > 0)
		d->burst_mbps = clampd(t->burst_mbps_per_gib * g, 0, t->burst_mbps_max);
	return 0;
}

static int parse_kv(const char *kv, double *iops, double *mbps, bool *ondemand)
{
	if (!strncasecmp(kv, "iops=", 5))
		return parse_double(kv + 5, 1, 1e9, iops);
	if (!strncasecmp(kv, "mbps=", 5))
		return parse_double(kv + 5, 1, 1e9, mbps);
	if (!strcasecmp(kv, "burst=ondemand") || !strcasecmp(kv, "burst=on")) {
		*ondemand = true;
		return 0;
	}
	return -EINVAL;
}

/*
 * "2xP30": a count, then the name. A name may itself start with digits, so the x is demanded;
 * without one *type is left alone. With one, *type moves past it and *count gets the count.
 */
static int split_count(char **type, unsigned *count)
{
	char *x = *type + strspn(*type, "0123456789");

	if (x == *type || (*x != 'x' && *x != 'X') || !x[1])
		return 0;
	*x = 0;
	if (parse_uint(*type, 1, 256, count))
		return -EINVAL;
	*type = x + 1;
	return 0;
}

int model_parse_disk(const struct catalog *c, const struct cat_vm *vm, const char *spec,
		     struct model_disk *d, char *err, size_t errlen)
{
	char buf[128], *parts[6], *save = NULL, *tok, *type;
	const struct cat_disk *t = NULL;
	double req_iops = 0, req_mbps = 0;
	unsigned np = 0, count = 1;
	uint64_t size = 0;
	const char *cat = vm ? vm->catalog : NULL;
	int ret;

	memset(d, 0, sizeof(*d));
	snprintf(d->spec, sizeof(d->spec), "%s", spec);
	if (strlen(spec) >= sizeof(buf))
		goto bad;
	strcpy(buf, spec);
	for (tok = strtok_r(buf, ":", &save); tok && np < 6; tok = strtok_r(NULL, ":", &save))
		parts[np++] = tok;
	if (!np || tok)
		goto bad;
	type = parts[0];
	if (split_count(&type, &count))
		goto bad;
	/* A leading catalog name ("azure-2015:P30") was split off as parts[0]. */
	unsigned first = 1;

	if (catalog_has(c, type) && np > 1) {
		cat = type;
		type = parts[1];
		first = 2;
		if (split_count(&type, &count))
			goto bad;
	}
	for (unsigned i = first; i < np; i++) {
		if (strchr(parts[i], '=') || !strncasecmp(parts[i], "burst", 5)) {
			if (parse_kv(parts[i], &req_iops, &req_mbps, &d->ondemand))
				goto bad;
		} else if (parse_size(parts[i], &size) || !size) {
			goto bad;
		}
	}
	d->count = count;
	d->gib = (double)size / (1 << 30);
	if (!strcasecmp(type, "local") || !strcasecmp(type, "temp")) {
		if (!vm || vm->local_iops <= 0) {
			snprintf(err, errlen, "%s: %s has no local disk with published limits", spec,
				 vm ? vm->name : "this VM");
			return -EINVAL;
		}
		if (count != 1 || size || req_iops > 0 || req_mbps > 0) {
			snprintf(err, errlen, "%s: the local disk takes no count, size or iops=", spec);
			return -EINVAL;
		}
		local_disk(vm, d);
		return 0;
	}
	t = catalog_find_disk(c, cat, type);
	if (!t && size)
		t = catalog_find_family(c, cat, type, d->gib);
	if (!t && cat) {
		t = catalog_find_disk(c, NULL, type);
		if (t && vm && strcmp(t->provider, vm->provider))
			t = NULL;
	}
	if (!t) {
		char sug[160];

		catalog_suggest(c, "disk", cat, type, sug, sizeof(sug));
		if (!*sug)
			catalog_suggest(c, "disk", NULL, type, sug, sizeof(sug));
		snprintf(err, errlen, "%s: no disk type '%s'%s%s%s%s", spec, type,
			 cat ? " in catalog " : "", cat ? cat : "", *sug ? "; did you mean " : "",
			 *sug ? sug : "");
		if (*sug)
			strncat(err, "?", errlen - strlen(err) - 1);
		return -ENOENT;
	}
	d->type = t;
	if (t->rule) {
		if (!size) {
			snprintf(err, errlen, "%s: %s needs a size, e.g. %s:512GiB", spec, t->name,
				 t->name);
			return -EINVAL;
		}
		if (d->gib < t->min_gib || (t->max_gib > 0 && d->gib > t->max_gib)) {
			snprintf(err, errlen, "%s: %s sizes go from %.0f to %.0f GiB", spec, t->name,
				 t->min_gib, t->max_gib);
			return -EINVAL;
		}
		if ((ret = rule_caps(t, req_iops, req_mbps, d, err, errlen)))
			return ret;
	} else {
		if (size && d->gib > t->gib + 1e-9) {
			const struct cat_disk *f = catalog_find_family(c, t->catalog, t->family, d->gib);

			snprintf(err, errlen, "%s: %s holds %.0f GiB%s%s", spec, t->name, t->gib,
				 f ? "; that size needs " : "", f ? f->name : "");
			return -EINVAL;
		}
		if (req_iops > 0 || req_mbps > 0)
			return rule_caps(t, req_iops, req_mbps, d, err, errlen);
		d->gib = t->gib;
		d->iops = t->iops;
		d->mbps = t->mbps;
	}
	if (d->ondemand) {
		if (t->ondemand_iops <= 0) {
			snprintf(err, errlen, "%s: %s has no on-demand bursting (Premium SSD larger than "
				 "512 GiB only)", spec, t->name);
			return -EINVAL;
		}
		/* On-demand bursting has no credit limit: it simply raises the caps. */
		d->iops = t->ondemand_iops;
		d->mbps = t->ondemand_mbps;
	} else if (t->burst_iops > d->iops || t->burst_mbps > d->mbps || d->burst_mbps > d->mbps) {
		d->burst_iops = fmax(t->burst_iops, d->iops);
		if (!d->burst_mbps)
			d->burst_mbps = fmax(t->burst_mbps, d->mbps);
		d->bucket_ios = t->burst_bucket_ios > 0 ? t->burst_bucket_ios :
			t->burst_seconds * (d->burst_iops - d->iops);
		d->bucket_mb = t->burst_bucket_mb_per_gib > 0 ? t->burst_bucket_mb_per_gib * d->gib :
			t->burst_seconds * (d->burst_mbps - d->mbps);
	}
	d->io_unit = t->io_unit_kib * 1024;
	d->lat_read_ms = t->latency_read_ms > 0 ? t->latency_read_ms : 2;
	d->lat_write_ms = t->latency_write_ms > 0 ? t->latency_write_ms : d->lat_read_ms;
	d->lat_cached_ms = t->latency_cached_ms > 0 ? t->latency_cached_ms : d->lat_read_ms;
	return 0;
bad:
	snprintf(err, errlen, "'%s' is not a disk SPEC (expected [Nx]TYPE[:SIZE][:iops=N][:mbps=N]"
		 "[:burst=ondemand], e.g. 2xP30, 16xstandard, gp3:1TiB:iops=6000)", spec);
	return -EINVAL;
}

int model_check(const struct catalog *c, struct model_config *m, char *err, size_t errlen)
{
	const struct cat_vm *vm = m->vm;
	unsigned n = 0, nlocal = 0;

	if (!m->ngroups) {
		snprintf(err, errlen, "--disk: at least one disk is needed (e.g. --disk 2xP30)");
		return -EINVAL;
	}
	m->account = NULL;
	for (unsigned i = 0; i < m->ngroups; i++) {
		const struct model_disk *d = &m->disks[i];

		if (d->local) {
			nlocal++;
			continue;
		}
		n += d->count;
		if (d->type->premium && !vm->premium) {
			snprintf(err, errlen, "--disk %s: %s is a premium disk and %s does not take premium "
				 "storage (use an 's' size such as DS3 or GS2)", d->spec, d->type->name,
				 vm->name);
			return -EINVAL;
		}
		if (m->cache != MODEL_CACHE_NONE && (!d->type->cache || !vm->cache)) {
			snprintf(err, errlen, "--cache %s: %s does not support host caching",
				 model_cache_name(m->cache), !vm->cache ? vm->name : d->type->name);
			return -EINVAL;
		}
		if (d->type->account) {
			for (size_t k = 0; k < c->naccounts; k++)
				if (!strcmp(c->accounts[k].catalog, d->type->catalog) &&
				    !strcmp(c->accounts[k].name, d->type->account))
					m->account = &c->accounts[k];
		}
	}
	if (nlocal && (nlocal > 1 || n)) {
		snprintf(err, errlen, "--disk local: the local disk is modelled alone, not striped "
			 "with data disks");
		return -EINVAL;
	}
	if (vm->max_disks && n > vm->max_disks) {
		snprintf(err, errlen, "--disk: %u data disks, but %s takes at most %u", n, vm->name,
			 vm->max_disks);
		return -EINVAL;
	}
	return 0;
}

static double ops_per_io(double bs, double unit)
{
	return unit > 0 ? ceil(bs / unit) : 1;
}

static void add_limit(struct model_result *r, const char *name, double iops, double bs,
		      double cap, const char *source, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

static void add_limit(struct model_result *r, const char *name, double iops, double bs,
		      double cap, const char *source, const char *fmt, ...)
{
	struct model_limit *l;
	va_list ap;

	if (!(iops > 0) || !isfinite(iops) || r->nlimits >= MODEL_MAX_LIMITS)
		return;
	l = &r->limits[r->nlimits++];
	l->name = name;
	l->iops = iops;
	l->mbps = iops * bs / MB;
	l->cap = cap;
	l->source = source ? source : "";
	va_start(ap, fmt);
	vsnprintf(l->detail, sizeof(l->detail), fmt, ap);
	va_end(ap);
}

/* T <= cap / (fraction x ops): the IOPS a cap on part of the traffic allows. */
static double share(double cap, double frac, double ops)
{
	return frac > 0 && cap > 0 ? cap / (frac * ops) : INFINITY;
}

/*
 * One steady state: the caps in force (with or without burst credits) turned into limits.
 */
static void solve(const struct model_config *m, const struct model_workload *w, bool disk_burst,
		  bool vm_burst, struct model_result *r)
{
	const struct cat_vm *vm = m->vm;
	double bs = (double)w->bs, wf = w->write_pct / 100.0, rf = 1 - wf;
	double vm_ops = ops_per_io(bs, vm->io_unit_kib * 1024);
	double out = (double)w->threads * w->depth, lat = 0;
	unsigned n = 0;
	const struct model_disk *d0 = &m->disks[0];

	r->nlimits = 0;
	for (unsigned i = 0; i < m->ngroups; i++)
		n += m->disks[i].count;
	if (d0->local) {
		double ops = 1, lat_ms = rf * d0->lat_read_ms + wf * d0->lat_write_ms;

		add_limit(r, "local_iops", d0->iops / ops, bs, d0->iops, vm->source,
			  "%s local disk: %.0f IOPS", vm->name, d0->iops);
		add_limit(r, "local_mbps", d0->mbps * MB / bs, bs, d0->mbps, vm->source,
			  "%s local disk: %.0f MB/s", vm->name, d0->mbps);
		lat = lat_ms / 1000 + bs / (d0->mbps * MB);
		add_limit(r, "queue_depth", out / lat, bs, out,
			  vm->local_latency_source ? vm->local_latency_source : vm->source,
			  "%u threads x %u outstanding at %.3f ms each", w->threads, w->depth,
			  lat * 1000);
		goto pick;
	}

	bool cr = m->cache != MODEL_CACHE_NONE, cw = m->cache == MODEL_CACHE_READWRITE;
	double fc = (cr ? rf : 0) + (cw ? wf : 0);
	bool no_cached_cap = vm->cached_iops <= 0 && vm->cached_mbps <= 0;
	double ur = cr && !no_cached_cap ? 0 : rf, uw = cw && !no_cached_cap ? 0 : wf;
	double disk_iops = INFINITY, disk_mbps = INFINITY, disk_cap_i = 0, disk_cap_m = 0;
	const struct model_disk *slow = d0;

	for (unsigned i = 0; i < m->ngroups; i++) {
		const struct model_disk *d = &m->disks[i];
		bool b = disk_burst && d->burst_iops > 0;
		double iops = b ? d->burst_iops : d->iops, mbps = b ? fmax(d->burst_mbps, d->mbps) :
									d->mbps;
		double ops = ops_per_io(bs, d->io_unit);
		double ti = d->write_iops > 0 ? fmin(share(iops, rf, ops), share(d->write_iops, wf, ops)) :
			iops / ops;
		double members = fmin(n, ceil(bs / STRIPE_UNIT));
		double l_r = (cr ? d->lat_cached_ms / 1000 : d->lat_read_ms / 1000 +
			      bs / (members * mbps * MB));
		double l_w = d->lat_write_ms / 1000 + bs / (members * mbps * MB);

		/* A stripe moves at the pace of its slowest member. */
		if (n * ti < disk_iops)
			disk_iops = n * ti, disk_cap_i = iops, slow = d;
		if (n * mbps * MB / bs < disk_mbps)
			disk_mbps = n * mbps * MB / bs, disk_cap_m = mbps;
		if (rf * l_r + wf * l_w > lat)
			lat = rf * l_r + wf * l_w;
	}
	const char *dsrc = slow->type->source;
	double unit = slow->io_unit;

	add_limit(r, "disk_iops", disk_iops, bs, disk_cap_i * n, dsrc,
		  "%u x %s: %.0f IOPS each%s%s", n, slow->type->name, disk_cap_i,
		  disk_burst && slow->burst_iops > 0 ? " (burst)" : "",
		  unit > 0 && bs > unit ? " (I/Os over the I/O unit count as several)" : "");
	add_limit(r, "disk_mbps", disk_mbps, bs, disk_cap_m * n, dsrc, "%u x %s: %.0f MB/s each%s",
		  n, slow->type->name, disk_cap_m,
		  disk_burst && slow->burst_mbps > slow->mbps ? " (burst)" : "");

	/* VM caps: per disk family where the provider publishes them so (GCP). */
	const struct cat_family_caps *fc_caps = catalog_vm_family_caps(vm, slow->type->family);
	const char *usrc = vm->uncached_source ? vm->uncached_source : vm->source;

	if (fc_caps) {
		double ti = fc_caps->write_iops > 0 ?
			fmin(share(fc_caps->iops, rf, vm_ops), share(fc_caps->write_iops, wf, vm_ops)) :
			share(fc_caps->iops, 1, vm_ops);
		double tm = fc_caps->write_mbps > 0 ?
			fmin(share(fc_caps->mbps * MB / bs, rf, 1),
			     share(fc_caps->write_mbps * MB / bs, wf, 1)) :
			fc_caps->mbps * MB / bs;

		add_limit(r, "vm_uncached_iops", ti, bs, fc_caps->iops, vm->source,
			  "%s with %s: %.0f read / %.0f write IOPS", vm->name, fc_caps->family,
			  fc_caps->iops, fc_caps->write_iops > 0 ? fc_caps->write_iops : fc_caps->iops);
		add_limit(r, "vm_uncached_mbps", tm, bs, fc_caps->mbps, vm->source,
			  "%s with %s: %.0f MB/s", vm->name, fc_caps->family, fc_caps->mbps);
	} else {
		bool b = vm_burst && vm->burst_iops > vm->uncached_iops;
		double ci = b ? vm->burst_iops : vm->uncached_iops;
		double cm = b ? fmax(vm->burst_mbps, vm->uncached_mbps) : vm->uncached_mbps;

		add_limit(r, "vm_uncached_iops", share(ci, ur + uw, vm_ops), bs, ci, usrc,
			  "%s uncached: %.0f IOPS%s", vm->name, ci, b ? " (VM burst)" : "");
		add_limit(r, "vm_uncached_mbps", share(cm * MB / bs, ur + uw, 1), bs, cm, usrc,
			  "%s uncached: %.0f MB/s%s", vm->name, cm, b ? " (VM burst)" : "");
	}
	if (!no_cached_cap) {
		add_limit(r, "vm_cached_iops", share(vm->cached_iops, fc, vm_ops), bs,
			  vm->cached_iops, vm->source, "%s cached: %.0f IOPS", vm->name,
			  vm->cached_iops);
		add_limit(r, "vm_cached_mbps", share(vm->cached_mbps * MB / bs, fc, 1), bs,
			  vm->cached_mbps, vm->source, "%s cached: %.0f MB/s", vm->name,
			  vm->cached_mbps);
	}
	if (m->account)
		add_limit(r, "account_iops", m->account->iops / ops_per_io(bs, unit), bs,
			  m->account->iops, m->account->source,
			  "one %s storage account: %.0f IOPS for all its disks", m->account->name,
			  m->account->iops);
	add_limit(r, "queue_depth", out / lat, bs, out, slow->type->latency_source ?
		  slow->type->latency_source : slow->type->source,
		  "%u threads x %u outstanding at %.2f ms each", w->threads, w->depth, lat * 1000);
pick:
	r->iops = INFINITY;
	for (unsigned i = 0; i < r->nlimits; i++)
		if (r->limits[i].iops < r->iops * (1 - 1e-9)) {
			r->iops = r->limits[i].iops;
			r->binding = r->limits[i].name;
		}
	r->mbps = r->iops * bs / MB;
	/* Little's law: with the cap holding the rate, the queue waits. */
	r->service_ms = lat * 1000;
	r->latency_ms = fmax(lat, out / r->iops) * 1000;
}

struct credits {
	double disk_ios[MODEL_MAX_GROUPS], disk_mb[MODEL_MAX_GROUPS], vm_ios, vm_mb;
};

/*
 * Walks the run through its burst phases: in each, the model gives the rate; the rate above the
 * sustained caps drains the credit buckets; when one empties, that burst ends.
 */
static void timeline(const struct model_config *m, const struct model_workload *w,
		     double duration, struct model_result *r)
{
	const struct cat_vm *vm = m->vm;
	struct model_result tmp;
	struct credits cr = {0};
	bool db = false, vb = vm->burst_iops > vm->uncached_iops && vm->burst_seconds > 0;
	double t = 0, bs = (double)w->bs, sum_i = 0;
	unsigned n = 0;

	for (unsigned i = 0; i < m->ngroups; i++) {
		cr.disk_ios[i] = m->disks[i].bucket_ios;
		cr.disk_mb[i] = m->disks[i].bucket_mb;
		db |= m->disks[i].burst_iops > 0;
		n += m->disks[i].count;
	}
	cr.vm_ios = vb ? vm->burst_seconds * (vm->burst_iops - vm->uncached_iops) : 0;
	cr.vm_mb = vb ? vm->burst_seconds * fmax(0, vm->burst_mbps - vm->uncached_mbps) : 0;
	r->nphases = 0;
	while (t < duration && r->nphases < 8) {
		double step = duration - t, per_disk, vm_ops = ops_per_io(bs, vm->io_unit_kib * 1024);
		double drain_d[MODEL_MAX_GROUPS][2], drain_v[2] = {0, 0};
		bool last;

		solve(m, w, db, vb, &tmp);
		per_disk = tmp.iops / n;
		for (unsigned i = 0; i < m->ngroups && db; i++) {
			const struct model_disk *d = &m->disks[i];

			drain_d[i][0] = per_disk * ops_per_io(bs, d->io_unit) - d->iops;
			drain_d[i][1] = per_disk * bs / MB - d->mbps;
			if (drain_d[i][0] > 1e-9 && cr.disk_ios[i] > 0)
				step = fmin(step, cr.disk_ios[i] / drain_d[i][0]);
			if (drain_d[i][1] > 1e-9 && cr.disk_mb[i] > 0)
				step = fmin(step, cr.disk_mb[i] / drain_d[i][1]);
		}
		if (vb) {
			drain_v[0] = tmp.iops * vm_ops - vm->uncached_iops;
			drain_v[1] = tmp.mbps - vm->uncached_mbps;
			if (drain_v[0] > 1e-9)
				step = fmin(step, cr.vm_ios / drain_v[0]);
			if (drain_v[1] > 1e-9 && vm->uncached_mbps > 0)
				step = fmin(step, cr.vm_mb / drain_v[1]);
		}
		last = step >= duration - t - 1e-9;
		r->phases[r->nphases++] = (struct model_phase){t, t + step, tmp.iops, tmp.mbps,
								tmp.binding};
		sum_i += tmp.iops * step;
		t += step;
		if (last)
			break;
		bool empty_d = false, empty_v = false;

		for (unsigned i = 0; i < m->ngroups && db; i++) {
			cr.disk_ios[i] -= fmax(0, drain_d[i][0]) * step;
			cr.disk_mb[i] -= fmax(0, drain_d[i][1]) * step;
			empty_d |= (drain_d[i][0] > 1e-9 && cr.disk_ios[i] <= 1e-6) ||
				   (drain_d[i][1] > 1e-9 && cr.disk_mb[i] <= 1e-6);
		}
		if (vb) {
			cr.vm_ios -= fmax(0, drain_v[0]) * step;
			cr.vm_mb -= fmax(0, drain_v[1]) * step;
			empty_v = (drain_v[0] > 1e-9 && cr.vm_ios <= 1e-6) ||
				  (drain_v[1] > 1e-9 && cr.vm_mb <= 1e-6);
		}
		db = db && !empty_d;
		vb = vb && !empty_v;
		if (!empty_d && !empty_v)
			db = vb = false; /* rounding left a crumb of credit: treat it as spent */
	}
	r->duration_s = duration;
	r->avg_iops = t > 0 ? sum_i / t : 0;
	r->avg_mbps = r->avg_iops * bs / MB;
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
	return 0;
}
