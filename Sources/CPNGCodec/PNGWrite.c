#include "CPNGCodec.h"
#include "FastDeflate.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

/* PNG writing without libpng: rows converted and filtered here, deflated by FastDeflate.c
   (fast) or libdeflate (default, small; much faster than zlib at a similar ratio), chunks
   framed with libdeflate's CRC-32. */

static void put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

/* One row to straight RGB or RGBA bytes. Cairo's words are read as uint32 (either endianness).
   `dst` has one byte to spare past the row (the opaque path stores 4 bytes per 3). */
static void convert_row(const uint8_t *src, uint8_t *dst, int width, int layout, int channels) {
    if (layout == HL_PNG_RGBA) {
        if (channels == 4) { memcpy(dst, src, (size_t)width * 4); return; }
        for (int x = 0; x < width; x++) { dst[0] = src[0]; dst[1] = src[1]; dst[2] = src[2]; dst += 3; src += 4; }
        return;
    }
    const uint32_t *words = (const uint32_t *)src;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (channels == 3) {
        /* 0xAARRGGBB byte-swapped and shifted is R, G, B in memory order: one store a pixel. */
        for (int x = 0; x < width; x++) {
            uint32_t rgb = __builtin_bswap32(words[x]) >> 8;
            memcpy(dst, &rgb, 4);
            dst += 3;
        }
        return;
    }
#endif
    for (int x = 0; x < width; x++) {
        uint32_t p = words[x];
        uint32_t a = p >> 24, r = (p >> 16) & 255, g = (p >> 8) & 255, b = p & 255;
        if (channels == 3) {
            dst[0] = (uint8_t)r; dst[1] = (uint8_t)g; dst[2] = (uint8_t)b;
            dst += 3;
        } else {
            if (a != 0 && a != 255) {
                r = (r * 255 + a / 2) / a; g = (g * 255 + a / 2) / a; b = (b * 255 + a / 2) / a;
            }
            dst[0] = (uint8_t)r; dst[1] = (uint8_t)g; dst[2] = (uint8_t)b; dst[3] = (uint8_t)a;
            dst += 4;
        }
    }
}

/* Whole rows ANDed together (a loop the compiler vectorises) rather than a test per pixel. */
static int all_opaque(const uint8_t *pixels, int width, int height, int stride, int layout) {
    if (layout == HL_PNG_RGB24) return 1;
    for (int y = 0; y < height; y++) {
        const uint8_t *row = pixels + (size_t)y * (size_t)stride;
        if (layout == HL_PNG_RGBA) {
            uint8_t all = 255;
            for (int x = 0; x < width; x++) all &= row[x * 4 + 3];
            if (all != 255) return 0;
        } else {
            const uint32_t *words = (const uint32_t *)row;
            uint32_t all = 0xFFFFFFFFu;
            for (int x = 0; x < width; x++) all &= words[x];
            if ((all >> 24) != 255) return 0;
        }
    }
    return 1;
}

