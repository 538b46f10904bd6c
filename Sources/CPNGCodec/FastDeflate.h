#ifndef HL_FAST_DEFLATE_H
#define HL_FAST_DEFLATE_H

#include <stddef.h>
#include <stdint.h>

/* A zlib stream for PNG's filtered rows, fast rather than small (PNGWrite.c's "fast" mode).
   `row_bytes` is one filtered row with its filter byte, `bpp` the bytes per pixel. */

/* The most bytes hl_fast_zlib can write for `length` input bytes. */
size_t hl_fast_zlib_bound(size_t length);

/* The stream is coded while the rows are filtered, a band at a time, so that each band is
   still in the cache: begin, feed as rows become ready, end. */
typedef struct FastZlib FastZlib;

/* A stream over `in` (`length` bytes, filled in as it goes) written to `out`; NULL when out of
   memory, when `bpp` is not 1 to 4 (PNG's 8-bit pixels) or when `row_bytes` is not 1 + a whole
   number (at least one) of `bpp`-byte pixels. `zero_rows` (or NULL) marks the rows known to be Up rows of zeros (the byte 2, then
   zeros), which are coded without being read. */
FastZlib *hl_fast_zlib_begin(const uint8_t *in, size_t length, size_t row_bytes, int bpp, const uint8_t *zero_rows,
                             uint8_t *out, size_t capacity);

/* The first `ready` bytes of the input are final (and so are their zero_rows marks): codes
   what it can of them. Returns 0, or -1 when `capacity` is too small. */
int hl_fast_zlib_feed(FastZlib *z, size_t ready);

/* Codes the rest, frees `z` and returns the stream's length, or 0 when `capacity` was too small. */
size_t hl_fast_zlib_end(FastZlib *z);

/* One piece of a zlib stream cut at row boundaries, so that pieces can be coded on several
   threads at once: raw deflate without the zlib header and trailer (the caller writes them),
   matching nothing before its own input; every piece but the `last` ends byte-aligned, so the
   pieces concatenated are one stream. Fed like a whole stream. */
FastZlib *hl_fast_deflate_begin(const uint8_t *in, size_t length, size_t row_bytes, int bpp, const uint8_t *zero_rows,
                                uint8_t *out, size_t capacity, int last);

/* Codes the rest of a piece, frees `z`, stores the Adler-32 of the piece's input in `adler` and
   returns the piece's length (0 when `capacity` was too small). */
size_t hl_fast_deflate_end(FastZlib *z, uint32_t *adler);

/* The Adler-32 of two inputs one after the other, from each one's own and the second's length. */
uint32_t hl_adler32_combine(uint32_t first, uint32_t second, size_t second_length);

#endif
