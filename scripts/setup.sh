#!/usr/bin/env bash
# Installs what hlrender needs on Debian 12 and is missing: the C libraries' -dev packages,
# HarfBuzz's tools (hb-subset, hb-shape), colour emoji, poppler (the tests read PDFs back;
# poppler-glib rasterises PDFs for `compare a.pdf b.pdf`, loaded only when comparing PDFs),
# groff, zsh and fish (the tests check the man page and the completion scripts), pikepdf for
# /usr/bin/python3 (the tests read PDF/A metadata back), python3-venv (pdfua, the PDF/UA checker the
# test command runs, comes from PyPI into a venv), rsvg-convert and avifdec (the tests
# decode SVG and AVIF outputs with programs that are not hlrender), chromium-driver and
# python3-selenium (a test drives `compare --review` in headless Chromium), unicode-data (Unicode's
# conformance files scripts/conformance.sh reads), fontconfig (fc-match, the reference
# scripts/font-agreement.py and the font tests compare with), python3-pil (tests count a PNG's ink with
# Pillow, not our decoder), ffmpeg (writes animated cards as MP4; the tests read them back with
# ffprobe) and webp (webpmux lists an animated WebP's frames). libavif-dev gives the
# header AVIF encoding is built against; libavif itself is loaded only when an AVIF is written.
# Extra packages for benchmarks can be passed as arguments. `--build-only` installs what
# building needs and nothing the tests use (the Dockerfile's build stage).
set -euo pipefail

build=(pkg-config libcairo2-dev libharfbuzz-dev libfreetype-dev
       libfontconfig-dev libexpat1-dev libstdc++-12-dev libicu-dev icu-devtools libpng-dev libturbojpeg0-dev libjpeg62-turbo-dev libwebp-dev libavif-dev libdeflate-dev libhyphen-dev libcmark-dev hyphen-en-us hyphen-de hyphen-ru hyphen-fr fonts-noto-color-emoji libpoppler-glib8 fontconfig binutils xz-utils)
checks=(libharfbuzz-bin poppler-utils qpdf chromium chromium-driver python3-selenium libxml2-utils librsvg2-bin libavif-bin python3-pikepdf python3-pil python3-venv unicode-data curl groff-base zsh fish ffmpeg webp)
if [ "${1:-}" = "--build-only" ]; then
  shift
  packages=("${build[@]}" "$@")
else
  packages=("${build[@]}" "${checks[@]}" "$@")
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

command -v swift >/dev/null || { echo "setup: swift is not on PATH (Swift 6 toolchain needed)" >&2; exit 1; }
