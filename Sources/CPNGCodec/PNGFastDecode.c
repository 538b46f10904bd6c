/* The common PNG decoded without libpng: 8-bit grey, grey+alpha, RGB or RGBA, not interlaced,
   its IDAT chunks in one run. The zlib stream is inflated in one call by libdeflate (two to three
   times zlib's speed, Adler-32 checked) into the tail of the caller's pixel buffer, and each row
   is unfiltered and widened to RGBA into its head, a pixel at a time (RGB and RGBA). A golden run decodes thousands of screenshots: libpng and zlib were most of its time.
   Anything else, and any file this path does not finish cleanly, goes to libpng, which then
   decodes or refuses it as before: this path never decides that a file is corrupt. */
#include "PNGFastDecode.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

static uint32_t be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/* One pixel as four 16-bit lanes: the arithmetic of a row's filters on a whole pixel at once
   (each lane is one channel; no lane ever reads another). */
typedef int16_t lanes __attribute__((vector_size(8)));
typedef uint8_t bytes4 __attribute__((vector_size(4)));

static inline lanes load4(const uint8_t *p) {
    bytes4 v;
    memcpy(&v, p, 4);
    return __builtin_convertvector(v, lanes);
}

static inline lanes magnitude(lanes v) {
    lanes sign = v >> 15;
    return (v ^ sign) - sign;
}

/* PNG's Paeth predictor on every lane: a (left), b (up) or c (up-left), whichever is nearest to
   a + b - c, ties going to a, then b. */
static inline lanes paeth4(lanes a, lanes b, lanes c) {
    lanes pa = magnitude(b - c), pb = magnitude(a - c), pc = magnitude(a + b - c - c);
    lanes use_a = (pa <= pb) & (pa <= pc);
    lanes use_b = ~use_a & (pb <= pc);
    lanes use_c = ~(use_a | use_b);
    return (a & use_a) | (b & use_b) | (c & use_c);
}

static inline void store4(uint8_t *p, lanes v, bytes4 opaque) {
    bytes4 out = __builtin_convertvector(v, bytes4) | opaque;
    memcpy(p, &out, 4);
}

/* Unfilters one RGB (3 bytes a pixel) or RGBA row straight into its RGBA destination. `prev`
   is the row above, already RGBA (zeros for the first row); RGB's fourth lane is the next
   pixel's first byte, computed on and then overwritten by an opaque alpha. The source may sit
   a little after the destination in the same buffer: pixel x is read before it is written. */

static int unfilter_wide(uint8_t filter, uint8_t *dst, const uint8_t *src, const uint8_t *prev, uint32_t width, size_t step) {
    const bytes4 opaque = step == 3 ? (bytes4){0, 0, 0, 255} : (bytes4){0, 0, 0, 0};
    lanes a = {0, 0, 0, 0}, c = {0, 0, 0, 0};
    /* One loop a filter: None and Up have no chain from pixel to pixel and run as fast as
       memory; Sub, Average and Paeth carry the left pixel in a register. */
    switch (filter) {
    case 0:
        for (uint32_t x = 0; x < width; x++) store4(dst + 4 * (size_t)x, load4(src + step * x), opaque);
        return 1;
    case 1:
        for (uint32_t x = 0; x < width; x++, src += step, dst += 4) {
            a = load4(src) + a;
            store4(dst, a, opaque);
            a &= 0xFF;
        }
        return 1;
    case 2:
        for (uint32_t x = 0; x < width; x++) store4(dst + 4 * (size_t)x, load4(src + step * x) + load4(prev + 4 * (size_t)x), opaque);
        return 1;
    case 3:
        for (uint32_t x = 0; x < width; x++, src += step, dst += 4, prev += 4) {
            a = (load4(src) + ((a + load4(prev)) >> 1)) & 0xFF;
            store4(dst, a, opaque);
        }
        return 1;
    case 4:
        for (uint32_t x = 0; x < width; x++, src += step, dst += 4, prev += 4) {
            lanes b = load4(prev);
            a = (load4(src) + paeth4(a, b, c)) & 0xFF;
            store4(dst, a, opaque);
            c = b;
        }
        return 1;
    default: return 0;
    }
}

