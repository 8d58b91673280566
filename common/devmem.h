/* devmem.h - device buffers for drivers, tests and benchmarks: every call
 * checked, outputs poisoned (never zeros) before a kernel writes them. */
#ifndef LAB_DEVMEM_H
#define LAB_DEVMEM_H

#include "lab.h"

LAB_BEGIN_C

void *lab_dev_upload(const void *host, size_t bytes);     /* cudaMalloc + copy in */
void *lab_dev_poisoned(size_t bytes);                     /* cudaMalloc + LAB_POISON_BYTE */
void lab_dev_download(void *host, const void *dev, size_t bytes); /* synchronize + copy out */
void lab_dev_free(void *dev);

LAB_END_C

#endif
