/*
 * 'iorate catalog import': recognise which CLI printed a file, compare what it gives with the
 * built-in catalog, and merge what is new into the user's catalog directory (import.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/gate.h"
#include "core/json_in.h"
#include "model/import_int.h"
#include "util/err.h"
#include "util/jsonout.h"

static const char *const providers[IMPORT_NPROVIDERS] = {"azure", "aws", "gcp"};

static const char *const formats[IMPORT_NPROVIDERS] = {
	"az vm list-skus --output json",
	"aws ec2 describe-instance-types --output json",
	"gcloud compute machine-types list --format=json",
};

const char *import_provider_name(enum import_provider p)
{
	return p < IMPORT_NPROVIDERS ? providers[p] : "?";
}

int import_init(struct import *im, const char *date)
{
	memset(im, 0, sizeof(*im));
	im->date = date;
	for (int p = 0; p < IMPORT_NPROVIDERS; p++)
		if (!(im->vms[p] = json_array()) || !(im->disks[p] = json_array()) ||
		    !(im->vm_names[p] = json_object()) || !(im->disk_names[p] = json_object()))
			return -ENOMEM;
	return 0;
}

/* Which CLI printed root; -EINVAL (saying what was expected) when none did. */
static int detect(json_t *root, const char *name, enum import_provider *p, char *err,
		  size_t errlen)
{
	json_t *first = json_array_get(root, 0);

	if (json_is_object(root) && json_object_get(root, "InstanceTypes"))
		*p = IMPORT_AWS;
	else if (json_is_object(first) && json_object_get(first, "resourceType"))
		*p = IMPORT_AZURE;
	else if (json_is_object(first) && (json_object_get(first, "guestCpus") ||
					   json_object_get(first, "memoryMb")))
		*p = IMPORT_GCP;
	else
		return err_set(err, errlen, -EINVAL,
			       "%s: %s: expected what '%s', '%s' or '%s' prints", name,
			       json_is_array(root) && !json_array_size(root) ? "an empty list" :
			       "not a provider CLI's output", formats[0], formats[1], formats[2]);
	return 0;
}

static int append_all(json_t *to, json_t *names, json_t *from)
{
	json_t *e;
	size_t i;
	int ret;

	json_array_foreach(from, i, e)
		if ((ret = import_add(to, names, json_incref(e))))
			return ret;
	return 0;
}

int import_text(struct import *im, const char *name, const char *text, char *err,
		size_t errlen)
{
	static int (*const readers[IMPORT_NPROVIDERS])(json_t *, struct import_batch *) = {
		import_azure, import_aws, import_gcp,
	};
	char source[512];
	json_error_t je;
	json_t *root = json_loads(text, 0, &je);
	struct import_batch b = {.file = name, .source = source, .date = im->date, .err = err,
				 .errlen = errlen};
	struct import_file *f;
	enum import_provider p = IMPORT_AZURE;
	int ret;

	if (!root)
		return err_set(err, errlen, -EINVAL, "%s:%d:%d: %s", name, je.line, je.column,
			       je.text);
	if ((ret = detect(root, name, &p, err, errlen)))
		goto out;
	snprintf(source, sizeof(source), "imported from %s on %s (%s)", name, im->date, formats[p]);
	ret = -ENOMEM;
	if (!(b.vm_names = json_object()) || !(b.disk_names = json_object()) ||
	    !(b.vms = json_array()) || !(b.disks = json_array()) ||
	    !(f = realloc(im->files, (im->nfiles + 1) * sizeof(*f))))
		goto out;
	im->files = f;
	if ((ret = readers[p](root, &b)) ||
	    (ret = append_all(im->vms[p], im->vm_names[p], b.vms)) ||
	    (ret = append_all(im->disks[p], im->disk_names[p], b.disks)))
		goto out;
	im->files[im->nfiles++] = (struct import_file){
		.path = name, .provider = p, .format = formats[p],
		.vms = (unsigned)json_array_size(b.vms), .disks = (unsigned)json_array_size(b.disks),
		.skipped = b.skipped};
out:
	json_decref(b.vms);
	json_decref(b.disks);
	json_decref(b.vm_names);
	json_decref(b.disk_names);
	json_decref(root);
	return ret;
}

