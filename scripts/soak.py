"""Mixed traffic against hlrender-serve (see soak.sh). Standard library only."""
import argparse, http.client, json, os, random, shutil, socket, subprocess, sys, threading, time

parser = argparse.ArgumentParser()
parser.add_argument("--binary", required=True)
parser.add_argument("--seconds", type=float, default=600)
args = parser.parse_args()

TIMEOUT_MS = 2000
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
MEMORY_MB, CACHE_MB = 512, 16
# The example assets with a FIFO planted among them (issue 35: a FIFO font held a slot for good).
assets = ".build/soak-assets"
shutil.rmtree(assets, ignore_errors=True)
shutil.copytree("examples/assets", assets)
os.mkfifo(os.path.join(assets, "pipe.ttf"))
# Issue 48's files: an 88 KB path librsvg takes ~20 s to draw, an SVG of 1e30 px, SVG text at
# 6000 px, and a WOFF file declaring 1 GB unpacked.
rng = random.Random(1)
points = " ".join(f"L{rng.randrange(1000)} {rng.randrange(1000)}" for _ in range(10000))
with open(os.path.join(assets, "slow.svg"), "w") as f:
    f.write(f'<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000"><path d="M0 0 {points}Z" fill="red" '
            'fill-rule="evenodd" stroke="blue" stroke-width="3"/></svg>')
with open(os.path.join(assets, "wide.svg"), "w") as f:
    f.write('<svg xmlns="http://www.w3.org/2000/svg" width="1e30" height="10"><rect width="5" height="5"/></svg>')
with open(os.path.join(assets, "text.svg"), "w") as f:
    f.write('<svg xmlns="http://www.w3.org/2000/svg" width="6000" height="400"><text x="0" y="300" font-size="300">Big text</text></svg>')
import struct
with open(os.path.join(assets, "bomb.woff"), "wb") as f:
    f.write(b"wOFF" + struct.pack(">IIHHI", 0x10000, 80, 1, 0, 1 << 30) + struct.pack(">HHIIIII", 1, 0, 0, 0, 0, 0, 0)
            + b"glyf" + struct.pack(">IIII", 64, 16, (1 << 30) - 64, 0) + b"\x78" * 16)
