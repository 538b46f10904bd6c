/* libFuzzer harness: FastDeflate's zlib stream for PNG rows, checked against zlib's own
   inflate. The input picks the row length, the bytes per pixel, which rows are marked as zero
   Up rows, the row bytes and the points where the stream is fed; the inflated stream must be
   exactly the rows. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "FastDeflate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 4) return 0;
    int bpp = 1 + data[1] % 8; /* 5 to 8 must be refused */
    /* Mostly whole pixels, as PNG rows are; sometimes a shape the encoder must refuse. */
    size_t row_bytes = data[0] & 0x80 ? 1 + data[0] % 16 : 1 + (size_t)bpp * (1 + data[0] % 60);
    size_t rows = 1 + data[2] % 64;
    uint8_t feeds = data[3];
    data += 4; size -= 4;
    size_t length = row_bytes * rows;
    uint8_t *in = calloc(length ? length : 1, 1), *zero = calloc(rows, 1);
    size_t taken = 0;
    for (size_t r = 0; r < rows; r++) {
        uint8_t *row = in + r * row_bytes;
        uint8_t mark = taken < size ? data[taken++] : 0;
        if (mark % 7 == 0) {
            /* A zero Up row: the filter byte 2, then zeros, and marked so. */
            row[0] = 2;
            zero[r] = 1;
            continue;
        }
        for (size_t i = 0; i < row_bytes; i++) row[i] = taken < size ? data[taken++] : (uint8_t)(r * 31 + i);
        /* Mostly runs and repeats (what filtered rows look like), sometimes noise. */
        if (mark % 3 == 0) for (size_t i = 1; i < row_bytes; i++) row[i] = row[i % (1 + mark % 9)];
        row[0] %= 5;
    }
    size_t capacity = hl_fast_zlib_bound(length);
    uint8_t *out = malloc(capacity);
    FastZlib *z = hl_fast_zlib_begin(in, length, row_bytes, bpp, (feeds & 1) ? zero : NULL, out, capacity);
    int whole_pixels = bpp <= 4 && row_bytes >= (size_t)bpp + 1 && (row_bytes - 1) % (size_t)bpp == 0;
    if (!z) {
        if (whole_pixels) abort();
        free(out); free(in); free(zero);
        return 0;
    }
    if (!whole_pixels) abort();
    /* Feed points from the leftover bytes: anywhere, increasing, as rows become final. */
    size_t ready = 0;
    while (taken < size && ready < length) {
        ready += 1 + (size_t)data[taken++] * (1 + (feeds >> 4));
        if (ready > length) ready = length;
        if (hl_fast_zlib_feed(z, ready) != 0) abort();
    }
    size_t written = hl_fast_zlib_end(z);
    if (written == 0) abort();
    uint8_t *back = malloc(length + 1);
    uLongf back_length = length + 1;
    if (uncompress(back, &back_length, out, written) != Z_OK || back_length != length || memcmp(back, in, length) != 0) abort();
    free(back); free(out); free(in); free(zero);
    return 0;
}
