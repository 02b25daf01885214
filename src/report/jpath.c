#include "report/jpath.h"

#include <math.h>
#include <string.h>

json_t *jpath(json_t *o, const char *path)
{
	char key[64];

	while (o && *path) {
		size_t n = strcspn(path, ".");

		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		o = json_object_get(o, key);
		path += n + (path[n] == '.');
	}
	return o;
}

double jpath_num(json_t *o, const char *path)
{
	json_t *v = jpath(o, path);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *jpath_str(json_t *o, const char *path)
{
	return json_string_value(jpath(o, path));
}
