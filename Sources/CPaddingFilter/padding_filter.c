// The FAA files' padding dropped 64 bytes at a time (`PaddingFilter`'s rules, the same output).
//
// Why: every byte of the FAA downloads passes the padding filter before libcsv sees it (500 MB
// with DEREG and RESERVED), and its word-at-a-time loop took about a tenth of `ingest-faa`'s
// CPU: a branch per run of spaces and per word, mispredicted as text and padding alternate.
// Here a block's spaces are one 64-bit mask. A block of text alone is copied, a block of spaces
// alone is counted, and any other block has its runs of spaces walked with bit operations (a
// run is kept or dropped by the byte after it, and the byte before it), its kept bytes then
// written with one compress (AVX-512 VBMI2) and one store. The bytes after the last whole block go
// through the Swift loop, which takes over this state.

#include "padding_filter.h"

#if defined(__x86_64__)
#include <immintrin.h>
#include <string.h>

int fieldguide_padding_can_vectorize(void) {
    // -1: not asked yet. Racing first calls compute the same answer, so relaxed atomics do.
    static int known = -1;
    int answer = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (answer < 0) {
        __builtin_cpu_init();
        answer = __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vbmi2");
        __atomic_store_n(&known, answer, __ATOMIC_RELAXED);
    }
    return answer;
}

static inline int is_line_end(uint8_t byte) { return byte == 0x0A || byte == 0x0D; }

/// 1 when the run of spaces followed by the block's byte `end` ends a field and is dropped,
/// else 0: the delimiter follows it, or a line end does on a line that holds more than spaces
/// (bit 0 of `before_line_end`: the byte before the run is a line end). Read from the block's
/// masks of delimiters and line ends, without a branch.
static inline uint64_t dropped(uint64_t delimiters, uint64_t line_ends, unsigned end, uint64_t before_line_end) {
    return ((delimiters >> end) | ((line_ends >> end) & ~before_line_end)) & 1;
}

/// Bits `from..<to` (to at most 64).
static inline uint64_t bits(unsigned from, unsigned to) {
    uint64_t below_to = to >= 64 ? ~0ULL : (1ULL << to) - 1;
    return below_to & ~((1ULL << from) - 1);
}

__attribute__((target("avx512f,avx512bw,avx512vbmi2,bmi,bmi2,lzcnt,popcnt")))
size_t fieldguide_padding_filter_blocks(const uint8_t *input, size_t count, uint8_t *output,
                                        fieldguide_padding_state *state) {
    const __m512i spaces = _mm512_set1_epi8(0x20);
    size_t pending = state->pending, o = state->written, i = 0;
    ptrdiff_t overlong = state->overlong;
    uint8_t last = state->last;
    const uint8_t delimiter = state->delimiter;
    const size_t max_run = state->max_run;
    for (; i + 64 <= count; i += 64) {
        const uint8_t *block = input + i;
        __m512i bytes = _mm512_loadu_si512((const void *)block);
        uint64_t space = _mm512_cmpeq_epi8_mask(bytes, spaces);
        if (space == ~0ULL) { pending += 64; continue; }
        if (space == 0 && pending == 0) {
            _mm512_storeu_si512((void *)(output + o), bytes);
            o += 64;
            last = block[63];
            continue;
        }
        uint64_t keep = ~space, runs = space;
        // Where the delimiter and the line ends are: a run's fate is two bits of these.
        uint64_t delimiters = _mm512_cmpeq_epi8_mask(bytes, _mm512_set1_epi8((char)delimiter));
        uint64_t line_ends = _mm512_cmpeq_epi8_mask(bytes, _mm512_set1_epi8(0x0A)) | _mm512_cmpeq_epi8_mask(bytes, _mm512_set1_epi8(0x0D));
        // Bit k: the byte before byte k is a line end (for k = 0, the last byte written).
        uint64_t after_line_end = line_ends << 1 | (uint64_t)is_line_end(last);
        if (pending > 0) {
            // The run held from earlier blocks ends at this block's first byte that is not a space.
            unsigned first = (unsigned)_tzcnt_u64(~space);
            if (pending + first > max_run && overlong < 0) overlong = (ptrdiff_t)o;
            if (!dropped(delimiters, line_ends, first, after_line_end)) {  // before it: `last`, bit 0
                memset(output + o, 0x20, pending);
                o += pending;
                keep |= bits(0, first);
            }
            runs &= ~bits(0, first);
            pending = 0;
        }
        while (runs != 0) {
            unsigned start = (unsigned)_tzcnt_u64(runs);
            unsigned length = (unsigned)_tzcnt_u64(~(runs >> start));  // 64 - start when it reaches the end
            unsigned end = start + length;
            runs &= ~bits(start, end);
            if (end == 64) { pending = length; break; }  // its fate waits on the next block
            if (length > max_run && overlong < 0) overlong = (ptrdiff_t)(o + (size_t)_mm_popcnt_u64(keep & bits(0, start)));
            keep |= bits(start, end) & (dropped(delimiters, line_ends, end, after_line_end >> start) - 1);
        }
        // Compressed in a register, then stored whole: the bytes past the kept ones land where
        // the next block writes, inside the room the caller made (`o + 64` is at most
        // `i + 64 + pending` on entry). Compress-store to memory is several times slower.
        _mm512_storeu_si512((void *)(output + o), _mm512_maskz_compress_epi8(keep, bytes));
        o += (size_t)_mm_popcnt_u64(keep);
        // The last byte that is not a space: the last one written (a kept run is always followed
        // by one, written after it).
        last = block[63 - _lzcnt_u64(~space)];
    }
    state->pending = pending;
    state->written = o;
    state->last = last;
    state->overlong = overlong;
    return i;
}

#else

int fieldguide_padding_can_vectorize(void) { return 0; }

size_t fieldguide_padding_filter_blocks(const uint8_t *input, size_t count, uint8_t *output,
                                        fieldguide_padding_state *state) {
    (void)input; (void)count; (void)output; (void)state;
    return 0;
}

#endif
