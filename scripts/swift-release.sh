#!/usr/bin/env bash
# The one release build every script and the Makefile use (one set of flags: a second set would
# rebuild everything): static Swift runtime, the HTTP service's trait, and the C++ and GCC
# runtimes from their static archives (link/libstdc++.so is a linker script naming libstdc++.a;
# two shared libraries fewer to load at every start). These flags live here, not in
# Package.swift: SwiftPM refuses a version-pinned dependency whose targets carry unsafe flags.
# Arguments are passed on (--product NAME, --show-bin-path).
set -euo pipefail
cd "$(dirname "$0")/.."
exec swift build -c release --static-swift-stdlib --traits Service \
  -Xlinker -L -Xlinker "$PWD/link" -Xswiftc -Xclang-linker -Xswiftc -static-libgcc "$@"
