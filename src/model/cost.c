/* Upload and configuration prices from the catalog, with every price overridable. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "model/cost.h"
#include "util/err.h"
#include "util/field.h"
#include "util/parse.h"

long long cost_now(long long now)
{
	return now ? now : (long long)time(NULL);
}

static bool same(const char *want, const char *have)
{
	return !want || (have && !strcasecmp(want, have));
}

unsigned cost_min_days(const char *tier)
{
	/* Azure "Access tiers for blob data": the minimum retention of each online tier. */
	static const struct {
		const char *tier;
		unsigned days;
	} mins[] = {{.tier = "cool", .days = 30}, {.tier = "cold", .days = 90},
		    {.tier = "archive", .days = 180}};

	for (size_t i = 0; tier && i < sizeof(mins) / sizeof(mins[0]); i++)
		if (!strcasecmp(tier, mins[i].tier))
			return mins[i].days;
	return 0;
}

bool cost_geo_replicated(const char *redundancy)
{
	return redundancy && (!strcasecmp(redundancy, "grs") || !strcasecmp(redundancy, "ragrs"));
}

int cost_upload(const struct catalog *c, const struct cost_upload *u,
		struct cost_upload_result *r, char *err, size_t errlen)
{
	uint64_t chunk = u->chunk ? u->chunk : 512 * 1024;
	const char *tier = u->tier ? u->tier : "hot", *red = u->redundancy ? u->redundancy : "lrs";
	const struct cat_price *p = NULL;

	memset(r, 0, sizeof(*r));
	r->age_days = -1;
	r->write_per_10k = u->write_per_10k;
	r->per_gb_month = u->per_gb_month;
	r->geo = cost_geo_replicated(red);
	r->geo_per_gb = u->geo_given ? u->geo_per_gb : -1;
	if (r->write_per_10k < 0 || r->per_gb_month < 0 || (r->geo && !u->geo_given)) {
		for (size_t i = 0; i < c->nprices && !p; i++) {
			const struct cat_price *q = &c->prices[i];

			if (!strcmp(q->kind, "storage") && q->tier && q->redundancy &&
			    !strcasecmp(q->tier, tier) && !strcasecmp(q->redundancy, red) &&
			    same(u->region, q->region) && same(u->currency, q->currency))
				p = q;
		}
	}
	if (r->write_per_10k < 0 || r->per_gb_month < 0) {
		if (!p)
			return err_set(err, errlen, -ENOENT, "no catalog price for %s %s "
				       "storage%s%s%s%s; give " FIELD("write-price") " and "
				       FIELD("gb-price") " ('iorate catalog prices --provider azure "
				       "--region %s --currency %s' downloads Azure's)", tier, red,
				       u->region ? " in " : "", u->region ? u->region : "",
				       u->currency ? " in " : "", u->currency ? u->currency : "",
				       u->region ? u->region : "R",
				       u->currency ? u->currency : "USD");
		if (r->write_per_10k < 0)
			r->write_per_10k = p->write_per_10k;
		if (r->per_gb_month < 0)
			r->per_gb_month = p->per_gb_month;
		r->currency = p->currency;
		r->price_source = p->source;
		r->price_date = p->date;
		r->price_region = p->region;
		r->age_days = catalog_price_age_days(p->date, cost_now(u->now));
		r->stale = catalog_price_stale(r->age_days);
	}
	/* The list's transfer price only with its other prices: one region, one currency. */
	if (r->geo && !u->geo_given && p && r->price_source && p->geo_per_gb > 0)
		r->geo_per_gb = p->geo_per_gb;
	if (u->keep_days > 0) {
		r->keep_days = u->keep_days;
		r->keep_given = true;
		r->months = u->keep_days / COST_DAYS_PER_MONTH;
	} else {
		r->months = u->months > 0 ? u->months : 1;
		r->keep_days = r->months * COST_DAYS_PER_MONTH;
	}
	/* One PUT per chunk; a partial last chunk is still a transaction. */
	r->transactions = u->data / chunk + (u->data % chunk != 0);
	r->gib = (double)u->data / (1u << 30);
	r->transaction_cost = r->transactions / 10000.0 * r->write_per_10k;
	r->storage_cost = r->gib * r->per_gb_month * r->months;
	/* Every GB written is copied to the paired region once (GB written = GB uploaded). */
	if (r->geo && r->geo_per_gb >= 0)
		r->geo_cost = r->gib * r->geo_per_gb;
	/* Data gone before the tier's minimum is billed for the rest of it, pro rata by day. */
	r->min_days = cost_min_days(tier);
	if (r->keep_days < r->min_days) {
		r->early_days = r->min_days - r->keep_days;
		r->early_cost = r->gib * r->per_gb_month * r->early_days / COST_DAYS_PER_MONTH;
	}
	r->total = r->transaction_cost + r->storage_cost + r->geo_cost + r->early_cost;
	return 0;
}

