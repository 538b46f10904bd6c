// JPEG encoding with libjpeg's full API (TurboJPEG 2.1 cannot ask for optimised Huffman
// tables): libjpeg reports errors by longjmp, which must stay in C, so Swift calls this.
#ifndef CJPEGCODEC_H
#define CJPEGCODEC_H

#include <stddef.h>
#include <stdint.h>

/// Encodes `height` rows of `width` pixels, `stride` bytes apart, in Cairo's byte order on
/// little-endian machines (B, G, R, X), as a baseline JPEG at `quality` (1-100): accurate
/// integer DCT, Huffman tables optimised for the image, chroma subsampled 4:2:0 below
/// quality 95 and kept whole (4:4:4) from 95 on. On success returns 0 and a malloc'ed buffer
/// in `*out` (free it with `hl_jpeg_free`); on failure -1 and a message in `error`.
int hl_jpeg_encode(const uint8_t *pixels, int width, int height, int stride, int quality, int gray,
                   uint8_t **out, size_t *out_length, char *error, size_t error_size);

void hl_jpeg_free(uint8_t *buffer);

#endif
