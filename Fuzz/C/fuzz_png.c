/* libFuzzer harness: any bytes through hlrender's PNG decoder (its libdeflate fast path, then
   libpng's full API behind setjmp). It must answer OK, corrupt or too large, never crash or
   leak, and a fast decode must equal libpng's. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "CPNGCodec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint8_t *pixels = NULL;
    uint32_t width = 0, height = 0;
    char error[256];
    /* A small limit keeps each input fast; the limit itself is checked before allocating. */
    int status = hl_png_decode(data, size, 1u << 20, &pixels, &width, &height, error, sizeof error);
    if (status == HL_PNG_OK) {
        if (!pixels || (uint64_t)width * height > (1u << 20)) abort();
        /* Touch every byte: a short buffer shows up under ASan. */
        volatile uint8_t sum = 0;
        for (size_t i = 0; i < (size_t)width * height * 4; i++) sum ^= pixels[i];
        /* The fast path must give libpng's pixels exactly. */
        uint8_t *reference = NULL;
        uint32_t rw = 0, rh = 0;
        if (hl_png_decode_libpng(data, size, 1u << 20, &reference, &rw, &rh, error, sizeof error) != HL_PNG_OK
            || rw != width || rh != height || memcmp(reference, pixels, (size_t)width * height * 4) != 0) abort();
        hl_png_free(reference);
        hl_png_free(pixels);
    } else if (pixels) {
        abort();
    }
    return 0;
}
