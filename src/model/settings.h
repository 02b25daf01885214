#ifndef IORATE_MODEL_SETTINGS_H
#define IORATE_MODEL_SETTINGS_H
#include <stddef.h>
#include <stdio.h>

/*
 * The user's defaults for the commands that price: $XDG_CONFIG_HOME/iorate/config (else
 * ~/.config/iorate/config), lines of "key = value", '#' comments and blank lines, with the keys
 *   region    the price region (northeurope, eastus, us-east-1, ...)
 *   currency  the price currency (GBP, EUR, USD, ...)
 * An option given on the command line wins. Any other key, a line that is not "key = value",
 * an empty or odd value, or a key given twice is refused with the file and line.
 */
struct settings {
	char *path;                 /* the file read (malloc'd); NULL: none */
	char *shown;                /* path as shown, "~/..." under $HOME (malloc'd) */
	char *region, *currency;    /* NULL when not set */
};

/*
 * The file's path (malloc'd), or NULL (and 0) when neither $XDG_CONFIG_HOME nor $HOME is set
 * to an absolute path; -ENOMEM.
 */
int settings_path(char **path);

/* Reads the file at path; a missing file is no settings (0). -EINVAL: err says file:line. */
int settings_load_file(struct settings *s, const char *path, char *err, size_t errlen);
/* settings_load_file() of settings_path(). */
int settings_load(struct settings *s, char *err, size_t errlen);
/* Reads an open file named path (for the tests and the fuzz target). */
int settings_parse(struct settings *s, const char *path, FILE *f, char *err, size_t errlen);
void settings_release(struct settings *s);

#endif
