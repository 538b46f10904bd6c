#include "CPNGCodec.h"
#include "PNGFastDecode.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef struct {
    const uint8_t *data;
    size_t length;
    size_t offset;
} source_t;

static void read_data(png_structp png, png_bytep out, png_size_t length) {
    source_t *source = (source_t *)png_get_io_ptr(png);
    if (length > source->length - source->offset) png_error(png, "file is truncated");
    memcpy(out, source->data + source->offset, length);
    source->offset += length;
}

static void on_error(png_structp png, png_const_charp message) {
    char *error = (char *)png_get_error_ptr(png);
    if (error) {
        strncpy(error, message, 255);
        error[255] = 0;
    }
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

static void copy_message(char *error, size_t error_size, const char *message) {
    if (!error || !error_size) return;
    strncpy(error, message, error_size - 1);
    error[error_size - 1] = 0;
}

/* libpng decodes into `given` (`given_capacity` bytes) when there is one, else into a buffer
   of its own returned in `*out`. */
static int libpng_decode(const uint8_t *data, size_t length, uint64_t max_pixels, uint8_t *given, size_t given_capacity,
                         uint8_t **out, uint32_t *width, uint32_t *height, char *error, size_t error_size);

int hl_png_decode(const uint8_t *data, size_t length, uint64_t max_pixels, uint8_t **out,
                  uint32_t *width, uint32_t *height, char *error, size_t error_size) {
    *out = NULL;
    if (length >= 24 && memcmp(data, "\x89PNG\r\n\x1a\n", 8) == 0 && memcmp(data + 12, "IHDR", 4) == 0) {
        uint32_t w = png_get_uint_32(data + 16), h = png_get_uint_32(data + 20);
        size_t capacity = hl_png_decode_capacity(w, h);
        if ((uint64_t)w * (uint64_t)h <= max_pixels && w > 0 && h > 0 && capacity > 0) {
            uint8_t *pixels = malloc(capacity);
            if (!pixels) {
                copy_message(error, error_size, "out of memory");
                return HL_PNG_CORRUPT;
            }
            int status = hl_png_decode_into(data, length, pixels, capacity, w, h, error, error_size);
            if (status != HL_PNG_OK) {
                free(pixels);
                return status;
            }
            *out = pixels;
            *width = w;
            *height = h;
            return HL_PNG_OK;
        }
    }
    return libpng_decode(data, length, max_pixels, NULL, 0, out, width, height, error, error_size);
}

int hl_png_decode_into(const uint8_t *data, size_t length, uint8_t *out, size_t capacity, uint32_t width,
                       uint32_t height, char *error, size_t error_size) {
    if (hl_png_fast_decode(data, length, out, capacity, width, height)) return HL_PNG_OK;
    uint8_t *unused = NULL;
    uint32_t w = 0, h = 0;
    int status = libpng_decode(data, length, (uint64_t)width * height, out, capacity, &unused, &w, &h, error, error_size);
    /* The caller sized `out` from the same IHDR: another size here is a damaged header. */
    if (status == HL_PNG_TOO_LARGE || (status == HL_PNG_OK && (w != width || h != height))) {
        copy_message(error, error_size, "the header does not declare the size it was read with");
        return HL_PNG_CORRUPT;
    }
    return status;
}

int hl_png_decode_libpng(const uint8_t *data, size_t length, uint64_t max_pixels, uint8_t **out,
                         uint32_t *width, uint32_t *height, char *error, size_t error_size) {
    return libpng_decode(data, length, max_pixels, NULL, 0, out, width, height, error, error_size);
}

static int libpng_decode(const uint8_t *data, size_t length, uint64_t max_pixels, uint8_t *given, size_t given_capacity,
                         uint8_t **out, uint32_t *width, uint32_t *height, char *error, size_t error_size) {
    char message[256] = "libpng failed";
    source_t source = {data, length, 0};
    /* volatile: assigned between setjmp and a possible longjmp, then read after it. */
    uint8_t *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    int result = HL_PNG_CORRUPT;
    *out = NULL;
    *width = *height = 0;
    if (length < 8 || png_sig_cmp(data, 0, 8) != 0) {
        copy_message(error, error_size, "no PNG signature");
        return HL_PNG_CORRUPT;
    }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, message, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        strncpy(message, "cannot create libpng structures", sizeof message - 1);
        goto done;
    }
    if (setjmp(png_jmpbuf(png))) goto done;
    png_set_read_fn(png, &source, read_data);
    /* Sizes are ours to judge (max_pixels); libpng's own cap of 1e6 a side stays as well. */
    png_read_info(png, info);
    png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    *width = w;
    *height = h;
    if ((uint64_t)w * (uint64_t)h > max_pixels) {
        result = HL_PNG_TOO_LARGE;
        goto done;
    }
    int color = png_get_color_type(png, info), depth = png_get_bit_depth(png, info);
    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (depth == 16) png_set_scale_16(png);
    if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(color & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
        png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)w * 4) png_error(png, "unexpected row layout");
    if (given && (size_t)w * (size_t)h * 4 > given_capacity) png_error(png, "the buffer is smaller than the image");
    pixels = given ? given : malloc((size_t)w * (size_t)h * 4);
    rows = malloc(sizeof(png_bytep) * (size_t)h);
    if (!pixels || !rows) png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < h; y++) rows[y] = pixels + (size_t)y * (size_t)w * 4;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    result = HL_PNG_OK;

done:
    if (png) png_destroy_read_struct(&png, info ? &info : NULL, NULL);
    free(rows);
    if (result == HL_PNG_OK) {
        *out = given ? NULL : pixels;
    } else {
        if (!given) free(pixels);
        if (result == HL_PNG_CORRUPT) copy_message(error, error_size, message);
    }
    return result;
}

const char *hl_png_version(void) { return png_get_libpng_ver(NULL); }

int hl_png_well_formed(const uint8_t *data, size_t length) {
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    if (length < 8 + 25 + 12 || memcmp(data, signature, 8) != 0) return 0;
    size_t at = 8;
    int first = 1;
    while (at + 12 <= length) {
        uint32_t size = ((uint32_t)data[at] << 24) | ((uint32_t)data[at + 1] << 16) | ((uint32_t)data[at + 2] << 8) | data[at + 3];
        if (size > length - at - 12) return 0;
        const uint8_t *type = data + at + 4;
        if (first && memcmp(type, "IHDR", 4) != 0) return 0;
        first = 0;
        const uint8_t *stored = data + at + 8 + size;
        uint32_t expected = ((uint32_t)stored[0] << 24) | ((uint32_t)stored[1] << 16) | ((uint32_t)stored[2] << 8) | stored[3];
        if ((uint32_t)crc32(crc32(0L, Z_NULL, 0), type, size + 4) != expected) return 0;
        at += 12 + size;
        if (memcmp(type, "IEND", 4) == 0) return at == length;
    }
    return 0;
}
