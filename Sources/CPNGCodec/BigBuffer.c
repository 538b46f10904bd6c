#include "CPNGCodec.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

/* A 1080x1920 canvas is 8 MB: 2,000 first-touch page faults in 4 KB pages (a few ms of kernel
   time in a one-shot render), a handful in the 2 MB pages the kernel gives a mapping advised
   so. A long run (a batch, the service) does better with the allocator: later canvases reuse
   freed memory with no faults at all, where a fresh mapping each time made batches twice as
   slow. So huge pages only for processes that say they are one-shot (which also get PNGWrite.c's
   second thread). From half a huge page up: one fault and a 2 MB clear beat 256 small faults. */
#define HUGE ((uintptr_t)2 << 20)
#define HEADER 64

typedef struct { void *base; size_t length; int mapped; } Header;

/* Set once at a command's start; read by whichever thread allocates (atomic: no data race). */
static atomic_int one_shot = 0;

void hl_codec_one_shot(void) { atomic_store(&one_shot, 1); }

int hl_codec_is_one_shot(void) { return atomic_load(&one_shot); }

void *hl_big_alloc(size_t size) {
    if (size > SIZE_MAX - 2 * HUGE - HEADER) return NULL;
    if (!atomic_load(&one_shot) || size < HUGE / 2) {
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
