/* libFuzzer harness: any bytes through hlrender's PNG decoder (libpng's full API behind
   setjmp). It must answer OK, corrupt or too large, never crash or leak. */
#include <stdint.h>
#include <stdlib.h>
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
        hl_png_free(pixels);
    } else if (pixels) {
        abort();
    }
    return 0;
}
