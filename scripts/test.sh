#!/usr/bin/env bash
# The whole test suite. SwiftPM and Foundation leave empty TemporaryDirectory.* folders in the
# temp folder on every run; a private TMPDIR, removed at the end, keeps the machine clean.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlrender-tests.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
TMPDIR="$tmp" swift test "$@"
