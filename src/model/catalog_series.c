/*
 * Machine series: a provider's caps by disk family and vCPU count, written once per series
 * (docs/catalog.md, "series") and given to every VM of the series that states no caps of its
 * own, whether the VM is built in, from --catalog or imported from a CLI that prints only vCPUs
 * and memory (gcloud compute machine-types list).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "model/catalog.h"
#include "model/catalog_int.h"
#include "util/err.h"


#define ROW(f, ty) {.key = #f, .type = ty, .off = offsetof(struct cat_series_row, caps.f)}
static const struct field row_fields[] = {
	ROW(family, F_STR), ROW(iops, F_NUM), ROW(write_iops, F_NUM), ROW(mbps, F_MB),
	ROW(write_mbps, F_MB),
	{.key = "vcpus_min", .type = F_UINT, .off = offsetof(struct cat_series_row, vcpus_min)},
	{.key = "vcpus_max", .type = F_UINT, .off = offsetof(struct cat_series_row, vcpus_max)},
	{.key = "units", .type = F_SKIP}, {.key = NULL},
};

static const struct field series_fields[] = {
	FD(cat_series, name, F_STR), FD(cat_series, source, F_STR), FD(cat_series, date, F_STR),
	FD(cat_series, note, F_STR), FD(cat_series, max_disks, F_UINT),
	{.key = "caps", .type = F_SKIP},
	{.key = "units", .type = F_SKIP}, {.key = NULL},
};

/* One row of "caps"; a row without "units" takes the series' own. */
static int load_row(struct cat_series *s, json_t *series, json_t *o, const char *file,
		    const char *what, size_t k, char *err, size_t errlen)
{
	struct cat_series_row *r;
	char sub[160];
	int ret;

	snprintf(sub, sizeof(sub), "%s caps[%zu]", what, k);
	if (!json_is_object(o))
		return err_set(err, errlen, -EINVAL, "%s: %s: expected an object", file, sub);
	if ((ret = catalog_grow((void **)&s->rows, s->nrows, sizeof(*r))))
		return ret;
	r = &s->rows[s->nrows];
	if ((ret = catalog_read_fields(o, row_fields, r, file, sub, err, errlen)) ||
	    (ret = catalog_need(r->caps.family, "family", file, sub, err, errlen)))
		return ret;
	if (!r->vcpus_max)
		r->vcpus_max = 1000000;
	if (r->vcpus_min > r->vcpus_max)
		return err_set(err, errlen, -EINVAL, "%s: %s: field 'vcpus_min': above vcpus_max",
			       file, sub);
	r->caps.mib = catalog_field_mib(o, "mbps");
	if (!json_object_get(o, "units") && catalog_field_mib(series, "mbps")) {
		r->caps.mbps *= MIB_MB;
		r->caps.write_mbps *= MIB_MB;
		r->caps.mib = true;
	}
	r->caps.source = s->source;
	s->nrows++;
	return 0;
}

int catalog_load_series(struct catalog *c, json_t *o, const char *cat, const char *file,
			size_t i, char *err, size_t errlen)
{
	struct cat_series *s;
	char what[96];
	json_t *row;
	size_t k;
	int ret;

	catalog_entry_name(what, sizeof(what), "series", i, o);
	if (!json_is_object(o))
		return err_set(err, errlen, -EINVAL, "%s: %s: expected an object", file, what);
	if ((ret = catalog_grow((void **)&c->series, c->nseries, sizeof(*s))))
		return ret;
	s = &c->series[c->nseries];
	s->catalog = cat, s->file = file, s->json = o, s->layer = c->layer;
	/* Counted before the rows are read, so that catalog_release frees them on error too. */
	c->nseries++;
	if ((ret = catalog_read_fields(o, series_fields, s, file, what, err, errlen)) ||
	    (ret = catalog_need(s->name, "name", file, what, err, errlen)) ||
	    (ret = catalog_need(s->source, "source", file, what, err, errlen)) ||
	    (ret = catalog_need(s->date, "date", file, what, err, errlen)))
		return ret;
	if (!json_is_array(json_object_get(o, "caps")))
		return err_set(err, errlen, -EINVAL,
			       "%s: %s: field 'caps': expected an array of rows", file, what);
	json_array_foreach(json_object_get(o, "caps"), k, row)
		if ((ret = load_row(s, o, row, file, what, k, err, errlen)))
			return ret;
	return 0;
}

/* "n2" of "n2-highmem-8": the name up to its first '-'. */
static bool of_series(const char *vm, const char *series)
{
	size_t n = strlen(series);

	return !strncasecmp(vm, series, n) && vm[n] == '-';
}

const struct cat_series *catalog_find_series(const struct catalog *c, const char *catalog,
					     const char *vm_name)
{
	for (size_t i = 0; i < c->nseries; i++)
		if ((!catalog || !strcmp(c->series[i].catalog, catalog)) &&
		    of_series(vm_name, c->series[i].name))
			return &c->series[i];
	return NULL;
}

void catalog_finish(struct catalog *c)
{
	for (size_t i = 0; i < c->nvms; i++) {
		struct cat_vm *v = &c->vms[i];
		const struct cat_series *s;

		if (v->nfcaps || v->series || !(s = catalog_find_series(c, v->catalog, v->name)))
			continue;
		for (size_t k = 0; k < s->nrows && v->nfcaps < 8; k++)
			if (v->vcpus >= s->rows[k].vcpus_min && v->vcpus <= s->rows[k].vcpus_max)
				v->fcaps[v->nfcaps++] = s->rows[k].caps;
		if (!v->max_disks)
			v->max_disks = s->max_disks;
		v->series = s->name;
	}
}
