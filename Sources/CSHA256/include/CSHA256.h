#ifndef CSHA256_H
#define CSHA256_H

#include <stddef.h>
#include <stdint.h>

/* FIPS 180-4's 64 round constants, for both the hardware and the Swift compression. */
const uint32_t *hl_sha256_constants(void);

/* Whether this CPU has the SHA extensions (SHA-NI, with SSSE3 and SSE4.1): asked once. */
int hl_sha256_hardware(void);

/* FIPS 180-4's compression of `blocks` 64-byte blocks at `data` into `state` (a..h), with the
   SHA extensions. Call only when hl_sha256_hardware() is 1; Support's Swift code is the
   fallback and the reference the tests hold this to. */
void hl_sha256_compress(uint32_t state[8], const uint8_t *data, size_t blocks);

#endif
