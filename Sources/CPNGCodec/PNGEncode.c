#include "CPNGCodec.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint8_t *data;
    size_t length;
    size_t capacity;
    int failed;
} buffer_t;

static void write_data(png_structp png, png_bytep data, png_size_t length) {
    buffer_t *buffer = (buffer_t *)png_get_io_ptr(png);
    if (buffer->length + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity * 2 : 65536;
        while (capacity < buffer->length + length) capacity *= 2;
        uint8_t *grown = realloc(buffer->data, capacity);
        if (!grown) {
            buffer->failed = 1;
            png_error(png, "out of memory");
        }
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->length, data, length);
    buffer->length += length;
}

static void flush_data(png_structp png) { (void)png; }

static void on_error(png_structp png, png_const_charp message) {
    char *error = (char *)png_get_error_ptr(png);
    if (error) {
        strncpy(error, message, 255);
        error[255] = 0;
    }
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

/// One row to PNG bytes: Cairo's BGRx/BGRA words (read as uint32, so either endianness), or
/// RGBA bytes copied as they are.
static void convert_row(const uint8_t *src, uint8_t *dst, int width, int layout) {
    if (layout == HL_PNG_RGBA) {
        memcpy(dst, src, (size_t)width * 4);
        return;
    }
    const uint32_t *words = (const uint32_t *)src;
    for (int x = 0; x < width; x++) {
        uint32_t p = words[x];
        uint8_t a = (uint8_t)(p >> 24), r = (uint8_t)(p >> 16), g = (uint8_t)(p >> 8), b = (uint8_t)p;
        if (layout == HL_PNG_RGB24) {
            dst[0] = r; dst[1] = g; dst[2] = b;
            dst += 3;
        } else {
            if (a != 0 && a != 255) {
                r = (uint8_t)((r * 255u + a / 2) / a);
                g = (uint8_t)((g * 255u + a / 2) / a);
                b = (uint8_t)((b * 255u + a / 2) / a);
            }
            dst[0] = r; dst[1] = g; dst[2] = b; dst[3] = a;
            dst += 4;
        }
    }
}

int hl_png_encode(const uint8_t *pixels, int width, int height, int stride, int layout, int level,
                  uint8_t **out, size_t *out_length, char *error, size_t error_size) {
    char message[256] = "libpng failed";
    buffer_t buffer = {0};
    uint8_t *row = NULL;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, message, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        strncpy(message, "cannot create libpng structures", sizeof message - 1);
        goto fail;
    }
    if (setjmp(png_jmpbuf(png))) goto fail;
    png_set_write_fn(png, &buffer, write_data, flush_data);
    png_set_compression_level(png, level);
    int channels = layout == HL_PNG_RGB24 ? 3 : 4;
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
                 channels == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    row = malloc((size_t)width * (size_t)channels);
    if (!row) png_error(png, "out of memory");
    for (int y = 0; y < height; y++) {
        convert_row(pixels + (size_t)y * (size_t)stride, row, width, layout);
        png_write_row(png, row);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(row);
    *out = buffer.data;
    *out_length = buffer.length;
    return 0;

fail:
    if (png) png_destroy_write_struct(&png, info ? &info : NULL);
    free(row);
    free(buffer.data);
    if (error && error_size) {
        strncpy(error, message, error_size - 1);
        error[error_size - 1] = 0;
    }
    return -1;
}

void hl_png_free(uint8_t *buffer) { free(buffer); }
