"""A tagged PDF's structure text, read with pikepdf (not poppler): each structure element's
marked content (by MCID, page by page), its glyphs decoded through their font's ToUnicode
CMap, an ActualText span's text in place of its glyphs. Prints one line per element that
holds text: its type, a tab, the text. usage: structure_text.py FILE.pdf"""
import re, sys
import pikepdf

def cmap(font):
    table, two = {}, str(font.get("/Subtype")) == "/Type0"
    stream = font.get("/ToUnicode")
    if stream is None:
        return table, two
    data = stream.read_bytes().decode("latin-1")
    def text(hexs):
        raw = bytes.fromhex(hexs)
        return raw.decode("utf-16-be", "replace")
    for block in re.findall(r"beginbfchar(.*?)endbfchar", data, re.S):
        for src, dst in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]*)>", block):
            table[int(src, 16)] = text(dst)
    for block in re.findall(r"beginbfrange(.*?)endbfrange", data, re.S):
        for lo, hi, dst in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            start = int(dst, 16)
            for i, code in enumerate(range(int(lo, 16), int(hi, 16) + 1)):
                table[code] = chr(start + i) if start + i < 0x110000 else ""
    return table, two

def page_texts(page):
    """MCID -> text on one page."""
    fonts = {}
    resources = page.obj.get("/Resources", {})
    for name, font in (resources.get("/Font") or {}).items():
        fonts[name] = cmap(font)
    texts, stack, actual, font = {}, [], [], ({}, False)
    for operands, op in pikepdf.parse_content_stream(page):
        op = str(op)
        if op in ("BDC", "BMC"):
            props = operands[1] if op == "BDC" and len(operands) > 1 else None
            mcid = int(props["/MCID"]) if isinstance(props, pikepdf.Dictionary) and "/MCID" in props else None
            act = str(props["/ActualText"]) if isinstance(props, pikepdf.Dictionary) and "/ActualText" in props else None
            stack.append((mcid, act))
            if act is not None:
                current = next((m for m, _ in reversed(stack) if m is not None), None)
                if current is not None:
                    texts[current] = texts.get(current, "") + act
        elif op == "EMC":
            if stack:
                stack.pop()
        elif op == "Tf":
            font = fonts.get(str(operands[0]), ({}, False))
        elif op in ("Tj", "TJ", "'", '"'):
            if any(a is not None for _, a in stack):
                continue  # the ActualText stands for these glyphs
            current = next((m for m, _ in reversed(stack) if m is not None), None)
            if current is None:
                continue
            strings = operands[0] if op == "TJ" else [operands[-1]]
            table, two = font
            for s in strings:
                if isinstance(s, pikepdf.String):
                    raw = bytes(s)
                    codes = [raw[i] << 8 | raw[i + 1] for i in range(0, len(raw) - 1, 2)] if two else list(raw)
                    texts[current] = texts.get(current, "") + "".join(table.get(c, "\ufffd") for c in codes)
    return texts

pdf = pikepdf.open(sys.argv[1])
by_page = {page.obj.objgen: page_texts(page) for page in pdf.pages}

def walk(element, page=None):
    kind = str(element.get("/S", ""))
    page = element.get("/Pg", page)
    text = ""
    kids = element.get("/K")
    kids = kids if isinstance(kids, pikepdf.Array) else [kids] if kids is not None else []
    for kid in kids:
        if isinstance(kid, int):
            text += by_page.get(page.objgen, {}).get(kid, "") if page is not None else ""
        elif isinstance(kid, pikepdf.Dictionary) and str(kid.get("/Type", "")) == "/MCR":
            pg = kid.get("/Pg", page)
            text += by_page.get(pg.objgen, {}).get(int(kid["/MCID"]), "")
        elif isinstance(kid, pikepdf.Dictionary):
            walk(kid, page)
    if text:
        print(kind.lstrip("/") + "\t" + text.replace("\n", " "))

walk(pdf.Root.StructTreeRoot)
