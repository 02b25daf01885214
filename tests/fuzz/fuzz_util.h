#ifndef IORATE_TESTS_FUZZ_UTIL_H
#define IORATE_TESTS_FUZZ_UTIL_H
/*
 * Helpers the libFuzzer targets share: the input as a C string, as argv words, as a file
 * (a memfd, so nothing is written to disk), and a FILE that swallows output.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * The catalog's installed and user layers (docs/catalog.md, "Layers") pointed at a directory
 * that does not exist, so a target that resolves --emulate reads the built-in catalog alone,
 * whatever is installed on the machine.
 */
static inline void fuzz_builtin_catalog_only(void)
{
	setenv("IORATE_CATALOG_DIR", "/nonexistent/iorate-fuzz", 1);
	setenv("XDG_DATA_HOME", "/nonexistent/iorate-fuzz", 1);
}

/* The bytes as a malloc'd C string (an embedded NUL ends it early, as argv would). */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}

/*
 * argv from the bytes: argv[0] is argv0, then words separated by spaces, tabs and newlines;
 * a NUL also ends a word, even an empty one, so empty arguments can be written. Each word is
 * its own allocation so that ASan sees a read past any of them. NULL-terminated; *argc set.
 */
static inline char **fuzz_argv(const uint8_t *data, size_t size, const char *argv0, int *argc)
{
	char **argv = malloc((size + 2) * sizeof(*argv));
	size_t start = 0;
	int n = 0;

	if (!argv)
		return NULL;
	argv[n++] = strdup(argv0);
	for (size_t i = 0; i <= size; i++) {
		int end = i == size || data[i] == '\0' || data[i] == ' ' || data[i] == '\t' ||
			  data[i] == '\n';

		if (!end)
			continue;
		if (i > start || (i < size && data[i] == '\0')) {
			char *w = malloc(i - start + 1);

			memcpy(w, data + start, i - start);
			w[i - start] = '\0';
			argv[n++] = w;
		}
		start = i + 1;
	}
	argv[n] = NULL;
	*argc = n;
	return argv;
}

static inline void fuzz_argv_free(char **argv)
{
	for (char **p = argv; p && *p; p++)
		free(*p);
	free(argv);
}

/* A memfd holding the bytes, and its /proc/self/fd path in path; -1 on failure. */
static inline int fuzz_memfd(const void *data, size_t size, char *path, size_t pathlen)
{
	int fd = memfd_create("fuzz", 0);

	if (fd < 0)
		return -1;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	snprintf(path, pathlen, "/proc/self/fd/%d", fd);
	return fd;
}

/* Replaces a word with a malloc'd prefix + path (such as "-F" + a memfd's path). */
static inline void fuzz_argv_replace(char **argv, int i, const char *prefix, const char *path)
{
	size_t lp = strlen(prefix), lq = strlen(path);
	char *w = malloc(lp + lq + 1);

	memcpy(w, prefix, lp);
	memcpy(w + lp, path, lq + 1);
	free(argv[i]);
	argv[i] = w;
}

#endif
