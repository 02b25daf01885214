/*
 * device_in_use against a made-up kernel: a sysfs tree, mountinfo and swaps in a temporary
 * directory (struct device_env), and signatures in a regular file that libblkid probes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "fake_tree.h"

#include "core/device.h"

/* Device numbers no real device here has; nothing in this file opens them. */
#define DISK makedev(7, 1048570)
#define PART makedev(259, 1048570)
#define OTHER makedev(259, 1048571)

struct fx {
	char dir[64];
	char sys[128], mountinfo[128], swaps[128], devdir[128];
	char disk[256], part[256];     /* sysfs directories of the disk and its partition */
	struct device_env env;
};

/*
 * sys/devices/virtual/block/fakedisk with a partition fakedisk1, each with an empty holders/,
 * and sys/dev/block/MAJ:MIN links to them, as the kernel lays them out.
 */
static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));
	char p[512], link[64];

	if (!fx)
		return -1;
	strcpy(fx->dir, "/tmp/iorate-test-device.XXXXXX");
	if (!mkdtemp(fx->dir))
		return -1;
	snprintf(fx->sys, sizeof(fx->sys), "%s/sys", fx->dir);
	snprintf(fx->mountinfo, sizeof(fx->mountinfo), "%s/mountinfo", fx->dir);
	snprintf(fx->swaps, sizeof(fx->swaps), "%s/swaps", fx->dir);
	snprintf(fx->disk, sizeof(fx->disk), "%s/devices/virtual/block/fakedisk", fx->sys);
	snprintf(fx->part, sizeof(fx->part), "%.200s/fakedisk1", fx->disk);
	snprintf(p, sizeof(p), "%s/holders", fx->part);
	mkdirs(p);
	snprintf(p, sizeof(p), "%s/holders", fx->disk);
	mkdirs(p);
	snprintf(p, sizeof(p), "%s/dev/block", fx->sys);
	mkdirs(p);
	snprintf(p, sizeof(p), "%s/dev", fx->disk);
	put(p, "7:1048570\n");
	snprintf(p, sizeof(p), "%s/dev", fx->part);
	put(p, "259:1048570\n");
	snprintf(p, sizeof(p), "%s/partition", fx->part);
	put(p, "1\n");
	snprintf(p, sizeof(p), "%s/dev/block/%u:%u", fx->sys, major(DISK), minor(DISK));
	snprintf(link, sizeof(link), "../../devices/virtual/block/fakedisk");
	if (symlink(link, p))
		return -1;
	snprintf(p, sizeof(p), "%s/dev/block/%u:%u", fx->sys, major(PART), minor(PART));
	snprintf(link, sizeof(link), "../../devices/virtual/block/fakedisk/fakedisk1");
	if (symlink(link, p))
		return -1;
	put(fx->mountinfo, "22 1 253:7 / / rw,relatime shared:1 - ext4 /dev/fakeroot rw\n"
			   "25 22 0:21 / /proc rw,nosuid shared:12 - proc proc rw\n");
	put(fx->swaps, "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
	snprintf(fx->devdir, sizeof(fx->devdir), "%s/dev", fx->dir);
	mkdirs(fx->devdir);
	fx->env = (struct device_env){.sys = fx->sys, .mountinfo = fx->mountinfo,
				      .swaps = fx->swaps, .dev = fx->devdir};
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;

	fake_tree_remove(fx->dir);
	free(fx);
	return 0;
}

/* device_in_use(dev, no probe): want 0 or 1, and the reason holding words (NULL: none). */
static void expect(struct fx *fx, dev_t dev, int fd, int want, const char *words)
{
	char why[512] = "";
	int r = device_in_use(&fx->env, dev, fd, why, sizeof(why));

	if (r != want)
		fail_msg("device_in_use = %d, expected %d (%s)", r, want, why);
	if (words && !strstr(why, words))
		fail_msg("\"%s\" lacks \"%s\"", why, words);
}

