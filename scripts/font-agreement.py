#!/usr/bin/env python3
"""The face hlrender picks for a request against the one Fontconfig's fc-match picks for the
same pattern over the same fonts (issue 49): at least 200 requests, pinned-only and with the
system's fonts, by family x weight x slant x width, generic names and aliases. Prints a pass
count; a difference that is not one of the documented rules fails (exit 1).

Usage: scripts/font-agreement.py [path/to/hlrender]   (default: $HLRENDER_BIN_DIR/hlrender)

The reference configurations are what hlrender's library builds: the pinned folder alone
(with Fontconfig's own synthetic-style rule, 90-synthetic.conf, so fc-match says where it
would embolden or slant), and the pinned folder followed by the system's fonts.conf.
"""
import json, os, subprocess, sys, tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FONTS = os.path.join(REPO, "fonts")
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.environ.get("HLRENDER_BIN_DIR", os.path.join(REPO, ".build/release")), "hlrender")

# Fontconfig's weight scale against OpenType's (FcWeightFromOpenType's table).
WEIGHTS = [(100, 0), (200, 40), (300, 50), (350, 55), (380, 75), (400, 80), (500, 100), (600, 180), (700, 200), (800, 205), (900, 210), (1000, 215)]

def to_fc(css):
    for (a, fa), (b, fb) in zip(WEIGHTS, WEIGHTS[1:]):
        if css <= b:
            return fa + (fb - fa) * (max(css, a) - a) / (b - a)
    return 215

def to_css(fc):
    for (a, fa), (b, fb) in zip(WEIGHTS, WEIGHTS[1:]):
        if fc <= fb:
            return a + (b - a) * (max(fc, fa) - fa) / (fb - fa)
    return 1000

def config(path, system, cache):
    rules = '<include ignore_missing="yes">/etc/fonts/fonts.conf</include>' if system else \
        '<include ignore_missing="yes">/etc/fonts/conf.d/90-synthetic.conf</include>'
    with open(path, "w") as f:
        f.write(f'<?xml version="1.0"?><fontconfig><dir>{FONTS}</dir><cachedir>{cache}</cachedir>{rules}</fontconfig>')

def fc_match(conf, family, css, italic, width):
    pattern = f"{family}:weight={to_fc(css):g}:slant={100 if italic else 0}:width={width}:lang=en"
    out = subprocess.run(["fc-match", "-f", "%{file}|%{index}|%{family[0]}|%{weight}|%{slant}|%{embolden}|%{color}|%{style[0]}", pattern],
                         env={**os.environ, "FONTCONFIG_FILE": conf}, capture_output=True, text=True, check=True).stdout
    file, index, fam, weight, slant, embolden, color, style = out.split("|")
    return dict(file=os.path.realpath(file), index=int(index), family=fam, weight=float(weight.split()[0].strip("[")),
                slanted=int(slant) != 0, embolden=embolden == "True", color=color == "True", style=style)

def ours(family, css, italic, width, system):
    pattern = f"{family}:weight={css}" + (":italic" if italic else "") + (f":width={width}" if width != 100 else "")
    args = [BIN, "fonts", "--match", pattern, "--json"] + ([] if system else ["--no-system-fonts"])
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        return None, done.stderr.strip()
    return json.loads(done.stdout), ""

def compare(request, ref, got):
    """'equal', a documented rule's name, or a difference."""
    family, css, italic, width, system = request
    if got is None:
        return "differ: hlrender refused it"
    same_file = os.path.realpath(got["file"]) == ref["file"] and got["index"] == ref["index"] & 0xFFFF
    if not same_file:
        pinned = lambda f: os.path.realpath(f).startswith(os.path.realpath(FONTS) + "/")
        if got["family"] == ref["family"] and pinned(got["file"]) and not pinned(ref["file"]):
            return "rule: the pinned copy of a family comes first"
        return f"differ: fc-match {os.path.basename(ref['file'])}#{ref['index']} ({ref['family']} {ref['style']}), hlrender {os.path.basename(got['file'])}#{got['index']}"
    rule = None
    axes = dict(v.split("=") for v in got["variations"].split(",")) if got["variations"] else {}
    if ref["index"] >> 16 or "wght" in axes:
        wght = float(axes.get("wght", 400))
        instance = round(to_css(ref["weight"]))
        if round(wght) != instance:
            if abs(wght - css) < 0.5:
                rule = "rule: a variable face takes the weight asked on its axis, not the nearest named instance"
            else:
                return f"differ: fc-match weight {instance}, hlrender wght {wght:g}"
    bold = "bold" in got["synthetic"]
    if bold != ref["embolden"]:
        if ref["color"] and not bold:
            rule = "rule: a colour font is never emboldened"
        else:
            return f"differ: fc-match embolden {ref['embolden']}, hlrender synthetic {got['synthetic']}"
    slanted = "oblique" in got["synthetic"] or any(w in got["style"].lower() for w in ("italic", "oblique"))
    if slanted != ref["slanted"]:
        return f"differ: fc-match slanted {ref['slanted']}, hlrender {got['style']} {got['synthetic']}"
    return rule or "equal"

