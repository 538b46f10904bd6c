// cmark: the CommonMark reference parser (Debian's libcmark-dev), for `--markdown`.
#include <cmark.h>
