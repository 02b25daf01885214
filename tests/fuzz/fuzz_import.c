/*
 * libFuzzer target: what 'catalog import' reads, any content: recognised and read, or refused
 * with a message; what is read is then compared with the built-in catalog, as the command does
 * before it writes anything.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/catalog.h"
#include "model/import.h"
#include "fuzz_util.h"

/* The built-in catalog, loaded once: it is the same for every input. */
static struct catalog builtin;
static bool loaded;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size), err[512] = "";
	struct import im;

	if (!text)
		abort();
	if (!loaded) {
		if (catalog_load_builtin(&builtin, err, sizeof(err)))
			abort();
		loaded = true;
	}
	if (import_init(&im, "2026-01-02"))
		abort();
	if (import_text(&im, "fuzz.json", text, err, sizeof(err)) == 0) {
		err[0] = '\0';
		if (import_compare(&im, &builtin, err, sizeof(err)) && !err[0])
			abort(); /* a refusal always says why */
	} else if (!err[0]) {
		abort();
	}
	import_release(&im);
	free(text);
	return 0;
}