/* ---- comparison with the built-in catalog ---- */

enum ctype { C_NUM, C_UINT, C_FLAG };

struct cmp {
	const char *key, *unit;
	enum ctype type;
	size_t off;
};

#define CV(f, t, u) {.key = #f, .unit = u, .type = t, .off = offsetof(struct cat_vm, f)}
static const struct cmp vm_cmp[] = {
	CV(vcpus, C_UINT, "vCPUs"), CV(mem_gib, C_NUM, "GiB"), CV(max_disks, C_UINT, "disks"),
	CV(premium, C_FLAG, ""), CV(cache, C_FLAG, ""), CV(nitro, C_FLAG, ""),
	CV(uncached_iops, C_NUM, "IOPS"), CV(uncached_mbps, C_NUM, "MB/s"),
	CV(cached_iops, C_NUM, "IOPS"), CV(cached_mbps, C_NUM, "MB/s"),
	CV(cache_gib, C_NUM, "GiB"), CV(local_gib, C_NUM, "GiB"), CV(local_iops, C_NUM, "IOPS"),
	CV(local_mbps, C_NUM, "MB/s"), CV(local_write_mbps, C_NUM, "MB/s"),
	CV(local_shares_cache, C_FLAG, ""), CV(burst_iops, C_NUM, "IOPS"),
	CV(burst_mbps, C_NUM, "MB/s"), CV(burst_seconds, C_NUM, "s"), {.key = NULL},
};

#define CD(f, t, u) {.key = #f, .unit = u, .type = t, .off = offsetof(struct cat_disk, f)}
static const struct cmp disk_cmp[] = {
	CD(gib, C_NUM, "GiB"), CD(iops, C_NUM, "IOPS"), CD(mbps, C_NUM, "MB/s"),
	CD(burst_iops, C_NUM, "IOPS"), CD(burst_mbps, C_NUM, "MB/s"), CD(premium, C_FLAG, ""),
	CD(cache, C_FLAG, ""), {.key = NULL},
};

static double value(const void *entry, const struct cmp *c)
{
	const char *p = (const char *)entry + c->off;

	return c->type == C_NUM ? *(const double *)p : c->type == C_UINT ?
	       *(const unsigned *)p : *(const bool *)p;
}

static bool differs(double a, double b)
{
	return fabs(a - b) > 1e-9 * fmax(fabs(a), fabs(b)) + 1e-12;
}

/* Records each figure the imported entry gives that the built-in one gives otherwise. */
static int compare_entry(struct import *im, enum import_provider p, json_t *e,
			 const void *mine, const void *theirs, const struct cmp *tab,
			 const char *name)
{
	unsigned n = 0;

	for (const struct cmp *c = tab; c->key; c++) {
		double a = value(mine, c), b = value(theirs, c);
		struct import_conflict *k;

		if (!json_object_get(e, c->key) || !differs(a, b))
			continue;
		/* Compared in one unit: 152.04352 MB/s is the page's 145 read as MiB/s. */
		bool unit_only = !strcmp(c->unit, "MB/s") && b > 0 && !differs(a / 1.048576, b);

		if (!(k = realloc(im->conflicts, (im->nconflicts + 1) * sizeof(*k))))
			return -ENOMEM;
		im->conflicts = k;
		k += im->nconflicts++;
		*k = (struct import_conflict){.provider = p, .unit = c->unit, .builtin = b,
			.imported = a, .builtin_missing = c->type != C_FLAG && b == 0,
			.unit_only = unit_only};
		snprintf(k->name, sizeof(k->name), "%s", name);
		snprintf(k->field, sizeof(k->field), "%s", c->key);
		im->nunit_only += unit_only;
		n += !unit_only;
	}
	return (int)n;
}

/* The entries of one provider as the catalog reads them (units converted), in tmp. */
static int load_provider(struct catalog *tmp, struct import *im, enum import_provider p,
			 char *err, size_t errlen)
{
	json_t *doc = json_pack("{s:s, s:s, s:O, s:O}", "catalog", providers[p], "provider",
				providers[p], "vms", im->vms[p], "disks", im->disks[p]);
	char *text = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
	int ret = text ? catalog_load_text(tmp, formats[p], text, err, errlen) : -ENOMEM;

	free(text);
	json_decref(doc);
	return ret;
}

