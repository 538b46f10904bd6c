#include "FastDeflate.h"
#include "HuffmanCode.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

/* After PNG filtering, the redundancy of a rendered card sits at a few distances: the byte
   before (runs), the pixel before (flat colour under Up or Sub) and the row above, straight or
   one pixel aside (rows alike, diagonal gradients). Trying those first skips a long match in a
   few word compares, where a general LZ77 (libdeflate level 1 included) hashes every byte of
   it; only where none matches does one hashed earlier position get a try (a glyph's edge seen
   before). Tokens are Huffman-coded per block with codes from that block's counts; a block
   that would come out larger than its bytes is stored instead, so the output is bounded.
   On story cards: 4-7x faster than libdeflate level 1, within a few per cent of its size. */

enum {
    NEAR = 5, HASH_BITS = 14, MIN_MATCH = 4, FAR_MIN_MATCH = 16, MAX_DISTANCE = 32768, MAX_MATCH = 258,
    BLOCK_TOKENS = 1 << 16, LITLEN_SYMBOLS = 286, DIST_SYMBOLS = 30
};

static const uint16_t length_base[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                                         35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
                                         3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t dist_base[30] = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
                                       257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
                                       8193, 12289, 16385, 24577};
static const uint8_t dist_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
                                       7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
/* Extra bits after the code-length symbols 16 (repeat), 17 and 18 (zeros). */
static const uint8_t cl_extra_bits[19] = {[16] = 2, [17] = 3, [18] = 7};
static const uint8_t code_length_order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

typedef struct {
    uint64_t bits;
    int count;
    uint8_t *out, *end;
} BitWriter;

/* At most 32 bits at a time; whole words leave as soon as 32 bits wait. */
static inline void put(BitWriter *w, uint32_t bits, int n) {
    w->bits |= (uint64_t)bits << w->count;
    w->count += n;
    if (w->count >= 32) {
        uint32_t word = (uint32_t)w->bits;
        w->out[0] = (uint8_t)word; w->out[1] = (uint8_t)(word >> 8);
        w->out[2] = (uint8_t)(word >> 16); w->out[3] = (uint8_t)(word >> 24);
        w->out += 4;
        w->bits >>= 32;
        w->count -= 32;
    }
}

/* Pads to a byte boundary and writes out every waiting bit. */
static void align(BitWriter *w) {
    while (w->count > 0) {
        *w->out++ = (uint8_t)w->bits;
        w->bits >>= 8;
        w->count = w->count > 8 ? w->count - 8 : 0;
    }
    w->bits = 0;
}

/* Tokens: a literal byte, or 0x80000000 | (length - 3) << 15 | (distance - 1). */
typedef struct {
    uint32_t tokens[BLOCK_TOKENS];
    uint32_t litlen_freq[LITLEN_SYMBOLS], dist_freq[DIST_SYMBOLS];
    uint8_t length_symbol[MAX_MATCH - 2];
    uint8_t near_symbol[256], far_symbol[256]; /* distance - 1 below 256; (distance - 1) >> 7 */
    uint32_t recent[1 << HASH_BITS];              /* the last position of each 4-byte hash */
} Encoder;

static inline int dist_symbol(const Encoder *e, uint32_t d) {
    return d <= 256 ? e->near_symbol[d - 1] : e->far_symbol[(d - 1) >> 7];
}

static int dist_symbol_of(uint32_t d) {
    int s = 0;
    while (s < 29 && dist_base[s + 1] <= d) s++;
    return s;
}

static inline size_t match_length(const uint8_t *a, const uint8_t *b, size_t limit) {
    size_t len = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    while (len + 8 <= limit) {
        uint64_t x, y;
        memcpy(&x, a + len, 8);
        memcpy(&y, b + len, 8);
        if (x != y) return len + ((size_t)__builtin_ctzll(x ^ y) >> 3);
        len += 8;
    }
#endif
    while (len < limit && a[len] == b[len]) len++;
    return len;
}

/* The longest match (at least MIN_MATCH) at one of the near distances, else 0. */
static inline size_t near_match(const uint8_t *in, size_t i, size_t limit, const size_t *near, size_t *distance) {
    if (limit < MIN_MATCH) return 0;
    uint32_t head;
    memcpy(&head, in + i, 4);
    size_t best = 0;
    for (int k = 0; k < NEAR; k++) {
        size_t d = near[k];
        uint32_t word;
        if (d > i || d > MAX_DISTANCE) continue;
        memcpy(&word, in + i - d, 4);
        if (word != head) continue;
        size_t len = match_length(in + i, in + i - d, limit);
        if (len > best) {
            best = len;
            *distance = d;
            if (len == limit) break; /* none can be longer */
        }
    }
    return best;
}

