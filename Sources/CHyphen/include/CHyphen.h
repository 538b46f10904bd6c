// libhyphen (the hyphenation library of LibreOffice and Hunspell) behind plain functions:
// dictionaries in UTF-8, ISO 8859-1 or KOI8-R, words always passed as UTF-8.
#ifndef CHYPHEN_H
#define CHYPHEN_H

#include <stddef.h>
#include <stdint.h>

typedef struct hl_hyphenator hl_hyphenator;

/// Loads a .dic file; NULL when it cannot be read.
hl_hyphenator *hl_hyphen_load(const char *path);
void hl_hyphen_free(hl_hyphenator *h);

/// Hyphenation points of one lowercase word (`length` bytes of UTF-8, `count` characters):
/// sets points[i] = 1 when a break may follow character i (0-based), with at least `left`
/// characters before and `right` after. Returns 0, or -1 when the word cannot be written in the
/// dictionary's encoding. Safe from several threads: the dictionary is only read.
int hl_hyphen_points(const hl_hyphenator *h, const char *word, int length, int count, int left, int right,
                     uint8_t *points);

#endif