static void free_device(void **state)
{
	struct fx *fx = *state;
	char name[32];

	expect(fx, DISK, -1, 1, "the kernel lists partitions on it (fakedisk1)");
	expect(fx, PART, -1, 0, NULL);
	assert_int_equal(device_name(&fx->env, DISK, name, sizeof(name)), 0);
	assert_string_equal(name, "fakedisk");
	assert_int_equal(device_name(&fx->env, PART, name, sizeof(name)), 0);
	assert_string_equal(name, "fakedisk1");
}

/* What sysfs does not list cannot be checked, so it counts as in use. */
static void unknown_device(void **state)
{
	struct fx *fx = *state;
	char name[32];

	expect(fx, OTHER, -1, 1, "cannot be read from sysfs");
	assert_int_equal(device_name(&fx->env, OTHER, name, sizeof(name)), -ENOENT);
}

static void holder_on_partition(void **state)
{
	struct fx *fx = *state;
	char p[512];

	snprintf(p, sizeof(p), "%s/holders/dm-3", fx->part);
	put(p, "");
	/* The whole disk is refused for what is stacked on its partition. */
	expect(fx, DISK, -1, 1, "fakedisk1 is held by dm-3");
	expect(fx, PART, -1, 1, "fakedisk1 is held by dm-3");
	unlink(p);
	snprintf(p, sizeof(p), "%s/holders/md127", fx->disk);
	put(p, "");
	expect(fx, DISK, -1, 1, "fakedisk is held by md127");
}

static void mounted_partition(void **state)
{
	struct fx *fx = *state;

	put(fx->mountinfo, "22 1 253:7 / / rw,relatime shared:1 - ext4 /dev/fakeroot rw\n"
			   "41 22 259:1048570 / /mnt/data rw,relatime shared:30 - ext4 "
			   "/dev/fakedisk1 rw\n");
	expect(fx, DISK, -1, 1, "fakedisk1 is mounted at /mnt/data");
	/* The same numbers' minor on another major is another device. */
	put(fx->mountinfo, "41 22 7:1048571 / /mnt/data rw shared:30 - ext4 /dev/x rw\n"
			   "42 22 258:1048570 / /mnt/other rw shared:31 - ext4 /dev/y rw\n");
	expect(fx, PART, -1, 0, NULL);
	put(fx->mountinfo, "43 22 7:1048570 / /srv rw shared:32 - xfs /dev/fakedisk rw\n");
	expect(fx, DISK, -1, 1, "fakedisk is mounted at /srv");
}

/* /proc/swaps names a path; only a block device node whose number is the device's counts. */
static void swap_on_partition(void **state)
{
	struct fx *fx = *state;
	char node[128], file[128], text[512];

	snprintf(node, sizeof(node), "%s/fakedisk1-node", fx->dir);
	snprintf(file, sizeof(file), "%s/swapfile", fx->dir);
	put(file, "");
	snprintf(text, sizeof(text),
		 "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
		 "%s\t\t\t\tfile\t\t1024\t\t0\t\t-2\n",
		 file);
	put(fx->swaps, text);
	expect(fx, PART, -1, 0, NULL);
	if (mknod(node, S_IFBLK | 0600, PART)) {
		print_message("cannot make a block device node (%s): needs root\n",
			      strerror(errno));
		skip();
	}
	snprintf(text, sizeof(text),
		 "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
		 "%s\t\t\t\tfile\t\t1024\t\t0\t\t-2\n"
		 "%s\t\t\t\tpartition\t1024\t\t0\t\t-3\n",
		 file, node);
	put(fx->swaps, text);
	expect(fx, DISK, -1, 1, "fakedisk1 is in use as swap");
	expect(fx, PART, -1, 1, "fakedisk1 is in use as swap");
}

/*
 * A regular file of 4 MiB holding len bytes at offset at, for libblkid to probe through fd (it
 * does not look for RAID members on a device below 1.44 MB).
 */
