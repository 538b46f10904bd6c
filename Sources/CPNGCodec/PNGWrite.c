#include "CPNGCodec.h"
#include "FastDeflate.h"

#include <libdeflate.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* PNG writing without libpng: rows converted and filtered here, deflated by FastDeflate.c
   (fast) or libdeflate (default, small; much faster than zlib at a similar ratio), chunks
   framed with libdeflate's CRC-32. */

static void put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

/* One row to straight gray, gray+alpha, RGB or RGBA bytes (`channels` 1, 2, 3, 4; gray only
   where red, green and blue are equal). Cairo's words are read as uint32 (either endianness).
   `dst` has one byte to spare past the row (the opaque path stores 4 bytes per 3). */
static void convert_row(const uint8_t *src, uint8_t *dst, int width, int layout, int channels) {
    if (layout == HL_PNG_RGBA) {
        if (channels == 4) { memcpy(dst, src, (size_t)width * 4); return; }
        for (int x = 0; x < width; x++, src += 4) {
            if (channels == 3) { dst[0] = src[0]; dst[1] = src[1]; dst[2] = src[2]; dst += 3; }
            else if (channels == 2) { dst[0] = src[0]; dst[1] = src[3]; dst += 2; }
            else *dst++ = src[0];
        }
        return;
    }
    const uint32_t *words = (const uint32_t *)src;
    if (channels == 1) {
        for (int x = 0; x < width; x++) dst[x] = (uint8_t)words[x];
        return;
    }
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
            continue;
        }
        if (a != 0 && a != 255) {
            r = (r * 255 + a / 2) / a; g = (g * 255 + a / 2) / a; b = (b * 255 + a / 2) / a;
        }
        if (channels == 2) {
            dst[0] = (uint8_t)b; dst[1] = (uint8_t)a;
            dst += 2;
        } else {
            dst[0] = (uint8_t)r; dst[1] = (uint8_t)g; dst[2] = (uint8_t)b; dst[3] = (uint8_t)a;
            dst += 4;
        }
    }
}

/* Red, green and blue differences in a row of Cairo words (0xAARRGGBB): the low 16 bits of a
   word XOR itself shifted down a byte are G^B and R^G; ORed over the row (a loop the compiler
   vectorises), zero when every pixel of the row is gray. */
static uint32_t row_colour(const uint32_t *words, int width) {
    uint32_t diff = 0;
    for (int x = 0; x < width; x++) diff |= (words[x] ^ (words[x] >> 8)) & 0xFFFFu;
    return diff;
}

int hl_words_are_gray(const uint8_t *pixels, int width, int height, int stride) {
    for (int y = 0; y < height; y++) {
        if (row_colour((const uint32_t *)(pixels + (size_t)y * (size_t)stride), width) != 0) return 0;
    }
    return 1;
}

/* The fewest channels that hold every pixel exactly: gray when red, green and blue are equal
   everywhere (un-premultiplying keeps them equal), no alpha when every pixel is opaque. A text
   render in black on white is then a third of the bytes to filter and deflate, and a smaller
   file. Whole rows are ORed and ANDed together (loops the compiler vectorises), not tested per
   pixel; the scan stops once neither reduction is left to check (RGB24 is opaque by layout: a
   coloured card's scan ends on its first row). */
