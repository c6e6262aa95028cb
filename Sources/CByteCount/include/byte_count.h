#ifndef FIELDGUIDE_BYTE_COUNT_H
#define FIELDGUIDE_BYTE_COUNT_H

#include <stddef.h>
#include <stdint.h>

/// How many of the `count` bytes at `bytes` equal `byte`.
size_t fieldguide_count_byte(const uint8_t *bytes, size_t count, uint8_t byte);

#endif