def requests(system_families):
    pinned = ["Inter", "Noto Sans", "Noto Sans Arabic", "Noto Sans Devanagari", "Noto Sans CJK JP", "Noto Sans Mono"]
    out = [(f, w, i, 100, False) for f in pinned for w in range(100, 1000, 100) for i in (False, True)]
    out += [(f, w, False, 75, False) for f in ("Noto Sans", "Inter") for w in (400, 700)]
    out += [("Noto Color Emoji", w, False, 100, False) for w in (400, 700)]
    generic = ["sans-serif", "serif", "monospace", "emoji", "system-ui", "cursive", "fantasy"]
    out += [(f, w, i, 100, True) for f in generic for w in (400, 700) for i in (False, True)]
    aliases = ["Helvetica", "Arial", "Times New Roman", "Times", "Courier", "Courier New", "Verdana", "Georgia", "Liberation Sans"]
    out += [(f, w, False, 100, True) for f in aliases for w in (400, 700)]
    out += [(f, w, i, 100, True) for f in ("Noto Sans", "Inter") for w in (300, 400, 700, 900) for i in (False, True)]
    out += [(f, w, i, 100, True) for f in system_families for w in (200, 400, 600, 800) for i in (False, True)]
    out += [(f, w, False, 75, True) for f in system_families[:1] for w in (400, 700)]
    return out

def main():
    with tempfile.TemporaryDirectory() as tmp:
        confs = {False: os.path.join(tmp, "pinned.conf"), True: os.path.join(tmp, "system.conf")}
        for system, path in confs.items():
            config(path, system, os.path.join(tmp, "cache"))
        listed = subprocess.run(["fc-list", "--format", "%{family[0]}|%{file}\n"], env={**os.environ, "FONTCONFIG_FILE": confs[True]},
                                capture_output=True, text=True).stdout.splitlines()
        # Up to three system families (not pinned, not colour), for the system-on rows.
        system_families = sorted({l.split("|")[0] for l in listed if not l.split("|")[1].startswith(FONTS) and "Emoji" not in l})[:3]
        counts, differences = {}, []
        table = requests(system_families)
        for request in table:
            family, css, italic, width, system = request
            ref = fc_match(confs[system], family, css, italic, width)
            got, why = ours(family, css, italic, width, system)
            verdict = compare(request, ref, got) if got else f"differ: hlrender refused it ({why})"
            counts[verdict if not verdict.startswith("differ") else "differ"] = counts.get(verdict if not verdict.startswith("differ") else "differ", 0) + 1
            if verdict.startswith("differ"):
                differences.append(f"  {family}:weight={css}{':italic' if italic else ''}:width={width} ({'system' if system else 'pinned'}): {verdict}")
        agree = len(table) - counts.get("differ", 0)
        print(f"font agreement with fc-match: {agree} of {len(table)} requests pick fc-match's face"
              f" ({counts.get('equal', 0)} equal, {agree - counts.get('equal', 0)} by a documented rule); system families: {', '.join(system_families) or 'none'}")
        for verdict, n in sorted(counts.items()):
            if verdict.startswith("rule"):
                print(f"  {n:4d} {verdict}")
        for line in differences:
            print(line)
        return 1 if differences or len(table) < 200 else 0

if __name__ == "__main__":
    sys.exit(main())
