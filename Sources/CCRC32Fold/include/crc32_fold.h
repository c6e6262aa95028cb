#ifndef FIELDGUIDE_CRC32_FOLD_H
#define FIELDGUIDE_CRC32_FOLD_H

#include <stddef.h>
#include <stdint.h>

/// Whether this processor can fold CRC-32 with carry-less multiplication (x86-64 with
/// PCLMULQDQ and SSE4.1); 0 elsewhere, where `CRC32` keeps its table loop.
int fieldguide_crc32_can_fold(void);

/// Folds the whole 16-byte blocks of `bytes` (`count` at least 64) into 16 bytes, starting from
/// the CRC register `crc` (the inverted running CRC, as the table loop holds it).
///
/// Writes the folded 16 bytes to `rest` and returns how many bytes of `bytes` it consumed (a
/// multiple of 16). The CRC register of everything consumed equals the register after running the
/// table loop over `rest` from 0: the caller finishes with `rest`, then the bytes left over.
/// Only call it when `fieldguide_crc32_can_fold()` says so.
size_t fieldguide_crc32_fold(uint32_t crc, const uint8_t *bytes, size_t count, uint8_t rest[16]);

#endif
