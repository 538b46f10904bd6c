#!/usr/bin/env python3
"""How many line starts hlrender and pango-view agree on, for the corpus texts at widths 300,
600 and 940 px (Noto Sans 40 px from fonts/, pango with --wrap=word-char, i.e. cutting long
words as hlrender does). Prints per text and the total. usage: line_starts.py HLRENDER [HLRENDER_OLD]"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pinned_fonts import write_conf  # noqa: E402

repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
corpus = os.path.join(repo, "Tests", "Fixtures", "corpus")
binaries = sys.argv[1:]
work = tempfile.mkdtemp()
conf = write_conf(repo, work)
env = dict(os.environ, FONTCONFIG_FILE=conf)


def pango_starts(path, width):
    out = os.path.join(work, "p.json")
    subprocess.run(["pango-view", "--dpi=72", "--font=Noto Sans 40", f"--width={width}", "--wrap=word-char", "-q",
                    f"--serialize-to={out}", "-o", os.path.join(work, "p.png"), path], env=env, check=True)
    lines = json.load(open(out))["output"]["lines"]
    return {line["start-index"] for line in lines}


def hlrender_starts(binary, path, width):
    result = subprocess.run([binary, "render", "--text-file", path, "--size", "40", "--width", str(width),
                             "--no-system-fonts", "--dump-layout", "-"], capture_output=True, check=True)
    return {line["start"] for line in json.loads(result.stdout)["lines"]}


totals = [[0, 0] for _ in binaries]
for name in ["en", "ru", "ja", "zh", "ar", "hi", "mixed"]:
    path = os.path.join(corpus, name + ".txt")
    # pango keeps a final newline as an empty last line; compare the same text.
    text_path = os.path.join(work, name + ".txt")
    with open(path, encoding="utf-8") as f:
        text = f.read().rstrip("\n")
    with open(text_path, "w", encoding="utf-8") as f:
        f.write(text)
    row = [name]
    for width in [300, 600, 940]:
        reference = pango_starts(text_path, width)
        for i, binary in enumerate(binaries):
            ours = hlrender_starts(binary, text_path, width)
            agree = len(reference & ours)
            totals[i][0] += agree
            totals[i][1] += len(reference)
            row.append(f"{width}: {agree}/{len(reference)}")
    print("  ".join(row))
for binary, (agree, total) in zip(binaries, totals):
    print(f"{binary}: {agree} of {total} pango line starts agree ({100 * agree / total:.1f}%)")
