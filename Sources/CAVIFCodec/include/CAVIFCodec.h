#pragma once
#include <stddef.h>
#include <stdint.h>

/// AVIF encoding through libavif (Debian's libavif15), loaded with dlopen on first use: its
/// AV1 encoders (aom, rav1e, SVT-AV1) and their dependencies are large, and a run that writes
/// no AVIF loads none of them. The header of the libavif-dev it was built against gives the
/// types; the library's ABI is fixed by its soname.

/// Pixel layouts of `hl_avif_encode`'s input: Cairo's native-endian words.
enum { HL_AVIF_ARGB32_PREMULTIPLIED = 0, HL_AVIF_RGB24 = 1 };

/// Loads libavif once; 0 with a message when it is not installed.
int hl_avif_load(char *error, size_t error_size);

/// Encodes `pixels` (`stride` bytes a row) as an 8-bit AVIF: `quality` 1-100 (mapped to the
/// AV1 quantizer as libavif 1.0 maps it), `speed` 0 (slowest, smallest) to 10, 4:4:4 chroma when
/// `yuv444`, else 4:2:0. The same pixels and settings give the same bytes. 0 and a malloc'ed
/// `*out` of `*length` bytes (hl_avif_free), or -1 with a message.
/// `xmp` (may be NULL) goes in as the image's XMP metadata.
int hl_avif_encode(const uint8_t *pixels, int width, int height, int stride, int layout, int quality, int speed,
                   int yuv444, const uint8_t *xmp, size_t xmp_length, uint8_t **out, size_t *length, char *error,
                   size_t error_size);
void hl_avif_free(uint8_t *data);

/// An AVIF image sequence (animated AVIF), frames added as they are drawn: each converted to
/// YUV and held until the next arrives (its duration is then known), then handed to the AV1
/// encoder. Settings as `hl_avif_encode`'s; `fps` is the timescale, a frame one tick; `xmp`
/// (may be NULL) goes in with the first frame.
typedef struct hl_avif_sequence hl_avif_sequence;
hl_avif_sequence *hl_avif_sequence_new(int fps, int quality, int speed, int yuv444, const uint8_t *xmp, size_t xmp_length,
                                       char *error, size_t error_size);
/// A new frame of Cairo's words (`layout` as above); 0, or -1 with a message.
int hl_avif_sequence_add(hl_avif_sequence *sequence, const uint8_t *pixels, int width, int height, int stride, int layout,
                         char *error, size_t error_size);
/// The last frame shows one tick longer.
void hl_avif_sequence_extend(hl_avif_sequence *sequence);
/// The file: 0 and a malloc'ed `*out` (hl_avif_free), or -1 with a message.
int hl_avif_sequence_finish(hl_avif_sequence *sequence, uint8_t **out, size_t *length, char *error, size_t error_size);
void hl_avif_sequence_free(hl_avif_sequence *sequence);

/// libavif's version and the AV1 encoder it uses ("1.0.0 aom 3.6.0"); "" when not loaded.
const char *hl_avif_version(void);

/// The libavif version whose header this was built against, without loading the library.
const char *hl_avif_header_version(void);
