// FreeType faces for Cairo's font backend. FT_FREETYPE_H is a macro include, so it lives here.
#include <ft2build.h>
#include FT_FREETYPE_H
