#!/usr/bin/env bash
# The whole test suite. First the whole package is built as the project ships its binaries
# (release, static Swift runtime): that build must work, and the CLI tests run those binaries
# (hundreds of processes; a debug build parses arguments ten times slower). SwiftPM and
# Foundation leave empty TemporaryDirectory.* folders in the temp folder on every run; a private
# TMPDIR, removed at the end, keeps the machine clean.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlrender-tests.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# Every module a target imports is declared in Package.swift (SwiftPM builds without that).
python3 scripts/check-imports.py
scripts/swift-release.sh
HLRENDER_BIN_DIR="$PWD/.build/release" TMPDIR="$tmp" swift test --traits Service "$@"
# The face each of 200+ requests picks, against fc-match's over the same fonts (issue 49).
HLRENDER_BIN_DIR="$PWD/.build/release" TMPDIR="$tmp" /usr/bin/python3 scripts/font-agreement.py
# Unicode's conformance files: bidi, line breaks, grapheme clusters, emoji (issue 49).
HLRENDER_BIN_DIR="$PWD/.build/release" TMPDIR="$tmp" scripts/conformance.sh
# The library as an app gets it: examples/embed built against a tagged clone, by version.
HLRENDER_BIN_DIR="$PWD/.build/release" TMPDIR="$tmp" scripts/embed-check.sh
# PDF/UA-1 by a checker that is not hlrender's: pdfua (PyPI) on a card, a 50-page article and
# mixed scripts, with qpdf --check and the reading order.
scripts/pdf-standards.sh
# An animated AVIF's --loop, read back by libavif 1.x (Pillow's wheel, in a venv): issue 52.
scripts/avif-play-count.sh
# CI also builds the fuzz harnesses and runs each briefly (make fuzz runs them for minutes):
# the seed corpora and every input that once failed (Tests/FuzzRegressions) go through first.
# It also builds the library's documentation, warnings as errors (a broken link fails).
if [[ "${CI:-}" == "true" ]]; then
  TMPDIR="$tmp" scripts/fuzz.sh "${FUZZ_SECONDS:-20}"
  TMPDIR="$tmp" scripts/docs.sh
fi
