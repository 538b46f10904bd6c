#!/usr/bin/env python3
"""Every module a target imports is one it declares in Package.swift (issue 54), and the
module graph in docs/ARCHITECTURE.md is the package's.

SwiftPM builds a target that imports a module it only reaches through another target's
dependencies, so nothing else notices the graph drifting from the code. This reads the
package's own description (`swift package dump-package`) and every Swift file of every
target, and fails naming each undeclared import. The toolchain's modules are not declared.
`--graph` prints the graph of the Swift targets as ARCHITECTURE.md shows it; without it the
document's copy must be that text.
"""
import glob
import json
import os
import re
import subprocess
import sys

# The toolchain's and the platform's modules: never declared in Package.swift.
TOOLCHAIN = {"Swift", "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationXML",
             "FoundationNetworking", "Glibc", "Musl", "Darwin", "Dispatch", "Synchronization", "Testing", "XCTest",
             "_Concurrency", "_StringProcessing", "CoreFoundation", "os"}
IMPORT = re.compile(r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:public\s+|package\s+|internal\s+)?import\s+"
                    r"(?:typealias\s+|struct\s+|class\s+|enum\s+|protocol\s+|let\s+|var\s+|func\s+)?(\w+)")


def imports(path):
    """The modules a file imports at its top level (not lines inside a multi-line string)."""
    found, in_string = set(), False
    with open(path, encoding="utf-8") as source:
        for line in source:
            if not in_string:
                match = IMPORT.match(line)
                if match:
                    found.add(match.group(1))
            if line.count('"""') % 2 == 1:
                in_string = not in_string
    return found


def dependencies(target):
    """A target's declared dependencies: targets by name, products by product name."""
    names = []
    for dependency in target.get("dependencies", []):
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                names.append(dependency[kind][0])
    return names


def folder(target):
    return target.get("path") or ("Tests/" if target["type"] == "test" else "Sources/") + target["name"]


def swift_files(target, root):
    """The target's Swift files: under its folder, or only under its `sources:` when it names
    them (PinnedFonts' folder is the package's own, for its resources)."""
    base = os.path.join(root, folder(target))
    places = [os.path.join(base, source) for source in target.get("sources") or []] or [base]
    return sorted(path for place in places for path in glob.glob(os.path.join(place, "**", "*.swift"), recursive=True))


def graph(package, root):
    """One line per Swift target that is not a test or the fuzz harness: what it depends on,
    in Package.swift's order, top-level programs first."""
    swift = [t for t in package["targets"] if t["type"] in ("regular", "executable") and t["name"] not in ("hlfuzz", "TestSupport")
             and swift_files(t, root)]
    order = {"executable": 0, "regular": 1}
    swift.sort(key=lambda t: (order[t["type"]], 0 if t["name"] == "HLRenderKit" else 1))
    width = max(len(t["name"]) for t in swift)
    lines = []
    for target in swift:
        names = dependencies(target)
        lines.append(f"{target['name'].ljust(width)} ─► {', '.join(names) if names else '(nothing)'}")
    return "\n".join(lines) + "\n"


MARK = "<!-- module graph: scripts/check-imports.py --graph -->"


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    described = subprocess.run(["swift", "package", "--package-path", root, "dump-package"],
                               check=True, capture_output=True, text=True).stdout
    package = json.loads(described)
    if sys.argv[1:] == ["--graph"]:
        sys.stdout.write(graph(package, root))
        return 0
    problems = []
    for target in package["targets"]:
        name = target["name"]
        declared = {name, *dependencies(target)}
        for path in swift_files(target, root):
            for module in sorted(imports(path) - declared - TOOLCHAIN):
                problems.append(f"{os.path.relpath(path, root)}: imports {module}, which target {name} does not declare")
    with open(os.path.join(root, "docs", "ARCHITECTURE.md"), encoding="utf-8") as doc:
        text = doc.read()
    shown = text.split(MARK, 1)[1].split("```", 2)[1].lstrip("\n") if MARK in text else None
    if shown != graph(package, root):
        problems.append("docs/ARCHITECTURE.md: the module graph is not Package.swift's; paste scripts/check-imports.py --graph under " + MARK)
    for problem in problems:
        print(f"check-imports: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"check-imports: every import of {len(package['targets'])} targets is declared in Package.swift")
    return 0


if __name__ == "__main__":
    sys.exit(main())
