#!/usr/bin/env bash
# Unicode's own conformance files (Debian's unicode-data, /usr/share/unicode) against hlrender's
# layout: bidi visual order (BidiCharacterTest, bar 99.9%), line break opportunities
# (LineBreakTest) and grapheme clusters (GraphemeBreakTest), 100% but the listed exceptions,
# and every fully-qualified emoji sequence (emoji-test) one cluster and one colour glyph.
# Prints each suite's count; fails below a bar. Uses the release build (scripts/swift-release.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
data=${UNICODE_DATA:-/usr/share/unicode}
[ -f "$data/BidiCharacterTest.txt" ] || { echo "conformance: no $data/BidiCharacterTest.txt (apt install unicode-data)" >&2; exit 1; }
"${HLRENDER_BIN_DIR:-.build/release}/hlconformance" "$data" "$PWD/fonts"
