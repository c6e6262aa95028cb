// CRC-32 (IEEE 802.3, reflected) by folding with carry-less multiplication, after Intel's
// "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ Instruction" (2009).
//
// Why: the artifact's every section is checksummed, and `open(.full)` and `fieldguide diff`
// spend most of their time there. The table loop does about 1 GB/s; folding 64 bytes per step
// in four independent lanes does about 7 GB/s on the benchmark machine. The fold constants are
// x^n mod P(x) for the bit-reflected polynomial, the published values for this CRC.

#include "crc32_fold.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

int fieldguide_crc32_can_fold(void) {
    // -1: not asked yet. Racing first calls compute the same answer, so relaxed atomics do.
    static int known = -1;
    int answer = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (answer < 0) {
        unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
        answer = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_PCLMUL) && (ecx & bit_SSE4_1);
        __atomic_store_n(&known, answer, __ATOMIC_RELAXED);
    }
    return answer;
}

/// x·k for a 128-bit lane: its low half times k's low half, xor its high half times k's high half.
__attribute__((target("pclmul,sse4.1")))
static inline __m128i fold_lane(__m128i x, __m128i k) {
    return _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11));
}

__attribute__((target("pclmul,sse4.1")))
static inline __m128i load(const uint8_t *bytes) { return _mm_loadu_si128((const __m128i *)bytes); }

__attribute__((target("pclmul,sse4.1")))
size_t fieldguide_crc32_fold(uint32_t crc, const uint8_t *bytes, size_t count, uint8_t rest[16]) {
    // Fold by 512 bits (x^(512±32) mod P), then by 128 bits (x^(128±32) mod P), low half first.
    const __m128i by512 = _mm_set_epi64x(0x1c6e41596LL, 0x154442bd4LL);
    const __m128i by128 = _mm_set_epi64x(0x0ccaa009eLL, 0x1751997d0LL);
    const uint8_t *p = bytes;
    __m128i x0 = _mm_xor_si128(load(p), _mm_cvtsi32_si128((int)crc));
    __m128i x1 = load(p + 16), x2 = load(p + 32), x3 = load(p + 48);
    p += 64;
    for (size_t left = count - 64; left >= 64; left -= 64, p += 64) {
        x0 = _mm_xor_si128(fold_lane(x0, by512), load(p));
        x1 = _mm_xor_si128(fold_lane(x1, by512), load(p + 16));
        x2 = _mm_xor_si128(fold_lane(x2, by512), load(p + 32));
        x3 = _mm_xor_si128(fold_lane(x3, by512), load(p + 48));
    }
    __m128i x = _mm_xor_si128(fold_lane(x0, by128), x1);
    x = _mm_xor_si128(fold_lane(x, by128), x2);
    x = _mm_xor_si128(fold_lane(x, by128), x3);
    for (; (size_t)(bytes + count - p) >= 16; p += 16) {
        x = _mm_xor_si128(fold_lane(x, by128), load(p));
    }
    _mm_storeu_si128((__m128i *)rest, x);
    return (size_t)(p - bytes);
}

#else

int fieldguide_crc32_can_fold(void) { return 0; }

size_t fieldguide_crc32_fold(uint32_t crc, const uint8_t *bytes, size_t count, uint8_t rest[16]) {
    (void)crc; (void)bytes; (void)count; (void)rest;
    return 0;
}

#endif
