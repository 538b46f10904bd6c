/* AVIF through dlopen: see CAVIFCodec.h. */
#include "CAVIFCodec.h"

#include <avif/avif.h>
#include "CDynamicLoad.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
    avifImage *(*image_create)(uint32_t, uint32_t, uint32_t, avifPixelFormat);
    void (*image_destroy)(avifImage *);
    void (*rgb_defaults)(avifRGBImage *, const avifImage *);
    avifResult (*rgb_to_yuv)(avifImage *, const avifRGBImage *);
    avifEncoder *(*encoder_create)(void);
    avifResult (*encoder_write)(avifEncoder *, const avifImage *, avifRWData *);
    void (*encoder_destroy)(avifEncoder *);
    void (*rw_free)(avifRWData *);
    const char *(*result_string)(avifResult);
    const char *(*version)(void);
    const char *(*codec_name)(avifCodecChoice, avifCodecFlags);
    /* void in libavif 0.11 (Debian 12), avifResult later: the value is not read. */
    void (*set_xmp)(avifImage *, const uint8_t *, size_t);
} A;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[256];
static char version_text[256];
static int loaded;

static const hl_symbol symbols[] = {
    { "avifImageCreate", (void **)&A.image_create },
    { "avifImageDestroy", (void **)&A.image_destroy },
    { "avifRGBImageSetDefaults", (void **)&A.rgb_defaults },
    { "avifImageRGBToYUV", (void **)&A.rgb_to_yuv },
    { "avifEncoderCreate", (void **)&A.encoder_create },
    { "avifEncoderWrite", (void **)&A.encoder_write },
    { "avifEncoderDestroy", (void **)&A.encoder_destroy },
    { "avifRWDataFree", (void **)&A.rw_free },
    { "avifResultToString", (void **)&A.result_string },
    { "avifVersion", (void **)&A.version },
    { "avifCodecName", (void **)&A.codec_name },
    { "avifImageSetMetadataXMP", (void **)&A.set_xmp },
};

static void load(void) {
    if (!hl_dl_load("libavif.so.15", "writing AVIF needs libavif (Debian: apt install libavif15)",
                    symbols, sizeof symbols / sizeof symbols[0], load_error, sizeof load_error)) return;
    const char *codec = A.codec_name(AVIF_CODEC_CHOICE_AOM, AVIF_CODEC_FLAG_CAN_ENCODE);
    snprintf(version_text, sizeof version_text, "%s (encoder %s)", A.version(), codec ? codec : "none");
    loaded = 1;
}

int hl_avif_load(char *error, size_t error_size) {
    pthread_once(&once, load);
    if (!loaded) snprintf(error, error_size, "%s", load_error);
    return loaded;
}

const char *hl_avif_version(void) { return loaded ? version_text : ""; }

const char *hl_avif_header_version(void) {
#define HL_TEXT(x) #x
#define HL_VERSION(a, b, c) HL_TEXT(a) "." HL_TEXT(b) "." HL_TEXT(c)
    return HL_VERSION(AVIF_VERSION_MAJOR, AVIF_VERSION_MINOR, AVIF_VERSION_PATCH);
}

int hl_avif_encode(const uint8_t *pixels, int width, int height, int stride, int layout, int quality, int speed,
                   int yuv444, const uint8_t *xmp, size_t xmp_length, uint8_t **out, size_t *length, char *error,
                   size_t error_size) {
    if (!hl_avif_load(error, error_size)) return -1;
    avifImage *image = A.image_create((uint32_t)width, (uint32_t)height, 8, yuv444 ? AVIF_PIXEL_FORMAT_YUV444 : AVIF_PIXEL_FORMAT_YUV420);
    if (!image) { snprintf(error, error_size, "out of memory"); return -1; }
    // sRGB, as the canvas is; full range, as PNG's values are.
    image->colorPrimaries = AVIF_COLOR_PRIMARIES_BT709;
    image->transferCharacteristics = AVIF_TRANSFER_CHARACTERISTICS_SRGB;
    image->matrixCoefficients = AVIF_MATRIX_COEFFICIENTS_BT601;
    image->yuvRange = AVIF_RANGE_FULL;
    avifRGBImage rgb;
    A.rgb_defaults(&rgb, image);
    // Cairo's words are B, G, R, A in memory on a little-endian machine.
    rgb.format = AVIF_RGB_FORMAT_BGRA;
    rgb.depth = 8;
    rgb.pixels = (uint8_t *)pixels;
    rgb.rowBytes = (uint32_t)stride;
    rgb.ignoreAlpha = layout == HL_AVIF_RGB24 ? AVIF_TRUE : AVIF_FALSE;
    rgb.alphaPremultiplied = layout == HL_AVIF_RGB24 ? AVIF_FALSE : AVIF_TRUE;
    avifResult result = A.rgb_to_yuv(image, &rgb);
    if (result != AVIF_RESULT_OK) {
        snprintf(error, error_size, "converting to YUV: %s", A.result_string(result));
        A.image_destroy(image);
        return -1;
    }
    if (xmp && xmp_length > 0) A.set_xmp(image, xmp, xmp_length);
    avifEncoder *encoder = A.encoder_create();
    if (!encoder) { A.image_destroy(image); snprintf(error, error_size, "out of memory"); return -1; }
    // aom: the encoder Debian builds with every AV1 option; one thread keeps the output the
    // same whatever the machine (a batch runs one card per core anyway).
    encoder->codecChoice = AVIF_CODEC_CHOICE_AOM;
    encoder->maxThreads = 1;
    encoder->speed = speed;
    int quantizer = ((100 - quality) * 63 + 50) / 100;
    encoder->minQuantizer = encoder->maxQuantizer = quantizer;
    encoder->minQuantizerAlpha = encoder->maxQuantizerAlpha = quantizer;
    avifRWData data = { NULL, 0 };
    result = A.encoder_write(encoder, image, &data);
    A.encoder_destroy(encoder);
    A.image_destroy(image);
    if (result != AVIF_RESULT_OK) {
        snprintf(error, error_size, "%s", A.result_string(result));
        A.rw_free(&data);
        return -1;
    }
    *out = malloc(data.size ? data.size : 1);
    if (!*out) { A.rw_free(&data); snprintf(error, error_size, "out of memory"); return -1; }
    memcpy(*out, data.data, data.size);
    *length = data.size;
    A.rw_free(&data);
    return 0;
}

void hl_avif_free(uint8_t *data) { free(data); }