/* Two rows that both use Paeth, the second one pixel behind the first, in one 8-lane vector:
   [first row, pixel x | second row, pixel x - 1]. Neither half needs the other's result of the
   same step, so one chain of operations does two pixels (one Paeth pixel is a few dozen
   operations in a chain; Paeth rows come in runs in screenshots). The second row goes to
   `out1`, a row buffer of its own: written in place, it could overtake bytes of the first row's
   source that are still to be read. */
typedef int16_t lanes8 __attribute__((vector_size(16)));

static inline lanes8 join(lanes low, lanes high) { return __builtin_shufflevector(low, high, 0, 1, 2, 3, 4, 5, 6, 7); }
static inline lanes low_half(lanes8 v) { return __builtin_shufflevector(v, v, 0, 1, 2, 3); }
static inline lanes high_half(lanes8 v) { return __builtin_shufflevector(v, v, 4, 5, 6, 7); }

static inline lanes8 magnitude8(lanes8 v) {
    lanes8 sign = v >> 15;
    return (v ^ sign) - sign;
}

static inline lanes8 paeth8(lanes8 a, lanes8 b, lanes8 c) {
    lanes8 pa = magnitude8(b - c), pb = magnitude8(a - c), pc = magnitude8(a + b - c - c);
    lanes8 use_a = (pa <= pb) & (pa <= pc);
    lanes8 use_b = ~use_a & (pb <= pc);
    return (a & use_a) | (b & use_b) | (c & ~(use_a | use_b));
}

static void paeth_two_rows(uint8_t *dst0, const uint8_t *src0, const uint8_t *prev, uint8_t *out1, const uint8_t *src1,
                           uint32_t width, size_t step) {
    const bytes4 opaque = step == 3 ? (bytes4){0, 0, 0, 255} : (bytes4){0, 0, 0, 0};
    const lanes none = {0, 0, 0, 0};
    /* a: the pixels left of this step's two; c: above-left of them. Before the first step both
       are zero, as PNG's edges are; the second row's half starts a step late (pixel -1 is 0). */
    lanes8 a = join(none, none), c = join(none, none);
    for (uint32_t x = 0; x <= width; x++) {
        /* Above the first row's pixel: the row before; above the second's: the first row's
           pixel x - 1, just computed. Past the end, the first half is computed on nothing. */
        lanes top = x < width ? load4(prev + 4 * (size_t)x) : none;
        lanes8 b = join(top, low_half(a));
        lanes8 raw = join(x < width ? load4(src0 + step * x) : none, x > 0 ? load4(src1 + step * (x - 1)) : none);
        lanes8 r = (raw + paeth8(a, b, c)) & 0xFF;
        if (x < width) store4(dst0 + 4 * (size_t)x, low_half(r), opaque);
        if (x > 0) store4(out1 + 4 * (size_t)(x - 1), high_half(r), opaque);
        a = r;
        c = b;
    }
}

static uint8_t paeth(uint8_t a, uint8_t b, uint8_t c) {
    int p = (int)a + (int)b - (int)c;
    int pa = abs(p - (int)a), pb = abs(p - (int)b), pc = abs(p - (int)c);
    if (pa <= pb && pa <= pc) return a;
    return pb <= pc ? b : c;
}

/* Unfilters one grey or grey+alpha row from `src` into `row`; `prev` is the previous
   unfiltered row (zeros for the first). */
static int unfilter(uint8_t filter, uint8_t *row, const uint8_t *src, const uint8_t *prev, size_t length, size_t bpp) {
    for (size_t i = 0; i < length; i++) {
        uint8_t a = i >= bpp ? row[i - bpp] : 0, c = i >= bpp ? prev[i - bpp] : 0, p;
        switch (filter) {
        case 0: p = 0; break;
        case 1: p = a; break;
        case 2: p = prev[i]; break;
        case 3: p = (uint8_t)((a + prev[i]) >> 1); break;
        case 4: p = paeth(a, prev[i], c); break;
        default: return 0;
        }
        row[i] = (uint8_t)(src[i] + p);
    }
    return 1;
}