/* One dynamic block's codes, and its code lengths as deflate's run-length symbols. */
typedef struct {
    uint8_t litlen_len[LITLEN_SYMBOLS], dist_len[DIST_SYMBOLS], cl_len[19];
    uint16_t litlen_code[LITLEN_SYMBOLS], dist_code[DIST_SYMBOLS], cl_code[19];
    uint8_t cl_symbols[LITLEN_SYMBOLS + DIST_SYMBOLS], cl_extra[LITLEN_SYMBOLS + DIST_SYMBOLS];
    int cl_count, hlit, hdist, hclen;
} BlockCodes;

/* Run-length codes the two code-length lists as deflate's 16 (repeat), 17 and 18 (zeros). */
static void encode_lengths(BlockCodes *c, uint32_t *cl_freq) {
    uint8_t all[LITLEN_SYMBOLS + DIST_SYMBOLS];
    int n = c->hlit + c->hdist;
    memcpy(all, c->litlen_len, (size_t)c->hlit);
    memcpy(all + c->hlit, c->dist_len, (size_t)c->hdist);
    c->cl_count = 0;
    for (int i = 0; i < n;) {
        int value = all[i], run = 1;
        while (i + run < n && all[i + run] == value) run++;
        int left = run;
        if (value == 0) {
            while (left >= 11) { int r = left > 138 ? 138 : left; c->cl_symbols[c->cl_count] = 18; c->cl_extra[c->cl_count++] = (uint8_t)(r - 11); cl_freq[18]++; left -= r; }
            if (left >= 3) { c->cl_symbols[c->cl_count] = 17; c->cl_extra[c->cl_count++] = (uint8_t)(left - 3); cl_freq[17]++; left = 0; }
        } else {
            c->cl_symbols[c->cl_count] = (uint8_t)value; c->cl_extra[c->cl_count++] = 0; cl_freq[value]++; left--;
            while (left >= 3) { int r = left > 6 ? 6 : left; c->cl_symbols[c->cl_count] = 16; c->cl_extra[c->cl_count++] = (uint8_t)(r - 3); cl_freq[16]++; left -= r; }
        }
        while (left-- > 0) { c->cl_symbols[c->cl_count] = (uint8_t)value; c->cl_extra[c->cl_count++] = 0; cl_freq[value]++; }
        i += run;
    }
}

/* Every alphabet gets at least two used symbols, so each code is complete (zlib insists). */
static void at_least_two(uint32_t *freq, int n) {
    int used = 0;
    for (int s = 0; s < n; s++) used += freq[s] != 0;
    for (int s = 0; used < 2 && s < n; s++) if (!freq[s]) { freq[s] = 1; used++; }
}

/* The bits a dynamic block of the encoder's counts costs, header included; fills its codes. */
static uint64_t plan_block(Encoder *e, BlockCodes *c) {
    uint32_t litlen[LITLEN_SYMBOLS], dist[DIST_SYMBOLS], cl_freq[19] = {0};
    memcpy(litlen, e->litlen_freq, sizeof litlen);
    memcpy(dist, e->dist_freq, sizeof dist);
    litlen[256] = 1;
    at_least_two(litlen, LITLEN_SYMBOLS);
    at_least_two(dist, DIST_SYMBOLS);
    hl_huffman_lengths(litlen, LITLEN_SYMBOLS, 15, c->litlen_len);
    hl_huffman_lengths(dist, DIST_SYMBOLS, 15, c->dist_len);
    c->hlit = LITLEN_SYMBOLS;
    while (c->litlen_len[c->hlit - 1] == 0) c->hlit--;
    c->hdist = DIST_SYMBOLS;
    while (c->dist_len[c->hdist - 1] == 0) c->hdist--;
    encode_lengths(c, cl_freq);
    at_least_two(cl_freq, 19);
    hl_huffman_lengths(cl_freq, 19, 7, c->cl_len);
    c->hclen = 19;
    while (c->cl_len[code_length_order[c->hclen - 1]] == 0) c->hclen--;
    hl_huffman_codes(c->litlen_len, LITLEN_SYMBOLS, c->litlen_code);
    hl_huffman_codes(c->dist_len, DIST_SYMBOLS, c->dist_code);
    hl_huffman_codes(c->cl_len, 19, c->cl_code);

    uint64_t bits = 3 + 14 + 3 * (uint64_t)c->hclen;
    for (int i = 0; i < c->cl_count; i++) bits += c->cl_len[c->cl_symbols[i]] + cl_extra_bits[c->cl_symbols[i]];
    for (int s = 0; s < LITLEN_SYMBOLS; s++) {
        bits += (uint64_t)litlen[s] * (c->litlen_len[s] + (s > 256 ? length_extra[s - 257] : 0));
    }
    for (int s = 0; s < DIST_SYMBOLS; s++) bits += (uint64_t)dist[s] * (c->dist_len[s] + dist_extra[s]);
    return bits;
}

