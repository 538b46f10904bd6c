#!/usr/bin/env bash
# link/icudata-cut.o: ICU's data cut to what hlrender asks of ICU, for the release link:
# swift-release.sh links this object (its data named hl_icudata_cut_dat) and defines libicuuc's
# `icudt72_dat` as that name (--defsym), so nothing is taken from Debian's libicudata.a. The
# symbol's name is printed for it.
# hlrender uses ICU for line, word and character breaks (rules and dictionaries: brkitr/), bidi
# and properties (compiled into libicuuc, emoji and layout ones from uemoji.icu and ulayout.icu)
# and the locale tables a break iterator's locale goes through. Debian's archive holds all of
# ICU's data (31 MB: collation, time zones, converters, locale names) in every binary; this one
# 4.6 MB. Made from that archive by ICU's own tools (icupkg, genccode: Debian's icu-devtools),
# so the data is the same ICU version's, byte for byte. The CLI tests and Unicode's conformance
# files run the release binaries, so a missing item fails there.
set -euo pipefail
cd "$(dirname "$0")/.."
system=$(dpkg -L libicu-dev | grep "/libicudata\.a$" | head -n 1)
out=link/icudata-cut.o
[[ "$out" -nt "$system" && "$out" -nt "$0" && -s link/icudata-cut.symbol ]] && exit 0
for tool in icupkg genccode objcopy; do
  command -v "$tool" >/dev/null || { echo "icu-data: $tool is missing (apt-get install icu-devtools binutils)" >&2; exit 1; }
done
keep='^(brkitr/.*|res_index\.res|root\.res|pool\.res|icuver\.res|icustd\.res|likelySubtags\.res|metadata\.res|keyTypeData\.res|supplementalData\.res|langInfo\.res|numberingSystems\.res|uemoji\.icu|ulayout\.icu|unames\.icu|uts46\.nrm|nfkc\.nrm|nfkc_cf\.nrm|cnvalias\.icu)$'
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && ar x "$system")
object=$(ls "$work"/icudt*_dat.o)
name=$(basename "$object" _dat.o)           # icudt72l: the package's name, which its items are found under
entry=${name%l}                             # icudt72: libicuuc looks for icudt72_dat
mkdir "$work/full" "$work/cut"
objcopy -O binary --only-section=.rodata "$object" "$work/full/$name.dat"
icupkg -l "$work/full/$name.dat" | grep -v -E "$keep" > "$work/remove.txt"
icupkg -r "$work/remove.txt" "$work/full/$name.dat" "$work/cut/$name.dat"
grep -q "brkitr/line.brk" <(icupkg -l "$work/cut/$name.dat") || { echo "icu-data: the cut data has no line rules" >&2; exit 1; }
(cd "$work/cut" && genccode -q -o -e hl_icudata_cut -f cut -m "$object" --skip-dll-export "$name.dat" >/dev/null)
mv "$work/cut/cut.o" "$out"
echo "${entry}_dat" > link/icudata-cut.symbol
