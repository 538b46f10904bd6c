#include "CJPEGCodec.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

// libjpeg's default error handler exits the process: this one jumps back with the message.
struct failure {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char *message;
    size_t message_size;
};

static void fail(j_common_ptr info) {
    struct failure *f = (struct failure *)info->err;
    char text[JMSG_LENGTH_MAX];
    (*info->err->format_message)(info, text);
    snprintf(f->message, f->message_size, "%s", text);
    longjmp(f->jump, 1);
}

int hl_jpeg_encode(const uint8_t *pixels, int width, int height, int stride, int quality, int gray,
                   uint8_t **out, size_t *out_length, char *error, size_t error_size) {
    struct jpeg_compress_struct info;
    struct failure f;
    // Volatile: read after a longjmp, so not cached in a register across it.
    unsigned char *volatile buffer = NULL;
    // A gray image is one component (a third of the samples to transform, no chroma to
    // carry): its rows are taken a byte a pixel.
    uint8_t *volatile gray_row = gray ? malloc((size_t)width) : NULL;
    if (gray && !gray_row) {
        snprintf(error, error_size, "out of memory");
        return -1;
    }
    unsigned long length = 0;
    memset(&info, 0, sizeof info);
    info.err = jpeg_std_error(&f.manager);
    f.manager.error_exit = fail;
    f.message = error;
    f.message_size = error_size;
    if (setjmp(f.jump)) {
        jpeg_destroy_compress(&info);
        free(buffer);
        free(gray_row);
        return -1;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, (unsigned char **)&buffer, &length);
    info.image_width = (JDIMENSION)width;
    info.image_height = (JDIMENSION)height;
    info.input_components = gray ? 1 : 4;
    info.in_color_space = gray ? JCS_GRAYSCALE : JCS_EXT_BGRX;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    info.dct_method = JDCT_ISLOW;
    // Two passes over the coefficients (kept in memory) for Huffman tables made for this
    // image: about 15% smaller files, as skia and Pillow's optimize=True write them.
    info.optimize_coding = TRUE;
    if (quality >= 95) {
        // Full chroma at high quality: 4:2:0 smears coloured text edges.
        info.comp_info[0].h_samp_factor = 1;
        info.comp_info[0].v_samp_factor = 1;
    }
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < info.image_height) {
        const uint8_t *source = pixels + (size_t)info.next_scanline * (size_t)stride;
        JSAMPROW row = (JSAMPROW)source;
        if (gray) {
            // BGRX bytes: blue, the first, equals the other two.
            for (int x = 0; x < width; x++) gray_row[x] = source[4 * x];
            row = gray_row;
        }
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    free(gray_row);
    *out = buffer;
    *out_length = length;
    return 0;
}

void hl_jpeg_free(uint8_t *buffer) { free(buffer); }
