#pragma once
#include <stddef.h>
#include <stdint.h>

/* Decodes an 8-bit, non-interlaced grey, grey+alpha, RGB or RGBA PNG of the given size into
   `out` (straight RGBA rows, width * 4 bytes each), a buffer of `capacity` bytes, at least
   hl_png_decode_capacity(width, height): the compressed rows are inflated into its tail and
   unfiltered row by row into its head, so no second image-sized buffer is touched. 1 on
   success; 0 when the file is of another kind or anything about it is not clean (then libpng
   decides), with `out` partly written. */
int hl_png_fast_decode(const uint8_t *data, size_t length, uint8_t *out, size_t capacity, uint32_t width, uint32_t height);