/* GCP machine types whose series has no rules: their per-VM caps are unknown. */
static void note_seriesless(struct import *im, const struct catalog *builtin, const char *name)
{
	size_t len = strlen(im->seriesless);

	if (catalog_find_series(builtin, "gcp", name))
		return;
	if (im->nseriesless++ < 4)
		snprintf(im->seriesless + len, sizeof(im->seriesless) - len, "%s%s",
			 len ? ", " : "", name);
}

/* Compares one list (vms or disks) of one provider; keeps the new entries only. */
static int compare_list(struct import *im, const struct catalog *builtin,
			const struct catalog *tmp, enum import_provider p, bool vm)
{
	json_t *list = vm ? im->vms[p] : im->disks[p], *kept = json_array(), *e;
	size_t i, k = 0;
	int ret = 0;

	if (!kept)
		return -ENOMEM;
	json_array_foreach(list, i, e) {
		const char *name = json_string_value(json_object_get(e, "name"));
		const void *mine = NULL, *theirs;

		/* The temporary catalog holds the same entries in the same order. */
		for (; k < (vm ? tmp->nvms : tmp->ndisks) && !mine; k++)
			if (catalog_name_eq(vm ? tmp->vms[k].name : tmp->disks[k].name, name))
				mine = vm ? (const void *)&tmp->vms[k] :
					    (const void *)&tmp->disks[k];
		theirs = vm ? (const void *)catalog_find_vm(builtin, providers[p], name) :
			      (const void *)catalog_find_disk(builtin, providers[p], name);
		if (!theirs || !mine) {
			if (vm && p == IMPORT_GCP)
				note_seriesless(im, builtin, name);
			im->nnew++;
			if (json_array_append(kept, e))
				ret = -ENOMEM;
			continue;
		}
		if ((ret = compare_entry(im, p, e, mine, theirs, vm ? vm_cmp : disk_cmp, name)) < 0)
			break;
		ret > 0 ? im->ndiffer++ : im->nsame++;
		ret = 0;
	}
	if (!ret) {
		json_array_clear(list);
		ret = json_array_extend(list, kept) ? -ENOMEM : 0;
	}
	json_decref(kept);
	return ret;
}

int import_compare(struct import *im, const struct catalog *builtin, char *err, size_t errlen)
{
	int ret = 0;

	for (int p = 0; p < IMPORT_NPROVIDERS && !ret; p++) {
		struct catalog tmp = {0};

		if (!json_array_size(im->vms[p]) && !json_array_size(im->disks[p]))
			continue;
		if (!(ret = load_provider(&tmp, im, p, err, errlen)) &&
		    !(ret = compare_list(im, builtin, &tmp, p, true)))
			ret = compare_list(im, builtin, &tmp, p, false);
		catalog_release(&tmp);
	}
	return ret;
}

/* ---- the user's catalog files ---- */

int import_mkdirs(const char *dir, char *err, size_t errlen)
{
	char *path = strdup(dir);
	int ret = 0;

	if (!path)
		return -ENOMEM;
	for (char *s = path + 1; !ret; s++) {
		bool end = !*s;

		if (*s != '/' && !end)
			continue;
		*s = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			ret = err_set(err, errlen, -errno, "cannot create %s: %s", path,
				      strerror(errno));
		if (end)
			break;
		*s = '/';
	}
	free(path);
	return ret;
}

/* Entries of from into the list key of doc, replacing those of the same name. */
static int merge_list(json_t *doc, const char *key, json_t *from, unsigned *replaced)
{
	json_t *list = json_object_get(doc, key), *names = json_object(), *e, *at;
	size_t i;
	char *k = NULL;
	int ret = -ENOMEM;

	if (!names)
		return -ENOMEM;
	if (!list && (json_object_set_new(doc, key, list = json_array()) || !list))
		goto out;
	/* The earlier import's names, indexed once: each new entry is then a lookup. */
	json_array_foreach(list, i, e) {
		if (!(k = import_name_key(json_string_value(json_object_get(e, "name")))))
			goto out;
		if (!json_object_get(names, k) &&
		    json_object_set_new_nocheck(names, k, json_integer((json_int_t)i)))
			goto out;
		free(k);
		k = NULL;
	}
	json_array_foreach(from, i, e) {
		if (!(k = import_name_key(json_string_value(json_object_get(e, "name")))))
			goto out;
		if ((at = json_object_get(names, k))) {
			if (json_array_set(list, (size_t)json_integer_value(at), e))
				goto out;
			(*replaced)++;
		} else {
			json_t *end = json_integer((json_int_t)json_array_size(list));
			if (json_object_set_new_nocheck(names, k, end) ||
			    json_array_append(list, e))
				goto out;
		}
		free(k);
		k = NULL;
	}
	ret = 0;
out:
	free(k);
	json_decref(names);
	return ret;
}

