/*
 * libFuzzer target: a user catalog of any content is loaded or refused with a message; what
 * loads is then used as --catalog entries are: looked up by name, and every VM with every disk
 * (a size for per-GiB rules) resolved and predicted; a small one also becomes the data of the
 * cost calculator page, whose escaped text may hold no '<', '>' or '&'. Then the same document
 * is laid over it as an installed catalog is over the built-in one (each entry replacing its
 * namesake, differences kept as conflicts), and used again. make fuzz seeds it with the
 * built-in catalogs (data/catalog), so mutations start from documents past the JSON syntax.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/catalog.h"
#include "model/config.h"
#include "report/calc_html.h"
#include "report/model_fmt.h"
#include "fuzz_util.h"

/* At most this many VMs and disks are combined, so a large catalog stays fast. */
#define MAX_EACH 4

static void use(const struct catalog *c)
{
	const struct model_workload w = {.bs = 65536, .write_pct = 30, .threads = 4, .depth = 8};
	char sug[160], err[512];

	for (size_t v = 0; v < c->nvms && v < MAX_EACH; v++) {
		const struct cat_vm *vm = &c->vms[v];

		if (catalog_find_vm(c, vm->catalog, vm->name) == NULL)
			abort(); /* an entry is found by its own name */
		catalog_suggest(c, "vm", NULL, vm->name, sug, sizeof(sug));
		for (size_t d = 0; d < c->ndisks && d < MAX_EACH; d++) {
			const struct cat_disk *t = &c->disks[d];
			char spec[200], name[256];
			struct model_config m;
			struct model_result r;
			char *s = spec;

			snprintf(spec, sizeof(spec), "%s:%s%s", t->catalog, t->name,
				 t->rule ? ":100GiB" : "");
			if (model_config_resolve(c, vm->name, vm->catalog, &s, 1, MODEL_CACHE_NONE,
						 &m, err, sizeof(err)))
				continue;
			model_fmt_config_name(&m, name, sizeof(name));
			struct model_report mr = {.config = &m, .workload = &w, .result = &r};
			if (model_predict(&m, &w, 3600, &r) == 0)
				json_decref(model_fmt_prediction_json(&mr));
		}
	}
	for (size_t d = 0; d < c->ndisks && d < MAX_EACH; d++)
		catalog_suggest(c, "disk", NULL, c->disks[d].name, sug, sizeof(sug));
}

/* The calculator page's data: every VM with every disk choice, so only a small catalog. */
static void page(const struct catalog *c)
{
	struct calc_page p = {.cat = c, .upload = {.write_per_10k = -1, .per_gb_month = -1},
			      .config = {.vm_hour = -1, .disk_month = -1}, .now = 1767225600};
	json_t *d;
	char *text;

	if (c->nvms > 8 || c->ndisks > 8 || c->nprices > 32 || !(d = calc_data(&p)))
		return;
	text = calc_json_for_script(d);
	if (text && strpbrk(text, "<>&"))
		abort(); /* a catalog string could end the <script> element */
	free(text);
	json_decref(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size), err[512] = "";
	struct catalog c;

	if (!text)
		abort();
	memset(&c, 0, sizeof(c));
	if (catalog_load_text(&c, "fuzz.json", text, err, sizeof(err)) == 0) {
		use(&c);
		page(&c);
		c.layer = CAT_INSTALLED;
		if (catalog_load_layer_text(&c, "installed.json", text, err, sizeof(err)))
			abort(); /* what loaded once loads again */
		catalog_finish(&c);
		use(&c);
	} else if (!err[0]) {
		abort(); /* a refusal always says why */
	}
	catalog_release(&c);
	free(text);
	return 0;
}
