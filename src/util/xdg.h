#ifndef IORATE_UTIL_XDG_H
#define IORATE_UTIL_XDG_H
#include <stddef.h>

/* Where iorate keeps the user's files: the XDG base directory's data or config directory. */
enum xdg_kind { XDG_DATA, XDG_CONFIG };

/*
 * $XDG_DATA_HOME/iorate/REL (else ~/.local/share/iorate/REL) or $XDG_CONFIG_HOME/iorate/REL
 * (else ~/.config/iorate/REL) into buf, by the XDG base directory rules: a relative XDG
 * variable is ignored; home is $HOME, else the password database's. 0, -ENOENT when there is
 * no home, -ENAMETOOLONG when buf is too small.
 */
int xdg_path(enum xdg_kind kind, const char *rel, char *buf, size_t len);

#endif
