#ifndef IORATE_MODEL_IMPORT_INT_H
#define IORATE_MODEL_IMPORT_INT_H
/* Shared by import.c and the readers of each CLI's output (import_cli.c). */
#include <jansson.h>

#include "model/import.h"

/* The entries one file gives, kept apart until the whole file has been read. */
struct import_batch {
	const char *file;           /* for messages */
	const char *source;         /* "imported from FILE on DATE (the CLI's command)" */
	const char *date;
	json_t *vms, *disks;        /* arrays of catalog entries */
	json_t *vm_names, *disk_names; /* their names (import_name_key) to their index */
	unsigned skipped;           /* entries of kinds the catalog does not hold */
	char *err;
	size_t errlen;
};

/* Each reads a parsed document of its CLI into b; -EINVAL (b->err says where) when malformed. */
int import_azure(json_t *root, struct import_batch *b);
int import_aws(json_t *root, struct import_batch *b);
int import_gcp(json_t *root, struct import_batch *b);

/* A new catalog entry: {"name", "source", "date"}, and aliases [alias] when alias differs. */
json_t *import_entry(const struct import_batch *b, const char *name, const char *alias);

/*
 * The key of an entry's name in a name index (a JSON object: key -> index in the list): names
 * catalog_name_eq() finds equal have one key, so a lookup is a hash, not a scan of the list.
 * A new string, or NULL.
 */
char *import_name_key(const char *name);

/*
 * Appends e to list unless an entry of its name is there (a CLI lists a type once per zone);
 * names is list's name index. Takes e's reference.
 */
int import_add(json_t *list, json_t *names, json_t *e);

#endif
