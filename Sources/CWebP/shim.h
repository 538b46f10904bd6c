// libwebp's simple decode and encode API.
#include <webp/decode.h>
#include <webp/encode.h>
// Animated WebP: the animation encoder of libwebpmux.
#include <webp/mux.h>
