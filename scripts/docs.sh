#!/usr/bin/env bash
# Builds HLRenderKit's documentation (the DocC catalog and every public declaration's comment)
# into .build-docs/HLRenderKit.doccarchive, warnings as errors: a broken link or symbol
# reference fails. `scripts/docs.sh --preview` is not offered: open the archive's
# documentation/hlrenderkit/index.html through any static file server.
set -euo pipefail
cd "$(dirname "$0")/.."
HLRENDER_DOCS=1 swift package --scratch-path .build-docs --allow-writing-to-directory .build-docs \
  generate-documentation --target HLRenderKit --warnings-as-errors \
  --output-path .build-docs/HLRenderKit.doccarchive "$@"
echo "docs: .build-docs/HLRenderKit.doccarchive"
