/* devmem.h - device buffers for drivers, tests and benchmarks: every call
 * checked, outputs poisoned (never zeros) before a kernel writes them, and
 * every buffer named and fenced: LAB_GUARD_BYTES of a marker lie after it
 * (and a header before it), checked when it is downloaded and when it is
 * freed, so a kernel that writes past the end fails, naming the buffer and
 * the offset, even where the allocator's slack would have hidden it. With
 * LAB_EXACT_BUFFERS=1 in the environment (make check's memcheck run) every
 * buffer is its exact size instead, so memcheck reports a read past the end. */
#ifndef LAB_DEVMEM_H
#define LAB_DEVMEM_H

#include "lab.h"

LAB_BEGIN_C

#define LAB_GUARD_BYTES 256
#define LAB_GUARD_BYTE  0xC7 /* not the poison (0xA5), not a likely result */

void *lab_dev_upload(const void *host, size_t bytes, const char *name); /* cudaMalloc + copy in */
void *lab_dev_poisoned(size_t bytes, const char *name);                 /* cudaMalloc + LAB_POISON_BYTE */
void lab_dev_download(void *host, const void *dev, size_t bytes);       /* synchronize, check, copy out */
void lab_dev_free(void *dev);                                           /* check, then cudaFree */

/* 0 when nothing was written just before or after the buffer; else -1 and a
 * one-line reason that names the buffer and the first byte written. */
int lab_dev_check_guard(const void *dev, char *why, size_t len);

/* Called with that reason when a download or a free finds a guard written.
 * The default prints it and exits with LAB_EXIT_FAIL; the tests make it a
 * failed assertion (tests/lab_test.c). */
void lab_dev_guard_failed(const char *why);

LAB_END_C

#endif
