#!/usr/bin/env python3
"""Checks the layer order of docs/architecture.md against every #include line.

docs/architecture.md holds the order in a fenced block tagged `layers`: one line a layer,
the highest first, each line naming one or more folders (relative to core/ for the core,
to the repository for the faces: ui, native, web, python). A source file belongs to the
longest folder that holds it; an #include "x/y.h" names the longest folder of x/y.h. A file
may include its own folder and any folder on a LOWER line; never a folder on its own line
(peers stay independent) or on a higher one. Files outside every listed folder (tests/, the
core's root) are not checked; an include of a folder the block does not list is an error, so
a new folder has to be placed in the order before it can be used.

A second block tagged `layers-known` lists includes that still go up, one a line
("core/x/file.cpp include/path.h  # why, and what removes it"): they are reported, not
failed; an entry that no longer occurs is an error, so the list only shrinks.

Usage: scripts/check_layers.py [--root DIR] [--list]
Exit 0 when every include goes down, 1 with one line per violation otherwise, 2 on a
malformed block.
"""
import argparse
import os
import re
import sys

SOURCE_SUFFIXES = (".h", ".hpp", ".cpp", ".cc", ".inc")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
FACES = ("ui", "native", "web", "python")


def read_layers(doc):
    """The layers, highest first: a list of lists of folder names."""
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^```layers\n(.*?)^```", text, re.S | re.M)
    if not m:
        raise ValueError(f"{doc}: no ```layers block")
    layers = []
    for n, line in enumerate(m.group(1).splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if line:
            layers.append(line.split())
    seen = {}
    for i, names in enumerate(layers):
        for name in names:
            if name in seen:
                raise ValueError(f"{doc}: layers block names {name} twice")
            seen[name] = i
    return seen


def read_known(doc):
    """(file, include) pairs the doc's `layers-known` block accepts for now."""
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^```layers-known\n(.*?)^```", text, re.S | re.M)
    known = set()
    for line in (m.group(1).splitlines() if m else []):
        line = line.split("#", 1)[0].split()
        if len(line) == 2:
            known.add((line[0], line[1]))
        elif line:
            raise ValueError(f"{doc}: a layers-known line needs a file and an include: {' '.join(line)}")
    return known


def folder_of(path, level):
    """The longest listed folder holding `path` (a path as written in the level table)."""
    parts = path.split("/")
    for k in range(len(parts) - 1, 0, -1):
        cand = "/".join(parts[:k])
        if cand in level:
            return cand
    return None


def sources(root):
    for top in ("core",) + FACES:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames[:] = [d for d in dirnames if d not in ("node_modules", "__pycache__")]
            for name in filenames:
                if name.endswith(SOURCE_SUFFIXES):
                    yield os.path.join(dirpath, name)


def check(root, level):
    problems = []
    for path in sorted(sources(root)):
        rel = os.path.relpath(path, root)
        # The core's folders are named without "core/", as its include lines name them.
        key = rel[len("core/"):] if rel.startswith("core/") else rel
        own = folder_of(key, level)
        if own is None:
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m or "/" not in m.group(1):
                    continue
                inc = m.group(1)
                # Includes relative to the file's own folder ("../x.h", "sub/x.h") resolve there.
                local = os.path.normpath(os.path.join(os.path.dirname(path), inc))
                if os.path.exists(local) and not os.path.exists(os.path.join(root, "core", inc)):
                    inc_key = os.path.relpath(local, root)
                    inc_key = inc_key[len("core/"):] if inc_key.startswith("core/") else inc_key
                else:
                    inc_key = inc
                target = folder_of(inc_key, level)
                if target is None:
                    if inc_key.split("/")[0] in level or os.path.isdir(os.path.join(root, "core", inc_key.split("/")[0])):
                        problems.append((rel, inc, f"{rel}:{n}: includes {inc}, whose folder the layers block does not list"))
                    continue
                if target != own and level[target] <= level[own]:
                    where = "on the same line as" if level[target] == level[own] else "above"
                    problems.append((rel, inc, f"{rel}:{n}: {own} includes {inc}: {target} is {where} {own} in the layer order"))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--list", action="store_true", help="print the layer order read from the doc")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    try:
        level = read_layers(os.path.join(root, "docs", "architecture.md"))
        known = read_known(os.path.join(root, "docs", "architecture.md"))
    except (OSError, ValueError) as e:
        print(f"check_layers: {e}", file=sys.stderr)
        return 2
    if args.list:
        for name, i in sorted(level.items(), key=lambda kv: kv[1]):
            print(i, name)
        return 0
    found = check(root, level)
    problems = [text for rel, inc, text in found if (rel, inc) not in known]
    for rel, inc, text in found:
        if (rel, inc) in known:
            print(f"known: {text}")
    seen = {(rel, inc) for rel, inc, _ in found}
    for rel, inc in sorted(known - seen):
        problems.append(f"{rel}: the layers-known entry for {inc} no longer occurs: remove it from docs/architecture.md")
    for p in problems:
        print(p)
    if problems:
        print(f"check_layers: {len(problems)} include(s) against the layer order of docs/architecture.md", file=sys.stderr)
        return 1
    print(f"check_layers: every include follows the layer order ({len(level)} folders, {len(known)} known exception(s))")
    return 0


if __name__ == "__main__":
    sys.exit(main())
