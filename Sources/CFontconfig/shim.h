// Fontconfig: font discovery, matching and coverage (charsets).
#include <fontconfig/fontconfig.h>
#include <fontconfig/fcfreetype.h>
