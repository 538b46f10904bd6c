// libpng, for the C codec in CPNGCodec (Swift calls that, never libpng directly).
#include <png.h>
