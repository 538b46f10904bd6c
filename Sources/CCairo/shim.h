// Cairo core, its FreeType font backend and its PDF and SVG surfaces. Linked statically (Debian's
// libcairo.a and libpixman-1.a, see Package.swift): the shared libcairo brings eleven X11/xcb
// libraries that a renderer never calls, and loading them cost every run about 1 ms.
// The headers are found by path so that no pkg-config file adds the shared library to the link.
#include <cairo/cairo.h>
#include <cairo/cairo-ft.h>
#include <cairo/cairo-pdf.h>
#include <cairo/cairo-svg.h>
// Cairo draws through pixman: its version is part of what a golden depends on. Declared here,
// not by pixman.h, whose own includes need pixman's folder on the include path.
const char *pixman_version_string(void);