static void write_dynamic(Encoder *e, const BlockCodes *c, size_t ntokens, int final, BitWriter *w) {
    put(w, (uint32_t)final | 2u << 1, 3);
    put(w, (uint32_t)(c->hlit - 257), 5);
    put(w, (uint32_t)(c->hdist - 1), 5);
    put(w, (uint32_t)(c->hclen - 4), 4);
    for (int i = 0; i < c->hclen; i++) put(w, c->cl_len[code_length_order[i]], 3);
    for (int i = 0; i < c->cl_count; i++) {
        int s = c->cl_symbols[i];
        put(w, c->cl_code[s], c->cl_len[s]);
        if (cl_extra_bits[s]) put(w, c->cl_extra[i], cl_extra_bits[s]);
    }
    for (size_t t = 0; t < ntokens; t++) {
        uint32_t token = e->tokens[t];
        if (token < 256) { put(w, c->litlen_code[token], c->litlen_len[token]); continue; }
        uint32_t excess = (token >> 15) & 0xFF, d = (token & 0x7FFF) + 1;
        int s = e->length_symbol[excess], sym = 257 + s, ds = dist_symbol(e, d);
        put(w, c->litlen_code[sym] | (excess + 3 - length_base[s]) << c->litlen_len[sym], c->litlen_len[sym] + length_extra[s]);
        put(w, c->dist_code[ds] | (d - dist_base[ds]) << c->dist_len[ds], c->dist_len[ds] + dist_extra[ds]);
    }
    put(w, c->litlen_code[256], c->litlen_len[256]);
}

static void write_stored(const uint8_t *bytes, size_t length, int final, BitWriter *w) {
    do {
        size_t n = length > 65535 ? 65535 : length;
        int last = final && n == length;
        put(w, (uint32_t)last, 3);
        align(w);
        w->out[0] = (uint8_t)n; w->out[1] = (uint8_t)(n >> 8);
        w->out[2] = (uint8_t)~n; w->out[3] = (uint8_t)(~n >> 8);
        memcpy(w->out + 4, bytes, n);
        w->out += 4 + n;
        bytes += n;
        length -= n;
    } while (length > 0);
}

/* Stored blocks: 3 header bits padded to a byte plus 4 length bytes per 65,535 bytes. */
static uint64_t stored_bits(size_t length) {
    size_t pieces = length / 65535 + 1;
    return (uint64_t)pieces * (10 + 32) + 8 * (uint64_t)length;
}

size_t hl_fast_zlib_bound(size_t length) {
    /* Each block is the smaller of its dynamic and stored forms; blocks of fewer than
       BLOCK_TOKENS bytes end only the stream. Plus the zlib header and trailer. */
    size_t blocks = length / BLOCK_TOKENS + 2;
    return length + 5 * (length / 65535 + blocks) + 8 * blocks + 16;
}

static int flush_block(Encoder *e, size_t ntokens, const uint8_t *start, size_t nbytes, int final, BitWriter *w) {
    BlockCodes codes;
    uint64_t dynamic = plan_block(e, &codes), stored = stored_bits(nbytes);
    uint64_t bits = dynamic < stored ? dynamic : stored;
    if ((uint64_t)(w->end - w->out) < bits / 8 + 16) return -1;
    if (dynamic < stored) write_dynamic(e, &codes, ntokens, final, w);
    else write_stored(start, nbytes, final, w);
    memset(e->litlen_freq, 0, sizeof e->litlen_freq);
    memset(e->dist_freq, 0, sizeof e->dist_freq);
    return 0;
}

/* The token at `i` in a zero row (Up, then zeros), from what is known, not read (those rows
   have left the cache): the row above when it is a zero row too, else a run of the zero before;
   0 for a literal. */
static size_t zero_row_match(size_t i, size_t row_start, size_t row_end, int above_is_zero, size_t *distance) {
    size_t left = row_end - i < MAX_MATCH ? row_end - i : MAX_MATCH;
    if (i == row_start) {
        *distance = row_end - row_start;
        return above_is_zero && *distance <= MAX_DISTANCE ? left : 0;
    }
    *distance = 1;
    return i > row_start + 1 ? left : 0; /* the byte before the first zero is the filter byte */
}

