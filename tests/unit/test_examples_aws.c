/*
 * The worked examples of AWS's EBS pages (Amazon EC2 User Guide for Linux, the pages of
 * awsdocs/amazon-ec2-user-guide doc_source, commit e3707c43, 2023-06-15), each row naming its
 * page: the model must give each figure within the tolerance of the row. Then the instances'
 * EBS-optimized limits and EBS volume limits as AWS's tables give them, each row naming its
 * table, site and date.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model_helpers.h"

enum what {
	DISK_IOPS,      /* the volume's provisioned or derived IOPS */
	DISK_MIBPS,     /* its throughput cap, MiB/s */
	PRED_IOPS,      /* the sustained prediction at bs, deep queue */
	BURST_IOPS,     /* the start-of-run prediction while credits last */
	BURST_MIBPS,
	BURST_S,        /* how long the credits last (0: no burst) */
	BUCKET_TIB,     /* the throughput credit bucket, TiB */
	SCAN_S,         /* seconds to read the whole volume at the burst rate, within the burst */
	REFUSED,        /* the spec is refused, saying `says` */
};

struct row {
	const char *page, *vm, *spec;
	uint64_t bs;
	enum what what;
	double want, tol_pct;
	const char *says;
};

#define GP "General Purpose SSD volumes"
#define PIOPS "Provisioned IOPS SSD volumes"
#define HDD "Throughput Optimized HDD and Cold HDD volumes"
#define IOC "I/O characteristics and monitoring"
#define BIG "m5.24xlarge"           /* 80,000 IOPS, 2,375 MB/s: never the limit here */
#define BX "r5b.16xlarge"           /* runs io2 Block Express: 173,333 IOPS, 5,000 MB/s */

