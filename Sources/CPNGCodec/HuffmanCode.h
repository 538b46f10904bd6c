#ifndef HL_HUFFMAN_CODE_H
#define HL_HUFFMAN_CODE_H

#include <stdint.h>

#define HL_HUFFMAN_MAX_SYMBOLS 288
#define HL_HUFFMAN_MAX_BITS 15

/* Code lengths (at most `limit` bits) for symbols with the given counts; unused symbols get 0.
   A single used symbol gets a 1-bit code. */
void hl_huffman_lengths(const uint32_t *freq, int n, int limit, uint8_t *lengths);

/* Canonical codes for those lengths, bit-reversed for an LSB-first writer (deflate's order). */
void hl_huffman_codes(const uint8_t *lengths, int n, uint16_t *codes);

#endif
