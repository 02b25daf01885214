/* The user's data and config directories (util/xdg.h): one reading of the XDG rules. */
#include "util/xdg.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int xdg_path(enum xdg_kind kind, const char *rel, char *buf, size_t len)
{
	const char *xdg = getenv(kind == XDG_CONFIG ? "XDG_CONFIG_HOME" : "XDG_DATA_HOME");
	const char *home = getenv("HOME");
	int n;

	if (xdg && xdg[0] == '/') {
		n = snprintf(buf, len, "%s/iorate/%s", xdg, rel);
	} else {
		if (!home || !*home) {
			struct passwd *pw = getpwuid(getuid());

			home = pw ? pw->pw_dir : NULL;
		}
		if (!home || !*home)
			return -ENOENT;
		n = snprintf(buf, len, "%s/%s/iorate/%s", home,
			     kind == XDG_CONFIG ? ".config" : ".local/share", rel);
	}
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}