static const struct row rows[] = {
	/* gp2: 3 IOPS per GiB, 100 at least, 16,000 at most; 5.4 million credits to 3,000 IOPS. */
	{GP " (gp2 burst table)", BIG, "gp2:33GiB", 4096, DISK_IOPS, 100, 0.01, NULL},
	{GP " (gp2 burst table)", BIG, "gp2:33GiB", 4096, BURST_S, 1862, 0.1, NULL},
	{GP " (gp2 burst table)", BIG, "gp2:100GiB", 4096, DISK_IOPS, 300, 0.01, NULL},
	{GP " (gp2 burst table)", BIG, "gp2:100GiB", 4096, BURST_S, 2000, 0.1, NULL},
	{GP " (gp2 burst table)", BIG, "gp2:334GiB", 4096, DISK_IOPS, 1002, 0.01, NULL},
	{GP " (gp2 burst table)", BIG, "gp2:334GiB", 4096, BURST_S, 2703, 0.1, NULL},
	{GP " (gp2 burst table)", BIG, "gp2:750GiB", 4096, DISK_IOPS, 2250, 0.01, NULL},
	{GP " (gp2 burst table)", BIG, "gp2:750GiB", 4096, BURST_S, 7200, 0.1, NULL},
	{GP " (gp2 burst table)", BIG, "gp2:1000GiB", 4096, DISK_IOPS, 3000, 0.01, NULL},
	{GP " (gp2 burst table)", BIG, "gp2:1000GiB", 4096, BURST_S, 0, 0, NULL},
	{GP " (gp2 burst table)", BIG, "gp2:5334GiB", 4096, DISK_IOPS, 16000, 0.01, NULL},
	/* gp3: 500 IOPS per GiB to 16,000 (32 GiB); 0.25 MiB/s per IOPS to 1,000 (4,000 IOPS). */
	{GP " (gp3)", BIG, "gp3:32GiB:iops=16000", 4096, DISK_IOPS, 16000, 0.01, NULL},
	{GP " (gp3)", BIG, "gp3:31GiB:iops=16000", 4096, REFUSED, 0, 0, "at least 32 GiB"},
	{GP " (gp3)", BIG, "gp3:18GiB:iops=12000", 4096, REFUSED, 0, 0, "at least 24 GiB"},
	{GP " (gp3)", BIG, "gp3:8GiB:iops=4000:mbps=1000", 4096, DISK_MIBPS, 1000, 0.01, NULL},
	{GP " (gp3)", BIG, "gp3:8GiB:iops=3999:mbps=1000", 4096, REFUSED, 0, 0, "at most"},
	{GP " (gp3)", BIG, "gp3:1TiB", 4096, DISK_MIBPS, 125, 0.01, NULL},
	/* gp3's range a volume (also AWS's SDK references: "gp3: 3,000 - 16,000 IOPS"). */
	{GP " (gp3)", BIG, "gp3:100GiB:iops=2000", 4096, REFUSED, 0, 0,
	 "gp3 takes 3,000 to 16,000 IOPS (Amazon EBS volume types), not 2000"},
	{GP " (gp3)", BIG, "gp3:1TiB:iops=16001", 4096, REFUSED, 0, 0,
	 "gp3 takes 3,000 to 16,000 IOPS"},
	{GP " (gp3)", BIG, "gp3:iops=2000", 4096, REFUSED, 0, 0, "gp3 takes 3,000 to 16,000 IOPS"},
	{GP " (gp3)", BIG, "gp3:100GiB:iops=3000", 4096, DISK_IOPS, 3000, 0.01, NULL},
	{GP " (gp3)", BIG, "gp3:100GiB:mbps=100", 4096, REFUSED, 0, 0,
	 "gp3 takes 125 to 1,000 MiB/s (Amazon EBS volume types), not 100"},
	{GP " (gp3)", BIG, "gp3:1TiB:iops=16000:mbps=1001", 4096, REFUSED, 0, 0,
	 "gp3 takes 125 to 1,000 MiB/s"},
	{GP " (gp3)", BIG, "gp3:100GiB:mbps=125", 4096, DISK_MIBPS, 125, 0.01, NULL},
	/* io1 50 IOPS per GiB, io2 500; 64,000 on Nitro only. */
	{PIOPS, BIG, "io1:100GiB:iops=5000", 4096, DISK_IOPS, 5000, 0.01, NULL},
	{PIOPS, BIG, "io1:100GiB:iops=5001", 4096, REFUSED, 0, 0, "at least 101 GiB"},
	{PIOPS, BIG, "io2:100GiB:iops=50000", 4096, DISK_IOPS, 50000, 0.01, NULL},
	{PIOPS, BIG, "io1:1280GiB:iops=64000", 4096, DISK_IOPS, 64000, 0.01, NULL},
	{PIOPS, BIG, "io2:128GiB:iops=64000", 4096, DISK_IOPS, 64000, 0.01, NULL},
	{PIOPS, "m4.4xlarge", "io1:1280GiB:iops=64000", 4096, REFUSED, 0, 0, "Nitro"},
	/* 100 IOPS at least; 64,000 at most (io2 Block Express: 256,000). */
	{PIOPS, BIG, "io1:100GiB:iops=99", 4096, REFUSED, 0, 0,
	 "io1 takes 100 to 64,000 IOPS (Provisioned IOPS SSD volumes), not 99"},
	{PIOPS, BIG, "io2:100GiB:iops=50", 4096, REFUSED, 0, 0, "io2 takes 100 to 64,000 IOPS"},
	{PIOPS, BIG, "io2:200GiB:iops=64001", 4096, REFUSED, 0, 0, "io2 takes 100 to 64,000 IOPS"},
	{PIOPS, BIG, "io1:100GiB:iops=100", 4096, DISK_IOPS, 100, 0.01, NULL},
	{PIOPS " (io2 Block Express)", BX, "io2-bx:300GiB:iops=256001", 4096, REFUSED, 0, 0,
	 "io2-bx takes 100 to 256,000 IOPS"},
	/* io1/io2 throughput: 256 KiB per IOPS to 500 MiB/s, then 16 KiB per IOPS. */
	{PIOPS, BIG, "io1:100GiB:iops=2000", 4096, DISK_MIBPS, 500, 0.01, NULL},
	{PIOPS, BIG, "io1:100GiB:iops=2000", 262144, PRED_IOPS, 2000, 0.01, NULL},
	{PIOPS, BIG, "io1:1000GiB:iops=32000", 4096, DISK_MIBPS, 500, 0.01, NULL},
	{PIOPS, BIG, "io1:1000GiB:iops=48000", 4096, DISK_MIBPS, 750, 0.01, NULL},
	{PIOPS, BIG, "io1:1280GiB:iops=64000", 4096, DISK_MIBPS, 1000, 0.01, NULL},
	{PIOPS, BIG, "io1:1280GiB:iops=64000:mbps=500", 4096, REFUSED, 0, 0, "follows its IOPS"},
	/* io2 Block Express: 1,000 IOPS per GiB to 256,000; 0.256 MiB/s per IOPS to 4,000. */
	{PIOPS " (io2 Block Express)", BX, "io2-bx:256GiB:iops=256000", 4096, DISK_IOPS, 256000,
	 0.01, NULL},
	{PIOPS " (io2 Block Express)", BX, "io2-bx:255GiB:iops=256000", 4096, REFUSED, 0, 0,
	 "at least 256 GiB"},
	{PIOPS " (io2 Block Express)", BX, "io2-bx:256GiB:iops=16000", 4096, DISK_MIBPS, 4000, 0.01,
	 NULL},
	{PIOPS " (io2 Block Express)", BX, "io2-bx:256GiB:iops=10000", 4096, DISK_MIBPS, 2560, 0.01,
	 NULL},
	{PIOPS " (io2 Block Express)", BIG, "io2-bx:256GiB", 4096, REFUSED, 0, 0, "Block Express"},
	/* 256 KiB I/O on gp2 under 1,000 GiB: throughput-limited at 1,000 IOPS (250 MiB/s). */
	{IOC, BIG, "gp2:500GiB", 262144, PRED_IOPS, 1000, 0.01, NULL},
	{IOC, BIG, "gp2:500GiB", 16384, BURST_IOPS, 3000, 0.01, NULL},
	{IOC, BIG, "gp2:1000GiB", 4096, PRED_IOPS, 3000, 0.01, NULL},
	{IOC, BIG, "io1:100GiB:iops=3000", 4096, PRED_IOPS, 3000, 0.01, NULL},
	/* st1 and sc1: base and burst MiB/s per TiB; a bucket of 1 TiB of credits per TiB. */
	{HDD, BIG, "st1:1TiB", 1 << 20, DISK_MIBPS, 40, 0.01, NULL},
	{HDD, BIG, "st1:1TiB", 1 << 20, BURST_MIBPS, 250, 0.01, NULL},
	{HDD, BIG, "st1:1TiB", 1 << 20, BUCKET_TIB, 1, 0.01, NULL},
	{HDD, BIG, "st1:12800GiB", 1 << 20, DISK_MIBPS, 500, 0.01, NULL},
	{HDD, BIG, "st1:2TiB", 1 << 20, BURST_MIBPS, 500, 0.01, NULL},
	{HDD, BIG, "sc1:1TiB", 1 << 20, DISK_MIBPS, 12, 0.01, NULL},
	{HDD, BIG, "sc1:1TiB", 1 << 20, BURST_MIBPS, 80, 0.01, NULL},
	{HDD, BIG, "sc1:16TiB", 1 << 20, DISK_MIBPS, 192, 0.01, NULL},
	{HDD, BIG, "sc1:3200GiB", 1 << 20, BURST_MIBPS, 250, 0.01, NULL},
	/* st1 5 TiB scanned at 500 MiB/s: 10,486 s (2.91 h), all of it on burst credit. */
	{HDD, BIG, "st1:5TiB", 1 << 20, SCAN_S, 10486, 0.01, NULL},
};

