#!/usr/bin/env bash
# An animated AVIF's play count (`--loop`), read by libavif 1.x, not by us: Debian 12's libavif
# (0.11) writes and reads none, so the check runs Pillow's wheel (pinned; it bundles libavif 1.x)
# in a private venv under .build. Opaque and transparent cards (one track, or colour and alpha
# tracks) for --loop 0 (for ever), 1 and 3; the frames must decode in Pillow too. Exits non-zero
# when a count is wrong. The test command runs it after the suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$PWD/.build/release/hlrender
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
venv=${PILLOW_VENV:-$PWD/.build/pillow-venv}
if [ ! -x "$venv/bin/python3" ] || ! "$venv/bin/python3" -c 'import PIL' 2>/dev/null; then
  python3 -m venv "$venv" && "$venv/bin/pip" install -q pillow==13.0.0
fi

failed=0
for background in '#1D1D27' transparent; do
  for loop in 0 1 3; do
    "$bin" render --text "Plays $loop" --background "$background" --animation lines-in --fps 10 --duration 0.5 \
      --loop "$loop" --no-system-fonts -o "$out/a.avif"
    read -r count frames < <("$venv/bin/python3" scripts/avif-play-count.py "$out/a.avif" |
      "$venv/bin/python3" -c 'import json, sys; r = json.load(sys.stdin); print(r["repetitionCount"], r["frames"])')
    # libavif's repetitionCount: -1 for ever, else the plays after the first.
    want=$(( loop == 0 ? -1 : loop - 1 ))
    verdict=ok
    if [ "$count" != "$want" ] || [ "$frames" != 5 ]; then verdict=FAILED; failed=1; fi
    echo "avif play count: background $background, --loop $loop: repetitionCount $count (want $want), $frames frames: $verdict"
  done
done
exit $failed
