#!/usr/bin/env python3
"""Issue 51's explained diffs: 100 cards (two text blocks and a picture each), recorded as
goldens; then each card gets one mutation (move, rewrap, recolour, re-font, edit text, swap
picture, in turn, on a block chosen per card) and the suite runs once. A card counts as named
when its `changed:` line names the mutated block (`blocks[i]`) and the kind of change.
Target: at least 95 of 100. Prints the count per kind and every miss.

    python3 bench/explain_diffs.py [HLRENDER]   (default .build/release/hlrender)
"""
import json, os, subprocess, sys, tempfile
import xml.etree.ElementTree as ET

from PIL import Image

repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(repo, ".build/release/hlrender")
env = dict(os.environ, HLRENDER_FONT_DIR=os.path.join(repo, "fonts"))
work = tempfile.mkdtemp(prefix="hlrender-explain-")
for name, colour in [("sun.png", (250, 190, 40)), ("sea.png", (40, 120, 220))]:
    Image.new("RGB", (32, 32), colour).save(os.path.join(work, name))

WORDS = "launch team notes story week review market garden river city light paper".split()
COLOURS = ["#1E3C72", "#7B1FA2", "#00796B", "#BF360C", "#37474F"]


def card(i):
    title = " ".join(WORDS[(i * 5 + k) % len(WORDS)] for k in range(5)).title()
    return {"output": f"card{i:03}.png", "size": "420x300", "padding": 16, "background": COLOURS[i % 5], "color": "white",
            "blocks": [
                {"type": "text", "text": title, "size": 28, "width": 380, "anchor": "top"},
                {"type": "text", "text": f"Card {i}: notes for the team", "size": 18, "anchor": "bottom"},
                {"type": "image", "src": "sun.png", "width": 48, "anchor": "center"},
            ]}


def mutate(spec, i):
    """One change per card; returns (block index, kind, words that name the kind)."""
    kind = ["move", "rewrap", "recolour", "refont", "text", "picture"][i % 6]
    if kind == "picture":
        spec["blocks"][2]["src"] = "sea.png"
        return 2, kind, ["picture"]
    b = (i // 6) % 2  # the title or the note
    block = spec["blocks"][b]
    if kind == "move":
        block["offset"] = [0, 12 if b == 0 else -12]
        return b, kind, ["moved", "position"]
    if kind == "rewrap":
        block["width"] = 150 if b == 0 else 120
        return b, kind, ["rewrapped"]
    if kind == "recolour":
        block["color"] = "#FFEB3B"
        return b, kind, ["colour"]
    if kind == "refont":
        block["font"] = "Noto Sans Mono"
        return b, kind, ["font"]
    block["text"] = block["text"].replace(block["text"].split()[1], "changed", 1)
    return b, kind, ["text changed", "text ("]


def run(cards, *extra):
    with open(os.path.join(work, "cards.jsonl"), "w") as f:
        for c in cards:
            f.write(json.dumps(c) + "\n")
    return subprocess.run([binary, "batch", os.path.join(work, "cards.jsonl"), "--expect-dir", os.path.join(work, "goldens"),
                           "--quiet", "--no-system-fonts", *extra], env=env, capture_output=True, text=True)


cards = [card(i) for i in range(100)]
assert run(cards, "--update").returncode == 0
expected = {}
for i, spec in enumerate(cards):
    expected[spec["output"]] = mutate(spec, i)
# Every card's message, from the JUnit report (the terminal lists the first 20 failures).
junit = os.path.join(work, "junit.xml")
run(cards, "--junit", junit)
lines = {case.get("name"): failure.get("message", "") for case in ET.parse(junit).iter("testcase")
         for failure in case.iter("failure")}
named, by_kind, misses = 0, {}, []
for name, (block, kind, words) in expected.items():
    line = lines.get(name, "")
    ok = f"blocks[{block}]" in line and any(w in line for w in words)
    named += ok
    total, good = by_kind.get(kind, (0, 0))
    by_kind[kind] = (total + 1, good + ok)
    if not ok:
        misses.append(f"  {name} ({kind} of blocks[{block}]): {line or 'not reported as changed'}")
print("explained diffs: " + ", ".join(f"{k} {g}/{t}" for k, (t, g) in by_kind.items()))
print(f"named with the right node and kind: {named} of 100 (target >= 95)")
for miss in misses:
    print(miss)
