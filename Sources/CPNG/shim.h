// libpng's simplified API (png_image): any 8-bit PNG in, straight RGBA out, and back.
#include <png.h>
// PNG_FORMAT_RGBA is a macro expression Swift cannot import.
static const unsigned int hl_png_format_rgba = PNG_FORMAT_RGBA;
