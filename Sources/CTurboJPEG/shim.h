// libjpeg-turbo's TurboJPEG API: whole-image decode and encode calls that report errors by
// return value (no longjmp), so Swift can call them directly.
#include <turbojpeg.h>
