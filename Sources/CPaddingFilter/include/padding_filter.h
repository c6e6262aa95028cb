#ifndef FIELDGUIDE_PADDING_FILTER_H
#define FIELDGUIDE_PADDING_FILTER_H

#include <stddef.h>
#include <stdint.h>

/// What `PaddingFilter` carries from byte to byte, shared with the block kernel below.
typedef struct {
    /// Spaces read but not yet written: their fate waits on the byte after them.
    size_t pending;
    /// Bytes written to the output so far.
    size_t written;
    /// The last byte written (a line feed before the first).
    uint8_t last;
    /// The field delimiter.
    uint8_t delimiter;
    /// The longest run of spaces the record bound allows.
    size_t max_run;
    /// Where, in the output, the first run longer than `max_run` was resolved; -1 for none.
    ptrdiff_t overlong;
} fieldguide_padding_state;

/// Whether this processor runs the block kernel (x86-64 with AVX-512BW and VBMI2); 0 elsewhere.
int fieldguide_padding_can_vectorize(void);

/// Filters the whole 64-byte blocks of `input` (`count` bytes) into `output` at
/// `state->written`, exactly as `PaddingFilter`'s byte loop does, and returns how many input
/// bytes it consumed (a multiple of 64). `output` must have room for `state->pending + count`
/// more bytes. Only call it when `fieldguide_padding_can_vectorize()` says so.
size_t fieldguide_padding_filter_blocks(const uint8_t *input, size_t count, uint8_t *output,
                                        fieldguide_padding_state *state);

#endif