struct FastZlib {
    Encoder e;
    BitWriter w;
    const uint8_t *in, *zero_rows;
    size_t length, row_bytes, near[NEAR];
    size_t i, ntokens, block_start, row, row_start, checked;
    uint32_t adler;
    int failed;
    int zlib; /* a whole zlib stream, else a piece (raw deflate; see hl_fast_deflate_begin) */
    int last; /* the stream's last piece: its last block is final */
    uint8_t *out;
};

static FastZlib *begin(const uint8_t *in, size_t length, size_t row_bytes, int bpp, const uint8_t *zero_rows,
                       uint8_t *out, size_t capacity, int zlib, int last) {
    /* Rows are a filter byte and whole pixels: the distances to the row above and its
       neighbouring pixels (row_bytes and row_bytes -+ bpp) must be at least 1. */
    /* Pixels of PNG's 8-bit colour types only (1 to 4 bytes): zero rows of wider pixels were
       coded wrongly (found by Fuzz/C/fuzz_deflate.c), and hlrender writes no others. */
    if (capacity < 16 || bpp < 1 || bpp > 4 || row_bytes < (size_t)bpp + 1 || (row_bytes - 1) % (size_t)bpp != 0) return NULL;
    FastZlib *z = calloc(1, sizeof *z);
    if (!z) return NULL;
    Encoder *e = &z->e;
    for (int s = 0; s < 29; s++) {
        int last = s == 28 ? MAX_MATCH : length_base[s + 1] - 1;
        for (int len = length_base[s]; len <= last; len++) e->length_symbol[len - 3] = (uint8_t)s;
    }
    for (uint32_t d = 1; d <= 256; d++) e->near_symbol[d - 1] = (uint8_t)dist_symbol_of(d);
    for (uint32_t k = 2; k < 256; k++) e->far_symbol[k] = (uint8_t)dist_symbol_of((k << 7) + 1);
    /* The byte and the pixel before; the row above, straight and one pixel either side (the
       step of a diagonal gradient). */
    const size_t near[NEAR] = {1, (size_t)bpp, row_bytes, row_bytes - (size_t)bpp, row_bytes + (size_t)bpp};
    memcpy(z->near, near, sizeof near);
    z->in = in;
    z->length = length;
    z->row_bytes = row_bytes;
    z->zero_rows = zero_rows;
    z->adler = 1;
    z->out = out;
    z->zlib = zlib;
    z->last = last;
    z->w = (BitWriter){0, 0, zlib ? out + 2 : out, out + capacity - 4};
    if (zlib) { out[0] = 0x78; out[1] = 0x01; }
    return z;
}

FastZlib *hl_fast_zlib_begin(const uint8_t *in, size_t length, size_t row_bytes, int bpp, const uint8_t *zero_rows,
                             uint8_t *out, size_t capacity) {
    return begin(in, length, row_bytes, bpp, zero_rows, out, capacity, 1, 1);
}

FastZlib *hl_fast_deflate_begin(const uint8_t *in, size_t length, size_t row_bytes, int bpp, const uint8_t *zero_rows,
                                uint8_t *out, size_t capacity, int last) {
    return begin(in, length, row_bytes, bpp, zero_rows, out, capacity, 0, last);
}

/* Codes tokens while they start before `stop`, reading at most `ready` bytes; the last call
   (ready == length) ends the stream's final block. Returns -1 when the output is full. */
