/* libFuzzer target: a user catalog of any content is loaded or refused with a message. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/catalog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[512];
	struct catalog c;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	memset(&c, 0, sizeof(c));
	catalog_load_text(&c, "fuzz.json", text, err, sizeof(err));
	catalog_release(&c);
	free(text);
	return 0;
}
