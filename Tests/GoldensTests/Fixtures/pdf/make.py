#!/usr/bin/env python3
"""Makes expected.pdf (100 pages) and actual.pdf with typst (PyPI `typst`): the same document
but one word changed on page 37, the link on page 12 moved down, and a page 101 added. Every
page has a heading (the outline) and a link; typst's own embedded fonts, so the bytes do not
depend on the machine. Run from this folder."""
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