static int image(struct fx *fx, const void *bytes, size_t len, off_t at)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/image", fx->dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 4 << 20), 0);
	if (len)
		assert_int_equal(pwrite(fd, bytes, len, at), (ssize_t)len);
	return fd;
}

static void put_le(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void signatures(void **state)
{
	struct fx *fx = *state;
	unsigned char sb[260];
	int fd;

	fd = image(fx, NULL, 0, 0);
	expect(fx, PART, fd, 0, NULL);
	close(fd);

	/* A squashfs 4.0 superblock. */
	memset(sb, 0, sizeof(sb));
	put_le(sb, 0x73717368, 4);
	put_le(sb + 4, 1, 4);
	put_le(sb + 12, 131072, 4);
	put_le(sb + 28, 4, 2);
	put_le(sb + 40, 4096, 8);
	fd = image(fx, sb, 96, 0);
	expect(fx, DISK, fd, 1, "squashfs signature");
	close(fd);

	/* An MD RAID member, superblock 1.2 (4 KiB in), with its checksum. */
	memset(sb, 0, sizeof(sb));
	put_le(sb, 0xa92b4efc, 4);
	put_le(sb + 4, 1, 4);
	for (int i = 0; i < 16; i++)
		sb[16 + i] = (unsigned char)(i + 1), sb[168 + i] = (unsigned char)(i + 17);
	put_le(sb + 72, 1, 4);
	put_le(sb + 92, 2, 4);
	put_le(sb + 144, 4096 >> 9, 8);
	put_le(sb + 220, 2, 4);
	put_le(sb + 258, 1, 2);
	uint64_t csum = 0;
	for (int i = 0; i < 260; i += 4)
		csum += (uint64_t)sb[i] | (uint64_t)sb[i + 1] << 8 | (uint64_t)sb[i + 2] << 16 |
			(uint64_t)sb[i + 3] << 24;
	csum = (csum & 0xffffffff) + (csum >> 32);
	put_le(sb + 216, csum, 4);
	fd = image(fx, sb, 260, 4096);
	expect(fx, DISK, fd, 1, "linux_raid_member signature");
	close(fd);

	/* Mounted, swap and holders are found before the probe is needed. */
	fd = image(fx, NULL, 0, 0);
	put(fx->mountinfo, "43 22 7:1048570 / /srv rw shared:32 - xfs /dev/fakedisk rw\n");
	expect(fx, DISK, fd, 1, "mounted at /srv");
	close(fd);
}

/*
 * A disk is in use while the kernel lists partitions for it, whatever its own table now says (it
 * was zeroed: libblkid finds nothing on the disk); each partition is probed through its node in
 * /dev, which must be that very block device.
 */
static void listed_partitions(void **state)
{
	struct fx *fx = *state;
	char node[256];
	int fd = image(fx, NULL, 0, 0);

	expect(fx, DISK, -1, 1, "the kernel lists partitions on it (fakedisk1)");
	/* No node: said, not skipped. */
	expect(fx, DISK, fd, 1, "fakedisk1 cannot be opened to look for signatures");
	/* A node that is not the partition's block device (a file planted there) is not probed. */
	snprintf(node, sizeof(node), "%s/fakedisk1", fx->devdir);
	put(node, "");
	expect(fx, DISK, fd, 1, "(fakedisk1); fakedisk1 cannot be opened to look for signatures");
	close(fd);
	/* The partition itself lists none. */
	expect(fx, PART, -1, 0, NULL);
	/* Named in a user's order, whatever order sysfs lists them in. */
	for (unsigned n = 12; n >= 2; n--) {
		char p[512], text[32];

		snprintf(p, sizeof(p), "%s/fakedisk%u", fx->disk, n);
		mkdirs(p);
		snprintf(p, sizeof(p), "%s/fakedisk%u/partition", fx->disk, n);
		snprintf(text, sizeof(text), "%u\n", n);
		put(p, text);
		snprintf(p, sizeof(p), "%s/fakedisk%u/dev", fx->disk, n);
		snprintf(text, sizeof(text), "259:%u\n", 1048580 + n);
		put(p, text);
	}
	expect(fx, DISK, -1, 1, "the kernel lists partitions on it (fakedisk1, fakedisk2, fakedisk3, "
	       "fakedisk4, fakedisk5, fakedisk6, fakedisk7, fakedisk8, fakedisk9, fakedisk10, "
	       "fakedisk11, fakedisk12)");
}

/*
 * A probe libblkid cannot make counts as holding something, and says the probe failed: a pipe
 * it refuses to probe at all, and a file it cannot read (opened write-only).
 */
static void failed_probe(void **state)
{
	struct fx *fx = *state;
	char path[128];
	int p[2], fd;

	assert_int_equal(pipe(p), 0);
	expect(fx, DISK, p[0], 1,
	       "the libblkid probe failed (Invalid argument), so it may hold data");
	close(p[0]);
	close(p[1]);
	close(image(fx, NULL, 0, 0));
	snprintf(path, sizeof(path), "%s/image", fx->dir);
	fd = open(path, O_WRONLY);
	assert_true(fd >= 0);
	expect(fx, DISK, fd, 1, "the libblkid probe failed (Bad file descriptor)");
	close(fd);
}

/* Every reason is named, not only the first: --force names what it overrides. */
static void every_reason(void **state)
{
	struct fx *fx = *state;
	char p[512];
	unsigned char sb[96];
	int fd;

	memset(sb, 0, sizeof(sb));
	put_le(sb, 0x73717368, 4);
	put_le(sb + 4, 1, 4);
	put_le(sb + 12, 131072, 4);
	put_le(sb + 28, 4, 2);
	put_le(sb + 40, 4096, 8);
	fd = image(fx, sb, sizeof(sb), 0);
	put(fx->mountinfo, "43 22 7:1048570 / /srv rw shared:32 - xfs /dev/fakedisk rw\n"
			   "44 22 7:1048570 / /srv2 rw shared:33 - xfs /dev/fakedisk rw\n");
	snprintf(p, sizeof(p), "%s/holders/dm-3", fx->part);
	put(p, "");
	expect(fx, DISK, fd, 1, "fakedisk is mounted at /srv; fakedisk1 is held by dm-3 "
				"(device-mapper, MD RAID or LVM use it); it holds a squashfs signature "
				"(filesystem, RAID or LVM member); "
				"the kernel lists partitions on it (fakedisk1); fakedisk1 cannot be "
				"opened to look for signatures");
	close(fd);
}

/*
 * A partition is refused for what its whole disk holds: a filesystem mounted from the disk, swap
 * on it, a holder of it. Another partition of the disk lies elsewhere and is not looked at.
 */
static void partition_of_used_disk(void **state)
{
	struct fx *fx = *state;
	char p[512], link[80];
	const dev_t part2 = makedev(259, 1048569);

	snprintf(p, sizeof(p), "%s/fakedisk2/holders", fx->disk);
	mkdirs(p);
	snprintf(p, sizeof(p), "%s/fakedisk2/dev", fx->disk);
	put(p, "259:1048569\n");
	snprintf(p, sizeof(p), "%s/fakedisk2/partition", fx->disk);
	put(p, "2\n");
	snprintf(p, sizeof(p), "%s/dev/block/259:1048569", fx->sys);
	snprintf(link, sizeof(link), "../../devices/virtual/block/fakedisk/fakedisk2");
	assert_int_equal(symlink(link, p), 0);

	put(fx->mountinfo, "43 22 7:1048570 / /srv rw shared:32 - ext4 /dev/fakedisk rw\n");
	expect(fx, PART, -1, 1, "fakedisk is mounted at /srv");
	put(fx->mountinfo, "43 22 259:1048569 / /srv rw shared:32 - ext4 /dev/fakedisk2 rw\n");
	expect(fx, PART, -1, 0, NULL);
	expect(fx, DISK, -1, 1, "fakedisk2 is mounted at /srv");
	expect(fx, part2, -1, 1, "fakedisk2 is mounted at /srv");
	put(fx->mountinfo, "");
	snprintf(p, sizeof(p), "%s/holders/md127", fx->disk);
	put(p, "");
	expect(fx, PART, -1, 1, "fakedisk is held by md127");
	/* A partition whose disk sysfs does not describe cannot be checked. */
	unlink(p);
	snprintf(p, sizeof(p), "%s/dev", fx->disk);
	unlink(p);
	expect(fx, PART, -1, 1, "cannot be read from sysfs");
}

/* The loop device a file backs: found through sysfs's loop/backing_file, by device and inode. */
static void backing_file(void **state)
{
	struct fx *fx = *state;
	char p[512], img[128], other[128], name[32] = "";
	const dev_t loop = makedev(7, 1048571);
	struct stat st;
	dev_t got = 0;

	snprintf(img, sizeof(img), "%s/image", fx->dir);
	snprintf(other, sizeof(other), "%s/other", fx->dir);
	close(image(fx, NULL, 0, 0));
	put(other, "");
	snprintf(p, sizeof(p), "%s/block/fakeloop/loop", fx->sys);
	mkdirs(p);
	snprintf(p, sizeof(p), "%s/block/fakeloop/dev", fx->sys);
	put(p, "7:1048571\n");
	snprintf(p, sizeof(p), "%s/block/fakedisk", fx->sys);
	assert_int_equal(symlink("../devices/virtual/block/fakedisk", p), 0);

	assert_int_equal(stat(img, &st), 0);
	/* Attached to nothing yet: no loop/backing_file. */
	assert_int_equal(device_backing_loop(&fx->env, st.st_dev, st.st_ino, &got, name,
					     sizeof(name)), 0);
	snprintf(p, sizeof(p), "%s/block/fakeloop/loop/backing_file", fx->sys);
	/* As the kernel prints it: the path and a newline. */
	strcat(img, "\n");
	put(p, img);
	assert_int_equal(device_backing_loop(&fx->env, st.st_dev, st.st_ino, &got, name,
					     sizeof(name)), 1);
	assert_true(got == loop);
	assert_string_equal(name, "fakeloop");
	assert_int_equal(stat(other, &st), 0);
	assert_int_equal(device_backing_loop(&fx->env, st.st_dev, st.st_ino, &got, name,
					     sizeof(name)), 0);
}

/* The devices under a partition: itself, then its whole disk. */
static void stack_of_partition(void **state)
{
	struct fx *fx = *state;
	struct device_stack s;

	assert_int_equal(device_stack(&fx->env, PART, &s), 0);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.node[0].name, "fakedisk1");
	assert_int_equal(s.node[0].role, DEVICE_TARGET);
	assert_string_equal(s.node[1].name, "fakedisk");
	assert_true(s.node[1].role == DEVICE_DISK && s.node[1].of == 0 && s.node[1].dev == DISK);
	assert_int_equal(device_stack(&fx->env, DISK, &s), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(device_stack(&fx->env, OTHER, &s), -ENOENT);
}

/*
 * md0 over cciss!c0d0 and the partition fakedisk1: members in name order, each once, the disk
 * under the partition, and sysfs's '!' spelled '/' as /proc/diskstats spells it.
 */
static void stack_of_md(void **state)
{
	struct fx *fx = *state;
	char p[512], link[64];
	struct device_stack s;
	const dev_t md = makedev(9, 1048570), cc = makedev(104, 1048570);

	snprintf(p, sizeof(p), "%s/devices/virtual/block/md0/slaves", fx->sys);
	mkdirs(p);
	snprintf(p, sizeof(p), "%s/devices/virtual/block/md0/dev", fx->sys);
	put(p, "9:1048570\n");
	snprintf(p, sizeof(p), "%s/devices/virtual/block/cciss!c0d0", fx->sys);
	mkdirs(p);
	snprintf(p, sizeof(p), "%s/devices/virtual/block/cciss!c0d0/dev", fx->sys);
	put(p, "104:1048570\n");
	snprintf(p, sizeof(p), "%s/devices/virtual/block/md0/slaves/fakedisk1", fx->sys);
	assert_int_equal(symlink("../../fakedisk/fakedisk1", p), 0);
	snprintf(p, sizeof(p), "%s/devices/virtual/block/md0/slaves/cciss!c0d0", fx->sys);
	assert_int_equal(symlink("../../cciss!c0d0", p), 0);
	snprintf(p, sizeof(p), "%s/dev/block/9:1048570", fx->sys);
	assert_int_equal(symlink("../../devices/virtual/block/md0", p), 0);
	snprintf(p, sizeof(p), "%s/dev/block/104:1048570", fx->sys);
	snprintf(link, sizeof(link), "../../devices/virtual/block/cciss!c0d0");
	assert_int_equal(symlink(link, p), 0);

	assert_int_equal(device_stack(&fx->env, md, &s), 0);
	assert_int_equal(s.n, 4);
	assert_string_equal(s.node[0].name, "md0");
	assert_string_equal(s.node[1].name, "cciss/c0d0");
	assert_true(s.node[1].role == DEVICE_MEMBER && s.node[1].of == 0 && s.node[1].dev == cc);
	assert_string_equal(s.node[2].name, "fakedisk1");
	assert_true(s.node[2].role == DEVICE_MEMBER && s.node[2].of == 0);
	assert_string_equal(s.node[3].name, "fakedisk");
	assert_true(s.node[3].role == DEVICE_DISK && s.node[3].of == 2);
}

/*
 * A filesystem without a block device in st_dev (major 0): its mount's source, when that is a
 * block device node (made here when mknod is allowed), else none.
 */
static void stack_of_mount(void **state)
{
	struct fx *fx = *state;
	char nodepath[128], text[512];
	struct device_stack s;

	snprintf(text, sizeof(text), "41 22 0:1048571 / /mnt rw shared:30 - tmpfs tmpfs rw\n");
	put(fx->mountinfo, text);
	assert_int_equal(device_stack(&fx->env, makedev(0, 1048571), &s), -ENODEV);
	assert_int_equal(device_stack(&fx->env, makedev(0, 1048572), &s), -ENODEV);
	snprintf(nodepath, sizeof(nodepath), "%s/fakedisk1-node", fx->dir);
	if (mknod(nodepath, S_IFBLK | 0600, PART)) {
		print_message("mknod: %s: the btrfs case is left untested\n", strerror(errno));
		return;
	}
	snprintf(text, sizeof(text), "41 22 0:1048571 / /mnt rw shared:30 - btrfs %s rw\n",
		 nodepath);
	put(fx->mountinfo, text);
	assert_int_equal(device_stack(&fx->env, makedev(0, 1048571), &s), 0);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.node[0].name, "fakedisk1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(free_device, setup, teardown),
		cmocka_unit_test_setup_teardown(unknown_device, setup, teardown),
		cmocka_unit_test_setup_teardown(holder_on_partition, setup, teardown),
		cmocka_unit_test_setup_teardown(listed_partitions, setup, teardown),
		cmocka_unit_test_setup_teardown(mounted_partition, setup, teardown),
		cmocka_unit_test_setup_teardown(swap_on_partition, setup, teardown),
		cmocka_unit_test_setup_teardown(signatures, setup, teardown),
		cmocka_unit_test_setup_teardown(failed_probe, setup, teardown),
		cmocka_unit_test_setup_teardown(every_reason, setup, teardown),
		cmocka_unit_test_setup_teardown(partition_of_used_disk, setup, teardown),
		cmocka_unit_test_setup_teardown(backing_file, setup, teardown),
		cmocka_unit_test_setup_teardown(stack_of_partition, setup, teardown),
		cmocka_unit_test_setup_teardown(stack_of_md, setup, teardown),
		cmocka_unit_test_setup_teardown(stack_of_mount, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
