#!/usr/bin/env bash
# bench/compare_dirs.sh [PAIRS] [WORK_DIR]: hlrender compare on two folders of PAIRS pairs of
# 1080x1920 PNG screens (10% changed: shifted, colour, anti-aliasing, size, text; the rest
# byte-identical or re-encoded), against pixelmatch-fast (PyPI) over the same pairs in two
# processes, in one run. Checks that both count the same pixels for every same-size pair and
# that hlrender names each changed file's kind as made, prints wall-clock seconds, then runs
# --update changed on a copy of the baselines and checks (by mtime and bytes) that exactly the
# failing files were rewritten.
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=${1:-1000}
work=${2:-${TMPDIR:-/tmp}/hlrender-compare-dirs}
python3 -c "import pixelmatch, PIL" 2>/dev/null || pip install -q pixelmatch-fast pillow
[[ -x .build/release/hlrender ]] || scripts/swift-release.sh >/dev/null
[[ -f $work/kinds.json && $(find "$work/expected" -type f | wc -l) -eq $pairs ]] || python3 bench/make_compare_dirs.py "$work" "$pairs"

now() { date +%s.%N; }
t0=$(now)
.build/release/hlrender compare "$work/expected" "$work/actual" --json --quiet >"$work/ours.json" || [[ $? -eq 1 ]]
t1=$(now)
python3 bench/pixelmatch_dirs.py "$work/expected" "$work/actual" 0 2 >"$work/peer0.json" &
python3 bench/pixelmatch_dirs.py "$work/expected" "$work/actual" 1 2 >"$work/peer1.json"
wait
t2=$(now)

python3 - "$work" "$t0" "$t1" "$t2" <<'PY'
import json, sys
work, t0, t1, t2 = sys.argv[1], *map(float, sys.argv[2:])
ours = {f["path"]: f for f in json.load(open(f"{work}/ours.json"))["files"]}
peer = {**json.load(open(f"{work}/peer0.json")), **json.load(open(f"{work}/peer1.json"))}
kinds = json.load(open(f"{work}/kinds.json"))
mismatch = [p for p, n in peer.items() if (ours[p]["status"] == "changed" and ours[p].get("why") == "size") != (n == "size")
            or (n != "size" and ours[p].get("different_pixels", 0) != n)]
wrong = [p for p, k in kinds.items() if ours[p].get("why") != k["why"]
         or (k["why"] == "shifted" and ours[p].get("shift") != {"dx": k["dx"], "dy": k["dy"]})]
print(f"pairs: {len(ours)}   changed as made: {len(kinds) - len(wrong)} of {len(kinds)}   "
      f"same counts as pixelmatch-fast: {len(peer) - len(mismatch)} of {len(peer)}")
print(f"hlrender compare (all cores)        {t1 - t0:7.2f} s")
print(f"pixelmatch-fast (2 processes)       {t2 - t1:7.2f} s   ({(t2 - t1) / (t1 - t0):.1f}x hlrender's time)")
if mismatch or wrong:
    print("differences:", (mismatch + wrong)[:10])
    sys.exit(1)
PY

# --update changed rewrites exactly the failing files: a copy of the baselines, every file's
# mtime and hash before and after.
rm -rf "$work/update"; cp -a "$work/expected" "$work/update"
snapshot() { (cd "$1" && find . -type f -name '*.png' -printf '%P %T@ ' -exec sha1sum {} \; | awk '{print $1, $2, $3}' | sort); }
snapshot "$work/update" >"$work/before.txt"
.build/release/hlrender compare "$work/update" "$work/actual" --update changed --quiet >/dev/null 2>&1 || true
snapshot "$work/update" >"$work/after.txt"
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
failing = {f["path"] for f in json.load(open(f"{work}/ours.json"))["files"] if f["status"] not in ("same", "within")}
read = lambda name: {line.split()[0]: tuple(line.split()[1:]) for line in open(f"{work}/{name}")}
before, after = read("before.txt"), read("after.txt")
touched = {p for p in after if before.get(p) != after[p]}
bytes_changed = {p for p in after if before.get(p, (None, None))[1] != after[p][1]}
print(f"--update changed: {len(touched)} files rewritten (mtime), {len(bytes_changed)} with new bytes; failing: {len(failing)}; "
      f"{'exactly the failing files' if touched == failing == bytes_changed else 'MISMATCH'}")
sys.exit(0 if touched == failing == bytes_changed else 1)
PY
