#!/usr/bin/env python3
"""Makes expected.pdf (100 pages) and actual.pdf with typst (PyPI `typst`): the same document
but one word changed on page 37, the link on page 12 moved down, and a page 101 added. Every
page has a heading (the outline) and a link; typst's own embedded fonts, so the bytes do not
depend on the machine. Then flow-expected.pdf and flow-actual.pdf: one flowing text on small
numbered pages ("2 / 5"), the actual one with a sentence put in on page 2, so the pages after
it reflow. Run from this folder."""
import typst

LOREM = ("The quick brown fox jumps over the lazy dog while golden images wait in a folder "
         "for the next pull request to change one word, one link or one page. ") * 6


def document(actual):
    parts = ['#set page(width: 420pt, height: 595pt, margin: 40pt)\n#set text(size: 11pt)\n']
    pages = 101 if actual else 100
    for n in range(1, pages + 1):
        text = LOREM
        if actual and n == 37:
            text = text.replace("lazy dog", "lazy cat", 1)
        space = "#v(60pt)\n" if actual and n == 12 else ""
        parts.append(f"= Section {n}\n{text}\n\n{space}#link(\"https://example.com/page/{n}\")[Read more about section {n}]\n")
        if n < pages:
            parts.append("#pagebreak()\n")
    return "".join(parts)


for name, actual in (("expected", False), ("actual", True)):
    with open(f"{name}.typ", "w") as f:
        f.write(document(actual))
    typst.compile(f"{name}.typ", output=f"{name}.pdf")


WORDS = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november "
         "oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu").split()


def flowing(actual):
    # Numbered words, so that every word of the text is unique and a reflow is plain to see.
    words = [f"{WORDS[n % len(WORDS)]}{n}" for n in range(700)]
    if actual:
        words[200:200] = "and here a new sentence was written into the second page".split()
    return ('#set page(width: 300pt, height: 300pt, margin: 30pt, numbering: "1 / 1")\n'
            "#set text(size: 10pt)\n#set par(justify: false)\n" + " ".join(words) + "\n")


for name, actual in (("flow-expected", False), ("flow-actual", True)):
    with open(f"{name}.typ", "w") as f:
        f.write(flowing(actual))
    typst.compile(f"{name}.typ", output=f"{name}.pdf")
