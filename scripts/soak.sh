#!/usr/bin/env bash
# make soak [SOAK_SECONDS=600]: a release build of the service on loopback under mixed traffic
# (valid cards, invalid and oversized requests, hog renders that time out, clients that leave
# and clients that trickle) and issue 35's hostile mix beside it (huge glyphs, a 10^10-point
# wavy underline, 11,000 highlighted spans over 341,000 lines, a FIFO planted as a font asset,
# floods of stalled partial bodies) and issue 48's (an SVG librsvg takes 20 s to draw, SVG
# sizes of 1e30 px, SVG text at 6000 px, a WOFF file declaring 1 GB, a compared PDF whose
# MediaBox is 1e26, avif-speed=0) for SECONDS; prints RSS samples (the service's with its
# decoder workers'), status counts and the
# small cards' p99. Fails if any answer is a 5xx other than 503, RSS once the traffic has stopped
# is over 110% of the first minute's level or ever over idle + --memory-mb + --cache-mb, the small cards'
# p99 is 1 s or more, or a render is still in flight once the traffic has stopped.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-${SOAK_SECONDS:-600}}
scripts/swift-release.sh --product hlrender-serve >/dev/null
exec python3 scripts/soak.py --binary .build/release/hlrender-serve --seconds "$seconds"
