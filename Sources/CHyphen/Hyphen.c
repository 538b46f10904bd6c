#include "CHyphen.h"

#include <hyphen.h>
#include <stdlib.h>
#include <string.h>

enum { UTF8, LATIN1, KOI8R };

struct hl_hyphenator {
    HyphenDict *dict;
    int encoding;
};

hl_hyphenator *hl_hyphen_load(const char *path) {
    HyphenDict *dict = hnj_hyphen_load(path);
    if (!dict) return NULL;
    hl_hyphenator *h = malloc(sizeof *h);
    if (!h) { hnj_hyphen_free(dict); return NULL; }
    h->dict = dict;
    h->encoding = strncmp(dict->cset, "UTF-8", 5) == 0 ? UTF8 : strncmp(dict->cset, "KOI8-R", 6) == 0 ? KOI8R : LATIN1;
    return h;
}

void hl_hyphen_free(hl_hyphenator *h) {
    if (!h) return;
    hnj_hyphen_free(h->dict);
    free(h);
}

/* KOI8-R bytes 0xC0...0xDF for the lowercase Cyrillic letters, in KOI8-R's order. */
static const uint16_t koi8_lower[32] = {
    0x44E, 0x430, 0x431, 0x446, 0x434, 0x435, 0x444, 0x433, 0x445, 0x438, 0x439, 0x43A, 0x43B, 0x43C, 0x43D, 0x43E,
    0x43F, 0x44F, 0x440, 0x441, 0x442, 0x443, 0x436, 0x432, 0x44C, 0x44B, 0x437, 0x448, 0x44D, 0x449, 0x447, 0x44A};

static int decode(const unsigned char **p, const unsigned char *end) {
    const unsigned char *s = *p;
    int c = s[0], n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    if (s + n > end) return -1;
    int v = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
    for (int i = 1; i < n; i++) v = (v << 6) | (s[i] & 0x3F);
    *p = s + n;
    return v;
}

int hl_hyphen_points(const hl_hyphenator *h, const char *word, int length, int count, int left, int right,
                     uint8_t *points) {
    memset(points, 0, (size_t)count);
    char *converted = malloc((size_t)length + 1);
    char *hyphens = malloc((size_t)length + 5);
    if (!converted || !hyphens) { free(converted); free(hyphens); return -1; }
    int size = 0, characters = 0, failed = 0;
    const unsigned char *p = (const unsigned char *)word, *end = p + length;
    while (p < end && !failed) {
        const unsigned char *start = p;
        int c = decode(&p, end);
        if (c < 0) { failed = 1; break; }
        if (h->encoding == UTF8) {
            for (const unsigned char *b = start; b < p; b++) converted[size++] = (char)*b;
        } else if (h->encoding == LATIN1) {
            if (c > 0xFF) { failed = 1; break; }
            converted[size++] = (char)c;
        } else {
            int byte = c < 0x80 ? c : 0;
            if (c == 0x451) byte = 0xA3;
            for (int k = 0; k < 32 && !byte; k++) if (koi8_lower[k] == c) byte = 0xC0 + k;
            if (!byte) { failed = 1; break; }
            converted[size++] = (char)byte;
        }
        characters++;
    }
    if (!failed && characters != count) failed = 1;
    if (!failed) {
        converted[size] = 0;
        char **rep = NULL;
        int *pos = NULL, *cut = NULL;
        /* libhyphen leaves one value per character in `hyphens` whatever the encoding (for a
           UTF-8 dictionary it folds the per-byte values itself): an odd value after character
           i is a point. */
        if (hnj_hyphen_hyphenate3(h->dict, converted, size, hyphens, NULL, &rep, &pos, &cut, left, right, 2, 2) == 0) {
            for (int i = 0; i < count - 1; i++) {
                if ((hyphens[i] & 1) && i + 1 >= left && count - i - 1 >= right) points[i] = 1;
            }
        } else {
            failed = 1;
        }
        if (rep) {
            for (int i = 0; i < size; i++) free(rep[i]);
            free(rep);
        }
        free(pos);
        free(cut);
    }
    free(converted);
    free(hyphens);
    return failed ? -1 : 0;
}
