#!/usr/bin/env bash
# scripts/install.sh PREFIX: puts the release binaries in PREFIX/bin and the pinned fonts in
# PREFIX/share/hlrender/fonts, where an installed hlrender looks for them (beside its real
# executable). `make install PREFIX=...` builds first; the tests call this script on the
# binaries in HLRENDER_BIN_DIR (default .build/release).
set -euo pipefail
prefix=${1:?usage: scripts/install.sh PREFIX}
cd "$(dirname "$0")/.."
bin=${HLRENDER_BIN_DIR:-.build/release}
for name in hlrender hlrender-serve; do
  [ -x "$bin/$name" ] || { echo "install: $bin/$name is not built (make build, or scripts/swift-release.sh)" >&2; exit 1; }
done
install -d "$prefix/bin" "$prefix/share/hlrender/fonts"
install -m 755 "$bin/hlrender" "$bin/hlrender-serve" "$prefix/bin/"
install -m 644 fonts/*.ttf fonts/*.otf fonts/OFL.txt fonts/README.md "$prefix/share/hlrender/fonts/"
echo "installed hlrender in $prefix/bin, its fonts in $prefix/share/hlrender/fonts"
