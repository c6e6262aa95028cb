// The allocator's tuning call (glibc's <malloc.h>), which Swift's Glibc module leaves out.
#ifndef FIELDGUIDE_CMALLOC_SHIM_H
#define FIELDGUIDE_CMALLOC_SHIM_H
#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>

/// Sets glibc's mmap threshold to `bytes` (which also stops it from moving): 1 when taken.
static inline int fieldguide_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

/// Whether the block at `pointer` (from malloc) is a mapping of its own: glibc marks such a
/// chunk with bit 1 (IS_MMAPPED) of the size word just before the block.
static inline int fieldguide_is_mapped_block(const void *pointer) {
    return (int)((((const size_t *)pointer)[-1] & 2) != 0);
}
#endif
#endif
