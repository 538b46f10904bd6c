/* librsvg through dlopen: see CSVGRaster.h. The few types used are librsvg's, GLib's and
   Cairo's public, stable C ABI, declared here so no header of theirs enters the build. */
#include "CSVGRaster.h"

#include "CDynamicLoad.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { unsigned domain; int code; char *message; } GError;
typedef struct { double x, y, width, height; } RsvgRectangle;
typedef struct { double length; int unit; } RsvgLength;

static struct {
    void *(*new_from_data)(const uint8_t *, size_t, GError **);
    int (*size_in_pixels)(void *, double *, double *);
    void (*dimensions)(void *, int *, RsvgLength *, int *, RsvgLength *, int *, RsvgRectangle *);
    int (*render_document)(void *, void *, const RsvgRectangle *, GError **);
    void (*object_unref)(void *);
    void (*error_free)(GError *);
    void *(*script_create_for_stream)(int (*)(void *, const unsigned char *, unsigned int), void *);
    void *(*script_surface_create)(void *, int, double, double);
    void (*surface_finish)(void *);
    void (*device_finish)(void *);
    void (*device_destroy)(void *);
    hl_shared_cairo cairo;
} R;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[256];
static int loaded;

static const hl_symbol symbols[] = {
    HL_SHARED_CAIRO_SYMBOLS(R.cairo)
    { "rsvg_handle_new_from_data", (void **)&R.new_from_data },
    { "rsvg_handle_get_intrinsic_size_in_pixels", (void **)&R.size_in_pixels },
    { "rsvg_handle_get_intrinsic_dimensions", (void **)&R.dimensions },
    { "rsvg_handle_render_document", (void **)&R.render_document },
    { "g_object_unref", (void **)&R.object_unref },
    { "g_error_free", (void **)&R.error_free },
    { "cairo_script_create_for_stream", (void **)&R.script_create_for_stream },
    { "cairo_script_surface_create", (void **)&R.script_surface_create },
    { "cairo_surface_finish", (void **)&R.surface_finish },
    { "cairo_device_finish", (void **)&R.device_finish },
    { "cairo_device_destroy", (void **)&R.device_destroy },
};

static void load(void) {
    if (!hl_dl_load("librsvg-2.so.2", "SVG pictures need librsvg (Debian: apt install librsvg2-2)",
                    symbols, sizeof symbols / sizeof symbols[0], load_error, sizeof load_error)) return;
    loaded = 1;
}

int hl_svg_load(char *error, size_t error_size) {
    pthread_once(&once, load);
    if (!loaded) snprintf(error, error_size, "%s", load_error);
    return loaded;
}

static void take_error(GError *failure, char *error, size_t error_size, const char *fallback) {
    snprintf(error, error_size, "%s", failure && failure->message ? failure->message : fallback);
    if (failure) R.error_free(failure);
}

hl_svg *hl_svg_open(const uint8_t *data, size_t length, char *error, size_t error_size) {
    if (!hl_svg_load(error, error_size)) return NULL;
    GError *failure = NULL;
    void *handle = R.new_from_data(data, length, &failure);
    if (!handle) { take_error(failure, error, error_size, "not an SVG document librsvg can read"); return NULL; }
    return (hl_svg *)handle;
}

void hl_svg_close(hl_svg *svg) { if (svg) R.object_unref(svg); }

int hl_svg_size(hl_svg *svg, double *width, double *height) {
    if (R.size_in_pixels(svg, width, height) && *width > 0 && *height > 0) return 1;
    int has_width = 0, has_height = 0, has_box = 0;
    RsvgLength w, h;
    RsvgRectangle box;
    R.dimensions(svg, &has_width, &w, &has_height, &h, &has_box, &box);
    if (has_box && box.width > 0 && box.height > 0) { *width = box.width; *height = box.height; return 1; }
    return 0;
}

