#!/usr/bin/env python3
"""Gathers the shards of a trnsim sweep (examples/slurm/sweep.sbatch) into one file.

    python3 examples/slurm/merge.py OUT_DIR [--jsonl points.jsonl] [--csv points.csv]
    python3 examples/slurm/merge.py points.jsonl --csv points.csv      # a single-machine run

Inputs are a folder of shard-KKKKK-of-NNNNN.jsonl files (every K from 0 to N-1 must be
there) or JSONL files given in order. The lines are checked -- point indices start at 0 and
run on without gaps or repeats across the shards -- and written in index order, unchanged,
so the JSONL equals `trnsim sweep SWEEP.json --jobs J` on one machine byte for byte. The CSV
has one row per point and one column per leaf of the JSON lines (point.*, primary.*,
compare.*, error), in the order they first appear; numbers keep their JSON text exactly.
Without --jsonl or --csv the JSONL goes to stdout. Exit code 2 on a missing shard or a gap.
Needs only the Python standard library.
"""
import argparse
import csv
import json
import pathlib
import re
import sys

SHARD = re.compile(r"^shard-(\d+)-of-(\d+)\.jsonl$")


class MergeError(Exception):
    pass


def shard_files(folder: pathlib.Path):
    """The folder's shard files in shard order; every one of the N must be there."""
    found = {}
    totals = set()
    for p in folder.iterdir():
        m = SHARD.match(p.name)
        if m:
            found[int(m.group(1))] = p
            totals.add(int(m.group(2)))
    if not found:
        raise MergeError(f"{folder}: no shard-K-of-N.jsonl files")
    if len(totals) != 1:
        raise MergeError(f"{folder}: shards of different arrays (of {sorted(totals)}); use one folder per sweep")
    n = totals.pop()
    missing = [k for k in range(n) if k not in found]
    if missing:
        raise MergeError(f"{folder}: shard(s) {', '.join(map(str, missing))} of {n} missing (failed or still running?)")
    return [found[k] for k in range(n)]


def read_lines(files):
    """All lines of the files in order, checked to be points 0, 1, 2, ... exactly once."""
    lines = []
    for f in files:
        with open(f, encoding="utf-8") as fh:
            for number, line in enumerate(fh, 1):
                if not line.endswith("\n"):
                    raise MergeError(f"{f}:{number}: truncated line (the shard did not finish)")
                try:
                    index = json.loads(line)["index"]
                except (ValueError, KeyError, TypeError):
                    raise MergeError(f"{f}:{number}: not a trnsim sweep line") from None
                if index != len(lines):
                    raise MergeError(f"{f}:{number}: point {index} where point {len(lines)} was expected")
                lines.append(line)
    return lines


def flatten(value, prefix, row):
    """Leaves of a JSON value as 'a.b.c' columns; lists are kept as JSON text."""
    if isinstance(value, dict):
        for k, v in value.items():
            flatten(v, f"{prefix}.{k}" if prefix else k, row)
    elif isinstance(value, list):
        row[prefix] = json.dumps(value, separators=(",", ":"))
    elif isinstance(value, bool):
        row[prefix] = "true" if value else "false"
    elif value is None:
        row[prefix] = ""
    else:
        row[prefix] = value  # numbers arrive as their JSON text (parse_float/parse_int below)


def write_csv(lines, out):
    rows, columns = [], {}
    for line in lines:
        row = {}
        flatten(json.loads(line, parse_float=str, parse_int=str), "", row)
        rows.append(row)
        for c in row:
            columns.setdefault(c, None)
    w = csv.DictWriter(out, fieldnames=list(columns), lineterminator="\n")
    w.writeheader()
    w.writerows(rows)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("inputs", nargs="+", help="a folder of shard files, or JSONL files in order")
    ap.add_argument("--jsonl", help="write the merged JSON Lines here")
    ap.add_argument("--csv", help="write one CSV row per point here")
    args = ap.parse_args(argv)
    try:
        files = []
        for i in args.inputs:
            p = pathlib.Path(i)
            files += shard_files(p) if p.is_dir() else [p]
        lines = read_lines(files)
    except (MergeError, OSError) as e:
        print(f"merge: error: {e}", file=sys.stderr)
        return 2
    if args.jsonl:
        with open(args.jsonl, "w", encoding="utf-8", newline="") as f:
            f.writelines(lines)
    if args.csv:
        with open(args.csv, "w", encoding="utf-8", newline="") as f:
            write_csv(lines, f)
    if not args.jsonl and not args.csv:
        sys.stdout.writelines(lines)
    print(f"merge: {len(lines)} points from {len(files)} file(s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
