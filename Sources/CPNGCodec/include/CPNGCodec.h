// PNG encoding and decoding with libpng's full API, whose errors longjmp: that must stay in C
// (a longjmp across Swift frames is undefined), so Swift calls these plain functions.
#ifndef CPNGCODEC_H
#define CPNGCODEC_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/// Pixel layouts in: Cairo's native-endian 32-bit words, or straight RGBA bytes.
enum { HL_PNG_RGB24 = 0, HL_PNG_ARGB32_PREMULTIPLIED = 1, HL_PNG_RGBA = 2 };
/// OR-ed into a layout: RGB for RGB24, RGBA otherwise, whatever the pixels (an APNG's frames
/// share one header, so no frame may drop its alpha or colour).
enum { HL_PNG_KEEP_CHANNELS = 8 };

/// Compression settings: the decoded pixels are the same at each.
enum { HL_PNG_FAST = 0, HL_PNG_DEFAULT = 1, HL_PNG_SMALL = 2 };

/// Encodes `height` rows of `width` pixels, `stride` bytes apart, as an 8-bit PNG of the
/// fewest channels that hold every pixel exactly: gray when red, green and blue are equal
/// everywhere, without alpha when every pixel is opaque (premultiplied input is un-premultiplied). Rows get the
/// filter with the smallest sum of magnitudes (fast: None, Sub or Up judged on a sample
/// of every 8th row; default and small: all five, measured) and are deflated by libdeflate (levels
/// 1, 6, 10). `one_shot`: the process renders this image and exits, so a large image is
/// filtered and deflated on two threads (the other core is idle in such a process; a batch or
/// the service keeps it busy with other images). On success returns 0 and a malloc'ed
/// buffer in `*out` (free it with `hl_png_free`); on failure -1 and a message in `error`.
int hl_png_encode(const uint8_t *pixels, int width, int height, int stride, int layout, int compression,
                  int one_shot, uint8_t **out, size_t *out_length, char *error, size_t error_size);

void hl_png_free(uint8_t *buffer);

/// CRC-32 of `length` bytes (PNG's chunk checksum; libdeflate's, as the encoder's own chunks).
uint32_t hl_crc32(const uint8_t *bytes, size_t length);

/// Results of `hl_png_decode`.
enum { HL_PNG_OK = 0, HL_PNG_CORRUPT = 1, HL_PNG_TOO_LARGE = 2 };

/// Decodes any PNG (grey, grey+alpha, palette, RGB, RGBA; 1 to 16 bits; interlaced or not) to
/// straight 8-bit RGBA rows, `width * 4` bytes each, in a malloc'ed buffer (`hl_png_free`).
/// Stored values are kept: gAMA, cHRM, sRGB and iCCP are ignored (as pixelmatch, odiff and
/// Pillow do), 16-bit samples are scaled with rounding (v * 255 / 65535). The declared size is
/// read first and checked against `max_pixels` before anything is allocated: over it,
/// HL_PNG_TOO_LARGE with `*width`/`*height` set. Truncated or corrupt data (bad CRC, bad
/// zlib stream, missing IEND) gives HL_PNG_CORRUPT and a message in `error`. The common kind
/// (8-bit grey, grey+alpha, RGB, RGBA, not interlaced) is inflated by libdeflate and unfiltered
/// here; the rest, and anything that path does not finish cleanly, through libpng.
int hl_png_decode(const uint8_t *data, size_t length, uint64_t max_pixels, uint8_t **out,
                  uint32_t *width, uint32_t *height, char *error, size_t error_size);

/// Bytes of the buffer `hl_png_decode_into` fills for a `width` x `height` image: the RGBA rows,
/// one byte a row and 16 bytes of slack (the fast path inflates the filtered rows into the
/// buffer's tail and widens them to RGBA in place). 0 when the size does not fit in a size_t.
size_t hl_png_decode_capacity(uint32_t width, uint32_t height);

/// `hl_png_decode` into the caller's buffer of `capacity` bytes (at least
/// `hl_png_decode_capacity` for the `width` and `height` its IHDR declares, which the caller
/// read and checked against its limit): the pixels land where they stay, with no copy and no
/// second image-sized allocation. HL_PNG_OK, or HL_PNG_CORRUPT and a message in `error` (also
/// when the IHDR does not declare `width` x `height`).
int hl_png_decode_into(const uint8_t *data, size_t length, uint8_t *out, size_t capacity, uint32_t width,
                       uint32_t height, char *error, size_t error_size);

/// `hl_png_decode` through libpng alone: the reference the fuzzer holds the fast path (8-bit,
/// not interlaced, decoded with libdeflate) to, byte for byte.
int hl_png_decode_libpng(const uint8_t *data, size_t length, uint64_t max_pixels, uint8_t **out,
                         uint32_t *width, uint32_t *height, char *error, size_t error_size);

/// Whether `data` is a whole PNG as far as its framing goes: the signature, IHDR first, every
/// chunk within the data with a correct CRC, IEND last and nothing after it. Cheap (a CRC
/// pass, nothing inflated): what lets byte-identical images match without decoding while a
/// damaged pair is still refused.
int hl_png_well_formed(const uint8_t *data, size_t length);

/// A zeroed buffer of `size` bytes for a whole image (a canvas, filtered rows); with `one_shot`
/// (the process renders once and exits), mapped in huge pages where the kernel allows (far
/// fewer page faults), else from the allocator (reused between images). NULL when memory runs
/// out. Free it with `hl_big_free` only.
void *hl_big_alloc(size_t size, int one_shot);
void hl_big_free(void *data);
/// Starts a thread (pthread_create's arguments and result) allowed to run on every CPU of the
/// process but the caller's current one, when there is another: a one-shot render's helper
/// then starts at once on the idle CPU. The thread is joinable.
int hl_thread_start_elsewhere(pthread_t *thread, void *(*body)(void *), void *argument);

/// Whether every pixel of `height` rows of Cairo words (ARGB32 or RGB24, `stride` bytes apart)
/// is gray (red, green and blue equal): such an image is encoded with one channel.
int hl_words_are_gray(const uint8_t *pixels, int width, int height, int stride);

/// Inflates a zlib stream into a malloc'ed buffer (free it with `hl_png_free`) of at most
/// `max_out` bytes. 0 on success; -1 when the stream is corrupt, longer than `max_out` or
/// memory runs out.
int hl_zlib_inflate(const uint8_t *in, size_t length, size_t max_out, uint8_t **out, size_t *out_length);

/// On (1), the next zlib stream this thread's Cairo starts is stored, not compressed (see
/// CairoDeflate.c); off (0) takes the request back if no stream was started.
void hl_deflate_store_next(int on);

/// Deflates `length` bytes as a zlib stream at `level` (1-12) into a malloc'ed buffer (free it
/// with `hl_png_free`). 0 on success, -1 when memory runs out.
int hl_zlib_deflate(const uint8_t *in, size_t length, int level, uint8_t **out, size_t *out_length);

/// The libpng version linked ("1.6.39").
const char *hl_png_version(void);

#endif
