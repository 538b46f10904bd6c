// libwebp's simple decode and encode API.
#include <webp/decode.h>
#include <webp/encode.h>
// Animated WebP: the animation encoder of libwebpmux.
#include <webp/mux.h>
// Reading animated WebP frame by frame (compare): libwebpdemux's animation decoder.
#include <webp/demux.h>
