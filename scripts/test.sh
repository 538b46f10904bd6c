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
swift build -c release --static-swift-stdlib
HLRENDER_BIN_DIR="$PWD/.build/release" TMPDIR="$tmp" swift test "$@"
# CI also builds the fuzz harnesses and runs each briefly (make fuzz runs them for minutes):
# the seed corpora and every input that once failed (Tests/FuzzRegressions) go through first.
if [[ "${CI:-}" == "true" ]]; then
  TMPDIR="$tmp" scripts/fuzz.sh "${FUZZ_SECONDS:-20}"
fi