size_t hl_png_decode_capacity(uint32_t width, uint32_t height) {
    uint64_t pixels = (uint64_t)width * height;
    if (pixels > (SIZE_MAX - height - 16) / 4) return 0;
    return (size_t)(pixels * 4 + height + 16);
}

int hl_png_fast_decode(const uint8_t *data, size_t length, uint8_t *out, size_t capacity, uint32_t width, uint32_t height) {
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
    size_t needed = hl_png_decode_capacity(width, height);
    if (needed == 0 || capacity < needed) return 0;
    /* The filtered rows end 16 bytes before the buffer does (a pixel is read as 4 bytes, one
       past an RGB row's end); the RGBA rows start at its head. Row y's RGBA bytes end before
       row y + 1's filtered bytes begin, for every channel count, so a row is never overwritten
       before it is read. */
    uint8_t *filtered = out + (capacity - 16 - filtered_size);
    memset(out + capacity - 16, 0, 16);
    const uint8_t *compressed = NULL;
    uint8_t *joined = NULL;
    size_t joined_bytes = 0;
    uint8_t *rows = calloc(2 * (row_bytes + 16) + 2 * ((size_t)width * 4 + 16), 1);
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    /* One IDAT is inflated where it lies; several are joined first. */
    for (at = 8; rows && inflater && at + 12 <= length;) {
        uint32_t size = be32(data + at);
        if (memcmp(data + at + 4, "IDAT", 4) == 0) {
            if (size == idat_bytes) {
                compressed = data + at + 8;
                break;
            }
            if (!joined && !(joined = malloc(idat_bytes))) break;
            memcpy(joined + joined_bytes, data + at + 8, size);
            joined_bytes += size;
        }
        if (memcmp(data + at + 4, "IEND", 4) == 0) break;
        at += 12 + (size_t)size;
    }
    if (!compressed && joined && joined_bytes == idat_bytes) compressed = joined;
    /* The exact size or nothing: a short or long stream is libpng's to judge. */
    int ok = rows && inflater && compressed
        && libdeflate_zlib_decompress(inflater, compressed, idat_bytes, filtered, filtered_size, NULL) == LIBDEFLATE_SUCCESS;
    uint8_t *zeros = rows + 2 * (row_bytes + 16), *pair = zeros + (size_t)width * 4 + 16;
    uint8_t *cur = rows, *prev = rows + row_bytes + 16;
    const uint8_t *above = zeros;
    for (uint32_t y = 0; ok && y < height; y++) {
        const uint8_t *src = filtered + (size_t)y * (row_bytes + 1);
        uint8_t *dst = out + (size_t)y * width * 4;
        if (channels >= 3) {
            const uint8_t *next = src + row_bytes + 1;
            if (src[0] == 4 && y + 1 < height && next[0] == 4) {
                paeth_two_rows(dst, src + 1, above, pair, next + 1, width, channels);
                memcpy(dst + (size_t)width * 4, pair, (size_t)width * 4);
                above = dst + (size_t)width * 4;
                y++;
                continue;
            }
            ok = unfilter_wide(src[0], dst, src + 1, above, width, channels);
            above = dst;
            continue;
        }
        ok = unfilter(src[0], cur, src + 1, prev, row_bytes, channels);
        const uint8_t *grey = cur;
        if (channels == 2) {
            for (uint32_t x = 0; x < width; x++, dst += 4, grey += 2) { dst[0] = dst[1] = dst[2] = grey[0]; dst[3] = grey[1]; }
        } else {
            for (uint32_t x = 0; x < width; x++, dst += 4, grey += 1) { dst[0] = dst[1] = dst[2] = grey[0]; dst[3] = 255; }
        }
        uint8_t *swap = cur;
        cur = prev;
        prev = swap;
    }
    libdeflate_free_decompressor(inflater);
    free(rows);
    free(joined);
    return ok;
}
