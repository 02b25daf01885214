/* Emulation profiles: the model's view of a VM and its disks, as caps the throttle enforces. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/config.h"
#include "model/emulate.h"
#include "util/err.h"

/* Splits "CATALOG:VM+SPEC" into buf (at most 255 bytes): *cat (NULL when none), *vm, *spec. */
static int profile_split(const char *profile, char *buf, size_t len, char **cat, char **vm,
			 char **spec, char *err, size_t errlen)
{
	char *plus, *colon;

	if (!profile || strlen(profile) >= len || !(plus = strchr(profile, '+')))
		return err_set(err, errlen, -EINVAL, "'%s' is not a profile (expected "
			       "CATALOG:VM+[Nx]DISK, e.g. azure-2015:DS2+2xP30 or "
			       "aws:m5.large+gp3:1TiB)", profile ? profile : "");
	strcpy(buf, profile);
	plus = buf + (plus - profile);
	*plus = 0;
	*spec = plus + 1;
	*vm = buf;
	*cat = NULL;
	if ((colon = strchr(buf, ':'))) {
		*colon = 0;
		*cat = buf;
		*vm = colon + 1;
	}
	return 0;
}

static int profile_resolve(const struct catalog *c, char *cat, char *vm, char *spec,
			   struct job_caps *disk_caps, unsigned *ndisks, struct job_caps *vm_caps,
			   uint64_t *io_unit, char *err, size_t errlen)
{
	struct model_vm_column col;
	struct model_config m;
	int ret = model_config_resolve(c, vm, cat, &spec, 1, MODEL_CACHE_NONE, &m, err, errlen);

	if (ret)
		return ret;
	const struct model_disk *d = &m.disks[0];

	memset(disk_caps, 0, sizeof(*disk_caps));
	memset(vm_caps, 0, sizeof(*vm_caps));
	disk_caps->iops = d->iops;
	disk_caps->mbps = d->mbps;
	if (d->burst_iops > 0 || d->burst_mbps > 0) {
		disk_caps->burst_iops = d->burst_iops;
		disk_caps->burst_mbps = d->burst_mbps;
		/* The time a full bucket lasts at the burst rate. */
		disk_caps->burst_seconds = d->burst_iops > d->iops ?
			d->bucket_ios / (d->burst_iops - d->iops) :
			d->bucket_mb / (d->burst_mbps - d->mbps);
	}
	*ndisks = d->local ? 1 : d->count;
	if (d->local) {
		vm_caps->iops = d->iops;
		vm_caps->mbps = d->mbps;
	} else if (!model_vm_column(&m, d->type->family, &col)) {
		/* The column the disks meet (Premium SSD v2 and Ultra's apart), with its burst. */
		vm_caps->iops = col.iops;
		vm_caps->mbps = col.mbps;
		if (m.vm->burst_seconds > 0 && (col.burst_iops > col.iops ||
						col.burst_mbps > col.mbps)) {
			vm_caps->burst_iops = fmax(col.burst_iops, col.iops);
			vm_caps->burst_mbps = fmax(col.burst_mbps, col.mbps);
			vm_caps->burst_seconds = m.vm->burst_seconds;
		}
	}
	*io_unit = (uint64_t)d->io_unit;
	return 0;
}

int emulate_profile_in(const struct catalog *c, const char *profile, struct job_caps *disk_caps,
		       unsigned *ndisks, struct job_caps *vm_caps, uint64_t *io_unit, char *err,
		       size_t errlen)
{
	char buf[256], *cat = NULL, *vm = NULL, *spec = NULL;
	int ret = profile_split(profile, buf, sizeof(buf), &cat, &vm, &spec, err, errlen);

	return ret ? ret : profile_resolve(c, cat, vm, spec, disk_caps, ndisks, vm_caps, io_unit,
					   err, errlen);
}

int emulate_profile(const char *profile, struct job_caps *disk_caps, unsigned *ndisks,
		    struct job_caps *vm_caps, uint64_t *io_unit, char *err, size_t errlen)
{
	struct catalog c;
	/* The same layered catalog as every other command: an installed file edited counts. */
	int ret = catalog_open_default(&c, err, errlen);

	if (!ret)
		ret = emulate_profile_in(&c, profile, disk_caps, ndisks, vm_caps, io_unit, err,
					 errlen);
	catalog_release(&c);
	return ret;
}
