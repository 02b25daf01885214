/*
 * libFuzzer target: `--vm`, `--provider`, `--cache` and `--disk` of the model commands against
 * the built-in catalog, then a prediction for the configuration when it resolves. The input is
 * lines: VM, provider (empty for none), cache mode, then one disk SPEC a line ("2xP30",
 * "gp3:500GiB:iops=3000"), as many as the command line would take.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/model_common.h"
#include "model/config.h"
#include "report/model_fmt.h"
#include "fuzz_util.h"

static struct catalog cat;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char err[512];

	if (catalog_load_builtin(&cat, err, sizeof(err)))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct model_workload loads[] = {
		{.bs = 4096, .write_pct = 0, .threads = 1, .depth = 32},
		{.bs = 1 << 20, .write_pct = 100, .sequential = true, .threads = 4, .depth = 8},
		{.bs = 8192, .write_pct = 30, .threads = 16, .depth = 1},
	};
	char *text = fuzz_cstr(data, size), *line[3 + MODEL_MAX_GROUPS + 1];
	enum model_cache cache = MODEL_CACHE_NONE;
	struct model_config m;
	char err[512], name[256];
	unsigned n = 0;

	if (!text)
		abort();
	/* Empty lines count (an empty provider means none), so strsep rather than strtok. */
	for (char *p = text; p && n < sizeof(line) / sizeof(line[0]);)
		line[n++] = strsep(&p, "\n");
	if (n < 4)
		goto out;
	model_cache_parse(line[2], &cache);
	if (model_config_resolve(&cat, line[0], line[1][0] ? line[1] : NULL, line + 3, n - 3,
				 cache, &m, err, sizeof(err))) {
		if (!err[0])
			abort(); /* a refusal always says why */
		goto out;
	}
	model_fmt_config_name(&m, name, sizeof(name));
	for (size_t i = 0; i < sizeof(loads) / sizeof(loads[0]); i++) {
		struct model_result r;
		struct model_report mr = {.config = &m, .workload = &loads[i], .result = &r};

		if (model_predict(&m, &loads[i], i ? 3600 : 0, &r) == 0)
			json_decref(model_fmt_prediction_json(&mr));
	}
out:
	free(text);
	return 0;
}
