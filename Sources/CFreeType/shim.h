// FreeType faces for Cairo's font backend, web fonts decoded and variable fonts' axes read.
// FT_FREETYPE_H is a macro include, so it lives here.
#include <ft2build.h>
#include FT_FREETYPE_H
// Reading a font's tables one by one (a WOFF/WOFF2 file made plain OpenType).
#include FT_TRUETYPE_TABLES_H
// A variable font's axes (`hlrender fonts`).
#include FT_MULTIPLE_MASTERS_H