static double figure(const struct row *r, const struct model_result *p, const struct model_disk *d)
{
	switch (r->what) {
	case DISK_IOPS: return d->iops;
	case DISK_MIBPS: return d->mbps / MIB;
	case PRED_IOPS: return p->iops;
	case BURST_IOPS: return p->burst_iops;
	case BURST_MIBPS: return p->burst_mbps / MIB;
	case BURST_S: return p->bursts ? p->burst_seconds : 0;
	case BUCKET_TIB: return d->bucket_mb / MIB / (1 << 20);
	case SCAN_S: return p->burst_seconds >= d->gib * 1024 / (p->burst_mbps / MIB) ?
			    d->gib * 1024 / (p->burst_mbps / MIB) : -1;
	case REFUSED: break;
	}
	return NAN;
}

static void test_aws_examples(void **state)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		char err[256];

		if (r->what == REFUSED) {
			if (!strstr(refusal(r->vm, r->spec, err, sizeof(err)), r->says))
				fail_msg("%s: %s: '%s' does not say '%s'", r->page, r->spec, err,
					 r->says);
			continue;
		}
		struct model_disk d = disk_of(r->vm, r->spec);
		const char *specs[1] = {r->spec};
		struct model_result p = predict_groups(r->vm, specs, 1, 0,
			(struct model_workload){r->bs, 0, r->bs >= (1 << 20), 1, 1024});
		double got = figure(r, &p, &d);

		if (fabs(got - r->want) > r->want * r->tol_pct / 100 + 1e-9)
			fail_msg("%s: %s on %s: %g, the page says %g", r->page, r->spec, r->vm, got,
				 r->want);
	}
}

/*
 * Instances: the EBS-optimized table's baseline and maximum (MB/s at 128 KiB, IOPS at 16 KiB),
 * and the data disks the EBS volume limit leaves: the root volume is one of its volumes; a
 * shared limit of 28 attachments also holds the network interface and NVMe instance stores.
 */
#define EBSO "'Amazon EBS-optimized instances', Amazon EC2 User Guide, docs.aws.amazon.com, " \
	"2023-06-15"
