#ifndef IORATE_UTIL_FIELD_H
#define IORATE_UTIL_FIELD_H
#include <stddef.h>

/*
 * The core and the model name what is wrong by field, never by a command-line flag: a message
 * holds FIELD("depth") where a flag would go, and each front end spells it its own way when it
 * prints the message (iorate run: "--depth", DiskSpd: "-o", fio: "iodepth"). Fields are the long
 * option names of 'iorate run' and of the model commands.
 */
#define FIELD_OPEN '\001'
#define FIELD_CLOSE '\002'
#define FIELD(name) "\001" name "\002"

/* How a front end spells a field; NULL means "--" + the field. */
typedef const char *(*field_speller)(const char *field);

/*
 * msg with every FIELD(x) replaced by spell(x) (or "--x") into out (always terminated when
 * len > 0). Returns the length the whole text needs, as snprintf does.
 */
size_t field_expand(char *out, size_t len, const char *msg, field_speller spell);

#endif
