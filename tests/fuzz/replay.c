/*
 * Runs a libFuzzer target's LLVMFuzzerTestOneInput on each file named on the command line, as
 * libFuzzer would, so that regression inputs and seeds replay under gcc's ASan+UBSan without
 * clang. Exits 1 when a file cannot be read; a sanitizer finding aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int replay(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f) {
		perror(path);
		return 1;
	}
	for (;;) {
		if (n == cap) {
			uint8_t *b = realloc(buf, cap = cap ? cap * 2 : 4096);

			if (!b)
				abort();
			buf = b;
		}
		size_t got = fread(buf + n, 1, cap - n, f);

		if (!got)
			break;
		n += got;
	}
	if (ferror(f)) {
		perror(path);
		fclose(f);
		free(buf);
		return 1;
	}
	fclose(f);
	/* libFuzzer hands over exactly n bytes in their own allocation: an overread shows. */
	uint8_t *exact = malloc(n ? n : 1);

	if (!exact)
		abort();
	memcpy(exact, buf, n);
	free(buf);
	fprintf(stderr, "replay: %s (%zu bytes)\n", path, n);
	LLVMFuzzerTestOneInput(exact, n);
	free(exact);
	return 0;
}

int main(int argc, char **argv)
{
	int bad = 0;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++)
		bad |= replay(argv[i]);
	return bad;
}
