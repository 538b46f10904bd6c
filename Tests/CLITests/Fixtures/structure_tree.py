"""A tagged PDF's structure tree and outline, read with pikepdf (not poppler): one line per
structure element, indented two spaces a level, its type and, for a Figure, its Alt
("Figure alt=..."); then one line per outline entry ("outline: " and the title, indented two
spaces a level). usage: structure_tree.py FILE.pdf"""
import sys
import pikepdf

def walk(node, depth, out):
    kids = node.get("/K")
    if kids is None:
        return
    if not isinstance(kids, pikepdf.Array):
        kids = [kids]
    for kid in kids:
        if isinstance(kid, pikepdf.Dictionary) and "/S" in kid:
            line = "  " * depth + str(kid["/S"])[1:]
            if "/Alt" in kid:
                line += " alt=" + str(kid["/Alt"])
            out.append(line)
            walk(kid, depth + 1, out)

def outline(items, depth, out):
    for item in items:
        out.append("outline: " + "  " * depth + item.title)
        outline(item.children, depth + 1, out)

with pikepdf.open(sys.argv[1]) as pdf:
    lines = []
    walk(pdf.Root.StructTreeRoot, 0, lines)
    with pdf.open_outline() as o:
        outline(o.root, 0, lines)
    print("\n".join(lines))
