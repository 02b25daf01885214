#include "core/ranks.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

int ranks_expand(const char *tmpl, unsigned rank, const char *host, char *out, size_t outlen,
		 char *err, size_t errlen)
{
	size_t n = 0, hl = strcspn(host, ".");
	char num[16];

	for (const char *p = tmpl; *p; p++) {
		const char *add = p;
		size_t len = 1;

		if (*p == '%') {
			switch (p[1]) {
			case 'r':
				len = (size_t)snprintf(num, sizeof(num), "%u", rank);
				add = num;
				break;
			case 'h':
				add = host;
				len = hl;
				break;
			case '%':
				break;
			default:
				return err_set(err, errlen, -EINVAL, "%s: '%%%.1s' is not %%r "
					       "(rank), %%h (host) or %%%%", tmpl,
					       p[1] ? p + 1 : "");
			}
			p++;
		}
		if (n + len >= outlen)
			return err_set(err, errlen, -ENAMETOOLONG,
				       "%s: the expanded path is too long", tmpl);
		memcpy(out + n, add, len);
		n += len;
	}
	if (!outlen)
		return -ENAMETOOLONG;
	out[n] = '\0';
	return 0;
}

/* Quadratic, but over ranks x targets of one job, and once before the run. */
bool ranks_find_clash(const struct rank_target *t, unsigned n, unsigned *a, unsigned *b)
{
	for (unsigned i = 0; i < n; i++)
		for (unsigned j = i + 1; j < n; j++)
			if (t[i].rank != t[j].rank && (t[i].writes || t[j].writes) &&
			    !strcmp(t[i].host, t[j].host) && !strcmp(t[i].path, t[j].path)) {
				*a = i;
				*b = j;
				return true;
			}
	return false;
}

unsigned ranks_count_hosts(const char *const *hosts, unsigned n)
{
	unsigned distinct = 0;

	for (unsigned i = 0; i < n; i++) {
		unsigned k = 0;
		while (k < i && strcmp(hosts[k], hosts[i]))
			k++;
		distinct += k == i;
	}
	return distinct;
}

int ranks_series_add(struct series_point **dst, unsigned *ndst, const struct series_point *src,
		     unsigned nsrc)
{
	if (nsrc > *ndst) {
		struct series_point *ns = realloc(*dst, nsrc * sizeof(*ns));
		if (!ns)
			return -ENOMEM;
		memset(ns + *ndst, 0, (nsrc - *ndst) * sizeof(*ns));
		for (unsigned i = *ndst; i < nsrc; i++)
			ns[i].credit_iops = ns[i].credit_mbps = -1;
		*dst = ns;
		*ndst = nsrc;
	}
	for (unsigned i = 0; i < nsrc; i++) {
		struct series_point *d = &(*dst)[i];
		const struct series_point *s = &src[i];
		if (s->t > d->t)
			d->t = s->t;
		if (s->seconds > d->seconds)
			d->seconds = s->seconds;
		/* The mean over both, each weighted by its I/Os (before they are added up). */
		uint64_t dn = d->read_ios + d->write_ios + d->trim_ios;
		uint64_t sn = s->read_ios + s->write_ios + s->trim_ios;
		if (dn + sn)
			d->lat_mean_ns = (uint64_t)(((double)d->lat_mean_ns * (double)dn +
						     (double)s->lat_mean_ns * (double)sn) /
						    (double)(dn + sn));
		d->read_ios += s->read_ios;
		d->write_ios += s->write_ios;
		d->read_bytes += s->read_bytes;
		d->write_bytes += s->write_bytes;
		d->trim_ios += s->trim_ios;
		d->trim_bytes += s->trim_bytes;
		if (s->p99_ns > d->p99_ns)
			d->p99_ns = s->p99_ns;
	}
	return 0;
}

int ranks_add_targets(struct result *agg, const struct target_result *t, unsigned n)
{
	struct target_result *nt = realloc(agg->targets, (agg->ntargets + n) * sizeof(*nt));

	if (!nt)
		return -ENOMEM;
	agg->targets = nt;
	for (unsigned i = 0; i < n; i++) {
		struct target_result *d = &nt[agg->ntargets];
		*d = t[i];
		d->opened = d->path = NULL;
		d->read.hist = d->write.hist = d->trim.hist = NULL;
		/* Counted in before the copies, so that result_release() frees what was made. */
		agg->ntargets++;
		if (!(d->path = strdup(t[i].path ? t[i].path : "")) ||
		    (t[i].opened && !(d->opened = strdup(t[i].opened))) ||
		    (t[i].read.hist && !(d->read.hist = hist_dup(t[i].read.hist))) ||
		    (t[i].write.hist && !(d->write.hist = hist_dup(t[i].write.hist))) ||
		    (t[i].trim.hist && !(d->trim.hist = hist_dup(t[i].trim.hist))))
			return -ENOMEM;
	}
	return 0;
}
