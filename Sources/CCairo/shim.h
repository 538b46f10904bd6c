// Cairo core, its FreeType font backend and its PDF surface.
#include <cairo.h>
#include <cairo-ft.h>
#include <cairo-pdf.h>
