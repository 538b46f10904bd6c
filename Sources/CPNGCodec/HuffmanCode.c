#include "HuffmanCode.h"

#include <stdlib.h>
#include <string.h>

/* Symbols with a count, ascending by count (ties by symbol, so the code is deterministic). */
static int used_ascending(const uint32_t *freq, int n, uint16_t *order) {
    int m = 0;
    for (int s = 0; s < n; s++) {
        if (!freq[s]) continue;
        int i = m++;
        while (i > 0 && freq[order[i - 1]] > freq[s]) { order[i] = order[i - 1]; i--; }
        order[i] = (uint16_t)s;
    }
    return m;
}

void hl_huffman_lengths(const uint32_t *freq, int n, int limit, uint8_t *lengths) {
    uint16_t order[HL_HUFFMAN_MAX_SYMBOLS];
    uint32_t weight[2 * HL_HUFFMAN_MAX_SYMBOLS];
    uint16_t parent[2 * HL_HUFFMAN_MAX_SYMBOLS];
    uint8_t depth[2 * HL_HUFFMAN_MAX_SYMBOLS];
    memset(lengths, 0, (size_t)n);
    int m = used_ascending(freq, n, order);
    if (m == 0) return;
    if (m == 1) { lengths[order[0]] = 1; return; }

    /* Two queues: the sorted leaves (nodes 0..m-1) and the internal nodes in the order they are
       made (m..2m-2), which come out sorted as well; the two lightest fronts merge each step. */
    for (int i = 0; i < m; i++) weight[i] = freq[order[i]];
    int leaf = 0, inner = m;
    for (int k = m; k < 2 * m - 1; k++) {
        int pick[2];
        for (int j = 0; j < 2; j++) {
            if (leaf < m && (inner >= k || weight[leaf] <= weight[inner])) pick[j] = leaf++;
            else pick[j] = inner++;
        }
        weight[k] = weight[pick[0]] + weight[pick[1]];
        parent[pick[0]] = parent[pick[1]] = (uint16_t)k;
    }
    /* A parent always comes after its children, so depths resolve from the root down. */
    int root = 2 * m - 2;
    depth[root] = 0;
    for (int k = root - 1; k >= 0; k--) depth[k] = (uint8_t)(depth[parent[k]] + 1);

    /* Cap the depths at `limit`, then restore Kraft's equality: while the code is over-full,
       drop one code of the longest length and split a shorter code into two one longer
       (which keeps the sum), one unit of 2^-limit at a time. */
    uint32_t count[HL_HUFFMAN_MAX_BITS + 1] = {0};
    for (int i = 0; i < m; i++) count[depth[i] > limit ? limit : depth[i]]++;
    uint32_t total = 0;
    for (int len = 1; len <= limit; len++) total += count[len] << (limit - len);
    while (total > (1u << limit)) {
        count[limit]--;
        for (int len = limit - 1; len > 0; len--) {
            if (count[len]) { count[len]--; count[len + 1] += 2; break; }
        }
        total--;
    }
    /* The rarest symbols take the longest codes. */
    int i = 0;
    for (int len = limit; len > 0; len--) {
        for (uint32_t c = 0; c < count[len]; c++) lengths[order[i++]] = (uint8_t)len;
    }
}

void hl_huffman_codes(const uint8_t *lengths, int n, uint16_t *codes) {
    uint16_t count[HL_HUFFMAN_MAX_BITS + 1] = {0}, next[HL_HUFFMAN_MAX_BITS + 2];
    for (int s = 0; s < n; s++) count[lengths[s]]++;
    count[0] = 0;
    uint32_t code = 0;
    for (int len = 1; len <= HL_HUFFMAN_MAX_BITS; len++) {
        code = (code + count[len - 1]) << 1;
        next[len] = (uint16_t)code;
    }
    /* Deflate sends Huffman codes from their top bit; the bit writer sends from the bottom. */
    for (int s = 0; s < n; s++) {
        int len = lengths[s];
        if (!len) { codes[s] = 0; continue; }
        uint32_t c = next[len]++, reversed = 0;
        for (int b = 0; b < len; b++) { reversed = (reversed << 1) | (c & 1); c >>= 1; }
        codes[s] = (uint16_t)reversed;
    }
}
