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
    avifResult (*add_image)(avifEncoder *, const avifImage *, uint64_t, avifAddImageFlags);
    avifResult (*finish)(avifEncoder *, avifRWData *);
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
    { "avifEncoderAddImage", (void **)&A.add_image },
    { "avifEncoderFinish", (void **)&A.finish },
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

/* Cairo's words as an 8-bit YUV image (sRGB, full range); NULL with a message. */
static avifImage *make_image(const uint8_t *pixels, int width, int height, int stride, int layout, int yuv444,
                             char *error, size_t error_size) {
    avifImage *image = A.image_create((uint32_t)width, (uint32_t)height, 8, yuv444 ? AVIF_PIXEL_FORMAT_YUV444 : AVIF_PIXEL_FORMAT_YUV420);
    if (!image) { snprintf(error, error_size, "out of memory"); return NULL; }
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
        return NULL;
    }
    return image;
}

/* aom: the encoder Debian builds with every AV1 option; one thread keeps the output the same
   whatever the machine (a batch runs one card per core anyway). */
static avifEncoder *make_encoder(int quality, int speed, char *error, size_t error_size) {
    avifEncoder *encoder = A.encoder_create();
    if (!encoder) { snprintf(error, error_size, "out of memory"); return NULL; }
    encoder->codecChoice = AVIF_CODEC_CHOICE_AOM;
    encoder->maxThreads = 1;
    encoder->speed = speed;
    int quantizer = ((100 - quality) * 63 + 50) / 100;
    encoder->minQuantizer = encoder->maxQuantizer = quantizer;
    encoder->minQuantizerAlpha = encoder->maxQuantizerAlpha = quantizer;
    return encoder;
}

/* `data` copied into a malloc'ed `*out` and freed; 0, or -1 with a message. */
static int hand_over(avifRWData *data, uint8_t **out, size_t *length, char *error, size_t error_size) {
    *out = malloc(data->size ? data->size : 1);
    if (!*out) { A.rw_free(data); snprintf(error, error_size, "out of memory"); return -1; }
    memcpy(*out, data->data, data->size);
    *length = data->size;
    A.rw_free(data);
    return 0;
}

int hl_avif_encode(const uint8_t *pixels, int width, int height, int stride, int layout, int quality, int speed,
                   int yuv444, const uint8_t *xmp, size_t xmp_length, uint8_t **out, size_t *length, char *error,
                   size_t error_size) {
    if (!hl_avif_load(error, error_size)) return -1;
    avifImage *image = make_image(pixels, width, height, stride, layout, yuv444, error, error_size);
    if (!image) return -1;
    if (xmp && xmp_length > 0) A.set_xmp(image, xmp, xmp_length);
    avifEncoder *encoder = make_encoder(quality, speed, error, error_size);
    if (!encoder) { A.image_destroy(image); return -1; }
    avifRWData data = { NULL, 0 };
    avifResult result = A.encoder_write(encoder, image, &data);
    A.encoder_destroy(encoder);
    A.image_destroy(image);
    if (result != AVIF_RESULT_OK) {
        snprintf(error, error_size, "%s", A.result_string(result));
        A.rw_free(&data);
        return -1;
    }
    return hand_over(&data, out, length, error, error_size);
}

struct hl_avif_sequence {
    avifEncoder *encoder;
    /* The last frame, added once its duration is known (an identical frame lengthens it). */
    avifImage *pending;
    uint64_t pending_frames;
    int yuv444, frames;
    /* The description, written with the first frame (libavif takes a sequence's metadata there). */
    uint8_t *xmp;
    size_t xmp_length;
};

hl_avif_sequence *hl_avif_sequence_new(int fps, int quality, int speed, int yuv444, const uint8_t *xmp, size_t xmp_length,
                                       char *error, size_t error_size) {
    if (!hl_avif_load(error, error_size)) return NULL;
    hl_avif_sequence *sequence = calloc(1, sizeof *sequence);
    if (!sequence) { snprintf(error, error_size, "out of memory"); return NULL; }
    sequence->encoder = make_encoder(quality, speed, error, error_size);
    if (!sequence->encoder) { free(sequence); return NULL; }
    sequence->encoder->timescale = (uint64_t)fps;
    sequence->yuv444 = yuv444;
    if (xmp && xmp_length > 0 && (sequence->xmp = malloc(xmp_length))) {
        memcpy(sequence->xmp, xmp, xmp_length);
        sequence->xmp_length = xmp_length;
    }
    return sequence;
}

static int push(hl_avif_sequence *sequence, char *error, size_t error_size) {
    if (!sequence->pending) return 0;
    avifResult result = A.add_image(sequence->encoder, sequence->pending, sequence->pending_frames, AVIF_ADD_IMAGE_FLAG_NONE);
    A.image_destroy(sequence->pending);
    sequence->pending = NULL;
    if (result != AVIF_RESULT_OK) {
        snprintf(error, error_size, "frame %d: %s", sequence->frames, A.result_string(result));
        return -1;
    }
    return 0;
}

int hl_avif_sequence_add(hl_avif_sequence *sequence, const uint8_t *pixels, int width, int height, int stride, int layout,
                         char *error, size_t error_size) {
    if (push(sequence, error, error_size) != 0) return -1;
    sequence->pending = make_image(pixels, width, height, stride, layout, sequence->yuv444, error, error_size);
    if (!sequence->pending) return -1;
    if (sequence->frames == 0 && sequence->xmp) A.set_xmp(sequence->pending, sequence->xmp, sequence->xmp_length);
    sequence->pending_frames = 1;
    sequence->frames++;
    return 0;
}

void hl_avif_sequence_extend(hl_avif_sequence *sequence) {
    if (sequence->pending) sequence->pending_frames++;
}

int hl_avif_sequence_finish(hl_avif_sequence *sequence, uint8_t **out, size_t *length, char *error, size_t error_size) {
    if (push(sequence, error, error_size) != 0) return -1;
    avifRWData data = { NULL, 0 };
    avifResult result = A.finish(sequence->encoder, &data);
    if (result != AVIF_RESULT_OK) {
        snprintf(error, error_size, "%s", A.result_string(result));
        A.rw_free(&data);
        return -1;
    }
    return hand_over(&data, out, length, error, error_size);
}

void hl_avif_sequence_free(hl_avif_sequence *sequence) {
    if (!sequence) return;
    if (sequence->pending) A.image_destroy(sequence->pending);
    A.encoder_destroy(sequence->encoder);
    free(sequence->xmp);
    free(sequence);
}

void hl_avif_free(uint8_t *data) { free(data); }
