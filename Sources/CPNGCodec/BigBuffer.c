#include "CPNGCodec.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

/* A 1080x1920 canvas is 8 MB: 2,000 first-touch page faults in 4 KB pages (a few ms of kernel
   time in a one-shot render), a handful in the 2 MB pages the kernel gives a mapping advised
   so. A long run (a batch, the service) does better with the allocator: later canvases reuse
   freed memory with no faults at all, where a fresh mapping each time made batches twice as
   slow. So huge pages only where the caller says its process renders once (the same caller
   lets PNGWrite.c use a second thread). From half a huge page up: one fault and a 2 MB clear
   beat 256 small faults. */
#define HUGE ((uintptr_t)2 << 20)
#define HEADER 64

typedef struct { void *base; size_t length; int mapped; } Header;

void *hl_big_alloc(size_t size, int one_shot) {
    if (size > SIZE_MAX - 2 * HUGE - HEADER) return NULL;
    if (!one_shot || size < HUGE / 2) {
        uint8_t *base = calloc(1, size + HEADER);
        if (!base) return NULL;
        ((Header *)(base + HEADER))[-1] = (Header){base, 0, 0};
        return base + HEADER;
    }
    size_t length = size + 2 * HUGE;
    uint8_t *base = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) return NULL;
    /* The data on a 2 MB boundary, the header just before it. */
    uintptr_t data = ((uintptr_t)base + HEADER + HUGE - 1) & ~(HUGE - 1);
    ((Header *)data)[-1] = (Header){base, length, 1};
    /* Advice only: where huge pages are off, this fails and the pages are small. */
    madvise((void *)data, (size + HUGE - 1) & ~(HUGE - 1), MADV_HUGEPAGE);
    return (void *)data;
}

void hl_big_free(void *data) {
    if (!data) return;
    Header h = ((Header *)data)[-1];
    if (h.mapped) munmap(h.base, h.length);
    else free(h.base);
}
