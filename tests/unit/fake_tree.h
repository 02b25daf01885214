/*
 * Shared by the unit tests that build a fake sysfs, /proc or mount table in a temporary
 * directory: write a file, make a path's directories, remove the whole tree afterwards.
 */
#ifndef IORATE_TESTS_FAKE_TREE_H
#define IORATE_TESTS_FAKE_TREE_H

#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>

/* Writes text to path (created or truncated); the test fails when it cannot. */
static inline void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* mkdir -p path (an existing directory is fine). */
static inline void mkdirs(const char *path)
{
	char p[512];

	snprintf(p, sizeof(p), "%s", path);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
}

static inline int fake_tree_rm_one(const char *path, const struct stat *st, int flag,
				   struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

/* rm -rf dir, not following links. */
static inline void fake_tree_remove(const char *dir)
{
	nftw(dir, fake_tree_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
