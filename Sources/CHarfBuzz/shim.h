// HarfBuzz shaping with its own OpenType font functions (hb-ot): metrics never come from a
// FreeType face that Cairo also sizes (see docs/ARCHITECTURE.md).
#include <hb.h>
#include <hb-ot.h>
