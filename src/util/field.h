#ifndef IORATE_UTIL_FIELD_H
#define IORATE_UTIL_FIELD_H
#include <stddef.h>

/*
 * The core and the model name what is wrong by field, never by a command-line flag: a message
 * holds FIELD("depth") where a flag would go, and each front end spells it its own way when it
 * prints the message (iorate run: "--depth", DiskSpd: "-o", fio: "iodepth"). Fields are the long
 * option names of 'iorate run' and of the model commands. A remedy that names a value too holds
 * FIELD_VAL("cache", "buffered"): iorate prints "--cache buffered", DiskSpd "-Sb", fio
 * "direct=0".
 */
#define FIELD_OPEN '\001'
#define FIELD_CLOSE '\002'
#define FIELD(name) "\001" name "\002"
#define FIELD_VAL(name, value) "\001" name "=" value "\002"

/* How a front end spells fields and field=value pairs; a NULL hook or answer: iorate's way. */
struct field_spelling {
	/* "depth" -> "-o" */
	const char *(*field)(const char *field);
	/* "cache", "buffered" -> "-Sb"; when NULL, the field's spelling, sep, then the value */
	const char *(*pair)(const char *field, const char *value);
	const char *sep;            /* between a field and its value: "=" for fio; NULL: " " */
};

/* One entry of a front end's spellings: a field ("depth") or a pair ("cache=buffered"). */
struct field_map {
	const char *field;
	const char *spelled;
};

/*
 * The spelling of key in map[0..n), or NULL: the one lookup every front end's table uses. A
 * field may have several (DiskSpd's threads: -t, or -F): the one that starts typed (the flag
 * as the user gave it, "-F4"; may be NULL) is taken, else the first.
 */
const char *field_map_spell(const struct field_map *map, size_t n, const char *key,
			    const char *typed);

/*
 * msg with every FIELD(x) and FIELD_VAL(x, v) spelled by sp (NULL: "--x", "--x v") into out
 * (always terminated when len > 0). Returns the length the whole text needs, as snprintf does.
 */
size_t field_expand(char *out, size_t len, const char *msg, const struct field_spelling *sp);

#endif