int hl_svg_render(hl_svg *svg, uint8_t *rgba, int width, int height, double left, double top,
                  double full_width, double full_height, char *error, size_t error_size) {
    void *surface = R.cairo.image_surface_create(0 /* CAIRO_FORMAT_ARGB32 */, width, height);
    if (R.cairo.surface_status(surface) != 0) { R.cairo.surface_destroy(surface); snprintf(error, error_size, "out of memory"); return 0; }
    void *cr = R.cairo.create(surface);
    // The whole picture's viewport, moved so that the window lands on the surface.
    RsvgRectangle viewport = { -left, -top, full_width, full_height };
    GError *failure = NULL;
    int drawn = R.render_document(svg, cr, &viewport, &failure);
    R.cairo.destroy(cr);
    if (!drawn) { R.cairo.surface_destroy(surface); take_error(failure, error, error_size, "librsvg could not draw it"); return 0; }
    R.cairo.surface_flush(surface);
    const unsigned char *data = R.cairo.image_surface_get_data(surface);
    int stride = R.cairo.image_surface_get_stride(surface);
    // Premultiplied native-endian ARGB words to straight RGBA bytes.
    for (int y = 0; y < height; y++) {
        const uint32_t *row = (const uint32_t *)(data + (size_t)y * stride);
        uint8_t *out = rgba + (size_t)y * width * 4;
        for (int x = 0; x < width; x++) {
            uint32_t p = row[x], a = p >> 24, r = p >> 16 & 255, g = p >> 8 & 255, b = p & 255;
            if (a != 0 && a != 255) { r = (r * 255 + a / 2) / a; g = (g * 255 + a / 2) / a; b = (b * 255 + a / 2) / a; }
            out[4 * x] = (uint8_t)r; out[4 * x + 1] = (uint8_t)g; out[4 * x + 2] = (uint8_t)b; out[4 * x + 3] = (uint8_t)a;
        }
    }
    R.cairo.surface_destroy(surface);
    return 1;
}

typedef struct { char *data; size_t length, capacity; int overflow; } script_buffer;

static int script_write(void *closure, const unsigned char *data, unsigned int length) {
    script_buffer *b = closure;
    if (b->overflow || b->length + length > (32u << 20)) { b->overflow = 1; return 11; /* CAIRO_STATUS_WRITE_ERROR */ }
    if (b->length + length + 1 > b->capacity) {
        size_t capacity = (b->capacity ? b->capacity * 2 : 65536);
        while (capacity < b->length + length + 1) capacity *= 2;
        char *grown = realloc(b->data, capacity);
        if (!grown) { b->overflow = 1; return 1; /* CAIRO_STATUS_NO_MEMORY */ }
        b->data = grown;
        b->capacity = capacity;
    }
    memcpy(b->data + b->length, data, length);
    b->length += length;
    b->data[b->length] = 0;
    return 0;
}

int hl_svg_script(hl_svg *svg, int width, int height, char **script, size_t *length, char *error, size_t error_size) {
    script_buffer buffer = { NULL, 0, 0, 0 };
    void *device = R.script_create_for_stream(script_write, &buffer);
    void *surface = R.script_surface_create(device, 0x3000 /* CAIRO_CONTENT_COLOR_ALPHA */, width, height);
    void *cr = R.cairo.create(surface);
    RsvgRectangle viewport = { 0, 0, width, height };
    GError *failure = NULL;
    int drawn = R.render_document(svg, cr, &viewport, &failure);
    R.cairo.destroy(cr);
    R.surface_finish(surface);
    R.cairo.surface_destroy(surface);
    R.device_finish(device);
    R.device_destroy(device);
    if (!drawn || buffer.overflow || !buffer.data) {
        if (!drawn) take_error(failure, error, error_size, "librsvg could not draw it");
        else snprintf(error, error_size, "its drawing is over 32 MB of script");
        free(buffer.data);
        return 0;
    }
    *script = buffer.data;
    *length = buffer.length;
    return 1;
}