def one_page_pdf(box):
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               f"<< /Type /Page /Parent 2 0 R /MediaBox [{box}] /Resources << >> /Contents 4 0 R >>", "<< /Length 0 >>\nstream\n\nendstream"]
    out, offsets = "%PDF-1.4\n", []
    for i, body in enumerate(objects):
        offsets.append(len(out))
        out += f"{i + 1} 0 obj\n{body}\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n" + "".join(f"{o:010d} 00000 n \n" for o in offsets)
    return (out + f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n").encode()
PDF_OK, PDF_HUGE = one_page_pdf("0 0 612 792"), one_page_pdf("0 0 100000000000000000000000000 200")
server = subprocess.Popen([args.binary, "--port", str(port), "--concurrency", "2", "--queue", "16",
                           "--timeout-ms", str(TIMEOUT_MS), "--read-timeout-ms", "2000", "--memory-mb", str(MEMORY_MB),
                           # A small image cache: unique cards would otherwise fill the default
                           # 256 MB, which is growth by design, not a leak.
                           "--cache-mb", str(CACHE_MB), "--max-body", str(4 << 20),
                           "--assets", assets, "--templates", "examples/templates", "--open-compare"],
                          stdout=subprocess.DEVNULL, stderr=open(".build/soak-server.log", "w"))
for _ in range(100):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        break
    except OSError:
        time.sleep(0.1)

def card(text, size="540x960", extra=None):
    block = {"type": "text", "text": text, "size": 40, "highlight": "#FFE066"}
    block.update(extra or {})
    return json.dumps({"size": size, "background": "#223344", "blocks": [block]}).encode()

words = ["story", "card", "highlight", "render", "bold", "quiet", "river", "light"]
hog_text = "\n".join(" ".join(random.choice(words) for _ in range(30)) for _ in range(2500))
HOG = card(hog_text, "1080x1920", {"fit": {"height": 1800, "min-size": 6}})

lock = threading.Lock()
statuses, small_latencies = {}, []
deadline = time.monotonic() + args.seconds

def record(kind, status):
    with lock:
        statuses[(kind, status)] = statuses.get((kind, status), 0) + 1

def post(body, kind, content_type="application/json", timeout=30, path="/v1/card"):
    started = time.monotonic()
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        connection.request("POST", path, body=body, headers={"Content-Type": content_type})
        response = connection.getresponse()
        response.read()
        connection.close()
        record(kind, response.status)
        return response.status, time.monotonic() - started
    except (OSError, http.client.HTTPException) as error:
        record(kind, type(error).__name__)
        return None, time.monotonic() - started

def small():
    while time.monotonic() < deadline:
        status, elapsed = post(card(" ".join(random.choice(words) for _ in range(random.randint(3, 20)))), "small")
        if status == 200:
            with lock:
                small_latencies.append(elapsed)
        time.sleep(0.02)

def invalid():
    bad = [b"{\"size\": ", b"[1,2]", card("x", extra={"size": -4}), card("x", extra={"lang": "q" * 200000}),
           card("x", "99999x99999"), b"{\"blocks\": [{\"type\": \"image\", \"src\": \"/etc/passwd\"}]}"]
    while time.monotonic() < deadline:
        post(random.choice(bad), "invalid")
        post(b" " * (2 << 20), "oversized")
        time.sleep(0.05)

def hog():
    while time.monotonic() < deadline:
        post(HOG, "hog")

def leaving():
    while time.monotonic() < deadline:
        try:
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"POST /v1/card HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(HOG) + HOG)
            time.sleep(0.05)
            s.close()
            record("leaving", "closed")
        except OSError as error:
            record("leaving", type(error).__name__)
        time.sleep(0.2)

def trickling():
    while time.monotonic() < deadline:
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(b"POST /v1/card HTTP/1.1\r\nHost: x\r\n")
            end = time.monotonic() + 8
            while time.monotonic() < end:
                s.sendall(b"X-A: b\r\n")
                time.sleep(3)
            s.close()
            record("trickling", "done")
        except OSError as error:
            record("trickling", "cut off")

# The hostile mix of issue 35: each used to hold memory or a render slot.
def hostile_card(blocks, size="200x200"):
    return json.dumps({"size": size, "padding": 0, "blocks": blocks}).encode()

SPAN_HOG = hostile_card([{"type": "text", "size": 10, "width": 300, "anchor": "top",
                          "markup": ("<span highlight='red'>a\na\n</span>" + "b\n" * 29) * 11000}], "400x400")

def hostile():
    n = 0
    while time.monotonic() < deadline:
        n += 1
        size = 10000 - (n % 500)  # another scaled font each time: nothing comes from a cache
        post(hostile_card([{"type": "text", "text": random.choice(["😀", "AZ", "😂g"]), "size": size, "anchor": "top-left"}]), "glyph")
        post(hostile_card([{"type": "text", "width": 180, "size": 0.01,
                            "markup": "<span underline='error' letter_spacing='1000000pt'>hello %d</span>" % n}]), "decoration")
        post(hostile_card([{"type": "text", "text": "x", "font": "pipe.ttf"}]), "fifo-font")
        post(SPAN_HOG, "span-hog")
        time.sleep(0.05)

# Issue 48's mix: decoders in the worker, numbers from files, encoder effort.
def picture(src, width=None):
    block = {"type": "image", "src": src}
    if width:
        block["width"] = width
    return json.dumps({"size": "400x400", "blocks": [block]}).encode()

def form(parts):
    body = b""
    for name, content in parts:
        body += (f'--XyZ\r\nContent-Disposition: form-data; name="{name}"; filename="{name}.pdf"\r\n'
                 'Content-Type: application/pdf\r\n\r\n').encode() + content + b"\r\n"
    return body + b"--XyZ--\r\n"

def decoders():
    while time.monotonic() < deadline:
        post(picture("slow.svg"), "svg-slow")
        post(picture("wide.svg"), "svg-wide")
        post(picture("text.svg", 380), "svg-text")
        post(json.dumps({"size": "300x200", "blocks": [{"type": "text", "text": "x", "font": "bomb.woff"}]}).encode(), "woff-bomb")
        post(form([("expected", PDF_OK), ("actual", PDF_HUGE)]), "pdf-huge", "multipart/form-data; boundary=XyZ", path="/v1/compare")
        post(card("slow AVIF"), "avif-speed0", path="/v1/card?format=avif&avif-speed=0")
        time.sleep(0.05)

def partial_bodies():
    head = b"POST /v1/card HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n"
    while time.monotonic() < deadline:
        socks = []
        for _ in range(100):
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=1)
                s.sendall(head + b"x" * 524288)
                socks.append(s)
            except OSError:
                pass
        record("partial", "sent %d" % len(socks))
        time.sleep(1.5)
        for s in socks:
            s.close()
        time.sleep(0.5)

