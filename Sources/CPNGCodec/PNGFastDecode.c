/* The common PNG decoded without libpng: 8-bit grey, grey+alpha, RGB or RGBA, not interlaced,
   its IDAT chunks in one run. The zlib stream is inflated in one call by libdeflate (two to three
   times zlib's speed, Adler-32 checked) into the filtered rows, which are unfiltered and widened
   to RGBA. A golden run decodes thousands of screenshots: libpng and zlib were most of its time.
   Anything else, and any file this path does not finish cleanly, goes to libpng, which then
   decodes or refuses it as before: this path never decides that a file is corrupt. */
#include "PNGFastDecode.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

static uint32_t be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static uint8_t paeth(uint8_t a, uint8_t b, uint8_t c) {
    int p = (int)a + (int)b - (int)c;
    int pa = abs(p - (int)a), pb = abs(p - (int)b), pc = abs(p - (int)c);
    if (pa <= pb && pa <= pc) return a;
    return pb <= pc ? b : c;
}

/* Unfilters one row in place; `prev` is the previous unfiltered row (zeros for the first). */
static int unfilter(uint8_t filter, uint8_t *row, const uint8_t *prev, size_t length, size_t bpp) {
    switch (filter) {
    case 0: return 1;
    case 1:
        for (size_t i = bpp; i < length; i++) row[i] = (uint8_t)(row[i] + row[i - bpp]);
        return 1;
    case 2:
        for (size_t i = 0; i < length; i++) row[i] = (uint8_t)(row[i] + prev[i]);
        return 1;
    case 3:
        for (size_t i = 0; i < bpp; i++) row[i] = (uint8_t)(row[i] + (prev[i] >> 1));
        for (size_t i = bpp; i < length; i++) row[i] = (uint8_t)(row[i] + ((row[i - bpp] + prev[i]) >> 1));
        return 1;
    case 4:
        for (size_t i = 0; i < bpp; i++) row[i] = (uint8_t)(row[i] + prev[i]);
        for (size_t i = bpp; i < length; i++) row[i] = (uint8_t)(row[i] + paeth(row[i - bpp], prev[i], prev[i - bpp]));
        return 1;
    default: return 0;
    }
}

int hl_png_fast_decode(const uint8_t *data, size_t length, uint8_t *out, uint32_t width, uint32_t height) {
    if (length < 8 + 25) return 0;
    const uint8_t *ihdr = data + 8;
    if (be32(ihdr) != 13 || memcmp(ihdr + 4, "IHDR", 4) != 0) return 0;
    uint8_t depth = ihdr[16], color = ihdr[17], interlace = ihdr[20];
    size_t channels;
    switch (color) {
    case 0: channels = 1; break;
    case 2: channels = 3; break;
    case 4: channels = 2; break;
    case 6: channels = 4; break;
    default: return 0; /* palette: libpng */
    }
    if (depth != 8 || interlace != 0 || ihdr[18] != 0 || ihdr[19] != 0) return 0;
    if (be32(ihdr + 8) != width || be32(ihdr + 12) != height || width == 0 || height == 0) return 0;
    /* libpng's own cap (PNG_USER_WIDTH_MAX, PNG_USER_HEIGHT_MAX): past it, its error. */
    if (width > 1000000 || height > 1000000) return 0;

    /* Critical chunks' CRCs are checked, as libpng does; a tRNS chunk (a colour key), IDATs in
       more than one run and any chunk libpng could refuse go to libpng. */
    size_t at = 8, idat_bytes = 0, idat_runs = 0;
    int in_idat = 0, ended = 0;
    while (at + 12 <= length) {
        uint32_t size = be32(data + at);
        if (size > length - at - 12) return 0;
        const uint8_t *type = data + at + 4;
        for (int i = 0; i < 4; i++) {
            uint8_t c = type[i];
            if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) return 0; /* libpng refuses the name */
        }
        int critical = !(type[0] & 0x20);
        /* Only IHDR (first, once), IDAT and IEND of the critical ones: PLTE (optional for
           these kinds, misplaced ones refused) and unknown critical chunks are libpng's. */
        if (critical && (at == 8) != (memcmp(type, "IHDR", 4) == 0)) return 0;
        if (critical && memcmp(type, "IHDR", 4) != 0 && memcmp(type, "IDAT", 4) != 0 && memcmp(type, "IEND", 4) != 0) return 0;
        if (critical && libdeflate_crc32(0, type, (size_t)size + 4) != be32(data + at + 8 + size)) return 0;
        int is_idat = memcmp(type, "IDAT", 4) == 0;
        if (is_idat) {
            if (!in_idat) idat_runs++;
            idat_bytes += size;
        } else if (memcmp(type, "tRNS", 4) == 0) {
            return 0;
        }
        in_idat = is_idat;
        at += 12 + (size_t)size;
        if (memcmp(type, "IEND", 4) == 0) { ended = 1; break; }
    }
    if (!ended || idat_runs != 1 || idat_bytes == 0) return 0;

    size_t row_bytes = (size_t)width * channels;
    size_t filtered_size = (size_t)height * (row_bytes + 1);
    uint8_t *compressed = malloc(idat_bytes);
    uint8_t *filtered = malloc(filtered_size);
    uint8_t *zeros = calloc(row_bytes, 1);
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    int ok = compressed && filtered && zeros && inflater;
    if (ok) {
        size_t put = 0;
        for (at = 8; at + 12 <= length;) {
            uint32_t size = be32(data + at);
            if (memcmp(data + at + 4, "IDAT", 4) == 0) {
                memcpy(compressed + put, data + at + 8, size);
                put += size;
            }
            if (memcmp(data + at + 4, "IEND", 4) == 0) break;
            at += 12 + (size_t)size;
        }
        /* The exact size or nothing: a short or long stream is libpng's to judge. */
        ok = libdeflate_zlib_decompress(inflater, compressed, idat_bytes, filtered, filtered_size, NULL) == LIBDEFLATE_SUCCESS;
    }
    const uint8_t *prev = zeros;
    for (uint32_t y = 0; ok && y < height; y++) {
        uint8_t *row = filtered + (size_t)y * (row_bytes + 1);
        ok = unfilter(row[0], row + 1, prev, row_bytes, channels);
        prev = row + 1;
        uint8_t *dst = out + (size_t)y * width * 4;
        const uint8_t *src = row + 1;
        switch (channels) {
        case 4: memcpy(dst, src, row_bytes); break;
        case 3:
            for (uint32_t x = 0; x < width; x++, dst += 4, src += 3) { dst[0] = src[0]; dst[1] = src[1]; dst[2] = src[2]; dst[3] = 255; }
            break;
        case 2:
            for (uint32_t x = 0; x < width; x++, dst += 4, src += 2) { dst[0] = dst[1] = dst[2] = src[0]; dst[3] = src[1]; }
            break;
        default:
            for (uint32_t x = 0; x < width; x++, dst += 4, src += 1) { dst[0] = dst[1] = dst[2] = src[0]; dst[3] = 255; }
        }
    }
    libdeflate_free_decompressor(inflater);
    free(zeros);
    free(filtered);
    free(compressed);
    return ok;
}
