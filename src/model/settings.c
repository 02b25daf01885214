/* The user's defaults for region and currency, set once in a small config file. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/settings.h"
#include "util/err.h"
#include "util/xdg.h"

/* A value: a region or currency name, nothing a shell or a URL would read otherwise. */
#define SETTINGS_VALUE_MAX 64
#define SETTINGS_LINE_MAX 1024

static const char *const keys[] = {"region", "currency", NULL};

int settings_path(char **path)
{
	char buf[PATH_MAX];

	*path = NULL;
	if (xdg_path(XDG_CONFIG, "config", buf, sizeof(buf)))
		return 0;
	return (*path = strdup(buf)) ? 0 : -ENOMEM;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static bool good_value(const char *v)
{
	size_t n = strlen(v);

	if (!n || n > SETTINGS_VALUE_MAX)
		return false;
	for (; *v; v++)
		if (!isalnum((unsigned char)*v) && *v != '-' && *v != '_')
			return false;
	return true;
}

/* "~/..." for a path under $HOME: what the user typed, as they would. */
static char *shown_path(const char *path)
{
	const char *home = getenv("HOME");
	size_t n = home ? strlen(home) : 0;
	char *s = NULL;

	if (n > 1 && !strncmp(path, home, n) && path[n] == '/') {
		if (asprintf(&s, "~%s", path + n) < 0)
			s = NULL;
		return s;
	}
	return strdup(path);
}

int settings_parse(struct settings *s, const char *path, FILE *f, char *err, size_t errlen)
{
	char line[SETTINGS_LINE_MAX + 2];
	unsigned lineno = 0, seen[2] = {0, 0};
	int ret = 0;

	memset(s, 0, sizeof(*s));
	if (!(s->path = strdup(path)) || !(s->shown = shown_path(path)))
		return -ENOMEM;
	while (fgets(line, sizeof(line), f)) {
		char *key, *val, *eq, *hash;
		unsigned k;

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			ret = err_set(err, errlen, -EINVAL, "%s:%u: line longer than %d characters",
				      path, lineno, SETTINGS_LINE_MAX);
			goto out;
		}
		if ((hash = strchr(line, '#')))
			*hash = '\0';
		key = trim(line);
		if (!*key)
			continue;
		if (!(eq = strchr(key, '='))) {
			ret = err_set(err, errlen, -EINVAL, "%s:%u: '%s' is not 'key = value' "
				      "(e.g. region = northeurope)", path, lineno, key);
			goto out;
		}
		*eq = '\0';
		key = trim(key);
		val = trim(eq + 1);
		for (k = 0; keys[k] && strcmp(keys[k], key); k++)
			;
		if (!keys[k]) {
			ret = err_set(err, errlen, -EINVAL, "%s:%u: unknown key '%s' (known: region, "
				      "currency)", path, lineno, key);
			goto out;
		}
		if (seen[k]) {
			ret = err_set(err, errlen, -EINVAL, "%s:%u: %s is set twice (first on line "
				      "%u)", path, lineno, key, seen[k]);
			goto out;
		}
		if (!good_value(val)) {
			ret = err_set(err, errlen, -EINVAL, "%s:%u: %s '%s' is not a name (letters, "
				      "digits, '-' and '_', up to %d)", path, lineno, key, val,
				      SETTINGS_VALUE_MAX);
			goto out;
		}
		seen[k] = lineno;
		if (!(*(k ? &s->currency : &s->region) = strdup(val))) {
			ret = -ENOMEM;
			goto out;
		}
	}
	if (ferror(f))
		ret = err_set(err, errlen, -EIO, "%s: %s", path, strerror(EIO));
out:
	if (ret)
		settings_release(s);
	return ret;
}

int settings_load_file(struct settings *s, const char *path, char *err, size_t errlen)
{
	FILE *f;
	int ret;

	memset(s, 0, sizeof(*s));
	if (!(f = fopen(path, "r"))) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		return err_set(err, errlen, -errno, "%s: %s", path, strerror(errno));
	}
	ret = settings_parse(s, path, f, err, errlen);
	fclose(f);
	return ret;
}

int settings_load(struct settings *s, char *err, size_t errlen)
{
	char *path;
	int ret;

	memset(s, 0, sizeof(*s));
	if ((ret = settings_path(&path)))
		return err_set(err, errlen, ret, "settings: out of memory");
	if (!path)
		return 0;
	ret = settings_load_file(s, path, err, errlen);
	free(path);
	return ret;
}

void settings_release(struct settings *s)
{
	free(s->path);
	free(s->shown);
	free(s->region);
	free(s->currency);
	memset(s, 0, sizeof(*s));
}