#define TYPES "'Specifications for Amazon EC2 instances', Amazon EC2 Instance Types guide, " \
	"docs.aws.amazon.com, 2024"
#define VOLS "'Amazon EBS volume limits for Amazon EC2 instances', Amazon EC2 User Guide, " \
	"docs.aws.amazon.com, read 2026-12-07"

static const struct inst {
	const char *page, *vm;
	double iops, mbps, burst_iops, burst_mbps; /* MB/s; burst 0: none */
	unsigned data_disks;
} insts[] = {
	{EBSO, "m5.16xlarge", 60000, 1700, 0, 0, 26},
	{EBSO, "c5.9xlarge", 40000, 1187.5, 0, 0, 26},
	{EBSO, "r5.2xlarge", 12000, 287.5, 18750, 593.75, 26},
	{EBSO, "t3.nano", 250, 5.38, 11800, 260.62, 26},
	{EBSO, "t3.2xlarge", 4000, 86.88, 15700, 347.5, 26},
	{EBSO, "m6a.large", 3600, 81.25, 40000, 1250, 26},
	{EBSO, "m6a.48xlarge", 240000, 5000, 0, 0, 26},
	{EBSO, "c6a.4xlarge", 20000, 625, 40000, 1250, 26},
	{EBSO, "r6a.8xlarge", 26667, 833.333333, 0, 0, 26},
	{EBSO, "m6g.medium", 2500, 39.38, 20000, 593.75, 26},
	{EBSO, "m7g.16xlarge", 80000, 2500, 0, 0, 26},
	{EBSO, "c7g.xlarge", 6000, 156.25, 40000, 1250, 26},
	{EBSO, "r7g.12xlarge", 60000, 1875, 0, 0, 26},
	{TYPES, "m7a.medium", 2500, 40.62, 40000, 1250, 31},
	{TYPES, "c7a.16xlarge", 80000, 2500, 0, 0, 47},
	{TYPES, "r7a.48xlarge", 240000, 5000, 0, 0, 127},
	{VOLS, "m5.large", 3600, 81.25, 18750, 593.75, 26},
	{VOLS, "i4i.large", 2500, 78.12, 40000, 1250, 25},
	{VOLS, "i4i.32xlarge", 160000, 5000, 0, 0, 18},
	{VOLS, "m7i.large", 3600, 81.25, 40000, 1250, 31},
	{VOLS, "m7i.48xlarge", 240000, 5000, 0, 0, 127},
	{VOLS, "m4.large", 3600, 56.25, 0, 0, 39},
};

static void test_aws_instances(void **state)
{
	for (size_t i = 0; i < sizeof(insts) / sizeof(insts[0]); i++) {
		const struct inst *r = &insts[i];
		const struct cat_vm *vm = catalog_find_vm(&cat, "aws", r->vm);
		char spec[64], want[96], err[256];

		if (!vm)
			fail_msg("%s: %s is not in the catalog", r->page, r->vm);
		if (vm->uncached_iops != r->iops || fabs(vm->uncached_mbps - r->mbps) > 1e-6 ||
		    vm->burst_iops != r->burst_iops ||
		    fabs(vm->burst_mbps - r->burst_mbps) > 1e-6 ||
		    (r->burst_iops > 0) != (vm->burst_seconds == 1800))
			fail_msg("%s: %s: %g IOPS, %g MB/s, burst %g IOPS, %g MB/s, %g s", r->page,
				 r->vm, vm->uncached_iops, vm->uncached_mbps, vm->burst_iops,
				 vm->burst_mbps, vm->burst_seconds);
		if (vm->max_disks != r->data_disks)
			fail_msg("%s: %s takes %u data disks, not %u", VOLS, r->vm, vm->max_disks,
				 r->data_disks);
		/* One more than the limit is refused, naming it. */
		snprintf(spec, sizeof(spec), "%uxgp3:1TiB", r->data_disks + 1);
		snprintf(want, sizeof(want), "%s takes at most %u", r->vm, r->data_disks);
		if (!strstr(refusal(r->vm, spec, err, sizeof(err)), want))
			fail_msg("%s: %s: '%s' does not say '%s'", VOLS, spec, err, want);
	}
	/* The instance's baseline binds four gp3 volumes of 16,000 IOPS on m5.16xlarge. */
	const char *specs[1] = {"4xgp3:1TiB:iops=16000:mbps=1000"};
	struct model_result p = predict_groups("m5.16xlarge", specs, 1, 0,
		(struct model_workload){16384, 0, false, 1, 1024});

	assert_true(fabs(p.iops - 60000) < 1);
	assert_string_equal(p.binding, "vm_uncached_iops");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aws_examples),
		cmocka_unit_test(test_aws_instances),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
