#!/usr/bin/env bash
# The one release build every script and the Makefile use (one set of flags: a second set would
# rebuild everything): static Swift runtime, the HTTP service's trait, and the C++ and GCC
# runtimes from their static archives (link/libstdc++.so is a linker script naming libstdc++.a;
# two shared libraries fewer to load at every start), and ICU's data cut (link/icudata-cut.o, made by scripts/icu-data.sh). These flags live here, not in
# Package.swift: SwiftPM refuses a version-pinned dependency whose targets carry unsafe flags.
# Arguments are passed on (--product NAME, --show-bin-path).
set -euo pipefail
cd "$(dirname "$0")/.."
# ICU's data cut to what hlrender uses (26 MB less in each binary): see the script.
scripts/icu-data.sh
exec swift build -c release --static-swift-stdlib --traits Service \
  -Xlinker -L -Xlinker "$PWD/link" -Xlinker "$PWD/link/icudata-cut.o" \
  -Xlinker "--defsym=$(cat link/icudata-cut.symbol)=hl_icudata_cut_dat" -Xswiftc -Xclang-linker -Xswiftc -static-libgcc "$@"
