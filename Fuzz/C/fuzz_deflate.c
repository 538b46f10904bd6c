/* libFuzzer harness: FastDeflate's zlib stream for PNG rows, checked against zlib's own
   inflate. The input picks the row length, the bytes per pixel, which rows are marked as zero
   Up rows, the row bytes and the points where the stream is fed; the inflated stream must be
   exactly the rows. Some inputs are cut at a row into two pieces coded apart (as PNGWrite.c's
   two threads do) and joined with the zlib header and the combined Adler-32. */
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
    if ((feeds & 2) && rows >= 2) {
        size_t cut = 1 + (size_t)feeds % (rows - 1), first_length = cut * row_bytes, second_length = length - first_length;
        uint8_t *second_out = malloc(hl_fast_zlib_bound(second_length));
        FastZlib *a = hl_fast_deflate_begin(in, first_length, row_bytes, bpp, (feeds & 1) ? zero : NULL, out + 2, capacity - 2, 0);
        FastZlib *b = hl_fast_deflate_begin(in + first_length, second_length, row_bytes, bpp, (feeds & 1) ? zero + cut : NULL,
                                            second_out, hl_fast_zlib_bound(second_length), 1);
        int whole = bpp <= 4 && row_bytes >= (size_t)bpp + 1 && (row_bytes - 1) % (size_t)bpp == 0;
        if (!a || !b) {
            if (whole) abort();
            if (a) hl_fast_zlib_end(a);
            if (b) hl_fast_zlib_end(b);
            free(second_out); free(out); free(in); free(zero);
            return 0;
        }
        uint32_t adler_a, adler_b;
        size_t la = hl_fast_deflate_end(a, &adler_a), lb = hl_fast_deflate_end(b, &adler_b);
        if (la == 0 || lb == 0 || 2 + la + lb + 4 > capacity) abort();
        out[0] = 0x78; out[1] = 0x01;
        memcpy(out + 2 + la, second_out, lb);
        uint32_t adler = hl_adler32_combine(adler_a, adler_b, second_length);
        if (adler != (uint32_t)adler32(1, in, (uInt)length)) abort();
        uint8_t *t = out + 2 + la + lb;
        t[0] = (uint8_t)(adler >> 24); t[1] = (uint8_t)(adler >> 16); t[2] = (uint8_t)(adler >> 8); t[3] = (uint8_t)adler;
        uint8_t *back = malloc(length + 1);
        uLongf back_length = length + 1;
        if (uncompress(back, &back_length, out, 2 + la + lb + 4) != Z_OK || back_length != length || memcmp(back, in, length) != 0) abort();
        free(back); free(second_out); free(out); free(in); free(zero);
        return 0;
    }
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
