#!/usr/bin/env bash
# hlrender serve under wrk on loopback: POST /v1/card with a 1080x1920 story card, 16
# connections, cache off then on (the hit path), peak RSS and RSS over a 60 s soak; beside it,
# `hlrender card` run once per request in a shell loop. Prints figures; asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/release
out=$(mktemp -d)
port=18080
duration=${DURATION:-30}
soak=${SOAK:-60}
trap 'kill $server 2>/dev/null || true; rm -rf "$out"' EXIT
python3 - "$out/card.json" <<'PY'
import json, sys
spec = json.load(open("bench/story-card.json"))
text = json.dumps(spec).replace("{{title}}", "Stories disappear after a day").replace("{{caption}}", "A highlight hugs every line and never leaves a seam.")
open(sys.argv[1], "w").write(text)
PY
cat > "$out/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = io.open("$out/card.json"); wrk.body = f:read("*a"); f:close()
LUA

serve() {  # cache MB
  "$bin/hlrender-serve" --port $port --cache-mb "$1" --font-dir fonts > "$out/serve.log" 2>&1 &
  server=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && return; sleep 0.1; done
  echo "server did not start" >&2; exit 1
}
report() {  # label
  awk -v label="$1" '/Requests\/sec/ {rps=$2} /^ +50%/ {p50=$2} /^ +99%/ {p99=$2} /Non-2xx|Socket errors/ {err=err" "$0}
    END {printf "%s: %s req/s, p50 %s, p99 %s, errors:%s\n", label, rps, p50, p99, (err == "" ? " 0" : err)}' "$out/wrk.txt"
}
rss() { awk '/VmRSS/ {print int($2/1024)}' "/proc/$server/status"; }
hwm() { awk '/VmHWM/ {print int($2/1024)}' "/proc/$server/status"; }

serve 0
wrk -t2 -c16 -d"${duration}s" --latency -s "$out/post.lua" "http://127.0.0.1:$port/v1/card" > "$out/wrk.txt"
report "serve, cache off, ${duration} s, 16 connections"
sleep 5  # let the renders of requests wrk abandoned at its end drain from the queue
wrk -t2 -c4 -d"${duration}s" --latency -s "$out/post.lua" "http://127.0.0.1:$port/v1/card" > "$out/wrk.txt"
report "serve, cache off, ${duration} s, 4 connections"
echo "  peak RSS $(hwm) MiB; RSS every 10 s over a ${soak} s soak:"
wrk -t2 -c16 -d"${soak}s" -s "$out/post.lua" "http://127.0.0.1:$port/v1/card" > /dev/null &
load=$!
samples=""
for _ in $(seq $((soak / 10))); do sleep 10; samples="$samples $(rss)"; done
wait $load
echo "  RSS MiB:$samples"
kill $server; wait $server 2>/dev/null || true

serve 256
wrk -t2 -c16 -d"${duration}s" --latency -s "$out/post.lua" "http://127.0.0.1:$port/v1/card" > "$out/wrk.txt"
report "serve, cache on (hit path), ${duration} s, 16 connections"
echo "  peak RSS $(hwm) MiB"
kill $server; wait $server 2>/dev/null || true

# The same card from a fresh process per request, two at a time (two cores).
start=${EPOCHREALTIME/./}
end=$((start + duration * 1000000))
count=0
while (( ${EPOCHREALTIME/./} < end )); do
  "$bin/hlrender" card "$out/card.json" -o "$out/a.png" --no-system-fonts &
  "$bin/hlrender" card "$out/card.json" -o "$out/b.png" --no-system-fonts
  wait
  count=$((count + 2))
done
elapsed=$(( ${EPOCHREALTIME/./} - start ))
python3 -c "print(f'hlrender card, a process per request (shell loop, two at a time): {$count * 1e6 / $elapsed:.1f} req/s')"
