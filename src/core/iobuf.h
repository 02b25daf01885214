#ifndef IORATE_CORE_IOBUF_H
#define IORATE_CORE_IOBUF_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The I/O buffers of a job: one mapping, cut by run.c into each worker's slots. When an I/O
 * spans IOBUF_HUGE_MIN_IO or more, the mapping is aligned to the kernel's transparent huge page
 * and asks for huge pages (MADV_HUGEPAGE), so each I/O is one physically contiguous segment
 * instead of one per 4 KiB page. On a virtio disk without indirect descriptors (Firecracker's,
 * 256 descriptors a queue) a 256 KiB read in scattered pages takes 66 descriptors, so three
 * fit the queue at once; in a huge page it takes three, and the device did 2.2 times the
 * reads (bench/README.md, "Device-bound workloads").
 */
#define IOBUF_HUGE_MIN_IO (16u << 10)
/* A huge page larger than this (arm64 with 64 KiB pages: 512 MiB) is not worth its memory. */
#define IOBUF_HUGE_MAX ((size_t)32 << 20)

struct iobuf {
	void *base;
	size_t len;        /* mapped and usable: a multiple of the page, or of the huge page */
	size_t huge;       /* the huge page asked for (0: none); the kernel may not have one free */
};

/*
 * Maps at least `len` bytes for I/Os of at most `max_io` bytes, page-aligned (huge-page aligned
 * when huge pages are asked for). 0 or -errno; nothing is touched, so nothing is resident yet.
 */
int iobuf_alloc(struct iobuf *b, size_t len, uint64_t max_io);
/* The huge page size iobuf_alloc() would use here for I/Os of max_io bytes; 0 for none. */
size_t iobuf_huge_size(uint64_t max_io);
/* Unmaps; safe on a zeroed or released struct. */
void iobuf_release(struct iobuf *b);

#endif