static uint8_t paeth(int a, int b, int c) {
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return (uint8_t)(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

/* Each filter as its own tight loop (the compiler vectorises None, Sub, Up and Average);
   returns the sum of the filtered bytes as signed magnitudes (libpng's heuristic). */
static inline unsigned magnitude(uint8_t v) { return v < 128 ? v : 256u - v; }

static size_t filter_row(int type, const uint8_t *cur, const uint8_t *prev, uint8_t *out, size_t n, int bpp) {
    size_t cost = 0;
    out[0] = (uint8_t)type;
    uint8_t *f = out + 1;
    size_t i;
    switch (type) {
    case 0:
        for (i = 0; i < n; i++) { f[i] = cur[i]; cost += magnitude(cur[i]); }
        break;
    case 1:
        for (i = 0; i < (size_t)bpp; i++) { f[i] = cur[i]; cost += magnitude(f[i]); }
        for (; i < n; i++) { f[i] = (uint8_t)(cur[i] - cur[i - bpp]); cost += magnitude(f[i]); }
        break;
    case 2:
        for (i = 0; i < n; i++) { f[i] = (uint8_t)(cur[i] - prev[i]); cost += magnitude(f[i]); }
        break;
    case 3:
        for (i = 0; i < (size_t)bpp; i++) { f[i] = (uint8_t)(cur[i] - (prev[i] >> 1)); cost += magnitude(f[i]); }
        for (; i < n; i++) { f[i] = (uint8_t)(cur[i] - ((cur[i - bpp] + prev[i]) >> 1)); cost += magnitude(f[i]); }
        break;
    default:
        for (i = 0; i < (size_t)bpp; i++) { f[i] = (uint8_t)(cur[i] - prev[i]); cost += magnitude(f[i]); }
        for (; i < n; i++) { f[i] = (uint8_t)(cur[i] - paeth(cur[i - bpp], prev[i], prev[i - bpp])); cost += magnitude(f[i]); }
        break;
    }
    return cost;
}

/* Filters without measuring (fast mode has chosen already): plain loops the compiler vectorises. */
static void apply_filter(int type, const uint8_t *cur, const uint8_t *prev, uint8_t *out, size_t n, int bpp) {
    out[0] = (uint8_t)type;
    uint8_t *f = out + 1;
    size_t i;
    switch (type) {
    case 0: memcpy(f, cur, n); break;
    case 1:
        for (i = 0; i < (size_t)bpp; i++) f[i] = cur[i];
        for (; i < n; i++) f[i] = (uint8_t)(cur[i] - cur[i - bpp]);
        break;
    default:
        for (i = 0; i < n; i++) f[i] = (uint8_t)(cur[i] - prev[i]);
        break;
    }
}

/* The filter cost estimated on every 7th byte (fast mode: choose first, filter once). */
static size_t sampled_cost(int type, const uint8_t *cur, const uint8_t *prev, size_t n, int bpp) {
    size_t cost = 0;
    for (size_t i = (size_t)bpp; i < n; i += 7) {
        int a = cur[i - bpp], b = prev ? prev[i] : 0, c = prev ? prev[i - bpp] : 0;
        uint8_t v;
        switch (type) {
        case 0: v = cur[i]; break;
        case 1: v = (uint8_t)(cur[i] - a); break;
        case 2: v = (uint8_t)(cur[i] - b); break;
        default: v = (uint8_t)(cur[i] - paeth(a, b, c)); break;
        }
        cost += magnitude(v);
    }
    return cost;
}

int hl_png_encode(const uint8_t *pixels, int width, int height, int stride, int layout, int compression,
                  uint8_t **out, size_t *out_length, char *error, size_t error_size) {
    const char *message = NULL;
    uint8_t *filtered = NULL, *rows = NULL, *png = NULL, *trial = NULL, *zero_rows = NULL;
    FastZlib *stream = NULL;
    struct libdeflate_compressor *compressor = NULL;
    *out = NULL;
    *out_length = 0;
    if (width <= 0 || height <= 0) { message = "empty image"; goto fail; }
    int channels = all_opaque(pixels, width, height, stride, layout) ? 3 : 4;
    size_t n = (size_t)width * (size_t)channels;
    size_t filtered_size = (size_t)height * (n + 1);
    filtered = hl_big_alloc(filtered_size);
    rows = malloc(2 * n + 2);
    /* Fast mode filters once, and tells the deflate which rows are all zeros. */
    if (compression == HL_PNG_FAST) zero_rows = calloc((size_t)height, 1);
    else trial = malloc(n + 1);
    if (!filtered || !rows || !(trial || zero_rows)) { message = "out of memory"; goto fail; }
    /* fast: None, Sub or Up chosen on a sample of every 8th row, FastDeflate coding each band
       of rows as soon as it is filtered; default: the best of all five filters per row, level 6;
       small: the same, level 10 (libdeflate's slowest, smallest), after all rows. */
    size_t bound;
    if (compression == HL_PNG_FAST) {
        bound = hl_fast_zlib_bound(filtered_size);
    } else {
        compressor = libdeflate_alloc_compressor(compression == HL_PNG_DEFAULT ? 6 : 10);
        if (!compressor) { message = "cannot start the deflate compressor"; goto fail; }
        bound = libdeflate_zlib_compress_bound(compressor, filtered_size);
    }
    png = malloc(8 + 25 + 12 + bound + 12);
    if (!png) { message = "out of memory"; goto fail; }
    uint8_t *idat = png + 8 + 25; /* the IDAT chunk: length, type, then the zlib stream */
    if (compression == HL_PNG_FAST) {
        stream = hl_fast_zlib_begin(filtered, filtered_size, n + 1, channels, zero_rows, idat + 8, bound);
        if (!stream) { message = "out of memory"; goto fail; }
    }
    uint8_t *cur = rows, *prev = NULL, *spare = rows + n + 1;
    int choice = 0;
    size_t source_bytes = (size_t)width * 4; /* every layout has 4 bytes a pixel */
    for (int y = 0; y < height; y++) {
        if (stream && y % 16 == 0 && hl_fast_zlib_feed(stream, (size_t)y * (n + 1)) != 0) { message = "deflate failed"; goto fail; }
        const uint8_t *source = pixels + (size_t)y * (size_t)stride;
        uint8_t *dst = filtered + (size_t)y * (n + 1);
        if (compression == HL_PNG_FAST && y > 0 && memcmp(source, source - stride, source_bytes) == 0) {
            /* A row like the one above (most of a card's background): Up leaves only zeros,
               and the converted row above serves as this one. */
            dst[0] = 2;
            memset(dst + 1, 0, n);
            zero_rows[y] = 1;
            continue;
        }
        convert_row(source, cur, width, layout, channels);
        if (compression == HL_PNG_FAST) {
            /* None, Sub or Up, judged on a sample of every 8th row (neighbouring rows of
               a card are alike) and kept for the rows after it. */
            if (y % 8 == 0 || y == 1) {
                choice = 0;
                size_t best = sampled_cost(0, cur, prev, n, channels);
                static const int candidates[2] = {1, 2};
                for (int k = 0; k < (prev ? 2 : 1) && best > 0; k++) {
                    size_t cost = sampled_cost(candidates[k], cur, prev, n, channels);
                    if (cost < best) { best = cost; choice = candidates[k]; }
                }
            }
            apply_filter(choice, cur, prev, dst, n, channels);
        } else {
            size_t best = filter_row(0, cur, prev, dst, n, channels);
            for (int type = 1; type < (prev ? 5 : 2) && best > 0; type++) {
                size_t cost = filter_row(type, cur, prev, trial, n, channels);
                if (cost < best) { best = cost; memcpy(dst, trial, n + 1); }
            }
        }
        prev = cur;
        uint8_t *t = cur; cur = spare; spare = t;
    }
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    memcpy(png, signature, 8);
    uint8_t *p = png + 8;
    put32(p, 13); memcpy(p + 4, "IHDR", 4);
    put32(p + 8, (uint32_t)width); put32(p + 12, (uint32_t)height);
    p[16] = 8; p[17] = channels == 3 ? 2 : 6; p[18] = 0; p[19] = 0; p[20] = 0;
    put32(p + 21, libdeflate_crc32(0, p + 4, 17));
    p += 25;
    size_t deflated = compressor ? libdeflate_zlib_compress(compressor, filtered, filtered_size, idat + 8, bound)
                                 : hl_fast_zlib_end(stream);
    stream = NULL;
    if (deflated == 0 || deflated > 0x7FFFFFFF) { message = "deflate failed"; goto fail; }
    put32(p, (uint32_t)deflated); memcpy(p + 4, "IDAT", 4);
    put32(p + 8 + deflated, libdeflate_crc32(0, p + 4, deflated + 4));
    p += 12 + deflated;
    put32(p, 0); memcpy(p + 4, "IEND", 4); put32(p + 8, libdeflate_crc32(0, p + 4, 4));
    p += 12;
    if (compressor) libdeflate_free_compressor(compressor);
    hl_big_free(filtered); free(rows); free(trial); free(zero_rows);
    *out = png;
    *out_length = (size_t)(p - png);
    return 0;

fail:
    if (stream) hl_fast_zlib_end(stream);
    if (compressor) libdeflate_free_compressor(compressor);
    hl_big_free(filtered); free(rows); free(trial); free(zero_rows); free(png);
    if (error && error_size) {
        strncpy(error, message ? message : "PNG encoding failed", error_size - 1);
        error[error_size - 1] = 0;
    }
    return -1;
}

void hl_png_free(uint8_t *buffer) { free(buffer); }
