/* SHA-256 block compression with the x86 SHA extensions. Each sha256rnds2 does two rounds on
   the state held as two vectors, ABEF and CDGH; sha256msg1 and sha256msg2 extend the message
   schedule four words at a time (W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16]). */
#include "CSHA256.h"

/* FIPS 180-4's K: the first 32 bits of the fractional parts of the cube roots of the first 64
   primes. One table for both paths (Support's Swift code reads it through the accessor). */
static const uint32_t round_constants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

const uint32_t *hl_sha256_constants(void) { return round_constants; }

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

int hl_sha256_hardware(void) {
    static int known = -1;
    if (known < 0) {
        unsigned a, b, c, d;
        int sha = __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 29));
        int sse = __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 9)) && (c & (1u << 19)); /* SSSE3, SSE4.1 */
        known = sha && sse;
    }
    return known;
}

__attribute__((target("sha,ssse3,sse4.1")))
void hl_sha256_compress(uint32_t state[8], const uint8_t *data, size_t blocks) {
    /* Words are big-endian in the message: each 4-byte group reversed. */
    const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    /* a b c d / e f g h into the ABEF and CDGH the instructions take (lane 3 first). */
    __m128i abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[0]), 0xB1); /* b a d c */
    __m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[4]), 0x1B); /* h g f e */
    __m128i abef = _mm_alignr_epi8(abcd, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, abcd, 0xF0);

    for (size_t block = 0; block < blocks; block++, data += 64) {
        const __m128i abef_before = abef, cdgh_before = cdgh;
        __m128i w[4];
        for (int i = 0; i < 4; i++) w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * i)), swap);
        for (int group = 0; group < 16; group++) {
            __m128i words;
            if (group < 4) {
                words = w[group];
            } else {
                /* The next four words from the last sixteen, kept in a ring of four vectors. */
                __m128i w16 = w[group & 3], w15 = w[(group + 1) & 3], w7 = w[(group + 2) & 3], w3 = w[(group + 3) & 3];
                __m128i t = _mm_add_epi32(_mm_sha256msg1_epu32(w16, w15), _mm_alignr_epi8(w3, w7, 4));
                words = _mm_sha256msg2_epu32(t, w3);
                w[group & 3] = words;
            }
            __m128i message = _mm_add_epi32(words, _mm_loadu_si128((const __m128i *)&round_constants[4 * group]));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, message);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(message, 0x0E));
        }
        abef = _mm_add_epi32(abef, abef_before);
        cdgh = _mm_add_epi32(cdgh, cdgh_before);
    }
    /* Back to a b c d / e f g h. */
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(dchg, feba, 8));
}

#else
int hl_sha256_hardware(void) { return 0; }
void hl_sha256_compress(uint32_t state[8], const uint8_t *data, size_t blocks) { (void)state; (void)data; (void)blocks; }
#endif
