#pragma once
#include <stddef.h>
#include <stdint.h>

/* Decodes an 8-bit, non-interlaced grey, grey+alpha, RGB or RGBA PNG of the given size into
   `out` (width * height * 4 bytes, straight RGBA). 1 on success; 0 when the file is of another
   kind or anything about it is not clean (then libpng decides), with `out` partly written. */
int hl_png_fast_decode(const uint8_t *data, size_t length, uint8_t *out, uint32_t width, uint32_t height);
