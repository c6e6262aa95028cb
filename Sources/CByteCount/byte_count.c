// Counting one byte value in a buffer, 64 bytes a step (`SplitFile.lineFeeds(in:)`).
//
// Why: a split file's second half numbers its lines from the line feeds of the first half,
// counted before it parses (45 MB of MASTER at full size). The word-at-a-time Swift loop took
// 364 M instructions for them (callgrind, its popcount in software: baseline x86-64 has no
// POPCNT); SSE2, which every x86-64 processor has, takes 30.5 M. Elsewhere the plain loop,
// which compilers vectorize themselves.

#include "byte_count.h"

#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>

/// The byte lanes of `counts` (each at most 255) summed.
static inline size_t lane_sum(__m128i counts) {
    __m128i sums = _mm_sad_epu8(counts, _mm_setzero_si128());
    return (size_t)_mm_cvtsi128_si64(sums) + (size_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums));
}

size_t fieldguide_count_byte(const uint8_t *bytes, size_t count, uint8_t byte) {
    const __m128i needle = _mm_set1_epi8((char)byte);
    size_t total = 0, i = 0;
    while (i + 64 <= count) {
        // A lane counts its matches as bytes (a match compares as -1, subtracted): `a` and `b`
        // each take two compares a step, so after 127 steps a lane holds at most 254, and the
        // lanes are summed before they could wrap.
        __m128i a = _mm_setzero_si128(), b = _mm_setzero_si128();
        for (int step = 0; step < 127 && i + 64 <= count; step++, i += 64) {
            a = _mm_sub_epi8(a, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(bytes + i)), needle));
            b = _mm_sub_epi8(b, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(bytes + i + 16)), needle));
            a = _mm_sub_epi8(a, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(bytes + i + 32)), needle));
            b = _mm_sub_epi8(b, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(bytes + i + 48)), needle));
        }
        total += lane_sum(a) + lane_sum(b);
    }
    for (; i < count; i++) total += bytes[i] == byte;
    return total;
}

#else

size_t fieldguide_count_byte(const uint8_t *bytes, size_t count, uint8_t byte) {
    size_t total = 0;
    for (size_t i = 0; i < count; i++) total += bytes[i] == byte;
    return total;
}

#endif
