#pragma once
#include <stddef.h>
#include <stdint.h>

/// SVG pictures rasterised by librsvg (Debian's librsvg2-2), loaded with dlopen on first use:
/// librsvg brings GLib, Pango and the shared Cairo, which a card without an SVG never loads.
/// librsvg draws with that shared Cairo onto an image surface of its own; the pixels are
/// copied out, so nothing of it meets hlrender's static Cairo.

typedef struct hl_svg hl_svg;

/// Loads librsvg once; 0 with a message when it is not installed.
int hl_svg_load(char *error, size_t error_size);

/// Parses an SVG document from bytes (no base file: external references are not followed);
/// NULL with librsvg's message.
hl_svg *hl_svg_open(const uint8_t *data, size_t length, char *error, size_t error_size);
void hl_svg_close(hl_svg *svg);

/// The document's size in pixels: its width and height, else its viewBox's. 0 when it has
/// neither.
int hl_svg_size(hl_svg *svg, double *width, double *height);

/// Draws the document scaled into `full_width` x `full_height` pixels (aspect kept, centred),
/// of which only the window at (`left`, `top`) of `width` x `height` pixels is made: straight
/// RGBA into `rgba` (width * height * 4). 0 with a message when librsvg fails.
int hl_svg_render(hl_svg *svg, uint8_t *rgba, int width, int height, double left, double top,
                  double full_width, double full_height, char *error, size_t error_size);

/// The document drawn into `width` x `height` onto the shared Cairo's script surface: a
/// CairoScript program of its paths, paints and transforms (malloc'ed, `*length` bytes, at most
/// 32 MB), which hlrender replays onto its own Cairo to keep the picture as vectors. 0 with a
/// message when librsvg fails, the script grows past the bound or Cairo has no script surface.
int hl_svg_script(hl_svg *svg, int width, int height, char **script, size_t *length, char *error, size_t error_size);

/// The document as libxml2's reader walks it (loaded with dlopen; no network, no entities, no
/// DTD), as events in a malloc'ed buffer the caller frees: 'S' depth name attribute-count
/// (name value)..., 'E' depth, 'T' text, where depth is a big-endian u32 and each name or text
/// a big-endian u32 length and its UTF-8 bytes; a name is "{namespace}local" or "local". 0 with
/// a message when libxml2 is missing, the bytes are not well-formed UTF-8 XML, hold a DOCTYPE
/// or an entity reference, or nest elements `max_depth` deep (the walk stops there).
int hl_svg_events(const uint8_t *data, size_t length, int max_depth, uint8_t **events, size_t *events_length, char *error, size_t error_size);
