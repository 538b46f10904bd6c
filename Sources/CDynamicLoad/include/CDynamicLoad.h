#pragma once
#include <stddef.h>

/// Libraries hlrender loads on first use (poppler-glib, libavif, librsvg): each is opened with
/// dlopen and its functions found by name into a table of function pointers, once. A run that
/// needs none of them loads none of them (nor their dependencies).

/// One function to find: its name and where its address goes (the address of a function
/// pointer, cast: `(void **)&table.field`).
typedef struct { const char *name; void **slot; } hl_symbol;

/// Opens `soname` (RTLD_NOW | RTLD_LOCAL) and fills every slot. 0 with a message in `error`:
/// `missing` when the library is not installed, else which function it lacks.
int hl_dl_load(const char *soname, const char *missing, const hl_symbol *symbols, size_t count, char *error, size_t error_size);

/// The shared Cairo's functions a library that draws with it (poppler-glib, librsvg) needs
/// around it: an image surface to draw on, a context, and the pixels read back.
typedef struct {
    void *(*image_surface_create)(int, int, int);
    unsigned char *(*image_surface_get_data)(void *);
    int (*image_surface_get_stride)(void *);
    int (*surface_status)(void *);
    void (*surface_flush)(void *);
    void (*surface_destroy)(void *);
    void *(*create)(void *);
    void (*destroy)(void *);
} hl_shared_cairo;

/// The `hl_symbol` entries that fill an `hl_shared_cairo` (found through the library's own
/// dependencies), for a symbol table.
#define HL_SHARED_CAIRO_SYMBOLS(table) \
    { "cairo_image_surface_create", (void **)&(table).image_surface_create }, \
    { "cairo_image_surface_get_data", (void **)&(table).image_surface_get_data }, \
    { "cairo_image_surface_get_stride", (void **)&(table).image_surface_get_stride }, \
    { "cairo_surface_status", (void **)&(table).surface_status }, \
    { "cairo_surface_flush", (void **)&(table).surface_flush }, \
    { "cairo_surface_destroy", (void **)&(table).surface_destroy }, \
    { "cairo_create", (void **)&(table).create }, \
    { "cairo_destroy", (void **)&(table).destroy },