/* What is being priced: the query, with the region and currency pinned by the first price. */
struct pricing {
	const struct catalog *c;
	const struct cost_query *q;
	const char *region, *currency;
	long long now;
	struct cost_breakdown *b;
	double hours;               /* the VM's a month, the hours its disks do I/O */
	unsigned ndisks;            /* of the volume, which shares the query's IOPS */
};

/* Adds what (its code and figures) at amount a month, priced by p (NULL: given). */
static void line(struct pricing *pr, double amount, const struct cat_price *p,
		 struct cost_line what)
{
	struct cost_breakdown *b = pr->b;
	struct cost_line *l;

	if (b->nlines >= COST_MAX_LINES)
		return;
	l = &b->lines[b->nlines++];
	*l = what;
	l->amount = amount;
	l->source = p ? p->source : "given on the command line";
	l->date = p ? p->date : "given";
	l->age_days = p ? catalog_price_age_days(p->date, pr->now) : -1;
	l->stale = p && catalog_price_stale(l->age_days);
	b->nstale += l->stale;
	b->total += amount;
}

/* A catalog price in the pinned region and currency; the first one found pins them. */
static const struct cat_price *find(struct pricing *pr, const char *catalog, const char *kind,
				    const char *name)
{
	const struct cat_price *p = catalog_find_price(pr->c, catalog, kind, name, pr->region,
						       pr->currency);

	if (p && !pr->region)
		pr->region = p->region;
	if (p && !pr->currency)
		pr->currency = p->currency;
	return p;
}

/* " in northeurope in GBP": where a missing price was looked for. */
static const char *where(const struct pricing *pr, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s", pr->region ? " in " : "", pr->region ? pr->region : "",
		 pr->currency ? " in " : "", pr->currency ? pr->currency : "");
	return buf;
}

/* Operations one I/O of io_bytes counts as on a disk type: by its unit, up to its maximum. */
static double op_units(const struct cat_disk *t, uint64_t io_bytes)
{
	double units = io_bytes ? model_ops_per_io((double)io_bytes, t->ops_unit_kib * 1024) : 1;

	return t->ops_per_io_max > 0 ? fmin(units, t->ops_per_io_max) : units;
}

/*
 * The IOPS above the type's free baseline, one line for each of the price's steps they reach:
 * per_iops_month up to the first step, then each step's price above it (io2: 32,000, 64,000).
 */
static void iops_lines(struct pricing *pr, const struct model_disk *d, const struct cat_price *p)
{
	const struct cat_disk *t = d->type;
	double lo = 0;

	for (unsigned k = 0; k <= p->niops_above; k++) {
		double hi = k < p->niops_above ? p->iops_above[k].from : INFINITY;
		double price = k ? p->iops_above[k - 1].price : p->per_iops_month;
		double from = fmax(lo, t->iops), to = fmin(hi, d->iops);

		if (to > from)
			line(pr, price * (to - from) * d->count, p, (struct cost_line){
			     .kind = COST_LINE_IOPS, .count = d->count, .name = t->name,
			     .a = to - from, .b = from, .price = price});
		lo = hi;
	}
}

