// A thin C layer over ICU (line breaking, bidi, scripts). Swift cannot import ICU's headers next
// to Foundation (version-suffixed names, a clashing bundled copy), so Swift sees only these
// hl_ functions, which take UTF-16 buffers and return plain integers.
#ifndef CTEXTBREAK_H
#define CTEXTBREAK_H

#include <stdint.h>

/// Line-break opportunities (UAX #14) in `text`: UTF-16 offsets at which a line may end, in
/// increasing order, the last one being `length`. `mandatory[i]` is 1 for a hard break.
/// `capacity` must be at least `length + 1`. Returns the count, or -1 with `*status` set.
int32_t hl_line_breaks(const uint16_t *text, int32_t length, const char *locale,
                       int32_t *positions, uint8_t *mandatory, int32_t capacity,
                       int32_t *status);

/// Bidi embedding levels (UAX #9) for each UTF-16 unit of one paragraph. `base`: -1 picks the
/// direction from the first strong character (LTR when there is none), 0 is LTR, 1 is RTL.
/// Returns the paragraph level (0 or 1), or -1 with `*status` set.
int32_t hl_bidi_levels(const uint16_t *text, int32_t length, int32_t base, uint8_t *levels,
                       int32_t *status);

/// The Unicode Script property of `codepoint` as its ISO 15924 tag packed big-endian
/// ('Latn' == 0x4C61746E); Common is 'Zyyy', Inherited 'Zinh'.
uint32_t hl_script_tag(uint32_t codepoint);

/* 1 when the code point is Extended_Pictographic (UTS #51), else 0. */
int hl_is_extended_pictographic(uint32_t codepoint);

/// ICU's name for an error status, for messages.
const char *hl_status_name(int32_t status);

/// ICU's version ("72.1") into `out` (at least 20 bytes).
void hl_icu_version(char *out);

#endif