def rss():
    """The service's resident memory with its decoder workers', in MB."""
    if server.poll() is not None:
        sys.exit(f"FAIL: the service exited with {server.returncode} (log: .build/soak-server.log)")
    pids = [server.pid]
    try:
        for task in os.listdir(f"/proc/{server.pid}/task"):
            with open(f"/proc/{server.pid}/task/{task}/children") as f:
                pids += [int(p) for p in f.read().split()]
    except OSError:
        pass
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                total += next(int(line.split()[1]) for line in f if line.startswith("VmRSS"))
        except (OSError, StopIteration):
            pass
    return total // 1024

def in_flight():
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.request("GET", "/metrics")
        text = connection.getresponse().read().decode()
        return float(next(line.split()[1] for line in text.splitlines() if line.startswith("hlrender_renders_in_flight")))
    except (OSError, StopIteration, http.client.HTTPException):
        return float("nan")

time.sleep(1)
idle = rss()
threads = [threading.Thread(target=f, daemon=True)
           for f in [small, small, invalid, hog, hog, leaving, trickling, trickling, hostile, partial_bodies, decoders]]
for t in threads:
    t.start()
samples, start = [], time.monotonic()
while time.monotonic() < deadline:
    time.sleep(min(10, max(0.1, deadline - time.monotonic())))
    samples.append((round(time.monotonic() - start), rss()))
    print(f"t={samples[-1][0]:>4} s  RSS {samples[-1][1]} MB", flush=True)
for t in threads:
    t.join(timeout=15)
# What stays once the traffic has stopped and the sweep has handed freed memory back: the
# floods of partial bodies make the samples swing, so a leak shows here, not in the last one.
time.sleep(4)
settled = rss()
# No slot stuck: once the traffic has stopped, every render returns.
stuck = in_flight()
for _ in range(20):
    if stuck == 0:
        break
    time.sleep(0.25)
    stuck = in_flight()
server.terminate()
server.wait(timeout=30)

latencies = sorted(small_latencies)
p99 = latencies[int(0.99 * (len(latencies) - 1))] if latencies else float("nan")
print("\nstatus counts (kind, status): count")
for key in sorted(statuses, key=str):
    print(f"  {key[0]:>10} {key[1]!s:>22}: {statuses[key]}")
first = [m for t, m in samples if t <= 60] or [samples[0][1]]
baseline, final = sum(first) / len(first), settled
print(f"\nsmall cards: {len(latencies)} rendered, p50 {latencies[len(latencies) // 2] * 1000:.0f} ms, "
      f"p99 {p99 * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms (timeout {TIMEOUT_MS} ms)")
print(f"RSS: first minute {baseline:.0f} MB, settled after the traffic {final} MB ({100 * final / baseline:.0f}%), peak {max(m for _, m in samples)} MB")
bound = idle + MEMORY_MB + CACHE_MB
peak = max(m for _, m in samples)
print(f"RSS bound: idle {idle} MB + --memory-mb {MEMORY_MB} + --cache-mb {CACHE_MB} = {bound} MB; renders in flight at the end: {stuck}")
bad = {k: v for k, v in statuses.items() if isinstance(k[1], int) and k[1] >= 500 and k[1] != 503}
failures = []
if bad:
    failures.append(f"5xx other than 503: {bad}")
if final > 1.10 * baseline:
    failures.append("RSS, settled after the traffic, is more than 10% over the first minute's level")
if peak > bound:
    failures.append(f"RSS peaked at {peak} MB, over {bound} MB")
if not p99 < 1.0:
    failures.append(f"small cards' p99 {p99 * 1000:.0f} ms is over 1 s")
if stuck != 0:
    failures.append(f"{stuck} renders still in flight after the traffic stopped")
for failure in failures:
    print("FAIL: " + failure)
sys.exit(1 if failures else 0)
