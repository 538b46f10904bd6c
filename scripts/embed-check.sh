#!/usr/bin/env bash
# Builds examples/embed against a tagged clone of this repository, by version, as an app
# would depend on hlrender; checks that it resolves none of the service's packages
# (Hummingbird, NIO, swift-crypto) and that its PNG is byte-identical to `hlrender card`'s.
# Needs the release build (HLRENDER_BIN_DIR, default .build/release).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${HLRENDER_BIN_DIR:-$PWD/.build/release}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hlrender-embed.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT

# The committed tree (what a tag would hold), with the working tree's uncommitted changes: a
# tag of a commit made in the clone.
git clone -q --no-hardlinks . "$tmp/hlrender"
git ls-files -z --cached --others --exclude-standard | tar -c --null -T - -f - | tar -x -C "$tmp/hlrender" -f -
git -C "$tmp/hlrender" add -A
git -C "$tmp/hlrender" -c user.name=ci -c user.email=ci@localhost commit -q --allow-empty -m "embed check"
# Only this commit carries a version: the repository's own release tags (v0.2.0 on an older
# commit) would otherwise be resolved instead. The release script tags it, as a release is made.
git -C "$tmp/hlrender" tag -l | xargs -r git -C "$tmp/hlrender" tag -d >/dev/null
unreleased=$(git -C "$tmp/hlrender" rev-parse HEAD)
"$tmp/hlrender/scripts/release.sh" --tag

# By revision, as the README says to depend on main's commits: the untagged commit resolves.
mkdir -p "$tmp/by-revision/Sources/app"
cat > "$tmp/by-revision/Package.swift" <<EOT
// swift-tools-version: 6.1
import PackageDescription
let package = Package(name: "app", dependencies: [.package(url: "file://$tmp/hlrender", revision: "$unreleased")],
                      targets: [.executableTarget(name: "app", dependencies: [.product(name: "HLRenderKit", package: "hlrender")])])
EOT
echo 'import HLRenderKit' > "$tmp/by-revision/Sources/app/main.swift"
swift package --package-path "$tmp/by-revision" resolve >"$tmp/revision.log" 2>&1 || { tail -20 "$tmp/revision.log" >&2; exit 1; }
grep -q "\"revision\" : \"$unreleased\"" "$tmp/by-revision/Package.resolved" \
  || { echo "embed-check: FAIL: by revision, hlrender did not resolve to $unreleased" >&2; exit 1; }
echo "embed-check: resolved by revision ${unreleased:0:12}"

cp -R examples/embed "$tmp/embed"
rm -rf "$tmp/embed/.build" "$tmp/embed/Package.resolved"
# The README's library snippet, as written, as a second program of the same app (one build).
mkdir -p "$tmp/embed/Sources/readme"
awk '/^```swift$/ { inside = 1; next } inside && /^```$/ { exit } inside' README.md > "$tmp/embed/Sources/readme/main.swift"
grep -q 'import HLRenderKit' "$tmp/embed/Sources/readme/main.swift" || { echo "embed-check: FAIL: no Swift snippet in README.md" >&2; exit 1; }
sed -i 's|^    targets: \[$|&\n        .executableTarget(name: "readme", dependencies: [.product(name: "HLRenderKit", package: "hlrender")]),|' "$tmp/embed/Package.swift"
grep -q '"readme"' "$tmp/embed/Package.swift" || { echo "embed-check: FAIL: could not add the README's snippet to the app" >&2; exit 1; }
export HLRENDER_PACKAGE_URL="file://$tmp/hlrender"
swift build --package-path "$tmp/embed" -c release >"$tmp/build.log" 2>&1 || { tail -40 "$tmp/build.log" >&2; exit 1; }
resolved=$(grep '"identity"' "$tmp/embed/Package.resolved" | sed 's/.*: "\(.*\)".*/\1/' | tr '\n' ' ')
echo "embed-check: resolved $resolved"
version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/Support/Version.swift)
grep -q "\"version\" : \"$version\"" "$tmp/embed/Package.resolved" \
  || { echo "embed-check: FAIL: from: \"$version\" did not resolve the tag v$version" >&2; exit 1; }
for forbidden in hummingbird swift-nio swift-crypto; do
  if grep -q "\"identity\" : \"$forbidden\"" "$tmp/embed/Package.resolved"; then
    echo "embed-check: FAIL: resolving hlrender by version pulled in $forbidden" >&2
    exit 1
  fi
done

spec=examples/headline-gradient.json
# Both programs find the pinned fonts with no path given (the package's resource bundle).
readme=$("$tmp/embed/.build/release/readme" 2>&1) || { echo "embed-check: FAIL: the README's snippet: $readme" >&2; exit 1; }
case $readme in "rendered a "*"-byte PNG") echo "embed-check: the README's snippet ran: $readme" ;;
  *) echo "embed-check: FAIL: the README's snippet said: $readme" >&2; exit 1 ;; esac
"$tmp/embed/.build/release/embed" "$spec" "$tmp/embed.png"
"$bin/hlrender" card "$spec" -o "$tmp/card.png" --no-system-fonts
if cmp -s "$tmp/embed.png" "$tmp/card.png"; then
  echo "embed-check: the library's PNG is identical to hlrender card's ($(stat -c %s "$tmp/card.png") bytes)"
else
  echo "embed-check: FAIL: the library's PNG differs from hlrender card's" >&2
  exit 1
fi
