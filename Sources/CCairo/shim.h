// Cairo core, its FreeType font backend and its PDF surface.
#include <cairo.h>
#include <cairo-ft.h>
#include <cairo-pdf.h>
// Cairo draws through pixman: its version is part of what a golden depends on.
#include <pixman.h>
