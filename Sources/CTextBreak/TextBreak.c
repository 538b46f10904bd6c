#include "CTextBreak.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/ubidi.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/utypes.h>
#include <unicode/uversion.h>

void hl_icu_version(char *out) {
    UVersionInfo version;
    u_getVersion(version);
    u_versionToString(version, out);
}

/* Opening a line iterator costs ICU ~10 us (rules, locale, converters): a text of 341,000
   one-line paragraphs spent a third of its layout there. Each thread keeps one iterator for
   the last locale and points it at the next text; the key's destructor closes it when the
   thread ends. */
static pthread_key_t iterator_key;
static pthread_once_t iterator_once = PTHREAD_ONCE_INIT;

struct cached_iterator {
    UBreakIterator *it;
    char locale[64];
};

static void close_cached(void *value) {
    struct cached_iterator *cached = value;
    if (cached->it) ubrk_close(cached->it);
    free(cached);
}

static void make_key(void) { pthread_key_create(&iterator_key, close_cached); }

static UBreakIterator *line_iterator(const char *locale, const UChar *text, int32_t length, UErrorCode *err, int *owned) {
    *owned = 0;
    pthread_once(&iterator_once, make_key);
    struct cached_iterator *cached = pthread_getspecific(iterator_key);
    if (cached && cached->it && strncmp(cached->locale, locale, sizeof cached->locale) == 0) {
        ubrk_setText(cached->it, text, length, err);
        return cached->it;
    }
    UBreakIterator *it = ubrk_open(UBRK_LINE, locale, text, length, err);
    if (U_FAILURE(*err)) return NULL;
    if (strlen(locale) >= sizeof cached->locale) { *owned = 1; return it; } /* not cached: the caller closes it */
    if (!cached) {
        cached = calloc(1, sizeof *cached);
        if (!cached || pthread_setspecific(iterator_key, cached) != 0) { free(cached); *owned = 1; return it; }
    }
    if (cached->it) ubrk_close(cached->it);
    cached->it = it;
    strcpy(cached->locale, locale);
    return it;
}

int32_t hl_line_breaks(const uint16_t *text, int32_t length, const char *locale,
                       int32_t *positions, uint8_t *mandatory, int32_t capacity,
                       int32_t *status) {
    UErrorCode err = U_ZERO_ERROR;
    if (capacity < length + 1) {
        *status = U_BUFFER_OVERFLOW_ERROR;
        return -1;
    }
    int owned = 0;
    UBreakIterator *it = line_iterator(locale, (const UChar *)text, length, &err, &owned);
    if (U_FAILURE(err)) {
        *status = err;
        return -1;
    }
    int32_t count = 0;
    // The first boundary is 0 (a line cannot end before it starts): skip it.
    ubrk_first(it);
    for (int32_t pos = ubrk_next(it); pos != UBRK_DONE; pos = ubrk_next(it)) {
        int32_t rule = ubrk_getRuleStatus(it);
        positions[count] = pos;
        mandatory[count] = (rule >= UBRK_LINE_HARD && rule < UBRK_LINE_HARD_LIMIT) ? 1 : 0;
        count++;
    }
    if (owned) ubrk_close(it);
    *status = U_ZERO_ERROR;
    return count;
}

int32_t hl_bidi_levels(const uint16_t *text, int32_t length, int32_t base, uint8_t *levels,
                       int32_t *status) {
    UErrorCode err = U_ZERO_ERROR;
    UBiDi *bidi = ubidi_openSized(length, 0, &err);
    if (U_FAILURE(err)) {
        *status = err;
        return -1;
    }
    UBiDiLevel paraLevel = base < 0 ? UBIDI_DEFAULT_LTR : (UBiDiLevel)base;
    ubidi_setPara(bidi, (const UChar *)text, length, paraLevel, NULL, &err);
    if (U_FAILURE(err)) {
        ubidi_close(bidi);
        *status = err;
        return -1;
    }
    int32_t resolved = ubidi_getParaLevel(bidi);
    if (length > 0) {
        const UBiDiLevel *src = ubidi_getLevels(bidi, &err);
        if (U_FAILURE(err)) {
            ubidi_close(bidi);
            *status = err;
            return -1;
        }
        memcpy(levels, src, (size_t)length);
    }
    ubidi_close(bidi);
    *status = U_ZERO_ERROR;
    return resolved;
}

/* Tags by script code, filled as met: the short name is a lookup by name in ICU's property
   tables, far dearer than the script itself. Every thread stores the same value. */
static uint32_t script_tags[USCRIPT_CODE_LIMIT];

uint32_t hl_script_tag(uint32_t codepoint) {
    UErrorCode err = U_ZERO_ERROR;
    UScriptCode code = uscript_getScript((UChar32)codepoint, &err);
    if (U_FAILURE(err) || code < 0 || code >= USCRIPT_CODE_LIMIT) code = USCRIPT_COMMON;
    uint32_t tag = __atomic_load_n(&script_tags[code], __ATOMIC_RELAXED);
    if (tag != 0) return tag;
    const char *name = uscript_getShortName(code);
    if (name == NULL || strlen(name) != 4) {
        tag = 0x5A797979; /* Zyyy */
    } else {
        tag = ((uint32_t)(unsigned char)name[0] << 24) | ((uint32_t)(unsigned char)name[1] << 16) |
              ((uint32_t)(unsigned char)name[2] << 8) | (uint32_t)(unsigned char)name[3];
    }
    __atomic_store_n(&script_tags[code], tag, __ATOMIC_RELAXED);
    return tag;
}

const char *hl_status_name(int32_t status) { return u_errorName((UErrorCode)status); }

/* UTS #51 Extended_Pictographic, for UAX #29 GB11 (Swift's own table misses some, e.g. U+2701). */
int hl_is_extended_pictographic(uint32_t codepoint) {
    return u_hasBinaryProperty((UChar32)codepoint, UCHAR_EXTENDED_PICTOGRAPHIC) ? 1 : 0;
}