/* One disk group's lines: a fixed size's monthly price, or its provisioned parts. */
static int disk_lines(struct pricing *pr, const struct model_disk *d, char *err, size_t errlen)
{
	const struct cat_disk *t = d->type;
	const struct cat_price *p;
	char w[96];

	if (pr->q->disk_month >= 0) {
		line(pr, pr->q->disk_month * d->count, NULL, (struct cost_line){
		     .kind = COST_LINE_MONTH, .count = d->count, .name = t->name,
		     .price = pr->q->disk_month});
		return 0;
	}
	if (!(p = find(pr, t->catalog, "disk", t->name)))
		return err_set(err, errlen, -ENOENT, "no price for disk %s (%s)%s; give "
			       FIELD("disk-price"), t->name, t->catalog, where(pr, w, sizeof(w)));
	if (p->per_month > 0)
		line(pr, p->per_month * d->count, p, (struct cost_line){.kind = COST_LINE_MONTH,
		     .count = d->count, .name = t->name, .price = p->per_month});
	if (p->per_gib_month > 0)
		line(pr, p->per_gib_month * d->gib * d->count, p, (struct cost_line){
		     .kind = COST_LINE_GIB, .count = d->count, .name = t->name, .a = d->gib,
		     .price = p->per_gib_month});
	/* Provisioned types bill only what is above the free baseline. */
	if (p->per_iops_month > 0 && d->iops > t->iops)
		iops_lines(pr, d, p);
	/*
	 * The catalog prices throughput per MB/s: the line says so, in MB/s, with the unit the
	 * provider provisions in beside it when that is MiB/s (AWS, GCP).
	 */
	/* A type with no free baseline (Hyperdisk Throughput) bills all it provisions. */
	if (p->per_mbps_month > 0 && d->mbps > t->mbps)
		line(pr, p->per_mbps_month * (d->mbps - t->mbps) * d->count, p, (struct cost_line){
		     .kind = COST_LINE_MBPS, .count = d->count, .name = t->name,
		     .a = d->mbps - t->mbps, .b = t->mbps, .mib = t->mbps_mib,
		     .c = model_mbps_in_unit(t, d->mbps - t->mbps), .price = p->per_mbps_month});
	/*
	 * Operations: each I/O the group's disks do while the VM runs, one per I/O or per unit
	 * of the disk type's size (at most its maximum per I/O), priced per 10,000 and billed up
	 * to the type's hourly cap per disk where it has one.
	 */
	if (p->per_10k_transactions > 0) {
		double disk_iops = pr->q->iops / (pr->ndisks ? pr->ndisks : 1);
		double units = op_units(t, pr->q->io_bytes);
		double per_hour = disk_iops * units * 3600; /* of one disk */
		bool capped = t->ops_per_hour_max > 0 && per_hour > t->ops_per_hour_max;

		if (capped)
			per_hour = t->ops_per_hour_max;
		if (disk_iops > 0)
			line(pr, per_hour * d->count * pr->hours / 10000 * p->per_10k_transactions, p,
			     (struct cost_line){.kind = COST_LINE_OPS, .count = d->count,
			     .name = t->name, .a = disk_iops * d->count, .b = units, .c = pr->hours,
			     .capped = capped, .price = p->per_10k_transactions});
		else
			line(pr, 0, p, (struct cost_line){.kind = COST_LINE_OPS_UNCOUNTED,
			     .count = d->count, .name = t->name, .price = p->per_10k_transactions});
	}
	return 0;
}

int cost_config(const struct catalog *c, const struct model_config *m,
		const struct cost_query *q, struct cost_breakdown *b, char *err, size_t errlen)
{
	struct pricing pr = {.c = c, .q = q, .region = q->region, .currency = q->currency,
			     .now = cost_now(q->now), .b = b};
	double hours = pr.hours = q->hours > 0 ? q->hours : 730;
	const struct cat_vm *vm = m->vm;
	const struct cat_price *p;
	char w[96];
	int ret;

	memset(b, 0, sizeof(*b));
	for (unsigned i = 0; i < m->ngroups; i++)
		pr.ndisks += m->disks[i].local ? 0 : m->disks[i].count;
	if (q->vm_hour >= 0) {
		line(&pr, q->vm_hour * hours, NULL, (struct cost_line){.kind = COST_LINE_VM_HOURS,
		     .name = vm->name, .a = hours, .price = q->vm_hour});
	} else {
		p = find(&pr, vm->catalog, "vm", vm->name);
		if (!p || p->per_hour <= 0)
			return err_set(err, errlen, -ENOENT, "no price for VM %s (%s)%s; give "
				       FIELD("vm-price") " ('iorate catalog prices --provider %s "
				       "--region %s --currency %s' downloads current ones)", vm->name,
				       vm->catalog, where(&pr, w, sizeof(w)),
				       !strncmp(vm->catalog, "azure", 5) ? "azure" : vm->catalog,
				       pr.region ? pr.region : "R", pr.currency ? pr.currency : "USD");
		line(&pr, p->per_hour * hours, p, (struct cost_line){.kind = COST_LINE_VM_HOURS,
		     .name = vm->name, .a = hours, .price = p->per_hour});
	}
	for (unsigned i = 0; i < m->ngroups; i++)
		/* The temp disk comes with the VM. */
		if (!m->disks[i].local && (ret = disk_lines(&pr, &m->disks[i], err, errlen)))
			return ret;
	b->currency = pr.currency ? pr.currency : "";
	b->region = pr.region ? pr.region : "";
	b->region_from = q->region_from;
	b->currency_from = q->currency_from;
	return 0;
}
