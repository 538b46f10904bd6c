// The C library's `__snprintf_chk` (snprintf under _FORTIFY_SOURCE), as the static Cairo
// calls it: the archive's references bind to this definition at link time, like
// CPNGCodec's deflateInit_. Cairo writes each number of a PDF content stream through its own
// printf, which hands every single conversion to snprintf: a glyph of a page's text is one
// "%0*x", and glibc's general formatter (its FILE set-up, format parsing and padding) was a
// sixth of the drawing thread's time on a long document. The one-conversion integer formats
// ("%d", "%0*x", "%03o", "%ld"...) are formatted here; every other format goes to glibc's own
// `__vsnprintf_chk`, which is what its `__snprintf_chk` does with all of them.
#include "CCairoPrintf.h"
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

extern int __vsnprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *format, va_list ap);
extern void __chk_fail(void) __attribute__((noreturn));

// A parsed "%[0][*|N][l]C" with C one of d u x X o, and nothing before or after it.
struct integer_format {
    int zero, star, width, is_long;
    char conversion;
};

static int parse(const char *f, struct integer_format *out) {
    struct integer_format p = {0};
    if (*f++ != '%') return 0;
    if (*f == '0') { p.zero = 1; f++; }
    if (*f == '*') {
        p.star = 1;
        f++;
    } else {
        // Two digits at most: Cairo's widths are small, and longer ones are glibc's.
        for (int digits = 0; *f >= '0' && *f <= '9'; digits++, f++) {
            if (digits == 2) return 0;
            p.width = p.width * 10 + (*f - '0');
        }
    }
    if (*f == 'l') { p.is_long = 1; f++; }
    if (*f == '\0' || !strchr("duxXo", *f)) return 0;
    p.conversion = *f++;
    if (*f != '\0') return 0;
    *out = p;
    return 1;
}

// `p`'s text for the arguments in `ap` into `s` (at most `maxlen` bytes with its NUL, as
// snprintf truncates); returns the length it has whole, or -1 when glibc must format it
// (a negative '*' width, which means left alignment).
static int format(char *s, size_t maxlen, const struct integer_format *p, va_list ap) {
    int width = p->width;
    if (p->star) {
        width = va_arg(ap, int);
        if (width < 0 || width > 64) return -1;
    }
    char digits[32];
    int n = 0, negative = 0;
    unsigned long long value;
    if (p->conversion == 'd') {
        long long v = p->is_long ? va_arg(ap, long) : va_arg(ap, int);
        negative = v < 0;
        // Negated as unsigned: the most negative value has no positive counterpart.
        value = negative ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    } else {
        value = p->is_long ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int);
    }
    unsigned base = p->conversion == 'o' ? 8 : (p->conversion == 'x' || p->conversion == 'X') ? 16 : 10;
    const char *alphabet = p->conversion == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
    do {
        digits[n++] = alphabet[value % base];
        value /= base;
    } while (value != 0);
    char text[128];
    int length = 0;
    int body = n + negative;
    int pad = width > body ? width - body : 0;
    // Spaces before the sign, zeros after it.
    if (!p->zero) for (int k = 0; k < pad; k++) text[length++] = ' ';
    if (negative) text[length++] = '-';
    if (p->zero) for (int k = 0; k < pad; k++) text[length++] = '0';
    while (n > 0) text[length++] = digits[--n];
    if (maxlen > 0) {
        size_t kept = (size_t)length < maxlen - 1 ? (size_t)length : maxlen - 1;
        memcpy(s, text, kept);
        s[kept] = '\0';
    }
    return length;
}

int __snprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *fmt, ...) {
    if (slen < maxlen) __chk_fail();
    va_list ap;
    va_start(ap, fmt);
    struct integer_format p;
    int length = -1;
    if (parse(fmt, &p)) {
        va_list aq;
        va_copy(aq, ap);
        length = format(s, maxlen, &p, aq);
        va_end(aq);
    }
    if (length < 0) length = __vsnprintf_chk(s, maxlen, flag, slen, fmt, ap);
    va_end(ap);
    return length;
}

// glibc's formatting of `format` with the two arguments, for the check.
static int reference(char *s, size_t maxlen, const char *format, ...) {
    va_list ap;
    va_start(ap, format);
    int length = vsnprintf(s, maxlen, format, ap);
    va_end(ap);
    return length;
}

int hl_integer_printf_self_check(char *first, size_t size) {
    static const char *plain[] = {"%d", "%u", "%x", "%X", "%o", "%03o", "%5d", "%05d", "%04x", "%12d", "%012u", "%0x", "%7o"};
    static const char *starred[] = {"%0*x", "%*d", "%0*d", "%*x", "%0*o"};
    static const char *longs[] = {"%ld", "%lu", "%lx", "%08lx", "%0*lx"};
    const long values[] = {0, 1, -1, 7, 8, 9, 10, 15, 16, 255, 256, 4095, 65535, 65536, 123456789, -123456789,
                           INT_MAX, INT_MIN, (long)UINT_MAX, LONG_MAX, LONG_MIN};
    int mismatches = 0;
    char ours[160], theirs[160];
    const size_t sizes[] = {sizeof ours, 0, 1, 2, 3, 5, 9};
    for (size_t v = 0; v < sizeof values / sizeof *values; v++) {
        for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
            size_t n = sizes[z];
            for (int kind = 0; kind < 3; kind++) {
                const char **formats = kind == 0 ? plain : kind == 1 ? starred : longs;
                size_t count = kind == 0 ? sizeof plain / sizeof *plain : kind == 1 ? sizeof starred / sizeof *starred : sizeof longs / sizeof *longs;
                for (size_t f = 0; f < count; f++) {
                    for (int width = 0; width <= (strchr(formats[f], '*') ? 10 : 0); width++) {
                        memset(ours, 'x', sizeof ours);
                        memset(theirs, 'x', sizeof theirs);
                        int a, b;
                        int star = strchr(formats[f], '*') != NULL;
                        if (kind == 2 && star) {
                            a = __snprintf_chk(ours, n, 1, sizeof ours, formats[f], width, values[v]);
                            b = reference(theirs, n, formats[f], width, values[v]);
                        } else if (kind == 2) {
                            a = __snprintf_chk(ours, n, 1, sizeof ours, formats[f], values[v]);
                            b = reference(theirs, n, formats[f], values[v]);
                        } else if (star) {
                            a = __snprintf_chk(ours, n, 1, sizeof ours, formats[f], width, (int)values[v]);
                            b = reference(theirs, n, formats[f], width, (int)values[v]);
                        } else {
                            a = __snprintf_chk(ours, n, 1, sizeof ours, formats[f], (int)values[v]);
                            b = reference(theirs, n, formats[f], (int)values[v]);
                        }
                        if (a != b || memcmp(ours, theirs, sizeof ours) != 0) {
                            if (mismatches++ == 0 && size > 0) {
                                snprintf(first, size, "format %s, value %ld, width %d, size %zu: %d \"%.40s\" vs %d \"%.40s\"",
                                         formats[f], values[v], width, n, a, n ? ours : "", b, n ? theirs : "");
                            }
                        }
                    }
                }
            }
        }
    }
    return mismatches;
}
