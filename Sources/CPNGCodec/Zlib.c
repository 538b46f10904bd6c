// zlib streams in and out of memory with libdeflate (already linked for PNG): what a PDF's
// page contents are rewritten with (see Render's PDFStreamFilter).
#include "CPNGCodec.h"
#include <libdeflate.h>
#include <stdlib.h>

int hl_zlib_inflate(const uint8_t *in, size_t length, size_t max_out, uint8_t **out, size_t *out_length) {
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    if (!inflater) return -1;
    // libdeflate wants room for the whole output: start at eight times the input, double.
    size_t room = length < 1024 ? 8192 : length * 8;
    int result = -1;
    for (;;) {
        if (room > max_out) room = max_out;
        uint8_t *buffer = malloc(room ? room : 1);
        if (!buffer) break;
        size_t got = 0;
        enum libdeflate_result status = libdeflate_zlib_decompress(inflater, in, length, buffer, room, &got);
        if (status == LIBDEFLATE_SUCCESS) {
            *out = buffer;
            *out_length = got;
            result = 0;
            break;
        }
        free(buffer);
        if (status != LIBDEFLATE_INSUFFICIENT_SPACE || room >= max_out) break;
        room *= 2;
    }
    libdeflate_free_decompressor(inflater);
    return result;
}

int hl_zlib_deflate(const uint8_t *in, size_t length, int level, uint8_t **out, size_t *out_length) {
    struct libdeflate_compressor *deflater = libdeflate_alloc_compressor(level);
    if (!deflater) return -1;
    size_t bound = libdeflate_zlib_compress_bound(deflater, length);
    uint8_t *buffer = malloc(bound);
    size_t got = buffer ? libdeflate_zlib_compress(deflater, in, length, buffer, bound) : 0;
    libdeflate_free_compressor(deflater);
    if (got == 0) {
        free(buffer);
        return -1;
    }
    *out = buffer;
    *out_length = got;
    return 0;
}
