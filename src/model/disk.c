/*
 * From a disk SPEC to a group of disks with its caps: fixed sizes from the catalog, per-GiB rules
 * (derived from the size, or provisioned within what the size allows), the VM's local disk, and
 * the checks of a whole configuration (counts, premium support, host caching).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/predict.h"
#include "util/err.h"
#include "util/field.h"
#include "util/parse.h"

#define MIB_MB 1.048576 /* 1 MiB/s in MB/s */

const char *model_cache_name(enum model_cache c)
{
	static const char *const names[] = {"none", "readonly", "readwrite", "default"};

	return c <= MODEL_CACHE_DEFAULT ? names[c] : "none";
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

const char *model_mbps_unit(const struct cat_disk *t)
{
	return t && t->mbps_mib ? "MiB/s" : "MB/s";
}

double model_mbps_in_unit(const struct cat_disk *t, double mbps)
{
	return t && t->mbps_mib ? mbps / MIB_MB : mbps;
}

static double clampd(double v, double lo, double hi)
{
	if (hi > 0 && v > hi)
		v = hi;
	return v < lo ? lo : v;
}

double model_rule_max_iops(const struct cat_disk *t, const struct cat_vm *vm, double gib)
{
	double maxi;

	if (!t->provisioned)
		return clampd((t->baseline_per_vm ? 0 : t->iops) + t->iops_per_gib * gib,
			      t->iops_min, t->iops_max);
	/*
	 * pv2 adds IOPS only past its free GiB; gp3, io1/io2, Ultra allow so many per GiB, at
	 * least the free ones; Hyperdisk Balanced so many per GiB, the free ones included; a type
	 * whose bounds by size are not known is bounded by its maximum only.
	 */
	if (t->iops_per_gib <= 0)
		maxi = t->iops_max > 0 ? t->iops_max : t->iops;
	else if (t->iops_by_size)
		maxi = t->iops_per_gib * gib;
	else if (t->iops_free_gib > 0)
		maxi = t->iops + t->iops_per_gib * fmax(0, gib - t->iops_free_gib);
	else
		maxi = fmax(t->iops, t->iops_per_gib * gib);
	maxi = clampd(maxi, 0, t->iops_max);
	if (vm && !vm->nitro && t->iops_max_without_nitro > 0)
		maxi = fmin(maxi, t->iops_max_without_nitro);
	return maxi;
}

double model_rule_max_mbps(const struct cat_disk *t, double iops)
{
	/* io1/io2: 256 KiB per IOPS up to 500 MiB/s, then 16 KiB per IOPS (AWS). */
	for (unsigned k = t->ntiers; k-- > 0;)
		if (iops >= t->tiers[k].from_iops)
			return fmin(t->tiers[k].mbps_per_iops * iops, t->tiers[k].mbps_max);
	if (t->mbps_per_iops > 0)
		return clampd(fmax(t->mbps, t->mbps_per_iops * iops), 0, t->mbps_max);
	return t->provisioned && t->mbps_max > 0 ? t->mbps_max : t->mbps;
}

double model_rule_min_gib(const struct cat_disk *t, const struct cat_vm *vm, double iops)
{
	double lo = t->min_gib > 0 ? t->min_gib : 1, hi = t->max_gib > 0 ? t->max_gib : 65536;

	if (model_rule_max_iops(t, vm, hi) < iops)
		return -1;
	/* The rules rise with size: the least whole GiB that allows iops. */
	while (hi - lo > 0.5) {
		double mid = floor((lo + hi) / 2);

		if (model_rule_max_iops(t, vm, mid) >= iops)
			hi = mid;
		else
			lo = mid + 1;
	}
	return model_rule_max_iops(t, vm, lo) >= iops ? lo : hi;
}

/*
 * Throughput provisioned, IOPS following it (Hyperdisk Throughput: 4 IOPS per MiB/s): mbps= in
 * the provider's unit within the type's bounds (its maximum when none is given, as the other
 * provisioned types take theirs), iops= refused.
 */
static int provision_by_mbps(const struct cat_disk *t, double req_iops, double req_mbps,
			     struct model_disk *d, char *err, size_t errlen)
{
	double maxm = t->mbps_max > 0 ? t->mbps_max : t->mbps;
	double mbps = req_mbps * (t->mbps_mib ? MIB_MB : 1);

	/* A size allows so many MB/s per GiB (Hyperdisk Throughput: 90 MiB/s per TiB). */
	if (t->mbps_per_gib > 0 && t->mbps_per_gib * d->gib < maxm)
		maxm = t->mbps_per_gib * d->gib;

	if (req_iops > 0)
		return err_set(err, errlen, -EINVAL, "%s: %s's IOPS follow its throughput (%g IOPS "
			       "per %s); give mbps=, not iops=", d->spec, t->name,
			       t->iops_per_mbps, model_mbps_unit(t));
	if (mbps <= 0)
		mbps = t->mbps > 0 ? t->mbps : maxm;
	if (maxm > 0 && mbps > maxm * (1 + 1e-9)) {
		if (t->mbps_per_gib > 0 && maxm < t->mbps_max)
			return err_set(err, errlen, -EINVAL,
				       "%s: %.0f GiB of %s allow at most %g %s", d->spec, d->gib,
				       t->name, model_mbps_in_unit(t, maxm), model_mbps_unit(t));
		return err_set(err, errlen, -EINVAL, "%s: %s allows at most %g %s", d->spec,
			       t->name, model_mbps_in_unit(t, maxm), model_mbps_unit(t));
	}
	if (mbps < t->mbps_min * (1 - 1e-9))
		return err_set(err, errlen, -EINVAL, "%s: at least %g %s must be provisioned",
			       d->spec, model_mbps_in_unit(t, t->mbps_min), model_mbps_unit(t));
	d->mbps = mbps;
	d->iops = clampd(t->iops_per_mbps * model_mbps_in_unit(t, mbps), 0, t->iops_max);
	return 0;
}

/* A whole number with thousands separators, as AWS's pages write their bounds: 16,000. */
static const char *grouped(double v, char *buf, size_t len)
{
	char digits[32];
	size_t n, o = 0;

	snprintf(digits, sizeof(digits), "%.0f", v);
	n = strlen(digits);
	for (size_t k = 0; k < n && o + 2 < len; k++) {
		if (k && (n - k) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[k];
	}
	buf[o] = '\0';
	return buf;
}

/* The page a type's bounds come from: the first quoted title of its source, if any. */
static int source_title(const struct cat_disk *t, const char **title)
{
	const char *a = t->source ? strchr(t->source, '\'') : NULL;
	const char *z = a ? strchr(a + 1, '\'') : NULL;

	*title = z ? a + 1 : "";
	return z ? (int)(z - a - 1) : 0;
}

/*
 * AWS states each provisioned type's range of IOPS and throughput per volume ("gp3: 3,000 -
 * 16,000 IOPS"); a value outside it is refused with the range and the page it is from.
 */
static int aws_range(const struct cat_disk *t, const struct model_disk *d, double req_iops,
		     double req_mbps, char *err, size_t errlen)
{
	double maxm = model_mbps_in_unit(t, t->mbps_max);
	char lo[32], hi[32];
	const char *title;
	int tlen = source_title(t, &title);

	if (!t->provider || strcmp(t->provider, "aws"))
		return 0;
	if (req_iops > 0 && t->iops_min > 0 && t->iops_max > 0 &&
	    (req_iops < t->iops_min || req_iops > t->iops_max))
		return err_set(err, errlen, -EINVAL, "%s: %s takes %s to %s IOPS%s%.*s%s, not %g",
			       d->spec, t->name, grouped(t->iops_min, lo, sizeof(lo)),
			       grouped(t->iops_max, hi, sizeof(hi)), tlen ? " (" : "", tlen, title,
			       tlen ? ")" : "", req_iops);
	if (req_mbps > 0 && t->mbps_min > 0 && t->mbps_max > 0 && !t->throughput_follows_iops &&
	    (req_mbps < model_mbps_in_unit(t, t->mbps_min) * (1 - 1e-9) ||
	     req_mbps > maxm * (1 + 1e-9)))
		return err_set(err, errlen, -EINVAL, "%s: %s takes %s to %s %s%s%.*s%s, not %g",
			       d->spec, t->name,
			       grouped(model_mbps_in_unit(t, t->mbps_min), lo, sizeof(lo)),
			       grouped(maxm, hi, sizeof(hi)), model_mbps_unit(t), tlen ? " (" : "",
			       tlen, title, tlen ? ")" : "", req_mbps);
	return 0;
}

/* Provisioned IOPS and MB/s (mbps in the provider's unit), within what the size allows. */
static int provision(const struct cat_disk *t, const struct cat_vm *vm, double req_iops,
		     double req_mbps, struct model_disk *d, char *err, size_t errlen)
{
	double maxi = model_rule_max_iops(t, vm, d->gib), maxm, minm, mbps = req_mbps;
	/* Where the size bounds the free IOPS too, a small volume has fewer (and needs fewer). */
	double free_iops = t->iops_by_size ? fmin(t->iops, maxi) : t->iops;
	double min_iops = t->iops_by_size ? fmin(t->iops_min, maxi) : t->iops_min;
	int ret;

	if (t->iops_per_mbps > 0)
		return provision_by_mbps(t, req_iops, req_mbps, d, err, errlen);
	if ((ret = aws_range(t, d, req_iops, req_mbps, err, errlen)))
		return ret;
	if (req_iops > maxi) {
		double need = model_rule_min_gib(t, vm, req_iops);

		if (need > d->gib)
			return err_set(err, errlen, -EINVAL, "%s: %.0f IOPS need at least %.0f GiB "
				       "of %s (%.0f GiB allow %.0f)", d->spec, req_iops, need,
				       t->name, d->gib, maxi);
		return err_set(err, errlen, -EINVAL, "%s: %s allows at most %.0f IOPS%s", d->spec,
			       t->name,
			       model_rule_max_iops(t, vm, t->max_gib > 0 ? t->max_gib : 65536),
			       vm && !vm->nitro && t->iops_max_without_nitro > 0 ?
			       " on an instance not built on Nitro" : "");
	}
	d->iops = req_iops > 0 ? req_iops : free_iops > 0 ? free_iops : maxi;
	if (d->iops < min_iops)
		return err_set(err, errlen, -EINVAL, "%s: at least %.0f IOPS must be provisioned",
			       d->spec, min_iops);
	maxm = model_rule_max_mbps(t, d->iops);
	minm = fmax(t->mbps_min, t->mbps_min_per_iops * d->iops);
	if (t->throughput_follows_iops && req_mbps > 0)
		return err_set(err, errlen, -EINVAL, "%s: %s's throughput follows its IOPS (%.0f "
			       "IOPS give %.0f %s); give iops=, not mbps=", d->spec, t->name,
			       d->iops, model_mbps_in_unit(t, maxm), model_mbps_unit(t));
	if (t->mbps_mib)
		mbps *= MIB_MB;
	if (mbps > maxm * (1 + 1e-9))
		return err_set(err, errlen, -EINVAL,
			       "%s: %.0f IOPS allow at most %.0f %s, not %.0f", d->spec, d->iops,
			       model_mbps_in_unit(t, maxm), model_mbps_unit(t), req_mbps);
	if (mbps > 0 && mbps < minm * (1 - 1e-9)) {
		/* The least, rounded up to the hundredth, so it is never below what was refused. */
		double least = ceil(model_mbps_in_unit(t, minm) * 100 - 1e-6) / 100;

		if (t->mbps_min >= t->mbps_min_per_iops * d->iops)
			return err_set(err, errlen, -EINVAL, "%s: at least %g %s must be "
				       "provisioned, not %g", d->spec, least, model_mbps_unit(t),
				       req_mbps);
		return err_set(err, errlen, -EINVAL, "%s: %.0f IOPS need at least %g %s, not %g",
			       d->spec, d->iops, least, model_mbps_unit(t), req_mbps);
	}
	d->mbps = mbps > 0 ? mbps : t->mbps > 0 && !t->throughput_follows_iops ? t->mbps : maxm;
	d->mbps = clampd(d->mbps, minm, 0);
	return 0;
}

/*
 * Per-disk caps of a per-GiB rule: provisioned types (pv2, ultra, gp3, io1/io2, Hyperdisk) take
 * iops= and mbps= within what the size allows; the others (gp2, st1, sc1, PD) derive them. PD's
 * baseline is the VM's, once per type (predict.c adds it): here each disk has its per-GiB share.
 */
static int rule_caps(const struct cat_disk *t, const struct cat_vm *vm, double req_iops,
		     double req_mbps, struct model_disk *d, char *err, size_t errlen)
{
	double g = d->gib;

	if (t->provisioned)
		return provision(t, vm, req_iops, req_mbps, d, err, errlen);
	if (req_iops > 0 || req_mbps > 0)
		return err_set(err, errlen, -EINVAL, "%s: %s derives its performance from its "
			       "size; iops= and mbps= apply to provisioned types (pv2, ultra, "
			       "gp3, io1, io2, hyperdisk-*)", d->spec, t->name);
	d->iops = model_rule_max_iops(t, vm, g);
	if (t->write_iops_per_gib > 0)
		d->write_iops = clampd(t->write_iops_per_gib * g, t->iops_min, t->iops_max);
	if (t->nsteps) {
		for (unsigned i = 0; i < t->nsteps; i++)
			if (g >= t->mbps_steps[i][0])
				d->mbps = t->mbps_steps[i][1];
	} else {
		d->mbps = clampd((t->baseline_per_vm ? 0 : t->mbps) + t->mbps_per_gib * g,
				 t->mbps_min, t->mbps_max);
	}
	if (t->burst_mbps_per_gib > 0)
		d->burst_mbps = clampd(t->burst_mbps_per_gib * g, 0, t->burst_mbps_max);
	return 0;
}

struct spec_kv {
	double iops, mbps;
	bool ondemand;
	enum model_cache cache;
};

static int parse_kv(const char *kv, struct spec_kv *s)
{
	if (!strncasecmp(kv, "iops=", 5))
		return parse_double(kv + 5, 1, 1e9, &s->iops);
	if (!strncasecmp(kv, "mbps=", 5))
		return parse_double(kv + 5, 1, 1e9, &s->mbps);
	if (!strncasecmp(kv, "cache=", 6))
		return model_cache_parse(kv + 6, &s->cache);
	if (!strcasecmp(kv, "burst=ondemand") || !strcasecmp(kv, "burst=on")) {
		s->ondemand = true;
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

static int local_disk(const struct cat_vm *vm, const char *spec, unsigned count, uint64_t size,
		      const struct spec_kv *kv, struct model_disk *d, char *err, size_t errlen)
{
	if (!vm || vm->local_iops <= 0) {
		if (vm && vm->local_gib > 0)
			return err_set(err, errlen, -EINVAL, "%s: %s's temp disk (%.0f GiB) has no "
				       "published limits", spec, vm->name, vm->local_gib);
		return err_set(err, errlen, -EINVAL,
			       "%s: %s has no local disk with published limits", spec,
			       vm ? vm->name : "this VM");
	}
	if (count != 1 || size || kv->iops > 0 || kv->mbps > 0 || kv->cache != MODEL_CACHE_DEFAULT)
		return err_set(err, errlen, -EINVAL, "%s: the local disk takes no count, size, "
			       "iops= or cache=", spec);
	d->local = true;
	d->count = 1;
	d->cache = MODEL_CACHE_NONE;
	d->gib = vm->local_gib;
	d->iops = vm->local_iops;
	d->mbps = vm->local_mbps;
	d->write_mbps = vm->local_write_mbps;
	d->lat_read_ms = d->lat_write_ms = d->lat_cached_ms =
		vm->local_latency_ms > 0 ? vm->local_latency_ms : 0.1;
	return 0;
}

static const struct cat_disk *find_type(const struct catalog *c, const struct cat_vm *vm,
					const char *cat, const char *type, double gib)
{
	const struct cat_disk *t = catalog_find_disk(c, cat, type);

	if (!t && gib > 0)
		t = catalog_find_family(c, cat, type, gib);
	if (!t && cat) {
		t = catalog_find_disk(c, NULL, type);
		if (t && vm && strcmp(t->provider, vm->provider))
			t = NULL;
	}
	return t;
}

static int unknown_type(const struct catalog *c, const char *cat, const char *spec,
			const char *type, char *err, size_t errlen)
{
	char sug[160];

	catalog_suggest(c, "disk", cat, type, sug, sizeof(sug));
	if (!*sug)
		catalog_suggest(c, "disk", NULL, type, sug, sizeof(sug));
	return err_set(err, errlen, -ENOENT, "%s: no disk type '%s'%s%s%s%s%s", spec, type,
		       cat ? " in catalog " : "", cat ? cat : "", *sug ? "; did you mean " : "",
		       *sug ? sug : "", *sug ? "?" : "");
}

/* Fixed sizes: the catalog's figures, or provisioned within the size (iops=). */
static int fixed_caps(const struct catalog *c, const struct cat_vm *vm, const struct cat_disk *t,
		      const struct spec_kv *kv, struct model_disk *d, char *err, size_t errlen)
{
	if (d->gib > t->gib + 1e-9) {
		const struct cat_disk *f = catalog_find_family(c, t->catalog, t->family, d->gib);

		return err_set(err, errlen, -EINVAL, "%s: %s holds %.0f GiB%s%s", d->spec, t->name,
			       t->gib, f ? "; that size needs " : "", f ? f->name : "");
	}
	if (kv->iops > 0 || kv->mbps > 0)
		return rule_caps(t, vm, kv->iops, kv->mbps, d, err, errlen);
	d->gib = t->gib;
	d->iops = t->iops;
	d->mbps = t->mbps;
	return 0;
}

/* Credit bursting (a bucket) or on-demand bursting (raised caps, no bucket). */
static int bursts(const struct cat_disk *t, struct model_disk *d, char *err, size_t errlen)
{
	if (d->ondemand) {
		if (t->ondemand_iops <= 0)
			return err_set(err, errlen, -EINVAL, "%s: %s has no on-demand bursting "
				       "(Premium SSD larger than 512 GiB only)", d->spec, t->name);
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
	return 0;
}

/* Splits SPEC into its type (and catalog, count) and the words after it. */
static int split_spec(const struct catalog *c, char *buf, const char **cat, char **type,
		      unsigned *count, uint64_t *size, struct spec_kv *kv)
{
	char *parts[7], *save = NULL, *tok;
	unsigned np = 0, first = 1;

	for (tok = strtok_r(buf, ":", &save); tok && np < 7; tok = strtok_r(NULL, ":", &save))
		parts[np++] = tok;
	if (!np || tok)
		return -EINVAL;
	*type = parts[0];
	if (split_count(type, count))
		return -EINVAL;
	/* A leading catalog name ("azure-2015:P30") was split off as parts[0]. */
	if (catalog_has(c, *type) && np > 1) {
		*cat = *type;
		*type = parts[1];
		first = 2;
		if (split_count(type, count))
			return -EINVAL;
	}
	for (unsigned i = first; i < np; i++) {
		if (strchr(parts[i], '=') || !strncasecmp(parts[i], "burst", 5)) {
			if (parse_kv(parts[i], kv))
				return -EINVAL;
		} else if (parse_size(parts[i], size) || !*size) {
			return -EINVAL;
		}
	}
	return 0;
}

int model_parse_disk(const struct catalog *c, const struct cat_vm *vm, const char *spec,
		     struct model_disk *d, char *err, size_t errlen)
{
	struct spec_kv kv = {.cache = MODEL_CACHE_DEFAULT};
	const struct cat_disk *t;
	const char *cat = vm ? vm->catalog : NULL;
	char buf[128], *type;
	unsigned count = 1;
	uint64_t size = 0;
	int ret;

	memset(d, 0, sizeof(*d));
	snprintf(d->spec, sizeof(d->spec), "%s", spec);
	if (strlen(spec) >= sizeof(buf))
		goto bad;
	strcpy(buf, spec);
	if (split_spec(c, buf, &cat, &type, &count, &size, &kv))
		goto bad;
	d->count = count;
	d->gib = (double)size / (1 << 30);
	d->ondemand = kv.ondemand;
	if (!strcasecmp(type, "local") || !strcasecmp(type, "temp"))
		return local_disk(vm, spec, count, size, &kv, d, err, errlen);
	if (!(t = find_type(c, vm, cat, type, d->gib)))
		return unknown_type(c, cat, spec, type, err, errlen);
	d->type = t;
	d->cache = kv.cache;
	if (t->rule) {
		/* A value outside AWS's range is wrong at any size: say that first. */
		if (t->provisioned && (ret = aws_range(t, d, kv.iops, kv.mbps, err, errlen)))
			return ret;
		if (!size)
			return err_set(err, errlen, -EINVAL, "%s: %s needs a size, e.g. %s:512GiB",
				       spec, t->name, t->name);
		if (d->gib < t->min_gib || (t->max_gib > 0 && d->gib > t->max_gib))
			return err_set(err, errlen, -EINVAL,
				       "%s: %s sizes go from %.0f to %.0f GiB", spec, t->name,
				       t->min_gib, t->max_gib);
		ret = rule_caps(t, vm, kv.iops, kv.mbps, d, err, errlen);
	} else {
		ret = fixed_caps(c, vm, t, &kv, d, err, errlen);
	}
	if (ret || (ret = bursts(t, d, err, errlen)))
		return ret;
	d->io_unit = t->io_unit_kib * 1024;
	d->lat_read_ms = t->latency_read_ms > 0 ? t->latency_read_ms : 2;
	d->lat_write_ms = t->latency_write_ms > 0 ? t->latency_write_ms : d->lat_read_ms;
	d->lat_cached_ms = t->latency_cached_ms > 0 ? t->latency_cached_ms : d->lat_read_ms;
	d->xfer_mbps = t->transfer_mbps;
	d->xfer_cached_mbps = t->transfer_cached_mbps;
	return 0;
bad:
	return err_set(err, errlen, -EINVAL, "'%s' is not a disk SPEC (expected "
		       "[Nx]TYPE[:SIZE][:iops=N][:mbps=N][:burst=ondemand][:cache=MODE], e.g. "
		       "2xP30, 16xstandard, gp3:1TiB:iops=6000, P30:cache=readonly)", spec);
}

/* Each group's host cache: its own, else the configuration's, else its type's default. */
static int settle_cache(struct model_config *m, struct model_disk *d, char *err, size_t errlen)
{
	const struct cat_vm *vm = m->vm;
	bool own = d->cache != MODEL_CACHE_DEFAULT;

	if (!own && m->cache != MODEL_CACHE_DEFAULT)
		d->cache = m->cache;
	else if (!own)
		d->cache = MODEL_CACHE_NONE;
	if (!own && m->cache == MODEL_CACHE_DEFAULT && d->type->default_cache)
		model_cache_parse(d->type->default_cache, &d->cache);
	if (d->cache == MODEL_CACHE_NONE || (d->type->cache && vm->cache))
		return 0;
	if (own)
		return err_set(err, errlen, -EINVAL,
			       FIELD("disk") " %s: %s does not support host caching", d->spec,
			       !vm->cache ? vm->name : d->type->name);
	return err_set(err, errlen, -EINVAL,
		       FIELD("host-cache") " %s: %s does not support host caching",
		       model_cache_name(d->cache), !vm->cache ? vm->name : d->type->name);
}

static void find_account(const struct catalog *c, struct model_config *m,
			 const struct cat_disk *t)
{
	if (!t->account)
		return;
	for (size_t k = 0; k < c->naccounts; k++)
		if (!strcmp(c->accounts[k].catalog, t->catalog) &&
		    !strcmp(c->accounts[k].name, t->account))
			m->account = &c->accounts[k];
}

/* The disks (with gib, their GiB) of the groups a max_*_by_type key covers. */
static double covered(const struct model_config *m, const char *key, bool gib)
{
	double n = 0;

	for (unsigned i = 0; i < m->ngroups; i++)
		if (!m->disks[i].local && catalog_type_max_covers(key, m->disks[i].type->name))
			n += m->disks[i].count * (gib ? m->disks[i].gib : 1);
	return n;
}

/* What a "prefix*" key's refusal adds: its types are counted together. */
static const char *together(const char *key)
{
	return *key && key[strlen(key) - 1] == '*' ? " together" : "";
}

/* Counts: the local disk alone, one OS disk alone, data disks within the VM's maximum. */
static int check_counts(const struct model_config *m, unsigned ndata, unsigned nlocal,
			unsigned nos, char *err, size_t errlen)
{
	const struct cat_vm *vm = m->vm;

	if (nlocal && (nlocal > 1 || ndata || nos))
		return err_set(err, errlen, -EINVAL, FIELD("disk") " local: the local disk is "
			       "modelled alone, not striped with other disks");
	if (nos > 1 || (nos && ndata))
		return err_set(err, errlen, -EINVAL, FIELD("disk") " os: a VM has one OS disk, a "
			       "volume of its own");
	if (vm->max_disks && ndata > vm->max_disks)
		return err_set(err, errlen, -EINVAL,
			       FIELD("disk") ": %u data disks, but %s takes at most %u", ndata,
			       vm->name, vm->max_disks);
	/*
	 * Limits by disk type (Google's per-series tables), over the groups of each type, or of
	 * every type a "prefix*" entry names (all Hyperdisk volumes together); of disks, then of
	 * GiB (Google: 257 TiB of Hyperdisk below 32 vCPUs, 512 TiB from 32).
	 */
	const struct {
		const struct cat_type_max *t;
		unsigned n;
		bool gib;
	} limits[] = {{.t = vm->type_max, .n = vm->ntype_max, .gib = false},
		      {.t = vm->gib_max, .n = vm->ngib_max, .gib = true}};

	for (unsigned l = 0; l < 2; l++)
		for (unsigned k = 0; k < limits[l].n; k++) {
			const struct cat_type_max *t = &limits[l].t[k];
			bool gib = limits[l].gib;
			double n = covered(m, t->type, gib);

			if (n <= t->max)
				continue;
			if (!t->max && !gib)
				return err_set(err, errlen, -EINVAL,
					       FIELD("disk") ": %s takes no %s disks", vm->name,
					       t->type);
			return err_set(err, errlen, -EINVAL, FIELD("disk") ": %.0f %s%s disks%s, "
				       "but %s takes at most %u%s", n, gib ? "GiB of " : "",
				       t->type, together(t->type), vm->name, t->max,
				       gib ? " GiB" : "");
		}
	return 0;
}

int model_check_controller(const struct model_config *m, char *err, size_t errlen)
{
	const struct cat_vm *vm = m->vm;

	/* A controller changes the caps only where the size publishes a column per controller. */
	if (m->controller && !vm->controllers)
		return err_set(err, errlen, -EINVAL, FIELD("controller") ": %s publishes no caps "
			       "by disk controller; its caps apply whichever it uses", vm->name);
	if (m->controller && !catalog_vm_takes_controller(vm, m->controller))
		return err_set(err, errlen, -EINVAL, FIELD("controller") ": %s takes no %s "
			       "controller (it takes %s only)", vm->name, m->controller,
			       vm->controller);
	return 0;
}

int model_check(const struct catalog *c, struct model_config *m, char *err, size_t errlen)
{
	const struct cat_vm *vm = m->vm;
	unsigned ndata = 0, nlocal = 0, nos = 0;
	enum model_cache summary = MODEL_CACHE_NONE;
	int ret;

	if (!m->ngroups)
		return err_set(err, errlen, -EINVAL, FIELD("disk") ": at least one disk is needed "
			       "(e.g. " FIELD("disk") " 2xP30)");
	if (!(m->read_hit >= 0 && m->read_hit <= 100))
		return err_set(err, errlen, -EINVAL,
			       FIELD("read-hit") ": a percentage from 0 to 100");
	if ((ret = model_check_controller(m, err, errlen)))
		return ret;
	m->account = NULL;
	for (unsigned i = 0; i < m->ngroups; i++) {
		struct model_disk *d = &m->disks[i];

		if (d->local) {
			nlocal++;
			continue;
		}
		if (d->type->os)
			nos += d->count;
		else
			ndata += d->count;
		if (d->type->block_express && !vm->block_express)
			return err_set(err, errlen, -EINVAL, FIELD("disk") " %s: %s runs on EBS "
				       "Block Express, which %s does not support (io2 does)",
				       d->spec, d->type->name, vm->name);
		if (d->type->premium && !vm->premium)
			return err_set(err, errlen, -EINVAL, FIELD("disk") " %s: %s is a premium "
				       "disk and %s does not take premium storage (use an 's' "
				       "size such as DS3 or GS2)", d->spec, d->type->name,
				       vm->name);
		if ((ret = settle_cache(m, d, err, errlen)))
			return ret;
		if (summary == MODEL_CACHE_NONE)
			summary = d->cache;
		find_account(c, m, d->type);
	}
	m->cache = summary;
	return check_counts(m, ndata, nlocal, nos, err, errlen);
}
