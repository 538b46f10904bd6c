#!/usr/bin/env bash
# scripts/release.sh: the release procedure. Without arguments it checks that one version is
# said everywhere a user reads it: Sources/Support/Version.swift (what --version, the tarball
# name and the DocC page print), a CHANGELOG.md entry for it, the `from:` of examples/embed.
# With --tag (in the clone you publish from, on a clean tree): dates the CHANGELOG entry
# ("## X.Y.Z - not tagged yet" becomes today's date, or SOURCE_DATE_EPOCH's), commits that as
# "Release X.Y.Z", and tags the commit vX.Y.Z, which `make dist` then packages and a package
# resolves with `from: "X.Y.Z"` (scripts/embed-check.sh does exactly that in a clone).
set -euo pipefail
cd "$(dirname "$0")/.."
fail() { echo "release: $*" >&2; exit 1; }
version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/Support/Version.swift)
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "Sources/Support/Version.swift says '$version', not X.Y.Z"
heading=$(grep -m1 "^## $version - " CHANGELOG.md) || fail "CHANGELOG.md has no '## $version - ...' entry"
grep -q "from: \"$version\"" examples/embed/Package.swift || fail "examples/embed/Package.swift does not depend on from: \"$version\""
# The newest entry is this version: a release never leaves a later one above it.
[ "$(grep -m1 '^## [0-9]' CHANGELOG.md)" = "$heading" ] || fail "the newest CHANGELOG.md entry is not $version"
if [ "${1:-}" != "--tag" ]; then
  echo "release: $version is said the same in Version.swift, CHANGELOG.md and examples/embed"
  exit 0
fi
[ -z "$(git status --porcelain)" ] || fail "the tree has uncommitted changes: commit them first"
git rev-parse -q --verify "refs/tags/v$version" >/dev/null && fail "v$version is already tagged"
date=$(date -u -d "@${SOURCE_DATE_EPOCH:-$(date +%s)}" +%Y-%m-%d)
if [ "$heading" = "## $version - not tagged yet" ]; then
  sed -i "s/^## $version - not tagged yet\$/## $version - $date/" CHANGELOG.md
  git add CHANGELOG.md
  git -c user.name="${GIT_AUTHOR_NAME:-hlrender release}" -c user.email="${GIT_AUTHOR_EMAIL:-release@localhost}" \
    commit -q -m "Release $version"
fi
git -c user.name="${GIT_AUTHOR_NAME:-hlrender release}" -c user.email="${GIT_AUTHOR_EMAIL:-release@localhost}" \
  tag -a "v$version" -m "hlrender $version"
echo "release: tagged v$version on $(git rev-parse --short HEAD); publish with: git push origin main v$version"
