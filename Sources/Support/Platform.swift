// hlrender is a Linux program: glibc (mallopt, /proc, posix_spawn with Linux flags), Debian's
// static archives of Cairo, Fontconfig and the codecs. Said once here, at compile time, so a
// build elsewhere stops with this sentence instead of 39 missing Glibc imports.
#if !os(Linux)
#error("hlrender builds on Linux only (Debian 12 or alike, with the packages scripts/setup.sh installs)")
#endif
