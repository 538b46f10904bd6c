#!/usr/bin/env bash
# make fuzz [FUZZ_SECONDS=300]: every harness under libFuzzer for SECONDS, two at a time (one
# per core); FUZZ_HARNESSES="typeset png" runs only those. The Swift harnesses (card spec,
# batch manifests and data, Typeset, multipart and query strings) are built with ASan and
# libFuzzer's coverage in their own build folder; the C harnesses (the PNG decoder, FastDeflate
# against zlib's inflate) with -fsanitize=fuzzer,address,undefined. Seeds come from Fuzz/Corpus
# (never written to); what libFuzzer learns and any crash land in .build/fuzz-out.
# Tests/FuzzRegressions holds inputs that once failed: each run replays them first.
# Fuzz/lsan.supp silences one bounded leak inside Debian's libhyphen (its dictionary loader,
# once per dictionary file). Prints each harness's executions; exits 1 if any harness found
# something.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-${FUZZ_SECONDS:-300}}
parallel=${FUZZ_JOBS:-2}
build=.build/fuzz
out=.build/fuzz-out
mkdir -p "$build" "$out"

# SwiftPM gives an executable its own entry point, so libFuzzer comes without its main (the
# harness calls LLVMFuzzerRunDriver) and the coverage flags are the ones -sanitize=fuzzer sets.
toolchain=$(dirname "$(readlink -f "$(command -v swiftc)")")/..
nomain=$(ls "$toolchain"/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a | head -1)
swift build -c release --scratch-path "$build" --product hlfuzz -Xswiftc -DFUZZING \
  -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
  -Xlinker "$nomain" -Xlinker -lstdc++ >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 2; }
codec=(Sources/CPNGCodec/*.c)
for harness in png deflate; do
  clang -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I Sources/CPNGCodec/include -I Sources/CPNGCodec $(pkg-config --cflags libpng16) \
    "Fuzz/C/fuzz_$harness.c" "${codec[@]}" -lpng16 -ldeflate -lz -o "$build/fuzz_$harness"
done

run() {
  local harness=$1 binary=$2
  rm -rf "$out/$harness/found"; mkdir -p "$out/$harness/learned" "$out/$harness/found"
  local log="$out/$harness/log.txt"
 local corpora=("Fuzz/Corpus/$harness")
  [[ -d Tests/FuzzRegressions/$harness ]] && corpora+=("Tests/FuzzRegressions/$harness")
  if HLFUZZ_TARGET=$harness LSAN_OPTIONS=suppressions=$PWD/Fuzz/lsan.supp "$binary" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=3072 -print_final_stats=1 \
       -artifact_prefix="$out/$harness/found/" "$out/$harness/learned" "${corpora[@]}" >"$log" 2>&1; then
    echo "$harness: $(grep -o 'number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$') executions in ${seconds} s, nothing found"
  else
    echo "$harness: FOUND a failure: $(ls "$out/$harness/found" | head -1) (log: $log)"
    grep -m3 -E 'ERROR|error:|runtime error|Fatal' "$log" || true
    return 1
  fi
}

status=0
pids=()
for harness in ${FUZZ_HARNESSES:-card manifest typeset forms markup pdflinks pdfcontent cardmemory goldenconfig svgcheck geometry animation png deflate}; do
  case $harness in png|deflate) binary=$build/fuzz_$harness ;; *) binary=$build/release/hlfuzz ;; esac
  run "$harness" "$binary" & pids+=($!)
  if (( ${#pids[@]} >= parallel )); then wait "${pids[0]}" || status=1; pids=("${pids[@]:1}"); fi
done
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit $status
