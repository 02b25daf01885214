/* iorate catalog: lists the disk types, VM sizes and prices the model knows, with sources. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "cmd/model_common.h"
#include "model/config.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: iorate catalog list [CATALOG] [options]\n"
"       iorate catalog show NAME [options]\n"
"\n"
"list: the catalogs, or the VM sizes, disk types and accounts of one catalog.\n"
"show: every field of a VM size or disk type (NAME or CATALOG:NAME), with source and date.\n"
"  --catalog FILE      add or override entries (repeatable)      --catalog mine.json\n"
"  --json              JSON on stdout                            --json\n"
"  -h, --help          this text\n"
"\n"
"Examples:\n"
"  iorate catalog list\n"
"  iorate catalog list azure-2015\n"
"  iorate catalog show azure-2015:DS14\n"
"  iorate catalog show P20 --json\n");
}

static const struct option options[] = {
	MO_OPT_CATALOG, MO_OPT_JSON, MO_OPT_HELP, {NULL, 0, NULL, 0},
};

/* The entry as written in its catalog file: every field, source and date included. */
static json_t *entry_json(const struct catalog *c, const char *list, const char *cat,
			  const char *name)
{
	for (size_t i = 0; i < c->nroots; i++) {
		json_t *root = c->roots[i], *e;
		size_t k;

		if (!json_is_object(root) ||
		    strcmp(json_string_value(json_object_get(root, "catalog")) ?: "", cat))
			continue;
		json_array_foreach(json_object_get(root, list), k, e)
			if (catalog_name_eq(json_string_value(json_object_get(e, "name")), name))
				return e;
	}
	return NULL;
}

int cmd_catalog(int argc, char **argv)
{
	struct model_opts mo;
	struct catalog c;
	int o, ret = 0;

	model_opts_init(&mo, "catalog", usage);
	optind = 0;
	/* getopt moves the words (list, show NAME) after the options, wherever they were given. */
	while ((o = model_getopt(&mo, argc, argv, "h", options)) != -1)
		if ((ret = model_opts_take(&mo, o, optarg)) || mo.help)
			return ret;
	char *words[3];
	int nw = 0;

	for (int i = optind; i < argc && nw < 3; i++)
		words[nw++] = argv[i];
	if (!nw || (strcmp(words[0], "list") && strcmp(words[0], "show")))
		return usage_error("catalog: expected 'list [CATALOG]' or 'show NAME' (see 'iorate "
				   "catalog --help')");
	if ((ret = model_opts_catalog(&mo, &c)))
		goto out;
	if (!strcmp(words[0], "show")) {
		const struct cat_vm *vm;
		const struct cat_disk *d;
		json_t *e = NULL;

		if (nw != 2) {
			ret = usage_error("catalog show: expected one NAME (e.g. azure-2015:DS14)");
			goto out;
		}
		if ((vm = catalog_find_vm(&c, NULL, words[1])))
			e = entry_json(&c, "vms", vm->catalog, vm->name);
		else if ((d = catalog_find_disk(&c, NULL, words[1])))
			e = entry_json(&c, "disks", d->catalog, d->name);
		if (!e) {
			char s1[160], s2[160];

			catalog_suggest(&c, "vm", NULL, words[1], s1, sizeof(s1));
			catalog_suggest(&c, "disk", NULL, words[1], s2, sizeof(s2));
			ret = usage_error("catalog show: no VM size or disk type '%s'%s%s%s%s%s",
					  words[1], *s1 || *s2 ? "; did you mean " : "", s1,
					  *s1 && *s2 ? ", " : "", s2, *s1 || *s2 ? "?" : "");
			goto out;
		}
		json_t *copy = json_deep_copy(e);

		json_object_set_new(copy, "catalog", json_string(vm ? vm->catalog : d->catalog));
		json_dumpf(copy, stdout, JSON_INDENT(2) | (mo.json ? 0 : JSON_PRESERVE_ORDER));
		putchar('\n');
		json_decref(copy);
		goto out;
	}
	const char *only = nw > 1 ? words[1] : NULL;

	if (only && !catalog_has(&c, only)) {
		ret = usage_error("catalog list: no catalog '%s'", only);
		goto out;
	}
	if (mo.json) {
		json_t *a = json_array();

		for (size_t i = 0; i < c.nvms; i++)
			if (!only || !strcmp(only, c.vms[i].catalog))
				json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s, s:s}", "kind",
					"vm", "catalog", c.vms[i].catalog, "name", c.vms[i].name,
					"source", c.vms[i].source, "date", c.vms[i].date));
		for (size_t i = 0; i < c.ndisks; i++)
			if (!only || !strcmp(only, c.disks[i].catalog))
				json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s, s:s}", "kind",
					"disk", "catalog", c.disks[i].catalog, "name", c.disks[i].name,
					"source", c.disks[i].source, "date", c.disks[i].date));
		json_dumpf(a, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(a);
		goto out;
	}
	for (size_t n = 0; n < c.nnames; n++) {
		const char *cat = c.names[n];
		unsigned nv = 0, nd = 0;

		if (only && strcmp(only, cat))
			continue;
		for (size_t i = 0; i < c.nvms; i++)
			nv += !strcmp(c.vms[i].catalog, cat);
		for (size_t i = 0; i < c.ndisks; i++)
			nd += !strcmp(c.disks[i].catalog, cat);
		if (!nv && !nd)
			continue; /* the price list */
		printf("%s: %u VM sizes, %u disk types\n", cat, nv, nd);
		if (!only)
			continue;
		printf("  VM sizes:\n");
		for (size_t i = 0; i < c.nvms; i++) {
			const struct cat_vm *v = &c.vms[i];

			if (!strcmp(v->catalog, cat))
				printf("    %-12s %3u vCPU %4u disks  uncached %7.0f IOPS %6.0f MB/s  "
				       "(%s)\n", v->name, v->vcpus, v->max_disks, v->uncached_iops,
				       v->uncached_mbps, v->date);
		}
		printf("  disk types:\n");
		for (size_t i = 0; i < c.ndisks; i++) {
			const struct cat_disk *d = &c.disks[i];

			if (strcmp(d->catalog, cat))
				continue;
			if (d->rule)
				printf("    %-12s per-GiB rule (%s)  (%s)\n", d->name,
				       d->provisioned ? "provisioned" : "by size", d->date);
			else
				printf("    %-12s %6.0f GiB %7.0f IOPS %6.0f MB/s  (%s)\n", d->name,
				       d->gib, d->iops, d->mbps, d->date);
		}
		for (size_t i = 0; i < c.naccounts; i++)
			if (!strcmp(c.accounts[i].catalog, cat))
				printf("  account %s: %.0f IOPS  (%s)\n", c.accounts[i].name,
				       c.accounts[i].iops, c.accounts[i].date);
	}
	if (!only)
		printf("prices: %zu entries ('iorate catalog list CATALOG' for details)\n", c.nprices);
out:
	catalog_release(&c);
	return ret;
}
