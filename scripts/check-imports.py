#!/usr/bin/env python3
"""Every module a target imports is one it declares in Package.swift (issue 54).

SwiftPM builds a target that imports a module it only reaches through another target's
dependencies, so nothing else notices the graph drifting from the code. This reads the
package's own description (`swift package dump-package`) and every Swift file of every
target, and fails naming each undeclared import. The toolchain's modules are not declared.
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


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    described = subprocess.run(["swift", "package", "--package-path", root, "dump-package"],
                               check=True, capture_output=True, text=True).stdout
    package = json.loads(described)
    problems = []
    for target in package["targets"]:
        name = target["name"]
        declared = {name}
        for dependency in target.get("dependencies", []):
            for kind in ("byName", "target", "product"):
                if kind in dependency:
                    declared.add(dependency[kind][0])
        folder = target.get("path") or ("Tests/" if target["type"] == "test" else "Sources/") + name
        for path in sorted(glob.glob(os.path.join(root, folder, "**", "*.swift"), recursive=True)):
            for module in sorted(imports(path) - declared - TOOLCHAIN):
                problems.append(f"{os.path.relpath(path, root)}: imports {module}, which target {name} does not declare")
    for problem in problems:
        print(f"check-imports: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"check-imports: every import of {len(package['targets'])} targets is declared in Package.swift")
    return 0


if __name__ == "__main__":
    sys.exit(main())
