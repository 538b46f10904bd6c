#!/usr/bin/env python3
"""Writes a deterministic pseudo-English article of about N A4 pages at 11 pt: sections with
'# ' headings and paragraphs of varied length (for the paged-PDF benchmark and the demo).
With --typst, the same article as typst markup for the side-by-side benchmark: A4, Noto Sans
11 pt, page numbers, headings, no spacing between paragraphs (as hlrender sets them)."""
import random
import sys

WORDS = ("the a highlight line page text story card render every corner seam block shape glyph font "
         "paragraph layout break width height margin preview document reader service pipeline golden "
         "image vector stays with people round hug never leave should after day but way they look "
         "across of to in on for and from by is are was were be can will may each one two three").split()

def article(pages: int, seed: int = 13) -> str:
    rng = random.Random(seed)
    out = []
    words = 0
    section = 0
    while words < pages * 710:
        if words // 3500 >= section:
            section += 1
            out.append(f"# Section {section}: {rng.choice(WORDS).capitalize()} {rng.choice(WORDS)}")
        n = rng.randint(20, 160)
        sentence = []
        for i in range(n):
            w = rng.choice(WORDS)
            sentence.append(w.capitalize() if i == 0 or sentence[-1].endswith(".") else w)
            if rng.random() < 0.08:
                sentence[-1] += rng.choice([".", ",", ".", ";"])
        out.append(" ".join(sentence).rstrip(",;") + ".")
        words += n
    return "\n".join(out) + "\n"

def typst(text: str) -> str:
    head = ['#set page("a4", numbering: "1")', '#set text(font: "Noto Sans", size: 11pt)', '#set par(spacing: 0pt)', ""]
    # The generator's words and punctuation (letters . , ; :) have no meaning in typst markup.
    body = [("= " + line[2:]) if line.startswith("# ") else line for line in text.splitlines()]
    return "\n".join(head) + "\n\n".join(body) + "\n"

if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--typst"]
    text = article(int(args[0]) if args else 50)
    sys.stdout.write(typst(text) if "--typst" in sys.argv else text)