static int code(FastZlib *z, size_t stop, size_t ready) {
    Encoder *e = &z->e;
    const uint8_t *in = z->in, *zero_rows = z->zero_rows;
    size_t i = z->i, ntokens = z->ntokens, row = z->row, row_start = z->row_start, row_bytes = z->row_bytes;
    const size_t *near = z->near;
    while (i < stop) {
        while (i >= row_start + row_bytes) { row++; row_start += row_bytes; }
        size_t limit = ready - i < MAX_MATCH ? ready - i : MAX_MATCH, best_d = 0, best;
        int zero_row = zero_rows && zero_rows[row];
        if (zero_row) {
            size_t end = row_start + row_bytes < ready ? row_start + row_bytes : ready;
            best = zero_row_match(i, row_start, end, row > 0 && zero_rows[row - 1], &best_d);
        } else {
            best = near_match(in, i, limit, near, &best_d);
        }
        if (best < MIN_MATCH && limit >= MIN_MATCH && !zero_row) {
            /* Elsewhere (a glyph's edge seen before): one hashed earlier position, taken when
               long enough to beat the literals and no near match starts a byte later. */
            uint32_t word;
            memcpy(&word, in + i, 4);
            uint32_t h = (word * 0x9E3779B1u) >> (32 - HASH_BITS);
            size_t d = (uint32_t)i - e->recent[h], ignored;
            e->recent[h] = (uint32_t)i;
            if (d > 0 && d <= MAX_DISTANCE && d <= i) {
                size_t len = match_length(in + i, in + i - d, limit);
                if (len >= FAR_MIN_MATCH && len > near_match(in, i + 1, limit - 1, near, &ignored) + 1) {
                    best = len;
                    best_d = d;
                }
            }
        }
        if (best >= 3) { /* deflate's shortest match (only a zero row's end is shorter than MIN_MATCH) */
            e->tokens[ntokens++] = 0x80000000u | (uint32_t)(best - 3) << 15 | (uint32_t)(best_d - 1);
            e->litlen_freq[257 + e->length_symbol[best - 3]]++;
            e->dist_freq[dist_symbol(e, (uint32_t)best_d)]++;
            i += best;
        } else {
            uint8_t byte = !zero_row ? in[i] : i == row_start ? 2 : 0;
            e->tokens[ntokens++] = byte;
            e->litlen_freq[byte]++;
            i++;
        }
        if (ntokens == BLOCK_TOKENS || i == z->length) {
            if (flush_block(e, ntokens, in + z->block_start, i - z->block_start, z->last && i == z->length, &z->w) != 0) return -1;
            ntokens = 0;
            z->block_start = i;
        }
    }
    z->i = i;
    z->ntokens = ntokens;
    z->row = row;
    z->row_start = row_start;
    return 0;
}

/* Checksums the input as far as it is ready, while it is still in the cache. */
static void check(FastZlib *z, size_t ready) {
    if (ready <= z->checked) return;
    z->adler = libdeflate_adler32(z->adler, z->in + z->checked, ready - z->checked);
    z->checked = ready;
}

int hl_fast_zlib_feed(FastZlib *z, size_t ready) {
    if (ready > z->length) ready = z->length;
    check(z, ready);
    /* Matches starting before `ready - MAX_MATCH` can have their full length. */
    if (!z->failed && ready > MAX_MATCH && code(z, ready - MAX_MATCH, ready) != 0) z->failed = 1;
    return z->failed ? -1 : 0;
}

/* Codes the rest; a piece that is not the last ends on a byte boundary (an empty stored
   block, deflate's sync flush) so that the next piece can follow it byte for byte. */
static size_t end(FastZlib *z) {
    size_t total = 0;
    check(z, z->length);
    int ok = !z->failed && code(z, z->length, z->length) == 0;
    if (ok && z->length == 0) ok = flush_block(&z->e, 0, z->in, 0, z->last, &z->w) == 0;
    if (ok && !z->last) {
        if (z->w.end - z->w.out < 16) ok = 0;
        else write_stored(z->in, 0, 0, &z->w);
    }
    if (ok) {
        align(&z->w);
        uint8_t *t = z->w.out;
        if (z->zlib) {
            t[0] = (uint8_t)(z->adler >> 24); t[1] = (uint8_t)(z->adler >> 16);
            t[2] = (uint8_t)(z->adler >> 8); t[3] = (uint8_t)z->adler;
            t += 4;
        }
        total = (size_t)(t - z->out);
    }
    return total;
}

size_t hl_fast_zlib_end(FastZlib *z) {
    size_t total = end(z);
    free(z);
    return total;
}

size_t hl_fast_deflate_end(FastZlib *z, uint32_t *adler) {
    size_t total = end(z);
    *adler = z->adler;
    free(z);
    return total;
}

/* Adler-32 is two sums mod 65521: s1 = 1 + the bytes, s2 = the sum of every running s1. After
   `b` more bytes with sums (t1, t2) of their own, s1 grows by t1 - 1 and s2 by t2 plus b times
   the s1 the second part started from, less the 1 its own s1 started from. */
uint32_t hl_adler32_combine(uint32_t first, uint32_t second, size_t second_length) {
    const uint64_t mod = 65521;
    uint64_t s1 = first & 0xFFFF, s2 = first >> 16, t1 = second & 0xFFFF, t2 = second >> 16, b = second_length % mod;
    uint64_t u1 = (s1 + t1 + mod - 1) % mod;
    uint64_t u2 = (s2 + t2 + b * s1 + mod * mod - b) % mod;
    return (uint32_t)(u2 << 16 | u1);
}
