#ifndef IORATE_MODEL_EMULATE_H
#define IORATE_MODEL_EMULATE_H
#include <stddef.h>
#include <stdint.h>

#include "core/job.h"

/*
 * Resolves an emulation profile "CATALOG:VM+[Nx]DISK[:SIZE]..." (e.g. "azure-2015:DS2+2xP30",
 * "aws:m5.large+gp3:1TiB", "azure-2015:A4+16xstandard") against the layered catalog every
 * command sees (catalog_open_default: built-in, installed, user) into the
 * caps of one disk, the number of disks, the VM's uncached caps and the I/O size above which an
 * operation counts as several (256 KiB on Azure premium; 0 when none). Only one disk type per
 * profile. -ENOENT for unknown names (err suggests close ones), -EINVAL for a malformed profile.
 */
int emulate_profile(const char *profile, struct job_caps *disk_caps, unsigned *ndisks,
		    struct job_caps *vm_caps, uint64_t *io_unit, char *err, size_t errlen);
/* The same against a catalog already loaded (c is only read). */
struct catalog;
int emulate_profile_in(const struct catalog *c, const char *profile, struct job_caps *disk_caps,
		       unsigned *ndisks, struct job_caps *vm_caps, uint64_t *io_unit, char *err,
		       size_t errlen);

#endif
