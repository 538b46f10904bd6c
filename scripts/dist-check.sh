#!/usr/bin/env bash
# scripts/dist-check.sh TARBALL: the release tarball's smoke run in a clean Debian 12 root made
# by mmdebstrap (minbase) from the Debian archive with only the packages the tarball's
# RUNTIME-PACKAGES names (plus curl, to call the service), entered with chroot: render (PNG,
# SVG, AVIF, PDF), card, pages, compare and serve must work there. Needs root (chroot, mount)
# and the archive; the root is kept in .build/dist-root and reused while the list is the same.
# Then the Dockerfile's run stage is played in that root: its user and a foreign uid.
set -euo pipefail
cd "$(dirname "$0")/.."
tarball=$(realpath "${1:?usage: scripts/dist-check.sh out/hlrender-VERSION-linux-ARCH.tar.xz}")
[ "$(id -u)" -eq 0 ] || { echo "dist-check: needs root (chroot)" >&2; exit 1; }
command -v mmdebstrap >/dev/null || { echo "dist-check: needs mmdebstrap (apt install mmdebstrap)" >&2; exit 1; }
name=$(basename "$tarball" .tar.xz)
runtime=$(tar -xOJf "$tarball" "$name/RUNTIME-PACKAGES" | grep -v '^#' | tr -s ' \n' ' ')
packages=$(echo "$runtime curl" | tr ' ' '\n' | grep -v '^$' | sort -u | paste -sd, -)
root=.build/dist-root
if [ "$(cat "$root.packages" 2>/dev/null)" != "$packages" ]; then
  rm -rf "$root"
  mmdebstrap --quiet --variant=minbase --include="$packages" bookworm "$root"
  echo "$packages" > "$root.packages"
fi
rm -rf "$root/opt/hlrender" "$root/work"
mkdir -p "$root/opt" "$root/work"
tar -xJf "$tarball" -C "$root/opt"
mv "$root/opt/$name" "$root/opt/hlrender"
cp examples/headline-gradient.json "$root/work/card.json"
mount -t proc proc "$root/proc"
trap 'umount "$root/proc" 2>/dev/null || true' EXIT
cat > "$root/work/smoke.sh" <<'EOT'
set -eu
cd /work
export PATH=/opt/hlrender/bin:$PATH
hlrender --version
hlrender render --text "Hello from a clean Debian" --highlight '#FFE066' -o a.png
hlrender render --text "Hello from a clean Debian" --highlight '#FFE066' -o a.svg
hlrender render --text "Hello from a clean Debian" --highlight '#FFE066' -o a.avif
hlrender render --text "Hello from a clean Debian" --highlight '#FFE066' -o a.pdf
hlrender card card.json -o card.png
# The emoji font is a link into fonts-noto-color-emoji (RUNTIME-PACKAGES): found, no warning.
hlrender render --text "Emoji 👋🏽 there" -o emoji.png 2> emoji.err
if grep -q "links to" emoji.err; then cat emoji.err >&2; exit 1; fi
seq 1 400 | sed 's/^/Paragraph of a long document, line /' > long.txt
hlrender render --text-file long.txt --page a4 --page-numbers -o pages.pdf
hlrender render --text "Hello from a clean Debian" --highlight '#FFE066' -o b.png
hlrender compare a.png b.png
hlrender fonts --no-system-fonts | head -3
hlrender serve --port 18080 > serve.log 2>&1 &
server=$!
for i in $(seq 1 50); do curl -sf http://127.0.0.1:18080/healthz >/dev/null && break; sleep 0.1; done
curl -sf -X POST -H 'Content-Type: application/json' -H 'Accept: image/png' \
  --data '{"size": "400x200", "blocks": [{"type": "text", "text": "served"}]}' http://127.0.0.1:18080/v1/card -o served.png
kill "$server"
for f in a.png a.svg a.avif a.pdf card.png emoji.png pages.pdf served.png; do [ -s "$f" ] || { echo "smoke: $f missing" >&2; exit 1; }; done
man -l /opt/hlrender/share/man/man1/hlrender.1 >/dev/null 2>&1 || [ -s /opt/hlrender/share/man/man1/hlrender.1 ]
echo "smoke: render (PNG, SVG, AVIF, PDF), card, pages, compare, fonts and serve work"
EOT
chroot "$root" /bin/sh /work/smoke.sh

# The Dockerfile's run stage, as far as a chroot can play it (no container engine here): its
# user, made by the Dockerfile's own useradd line, and a uid the root does not know, as
# `docker run --user "$(id -u):$(id -g)" -v "$PWD:/work"` gives; each renders into a folder it
# owns with the Dockerfile's XDG_CACHE_HOME, in a fresh /tmp as a new container has, and
# Fontconfig must not complain that it has nowhere to keep its cache.
add_user=$(sed -n 's/^ *&& \(useradd .* hlrender\) \\$/\1/p' Dockerfile)
cache=$(sed -n 's/^ENV XDG_CACHE_HOME=//p' Dockerfile)
[ -n "$add_user" ] && [ -n "$cache" ] || { echo "dist-check: the Dockerfile's useradd line or XDG_CACHE_HOME moved; update this check" >&2; exit 1; }
chroot "$root" /bin/sh -c "id hlrender >/dev/null 2>&1 || $add_user"
for user in "$(chroot "$root" id -u hlrender):$(chroot "$root" id -g hlrender):/home/hlrender" "4321:4321:/"; do
  IFS=: read -r uid gid home <<< "$user"
  rm -rf "$root/tmp/"* "$root/work/docker"
  mkdir -p "$root/work/docker"
  chown "$uid:$gid" "$root/work/docker"
  chroot --userspec="$uid:$gid" "$root" /usr/bin/env -i HOME="$home" XDG_CACHE_HOME="$cache" PATH=/opt/hlrender/bin:/usr/bin:/bin \
    /bin/sh -c 'cd /work/docker && hlrender render --text "Hi" --highlight yellow -o hi.png 2> err && hlrender render --text "Hi again" -o again.png 2>> err'
  [ -s "$root/work/docker/hi.png" ] && [ -s "$root/work/docker/again.png" ] || { echo "dist-check: uid $uid wrote no PNG" >&2; exit 1; }
  if [ -s "$root/work/docker/err" ]; then echo "dist-check: uid $uid: $(head -3 "$root/work/docker/err")" >&2; exit 1; fi
done
echo "dist-check: the Dockerfile's user and a foreign uid (docker run --user) render into /work with no Fontconfig complaint"
