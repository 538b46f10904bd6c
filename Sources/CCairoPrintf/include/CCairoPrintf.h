#ifndef CCAIROPRINTF_H
#define CCAIROPRINTF_H

#include <stddef.h>

/// Checks the integer fast path of `__snprintf_chk` (IntegerPrintf.c) against the C library's
/// own `vsnprintf` on every format Cairo passes and its edge cases (widths, zero padding,
/// signs, the extreme values, truncation at every buffer size). Returns the number of cases
/// that differ; the first one is described in `first` (at most `size` bytes).
int hl_integer_printf_self_check(char *first, size_t size);

#endif
