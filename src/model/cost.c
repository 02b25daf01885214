/* Upload and configuration prices from the catalog, with every price overridable. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "model/cost.h"

int cost_upload(const struct catalog *c, const struct cost_upload *u,
		struct cost_upload_result *r, char *err, size_t errlen)
{
	uint64_t chunk = u->chunk ? u->chunk : 512 * 1024;
	const char *tier = u->tier ? u->tier : "hot", *red = u->redundancy ? u->redundancy : "lrs";

	memset(r, 0, sizeof(*r));
	r->write_per_10k = u->write_per_10k;
	r->per_gb_month = u->per_gb_month;
	if (r->write_per_10k < 0 || r->per_gb_month < 0) {
		const struct cat_price *p = NULL;

		for (size_t i = 0; i < c->nprices && !p; i++) {
			const struct cat_price *q = &c->prices[i];

			if (!strcmp(q->kind, "storage") && q->tier && q->redundancy &&
			    !strcasecmp(q->tier, tier) && !strcasecmp(q->redundancy, red) &&
			    (!u->region || (q->region && !strcasecmp(q->region, u->region))))
				p = q;
		}
		if (!p) {
			snprintf(err, errlen, "no catalog price for %s %s storage%s%s; give "
				 "--write-price and --gb-price", tier, red, u->region ? " in " : "",
				 u->region ? u->region : "");
			return -ENOENT;
		}
		if (r->write_per_10k < 0)
			r->write_per_10k = p->write_per_10k;
		if (r->per_gb_month < 0)
			r->per_gb_month = p->per_gb_month;
		r->currency = p->currency;
		r->price_source = p->source;
	}
	r->months = u->months > 0 ? u->months : 1;
	/* One PUT per chunk; a partial last chunk is still a transaction. */
	r->transactions = u->data / chunk + (u->data % chunk != 0);
	r->gib = (double)u->data / (1u << 30);
	r->transaction_cost = r->transactions / 10000.0 * r->write_per_10k;
	r->storage_cost = r->gib * r->per_gb_month * r->months;
	r->total = r->transaction_cost + r->storage_cost;
	return 0;
}

static void line(struct cost_breakdown *b, double amount, const char *source, const char *fmt,
		 ...) __attribute__((format(printf, 4, 5)));

static void line(struct cost_breakdown *b, double amount, const char *source, const char *fmt,
		 ...)
{
	va_list ap;
	struct cost_line *l;

	if (b->nlines >= COST_MAX_LINES)
		return;
	l = &b->lines[b->nlines++];
	va_start(ap, fmt);
	vsnprintf(l->what, sizeof(l->what), fmt, ap);
	va_end(ap);
	l->amount = amount;
	l->source = source ? source : "given on the command line";
	b->total += amount;
}

int cost_config(const struct catalog *c, const struct model_config *m, double hours,
		const char *region, double vm_hour, double disk_month, struct cost_breakdown *b,
		char *err, size_t errlen)
{
	const struct cat_vm *vm = m->vm;
	const struct cat_price *p;

	memset(b, 0, sizeof(*b));
	if (hours <= 0)
		hours = 730;
	if (vm_hour >= 0) {
		line(b, vm_hour * hours, NULL, "%s: %.0f h x %.4f", vm->name, hours, vm_hour);
	} else {
		p = catalog_find_price(c, vm->catalog, "vm", vm->name, region);
		if (!p || p->per_hour <= 0) {
			snprintf(err, errlen, "no price for VM %s (%s)%s%s; give --vm-price", vm->name,
				 vm->catalog, region ? " in " : "", region ? region : "");
			return -ENOENT;
		}
		b->currency = p->currency;
		line(b, p->per_hour * hours, p->source, "%s: %.0f h x %.4f per hour", vm->name, hours,
		     p->per_hour);
	}
	for (unsigned i = 0; i < m->ngroups; i++) {
		const struct model_disk *d = &m->disks[i];
		const struct cat_disk *t = d->type;

		if (d->local)
			continue; /* the temp disk comes with the VM */
		if (disk_month >= 0) {
			line(b, disk_month * d->count, NULL, "%u x %s at %.2f per month", d->count,
			     t->name, disk_month);
			continue;
		}
		p = catalog_find_price(c, t->catalog, "disk", t->name, region);
		if (!p) {
			snprintf(err, errlen, "no price for disk %s (%s)%s%s; give --disk-price",
				 t->name, t->catalog, region ? " in " : "", region ? region : "");
			return -ENOENT;
		}
		if (!b->currency)
			b->currency = p->currency;
		if (p->per_month > 0)
			line(b, p->per_month * d->count, p->source, "%u x %s at %.2f per month",
			     d->count, t->name, p->per_month);
		if (p->per_gib_month > 0)
			line(b, p->per_gib_month * d->gib * d->count, p->source,
			     "%u x %s: %.0f GiB x %.4f per GiB-month", d->count, t->name, d->gib,
			     p->per_gib_month);
		/* Provisioned types bill only what is above the free baseline. */
		if (p->per_iops_month > 0 && d->iops > t->iops)
			line(b, p->per_iops_month * (d->iops - t->iops) * d->count, p->source,
			     "%u x %s: %.0f IOPS above %.0f x %.4f", d->count, t->name,
			     d->iops - t->iops, t->iops, p->per_iops_month);
		if (p->per_mbps_month > 0 && d->mbps > t->mbps)
			line(b, p->per_mbps_month * (d->mbps - t->mbps) * d->count, p->source,
			     "%u x %s: %.0f MB/s above %.0f x %.4f", d->count, t->name,
			     d->mbps - t->mbps, t->mbps, p->per_mbps_month);
	}
	if (!b->currency)
		b->currency = "";
	return 0;
}