static int pixel_channels(const uint8_t *pixels, int width, int height, int stride, int layout) {
    int opaque = 1, gray = 1, opaque_by_layout = layout == HL_PNG_RGB24;
    for (int y = 0; y < height && (gray || (opaque && !opaque_by_layout)); y++) {
        const uint8_t *row = pixels + (size_t)y * (size_t)stride;
        if (layout == HL_PNG_RGBA) {
            uint8_t all = 255, diff = 0;
            for (int x = 0; x < width; x++) {
                all &= row[x * 4 + 3];
                diff |= (uint8_t)((row[x * 4] ^ row[x * 4 + 1]) | (row[x * 4 + 1] ^ row[x * 4 + 2]));
            }
            opaque &= all == 255;
            gray &= diff == 0;
        } else {
            const uint32_t *words = (const uint32_t *)row;
            uint32_t all = 0xFFFFFFFFu;
            if (!opaque_by_layout) for (int x = 0; x < width; x++) all &= words[x];
            opaque &= opaque_by_layout || (all >> 24) == 255;
            if (gray) gray = row_colour(words, width) == 0;
        }
    }
    return (gray ? 1 : 3) + (opaque ? 0 : 1);
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

/* Rows y0 to y1 of an image, converted and filtered into `filtered` (whole-image offsets);
   in fast mode, coded by `stream` as they are made (a piece of the zlib stream when the image
   is cut in bands for two threads: its own input and zero-row marks start at y0). */
typedef struct {
    const uint8_t *pixels;
    int width, stride, layout, channels, compression, y0, y1;
    uint8_t *filtered, *zero_rows;
    FastZlib *stream;
    int whole;           /* `stream` is the whole zlib stream, not a piece of it */
    size_t coded;        /* the stream's (or piece's) length once the band is done */
    uint32_t adler;      /* a piece's Adler-32 */
    const char *message; /* set on failure */
} Band;

static void filter_band(Band *b) {
    size_t n = (size_t)b->width * (size_t)b->channels;
    int fast = b->compression == HL_PNG_FAST;
    uint8_t *rows = malloc(3 * n + 3), *trial = rows + 2 * n + 2;
    if (!rows) { b->message = "out of memory"; return; }
    uint8_t *cur = rows, *prev = NULL, *spare = rows + n + 1;
    if (b->y0 > 0) {
        /* A band below the first: Up, Average and Paeth read the row above it. */
        convert_row(b->pixels + (size_t)(b->y0 - 1) * (size_t)b->stride, spare, b->width, b->layout, b->channels);
        prev = spare;  /* the first row goes to `cur`; `spare` is free again after it */
    }
    int choice = 0;
    size_t source_bytes = (size_t)b->width * 4; /* every layout has 4 bytes a pixel */
    uint8_t *band = b->filtered + (size_t)b->y0 * (n + 1);
    for (int y = b->y0; y < b->y1; y++) {
        size_t done = (size_t)(y - b->y0) * (n + 1);
        if (b->stream && (y - b->y0) % 16 == 0 && hl_fast_zlib_feed(b->stream, done) != 0) { b->message = "deflate failed"; break; }
        const uint8_t *source = b->pixels + (size_t)y * (size_t)b->stride;
        uint8_t *dst = band + done;
        if (fast && y > 0 && memcmp(source, source - b->stride, source_bytes) == 0) {
            /* A row like the one above (most of a card's background): Up leaves only zeros
               (the buffer is zeroed already), and the converted row above serves as this one. */
            dst[0] = 2;
            b->zero_rows[y - b->y0] = 1;
            continue;
        }
        convert_row(source, cur, b->width, b->layout, b->channels);
        if (fast) {
            /* None, Sub or Up, judged on a sample of every 8th row (neighbouring rows of
               a card are alike) and kept for the rows after it. */
            if ((y - b->y0) % 8 == 0 || y == 1) {
                choice = 0;
                size_t best = sampled_cost(0, cur, prev, n, b->channels);
                static const int candidates[2] = {1, 2};
                for (int k = 0; k < (prev ? 2 : 1) && best > 0; k++) {
                    size_t cost = sampled_cost(candidates[k], cur, prev, n, b->channels);
                    if (cost < best) { best = cost; choice = candidates[k]; }
                }
            }
            apply_filter(choice, cur, prev, dst, n, b->channels);
        } else {
            size_t best = filter_row(0, cur, prev, dst, n, b->channels);
            for (int type = 1; type < (prev ? 5 : 2) && best > 0; type++) {
                size_t cost = filter_row(type, cur, prev, trial, n, b->channels);
                if (cost < best) { best = cost; memcpy(dst, trial, n + 1); }
            }
        }
        prev = cur;
        uint8_t *t = cur; cur = spare; spare = t;
    }
    free(rows);
    /* The band's stream is finished here, on the band's own thread (its last rows are coded
       at the end: done after joining, it cost a 16 ms render 0.6 ms). */
    if (b->stream && !b->message) {
        b->coded = b->whole ? hl_fast_zlib_end(b->stream) : hl_fast_deflate_end(b->stream, &b->adler);
        b->stream = NULL;
        if (b->coded == 0) b->message = "deflate failed";
    }
}

static void *filter_band_thread(void *band) {
    filter_band(band);
    return NULL;
}

/* Two bands on two threads: worth a thread's start (tens of microseconds, on the other CPU:
   see Threads.c) from about this many filtered bytes; only in one-shot processes, whose other
   core is idle. */
enum { TWO_BAND_BYTES = 1 << 20 };

int hl_png_encode(const uint8_t *pixels, int width, int height, int stride, int layout, int compression,
                  int one_shot, uint8_t **out, size_t *out_length, char *error, size_t error_size) {
    const char *message = NULL;
    uint8_t *filtered = NULL, *png = NULL, *zero_rows = NULL, *second_out = NULL;
    Band bands[2] = {{0}, {0}};
    int nbands = 1, started = 0;
    pthread_t helper;
    struct libdeflate_compressor *compressor = NULL;
    *out = NULL;
    *out_length = 0;
    if (width <= 0 || height <= 0) { message = "empty image"; goto fail; }
    /* The frames of an APNG share one header: their channels are the layout's, never reduced. */
    int keep = layout & HL_PNG_KEEP_CHANNELS;
    layout &= ~HL_PNG_KEEP_CHANNELS;
    int channels = keep ? (layout == HL_PNG_RGB24 ? 3 : 4) : pixel_channels(pixels, width, height, stride, layout);
    size_t n = (size_t)width * (size_t)channels;
    size_t filtered_size = (size_t)height * (n + 1);
    filtered = hl_big_alloc(filtered_size, one_shot);
    /* Fast mode filters once, and tells the deflate which rows are all zeros. */
    if (compression == HL_PNG_FAST) zero_rows = calloc((size_t)height, 1);
    if (!filtered || (compression == HL_PNG_FAST && !zero_rows)) { message = "out of memory"; goto fail; }
    /* fast: None, Sub or Up chosen on a sample of every 8th row, FastDeflate coding each band
       of rows as soon as it is filtered (a large image in two bands, their streams joined: on
       two threads in a one-shot process, one after the other elsewhere); default: the best of all five filters per row, level 6; small: the
       same, level 10 (libdeflate's slowest, smallest), after all rows. */
    size_t bound;
    if (compression == HL_PNG_FAST) {
        bound = hl_fast_zlib_bound(filtered_size);
        /* The bands depend on the image alone, so every process writes the same bytes; only
           whether the second runs on the other core depends on the process (one-shot). */
        if (filtered_size >= TWO_BAND_BYTES && height >= 32) nbands = 2;
    } else {
        compressor = libdeflate_alloc_compressor(compression == HL_PNG_DEFAULT ? 6 : 10);
        if (!compressor) { message = "cannot start the deflate compressor"; goto fail; }
        bound = libdeflate_zlib_compress_bound(compressor, filtered_size);
    }
    png = malloc(8 + 25 + 12 + bound + 12);
    if (!png) { message = "out of memory"; goto fail; }
    uint8_t *idat = png + 8 + 25; /* the IDAT chunk: length, type, then the zlib stream */
    int mid = nbands == 2 ? height / 2 : height;
    for (int k = 0; k < nbands; k++) {
        Band *b = &bands[k];
        *b = (Band){pixels, width, stride, layout, channels, compression, k == 0 ? 0 : mid, k == 0 ? mid : height,
                    filtered, zero_rows ? zero_rows + (k == 0 ? 0 : mid) : NULL, NULL, 0, 0, 0, NULL};
        if (compression != HL_PNG_FAST) continue;
        size_t rows_bytes = (size_t)(b->y1 - b->y0) * (n + 1);
        const uint8_t *in = filtered + (size_t)b->y0 * (n + 1);
        b->whole = nbands == 1;
        if (nbands == 1) {
            b->stream = hl_fast_zlib_begin(in, rows_bytes, n + 1, channels, b->zero_rows, idat + 8, bound);
        } else {
            /* The first band writes after the zlib header; the second into its own buffer. */
            size_t piece_bound = hl_fast_zlib_bound(rows_bytes);
            uint8_t *piece_out = k == 0 ? idat + 10 : (second_out = malloc(piece_bound));
            if (piece_out) b->stream = hl_fast_deflate_begin(in, rows_bytes, n + 1, channels, b->zero_rows, piece_out, piece_bound, k == 1);
        }
        if (!b->stream) { message = "out of memory"; goto fail; }
    }
    if (nbands == 2 && one_shot) started = hl_thread_start_elsewhere(&helper, filter_band_thread, &bands[1]) == 0;
    filter_band(&bands[0]);
    if (nbands == 2 && !started) filter_band(&bands[1]);  /* no thread to be had: one after the other */
    if (started) pthread_join(helper, NULL);
    for (int k = 0; k < nbands; k++) if (bands[k].message && !message) message = bands[k].message;
    if (message) goto fail;
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    memcpy(png, signature, 8);
    uint8_t *p = png + 8;
    put32(p, 13); memcpy(p + 4, "IHDR", 4);
    put32(p + 8, (uint32_t)width); put32(p + 12, (uint32_t)height);
    p[16] = 8; p[17] = (uint8_t)(channels == 1 ? 0 : channels == 2 ? 4 : channels == 3 ? 2 : 6); p[18] = 0; p[19] = 0; p[20] = 0;
    put32(p + 21, libdeflate_crc32(0, p + 4, 17));
    p += 25;
    size_t deflated;
    if (compressor) {
        deflated = libdeflate_zlib_compress(compressor, filtered, filtered_size, idat + 8, bound);
    } else if (nbands == 1) {
        deflated = bands[0].coded;
    } else {
        /* zlib header, the two pieces back to back, the Adler-32 of all the rows. */
        size_t second_length = (size_t)(height - mid) * (n + 1), first = bands[0].coded, second = bands[1].coded;
        deflated = 0;
        if (2 + first + second + 4 <= bound) {
            uint8_t *z = idat + 8;
            z[0] = 0x78; z[1] = 0x01;
            memcpy(z + 2 + first, second_out, second);
            put32(z + 2 + first + second, hl_adler32_combine(bands[0].adler, bands[1].adler, second_length));
            deflated = 2 + first + second + 4;
        }
    }
    if (deflated == 0 || deflated > 0x7FFFFFFF) { message = "deflate failed"; goto fail; }
    put32(p, (uint32_t)deflated); memcpy(p + 4, "IDAT", 4);
    put32(p + 8 + deflated, libdeflate_crc32(0, p + 4, deflated + 4));
    p += 12 + deflated;
    put32(p, 0); memcpy(p + 4, "IEND", 4); put32(p + 8, libdeflate_crc32(0, p + 4, 4));
    p += 12;
    if (compressor) libdeflate_free_compressor(compressor);
    hl_big_free(filtered); free(zero_rows); free(second_out);
    *out = png;
    *out_length = (size_t)(p - png);
    return 0;

fail:
    for (int k = 0; k < 2; k++) if (bands[k].stream) hl_fast_zlib_end(bands[k].stream);
    if (compressor) libdeflate_free_compressor(compressor);
    hl_big_free(filtered); free(zero_rows); free(second_out); free(png);
    if (error && error_size) {
        strncpy(error, message ? message : "PNG encoding failed", error_size - 1);
        error[error_size - 1] = 0;
    }
    return -1;
}

void hl_png_free(uint8_t *buffer) { free(buffer); }

uint32_t hl_crc32(const uint8_t *bytes, size_t length) { return libdeflate_crc32(0, bytes, length); }
