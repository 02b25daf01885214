#ifndef IORATE_MODEL_IMPORT_H
#define IORATE_MODEL_IMPORT_H
#include <stdbool.h>
#include <stddef.h>

#include "model/catalog.h"

/*
 * 'iorate catalog import': what the providers' CLIs print, turned into catalog entries
 * (docs/catalog.md, "Importing"):
 *   az vm list-skus --output json                       Azure VM sizes and disk sizes
 *   aws ec2 describe-instance-types --output json       EC2 instance types, EBS-optimized limits
 *   gcloud compute machine-types list --format=json     GCP machine types (caps from the series)
 * Entries that a built-in entry of the same name already gives are compared figure by figure:
 * equal ones are left out, differing ones are reported with both values and left out too (the
 * built-in entry keeps its name), new ones go to the user's catalog directory, one file per
 * provider (imported-azure.json, ...), merged with what earlier imports wrote there.
 */

enum import_provider { IMPORT_AZURE, IMPORT_AWS, IMPORT_GCP, IMPORT_NPROVIDERS };

/* One figure of an entry that the built-in catalog gives otherwise. */
struct import_conflict {
	enum import_provider provider;
	char name[64];
	char field[32];
	const char *unit;           /* "IOPS", "MB/s", "GiB", ... ("" for a flag) */
	double builtin, imported;
	bool builtin_missing;       /* the built-in entry does not give the figure */
	/* Not a difference: the imported MB/s are the built-in figure read as MiB/s (Azure's
	 * pages write MBps for what its API gives in MiB/s: 145 MBps is 152043520 B/s). */
	bool unit_only;
};

/* What each input file was. */
struct import_file {
	const char *path;
	enum import_provider provider;
	const char *format;         /* "az vm list-skus", ... */
	unsigned vms, disks, skipped;
};

struct import {
	const char *date;           /* of the import, "YYYY-MM-DD": every entry's date */
	void *vms[IMPORT_NPROVIDERS], *disks[IMPORT_NPROVIDERS]; /* json_t arrays of entries */
	/* their name indexes while files are read (json_t objects: name key -> index) */
	void *vm_names[IMPORT_NPROVIDERS], *disk_names[IMPORT_NPROVIDERS];
	struct import_file *files;
	size_t nfiles;
	struct import_conflict *conflicts;
	size_t nconflicts;
	/* Entries new, equal to or differing from the built-in ones; earlier imports replaced. */
	unsigned nnew, nsame, ndiffer, nreplaced;
	unsigned nunit_only;        /* conflicts that are one figure in two units */
	char *written[IMPORT_NPROVIDERS];         /* the files written (NULL: none) */
	unsigned nseriesless;       /* GCP machine types of a series without rules */
	char seriesless[160];       /* their names, for the report */
};

const char *import_provider_name(enum import_provider p);

/* Starts an import dated date ("YYYY-MM-DD"). */
int import_init(struct import *im, const char *date);

/*
 * Reads one file's text (name for messages and sources): recognises the CLI that printed it and
 * adds its entries. Unknown fields are ignored. -EINVAL with "FILE: [i] 'NAME': why" for
 * malformed input; nothing of a refused file is kept.
 */
int import_text(struct import *im, const char *name, const char *text, char *err,
		size_t errlen);

/*
 * Compares the entries read with the built-in catalog (builtin: loaded with the built-in
 * catalogs only): leaves out entries equal to or differing from a built-in entry, recording
 * each differing figure.
 */
int import_compare(struct import *im, const struct catalog *builtin, char *err, size_t errlen);

/*
 * Writes the remaining entries into dir (created when missing), each provider's into
 * imported-PROVIDER.json merged with what is there (an entry of the same name is replaced),
 * through the write gate.
 */
int import_write(struct import *im, const char *dir, char *err, size_t errlen);

void import_release(struct import *im);

/* Creates dir and its missing parents (mode 0755 for the user's data directories). */
int import_mkdirs(const char *dir, char *err, size_t errlen);

#endif
