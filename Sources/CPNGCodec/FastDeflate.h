#ifndef HL_FAST_DEFLATE_H
#define HL_FAST_DEFLATE_H

#include <stddef.h>
#include <stdint.h>

/* A zlib stream for PNG's filtered rows, fast rather than small (PNGWrite.c's "fast" mode).
   `row_bytes` is one filtered row with its filter byte, `bpp` the bytes per pixel. */

/* The most bytes hl_fast_zlib can write for `length` input bytes. */
size_t hl_fast_zlib_bound(size_t length);

/* Writes the stream to `out` and returns its length, or 0 when `capacity` is too small.
   `zero_rows` (or NULL) marks the rows known to be a filter byte and zeros, which are coded
   without being read. */
size_t hl_fast_zlib(const uint8_t *in, size_t length, size_t row_bytes, int bpp, const uint8_t *zero_rows,
                    uint8_t *out, size_t capacity);

#endif
