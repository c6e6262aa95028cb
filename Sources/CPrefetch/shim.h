// The compiler's prefetch hint, which Swift has no spelling for.
#ifndef FIELDGUIDE_CPREFETCH_SHIM_H
#define FIELDGUIDE_CPREFETCH_SHIM_H

/// Asks the processor to start loading the cache line holding `address`, for reading, without
/// waiting for it. A hint only: it never faults, whatever the address, and changes no value.
static inline void fieldguide_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#endif
