// zlib's deflateInit_, as the static Cairo calls it (the archive's reference binds to this
// definition at link time, not to libz's). It is libz's own deflateInit_ (deflateInit2_ with
// zlib's defaults) unless the calling thread asked for the next stream to be stored: a tagged
// PDF's page content is inflated and deflated again by PDFStreamFilter on another thread, so
// Cairo compressing it first, a sixth of the drawing thread's time, was work thrown away. The
// page's content stream is the first Cairo opens when it writes a page; what follows it (a
// picture, a blurred layer, a font at the end) is compressed as Cairo asks.
#include "CPNGCodec.h"
#include <zlib.h>

static _Thread_local int store_next = 0;

void hl_deflate_store_next(int on) { store_next = on; }

int deflateInit_(z_streamp strm, int level, const char *version, int stream_size) {
    int chosen = store_next ? Z_NO_COMPRESSION : level;
    store_next = 0;
    // MAX_WBITS and a memory level of 8 are what zlib's deflateInit_ passes.
    return deflateInit2_(strm, chosen, Z_DEFLATED, MAX_WBITS, 8, Z_DEFAULT_STRATEGY, version, stream_size);
}