/* What an earlier import wrote at path, or a new document; NULL when it cannot be read. */
static json_t *existing(const char *path, enum import_provider p, char *err, size_t errlen)
{
	json_error_t je;
	json_t *doc = json_input_load(path, JSON_REJECT_DUPLICATES, &je), *v;
	const char *why = NULL;

	if (!doc && access(path, F_OK) && errno == ENOENT)
		doc = json_object();
	else if (!doc)
		why = je.text;
	else if (!json_is_object(doc))
		why = "expected a JSON object";
	else if (doc && (((v = json_object_get(doc, "vms")) && !json_is_array(v)) ||
			 ((v = json_object_get(doc, "disks")) && !json_is_array(v))))
		why = "'vms' and 'disks' must be arrays";
	if (why) {
		(void)err_set(err, errlen, -EINVAL,
			      "%s: %s (an earlier import's file: fix or remove it)", path, why);
		json_decref(doc);
		return NULL;
	}
	if (doc && (json_object_set_new(doc, "catalog", json_string(providers[p])) ||
		    json_object_set_new(doc, "provider", json_string(providers[p])) ||
		    json_object_set_new(doc, "title", json_string("imported from the provider's "
			"CLI by 'iorate catalog import'")))) {
		json_decref(doc);
		doc = NULL;
	}
	return doc;
}

static int write_doc(const char *path, json_t *doc, char *err, size_t errlen)
{
	struct gate_out o;
	int ret;

	if ((ret = gate_out_open(&o, "catalog import", path, err, errlen)))
		return ret;
	/* Figures in the shortest form that reads back the same: 100.663296, not ...0001. */
	if ((ret = jsonout_dumpf(doc, o.f, JSON_INDENT(1))) || fputc('\n', o.f) == EOF) {
		gate_out_abort(&o);
		/* A document that could not be formatted (no memory) is no write error. */
		return err_set(err, errlen, ret == -ENOMEM ? ret : -EIO,
			       "catalog import: %s: cannot write", path);
	}
	return gate_out_commit(&o, err, errlen);
}

int import_write(struct import *im, const char *dir, char *err, size_t errlen)
{
	int ret = 0;

	for (int p = 0; p < IMPORT_NPROVIDERS && !ret; p++) {
		char *path = NULL;
		json_t *doc;

		if (!json_array_size(im->vms[p]) && !json_array_size(im->disks[p]))
			continue;
		if ((ret = import_mkdirs(dir, err, errlen)))
			break;
		if (asprintf(&path, "%s/imported-%s.json", dir, providers[p]) < 0)
			return -ENOMEM;
		if (!(doc = existing(path, p, err, errlen)))
			ret = -EINVAL;
		else if (!(ret = merge_list(doc, "vms", im->vms[p], &im->nreplaced)) &&
			 !(ret = merge_list(doc, "disks", im->disks[p], &im->nreplaced)) &&
			 !(ret = write_doc(path, doc, err, errlen)))
			im->written[p] = path, path = NULL;
		json_decref(doc);
		free(path);
	}
	return ret;
}

void import_release(struct import *im)
{
	if (!im)
		return;
	for (int p = 0; p < IMPORT_NPROVIDERS; p++) {
		json_decref(im->vms[p]);
		json_decref(im->disks[p]);
		json_decref(im->vm_names[p]);
		json_decref(im->disk_names[p]);
		free(im->written[p]);
	}
	free(im->files);
	free(im->conflicts);
	memset(im, 0, sizeof(*im));
}
