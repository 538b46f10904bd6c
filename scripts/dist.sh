#!/usr/bin/env bash
# scripts/dist.sh: the release tarball, out/hlrender-VERSION-linux-ARCH.tar.xz (or in $DIST_DIR), laid out as
# `make install` lays out a prefix (bin/, share/hlrender/fonts, the man page, completions,
# share/doc/hlrender with LICENSE, README and CHANGELOG) plus RUNTIME-PACKAGES: the Debian 12
# packages the binaries load (read from the built binaries, not written by hand), the one whose
# font file the emoji font links to, and those that optional features load on first use.
# Bytes are reproducible for one commit and build.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/Support/Version.swift)
[ -n "$version" ] || { echo "dist: no version in Sources/Support/Version.swift" >&2; exit 1; }
# A tagged commit must carry its tag's version; an untagged one is a snapshot of it.
if tag=$(git describe --tags --exact-match --match 'v*' 2>/dev/null); then
  [ "$tag" = "v$version" ] || { echo "dist: HEAD is tagged $tag but the source says $version" >&2; exit 1; }
fi
grep -q "^## $version " CHANGELOG.md || { echo "dist: CHANGELOG.md has no entry for $version" >&2; exit 1; }
name="hlrender-$version-linux-$(uname -m)"
bin=${HLRENDER_BIN_DIR:-.build/release}
stage=".build/dist/$name"
rm -rf "$stage"
SERVICE=1 HLRENDER_BIN_DIR="$bin" scripts/install.sh "$stage" >/dev/null
install -d "$stage/share/doc/hlrender"
install -m 644 LICENSE README.md CHANGELOG.md "$stage/share/doc/hlrender/"
# What the dynamic loader needs, as Debian packages (dpkg may know a library by its /lib or its
# /usr/lib path: merged /usr makes them one).
needed=$(for b in "$stage"/bin/*; do ldd "$b"; done | awk '$3 ~ /^\// {print $3}' | sort -u | while read -r lib; do
  dpkg -S "$lib" 2>/dev/null || dpkg -S "${lib/#\/usr\/lib\//\/lib\/}" 2>/dev/null || dpkg -S "${lib/#\/lib\//\/usr\/lib\/}" 2>/dev/null \
    || { echo "dist: no package holds $lib" >&2; exit 1; }
done | cut -d: -f1 | sort -u | tr '\n' ' ')
# A pinned font Debian ships byte for byte is a link to the package's file, and the package is
# needed: the emoji font is fonts-noto-color-emoji's, unchanged (fonts/README.md); 10 MB of the
# download. A font that differs from the package's (or with no package here) stays a copy.
for shared in NotoColorEmoji.ttf:fonts-noto-color-emoji; do
  font=${shared%%:*} package=${shared#*:}
  system=$(dpkg -L "$package" 2>/dev/null | grep "/$font\$" | head -n 1 || true)
  if [ -n "$system" ] && cmp -s "$stage/share/hlrender/fonts/$font" "$system"; then
    ln -sf "$system" "$stage/share/hlrender/fonts/$font"
    needed="$needed$package "
  fi
done
cat > "$stage/RUNTIME-PACKAGES" <<EOT
# Debian 12 packages hlrender $version needs at run time (apt install them; nothing else):
$needed
# Optional, loaded on first use: AVIF output; SVG pictures in cards; comparing PDFs; hyphenation.
libavif15 librsvg2-2 libpoppler-glib8 hyphen-en-us hyphen-de hyphen-fr hyphen-ru
EOT
dist=${DIST_DIR:-out}
mkdir -p "$dist"
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}
# xz: its 64 MiB window sees the two binaries' shared code once (gzip's 32 KiB cannot): 66 MB in
# gzip, under 30 MB in xz. One thread, so the bytes do not depend on the machine's cores.
tar --sort=name --mtime="@$epoch" --owner=0 --group=0 --numeric-owner -C .build/dist -cf - "$name" | xz -9 -T1 > "$dist/$name.tar.xz"
echo "$dist/$name.tar.xz"
