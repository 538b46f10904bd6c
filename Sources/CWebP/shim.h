// libwebp's simple decode and encode API.
#include <webp/decode.h>
#include <webp/encode.h>
