#!/usr/bin/python3
"""Mutation run: would the tests notice a wrong model?

Plants each mutant of scripts/mutants.json -- a small, plausible bug defined as data
(file, exact original text, replacement, what it breaks) -- one at a time into a scratch
copy of the tree (never the working tree), rebuilds the CLI and the unit tests, runs the
native tests and reports which tests killed it: the unit tests first, and only if none
fails the other tests, then the snapshots (a kill lists the failing tests of its stage). The kill rate counts a mutant as killed
only when a test that is not a snapshot fails: snapshot tests (README equality, golden
reports, hashes -- every ctest name containing "snapshot") fail on any change, right or
wrong, so a mutant only they catch counts as surviving.

  /usr/bin/python3 scripts/mutate.py                 every mutant (about an hour on 2 cores)
  /usr/bin/python3 scripts/mutate.py --only ID,ID    some mutants
  /usr/bin/python3 scripts/mutate.py --list          list the mutants and whether they apply
  options: --jobs N (ctest -j and compile jobs, default 2), --timeout S (per test, default 300),
           --report FILE (markdown table, default build/mutation/report.md; the same
           results as JSON beside it, FILE with .json),
           --keep (leave the scratch copy in /tmp),
           --allow-failing-baseline (a tree in transition: tests that already fail unmutated
           are left out of every mutant's run and named in the report, instead of stopping),
           --all-stages (run every stage for every mutant, not only until one kills it: the
           report then says of each mutant whether the CLI tests and the snapshots also
           catch it; slower, a few minutes a mutant),
           --derived REGEX (which ctest names are derived tests, default DERIVED below)

The report says, for each mutant, which tests failed, apart: the derived tests (and, for a
failing Catch2 file, which of its test cases failed: each failing unit file is run again
alone with Catch2's JUnit reporter), the other non-snapshot tests (strict and behaviour
tests), and the snapshots. It then lists every test case of the derived files with the
number of mutants of the run it killed, fewest first, so a derived test that kills nothing
can be found (with --only, a test case aimed at other mutants naturally kills none).

A mutant whose original text is not found exactly once in its file is reported as stale
and not counted; one that does not compile is reported and not counted. Only Python's
standard library is used. On demand: not part of scripts/test.sh.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MUTANTS = os.path.join(TOP, "scripts", "mutants.json")
# Tests that need targets the mutation run does not build: the GUI, the benchmarks, the
# Python extension (its tests check the bindings; the core they bind is what the unit tests
# cover) and the fuzz targets (tests/fuzz: crash-freedom on random input, not model values).
# A pattern ends with '.' to match a whole group.
EXCLUDED = ["native.gui.smoke", "native.cli.test_mx_bench", "native.python.", "native.fuzz."]
TARGETS = ["trnsim_tests", "trnsim"]
UNIT = r"\.unit\."  # ctest names of the Catch2 unit tests (tests/CMakeLists.txt)
# Snapshot tests fail on any change, right or wrong (docs/testing.md): every ctest name with
# "snapshot" (golden reports, the README's validation block, the MX hash) or "parity" (the
# WebAssembly CLI's reports against the native one's).
SNAPSHOT = "snapshot|parity"
# Derived tests: the unit files test_derived_* (docs/testing.md's "derived" kind) and the
# serving simulator's invariant tests.
DERIVED = r"test_derived_|invariant"
FIELDS = ("id", "area", "file", "original", "replacement", "breaks")


def load_mutants(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    mutants = data["mutants"]
    seen = set()
    for i, m in enumerate(mutants):
        for k in FIELDS:
            if not isinstance(m.get(k), str) or not m[k]:
                sys.exit(f"{path}: mutants[{i}].{k}: missing or not a non-empty string")
        unknown = set(m) - set(FIELDS) - {"planted", "killed_by"}
        if unknown:
            sys.exit(f"{path}: mutants[{i}]: unknown key(s) {sorted(unknown)}")
        if m["id"] in seen:
            sys.exit(f"{path}: mutants[{i}].id: duplicate '{m['id']}'")
        if m["original"] == m["replacement"]:
            sys.exit(f"{path}: mutant {m['id']}: replacement equals the original")
        seen.add(m["id"])
    return mutants


def occurrences(root, m):
    p = os.path.join(root, m["file"])
    if not os.path.exists(p):
        return -1
    with open(p, encoding="utf-8") as f:
        return f.read().count(m["original"])


def run(cmd, cwd, log, env=None, timeout=None):
    with open(log, "a", encoding="utf-8") as out:
        out.write("$ " + " ".join(cmd) + "\n")
        out.flush()
        try:
            return subprocess.run(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, env=env, timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            out.write("(timed out)\n")
            return 124


def copy_tree(dst):
    """The tracked and new (not ignored) files of the working tree, as they are now."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=TOP, check=True,
                           stdout=subprocess.PIPE).stdout.decode().split("\0")
    for rel in files:
        if not rel:
            continue
        src = os.path.join(TOP, rel)
        if not os.path.isfile(src) or os.path.islink(src):
            continue
        os.makedirs(os.path.dirname(os.path.join(dst, rel)), exist_ok=True)
        shutil.copy2(src, os.path.join(dst, rel))
    for link in ("third_party", "node_modules"):  # fetched by scripts/setup.sh, never copied
        src = os.path.join(TOP, link)
        if os.path.exists(src):
            os.symlink(os.path.realpath(src), os.path.join(dst, link))


def ctest(build, log, jobs, timeout, select, exclude, junit):
    cmd = ["ctest", "--test-dir", build, "-j", str(jobs), "--timeout", str(timeout), "--output-junit", junit]
    if select:
        cmd += ["-R", select]
    if exclude:
        cmd += ["-E", exclude]
    if os.path.exists(junit):
        os.remove(junit)
    run(cmd, build, log)
    failed, ran = [], 0
    if os.path.exists(junit):
        for case in ET.parse(junit).getroot().iter("testcase"):
            ran += 1
            status = case.get("status", "")
            if status not in ("run", "passed") or case.find("failure") is not None or case.find("error") is not None:
                failed.append(case.get("name"))
    return sorted(failed), ran


def test_commands(build):
    """ctest name -> its command (to run one failing Catch2 file again for its test cases)."""
    out = subprocess.run(["ctest", "--test-dir", build, "--show-only=json-v1"], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True).stdout
    try:
        return {t["name"]: t.get("command", []) for t in json.loads(out).get("tests", [])}
    except ValueError:
        return {}


def failing_cases(command, log, timeout, junit):
    """The Catch2 test cases that fail when `command` (a unit test file's) runs again."""
    if not command:
        return []
    if os.path.exists(junit):
        os.remove(junit)
    run(command + ["-r", "junit", "-o", junit], os.path.dirname(command[0]), log, timeout=timeout)
    cases = []
    if os.path.exists(junit):
        try:
            for case in ET.parse(junit).getroot().iter("testcase"):
                if case.find("failure") is not None or case.find("error") is not None:
                    if case.get("name") not in cases:
                        cases.append(case.get("name"))
        except ET.ParseError:
            pass
    return cases


def listed_cases(command):
    """Every test case of one Catch2 file (its tag filter), in the binary's order."""
    if not command:
        return []
    out = subprocess.run(command + ["--list-test-names-only"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True).stdout
    return [line.strip() for line in out.splitlines() if line.strip()]


def short(test):
    return test.replace("native.", "")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--report", default=os.path.join(TOP, "build", "mutation", "report.md"))
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--mutants", default=MUTANTS)
    ap.add_argument("--allow-failing-baseline", action="store_true")
    ap.add_argument("--all-stages", action="store_true")
    ap.add_argument("--derived", default=DERIVED)
    args = ap.parse_args()
    is_snapshot = lambda t: re.search(SNAPSHOT, t) is not None
    is_derived = lambda t: not is_snapshot(t) and re.search(args.derived, t) is not None
    mutants = load_mutants(args.mutants)
    if args.only:
        want = [x for x in args.only.split(",") if x]
        ids = {m["id"] for m in mutants}
        for w in want:
            if w not in ids:
                sys.exit(f"--only: no mutant '{w}'")
        mutants = [m for m in mutants if m["id"] in want]
    if args.list:
        for m in mutants:
            n = occurrences(TOP, m)
            state = "ok" if n == 1 else ("missing file" if n < 0 else f"stale ({n} matches)")
            print(f"{m['id']:32} {m['area']:11} {state:18} {m['breaks']}")
        return 0

    scratch = tempfile.mkdtemp(prefix="trnsim-mutate-")
    src = os.path.join(scratch, "src")
    build = os.path.join(src, "build", "native")
    logs = os.path.join(scratch, "logs")
    os.makedirs(logs)
    print(f"mutate: scratch copy {src}", flush=True)
    copy_tree(src)
    env = dict(os.environ)
    if shutil.which("ccache"):  # a rebuild per mutant is cheaper through it; set up or not, it is optional
        env.setdefault("CMAKE_CXX_COMPILER_LAUNCHER", "ccache")
        env.setdefault("CMAKE_C_COMPILER_LAUNCHER", "ccache")
        env["CCACHE_BASEDIR"] = scratch
        if "CCACHE_DIR" not in env and os.path.isdir("/work/.ccache"):
            env["CCACHE_DIR"] = "/work/.ccache"
    base_log = os.path.join(logs, "baseline.log")
    # At most --jobs compile jobs (Ninja's default is the cores + 2: too many on a shared machine).
    build_cmd = ["cmake", "--build", build, "--parallel", str(args.jobs), "--target"] + TARGETS
    t0 = time.time()
    # Files one by one (no unity batches): a mutant then rebuilds its own file, not its batch.
    if run(["cmake", "--preset", "native", "-DTRNSIM_UNITY_BUILD=OFF"], src, base_log, env) != 0 or run(build_cmd, src, base_log, env) != 0:
        print(f"mutate: the unmutated tree does not build; see {base_log}")
        return 2
    exclude = "|".join(re.escape(x) for x in EXCLUDED)
    junit = os.path.join(logs, "junit.xml")
    failed, ran = ctest(build, base_log, args.jobs, args.timeout, "", exclude, junit)
    if ran == 0 or (failed and not args.allow_failing_baseline):
        print(f"mutate: the unmutated tree fails {failed or 'to run tests'}; see {base_log}")
        return 2
    baseline_failures = failed  # a test failing before any mutant cannot kill one: left out
    if failed:
        exclude += "|" + "|".join("^" + re.escape(t) + "$" for t in failed)
        print(f"mutate: baseline: left out, failing unmutated: {' '.join(failed)}", flush=True)
    print(f"mutate: baseline: {ran - len(failed)} tests pass ({time.time() - t0:.0f} s)", flush=True)
    commands = test_commands(build)
    derived_files = sorted(t for t in commands if re.search(UNIT, t) and is_derived(t) and t not in failed)
    # Every test case of the derived files: what the per-test summary counts kills for.
    derived_cases = {t: listed_cases(commands[t]) for t in derived_files}
    case_junit = os.path.join(logs, "cases.xml")

    results = []
    for i, m in enumerate(mutants):
        path = os.path.join(src, m["file"])
        n = occurrences(src, m)
        r = {"id": m["id"], "area": m["area"], "breaks": m["breaks"], "planted": m.get("planted", ""),
             "killed_by": m.get("killed_by", ""), "failed": []}
        if n != 1:
            r["status"] = "stale"
            r["note"] = "file missing" if n < 0 else f"original text found {n} times"
            results.append(r)
            print(f"[{i + 1}/{len(mutants)}] {m['id']}: stale ({r['note']})", flush=True)
            continue
        with open(path, encoding="utf-8") as f:
            pristine = f.read()
        log = os.path.join(logs, m["id"] + ".log")
        t1 = time.time()
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(pristine.replace(m["original"], m["replacement"], 1))
            # Staged, to spend the time where it tells: the unit tests first (they need only
            # their own binary, and kill most mutants in seconds), then the other
            # non-snapshot tests (the CLI), then the snapshots.
            # Each stage's failures are kept apart; a stage not run is None.
            r["unit"] = r["cli"] = r["snapshots"] = None
            if run(["cmake", "--build", build, "--parallel", str(args.jobs), "--target", "trnsim_tests"], src, log, env) != 0:
                r["status"] = "build-error"
            else:
                r["unit"], _ = ctest(build, log, args.jobs, args.timeout, UNIT, exclude + "|" + SNAPSHOT, junit)
                if not r["unit"] or args.all_stages:
                    if run(build_cmd, src, log, env) != 0:
                        r["status"] = "build-error"
                    else:
                        r["cli"], _ = ctest(build, log, args.jobs, args.timeout, "", exclude + "|" + SNAPSHOT + "|" + UNIT, junit)
                        if not r["cli"] or args.all_stages:
                            r["snapshots"], _ = ctest(build, log, args.jobs, args.timeout, SNAPSHOT, exclude, junit)
                if r.get("status") != "build-error":
                    caught = (r["unit"] or []) + (r["cli"] or [])
                    snaps = r["snapshots"] or []
                    r["failed"] = caught or snaps
                    r["status"] = "killed" if caught else ("snapshot-only" if snaps else "survived")
                    # Which test cases of the failing derived files failed (each file run again alone).
                    r["cases"] = {t: failing_cases(commands.get(t), log, args.timeout, case_junit)
                                  for t in (r["unit"] or []) if is_derived(t)}
        finally:
            with open(path, "w", encoding="utf-8") as f:
                f.write(pristine)
        r["seconds"] = round(time.time() - t1)
        results.append(r)
        by = [short(t) for t in r["failed"] if is_derived(t)]
        print(f"[{i + 1}/{len(mutants)}] {m['id']}: {r['status']}"
              f"{' by derived ' + ' '.join(by[:4]) if by else ' ' + ' '.join(short(t) for t in r['failed'][:4])} ({r['seconds']} s)",
              flush=True)
    run(build_cmd, src, os.path.join(logs, "restore.log"), env)

    counted = [r for r in results if r["status"] in ("killed", "snapshot-only", "survived")]
    killed = [r for r in counted if r["status"] == "killed"]
    by_derived = [r for r in killed if any(is_derived(t) for t in r["failed"])]
    rate = 100.0 * len(killed) / len(counted) if counted else 0.0
    derived_rate = 100.0 * len(by_derived) / len(counted) if counted else 0.0
    summary = (f"{len(killed)} of {len(counted)} mutants killed by non-snapshot tests ({rate:.1f}%), "
               f"{len(by_derived)} of them by a derived test ({derived_rate:.1f}%), "
               f"{len(killed) - len(by_derived)} only by strict or behaviour tests; "
               f"{sum(r['status'] == 'snapshot-only' for r in results)} caught only by snapshots, "
               f"{sum(r['status'] == 'survived' for r in results)} survived, "
               f"{sum(r['status'] == 'stale' for r in results)} stale, "
               f"{sum(r['status'] == 'build-error' for r in results)} did not compile "
               f"({time.time() - t0:.0f} s)")
    # Kills per derived test case (and per derived file), over the mutants of this run.
    case_kills = {(f, c): [] for f, cases in derived_cases.items() for c in cases}
    file_kills = {f: [] for f in derived_files}
    for r in killed:
        for f, cases in r.get("cases", {}).items():
            file_kills.setdefault(f, []).append(r["id"])
            for c in cases:
                case_kills.setdefault((f, c), []).append(r["id"])

    def cell(tests):
        if tests is None:
            return "not run"
        return ", ".join(short(t) for t in tests) or "none"

    os.makedirs(os.path.dirname(args.report), exist_ok=True)
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=TOP, stdout=subprocess.PIPE, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=TOP, stdout=subprocess.PIPE,
                           text=True).stdout.strip()
    with open(args.report, "w", encoding="utf-8") as f:
        f.write(f"Mutation run of {rev}{' with uncommitted changes' if dirty else ''} ({time.strftime('%Y-%m-%d')}"
                f"{', every stage' if args.all_stages else ''}): {summary}\n\n")
        if baseline_failures:
            f.write("Left out (failing before any mutant was planted): " +
                    ", ".join(f"`{short(t)}`" for t in baseline_failures) + "\n\n")
        f.write("Tests that failed, by kind: derived (their failing test cases in brackets), other "
                "non-snapshot (strict, behaviour, CLI), snapshots. Stages run in turn, unit tests first, "
                + ("all of them for every mutant." if args.all_stages else
                   "until one has a non-snapshot failure (\"not run\": a stage after the one that killed it; "
                   "`--all-stages` runs them all).") + "\n\n")
        f.write("| mutant | area | planted | result | derived tests | other tests | snapshots | what it breaks |\n")
        f.write("| --- | --- | --- | --- | --- | --- | --- | --- |\n")
        for r in results:
            if r["status"] in ("stale", "build-error"):
                f.write(f"| `{r['id']}` | {r['area']} | {r['planted'] or ''} | {r['status']} | {r.get('note', '')} |  |  | "
                        f"{r['breaks']} |\n")
                continue
            stages = [x for x in (r["unit"], r["cli"]) if x is not None]
            ran_non_snapshot = [t for x in stages for t in x]
            derived = "; ".join(f"{short(t)} [{' / '.join(r.get('cases', {}).get(t, [])) or '?'}]"
                                for t in ran_non_snapshot if is_derived(t)) or "none"
            other = ", ".join(short(t) for t in ran_non_snapshot if not is_derived(t)) or "none"
            if r["cli"] is None:
                other += " (CLI not run)"
            f.write(f"| `{r['id']}` | {r['area']} | {r['planted'] or ''} | {r['status']} | {derived} | {other} | "
                    f"{cell(r['snapshots'])} | {r['breaks']} |\n")
        f.write("\n### Kills per derived test\n\n")
        f.write(f"Over the {len(counted)} mutants of this run"
                f"{' (a subset: --only)' if args.only else ''}; fewest first. A derived test case that kills none "
                "of a full run's mutants guards nothing the mutants plant: give it a mutant or find why.\n\n")
        f.write("| derived file | mutants killed |\n| --- | --- |\n")
        for t in sorted(file_kills, key=lambda t: (len(file_kills[t]), t)):
            f.write(f"| {short(t)} | {len(file_kills[t])} |\n")
        f.write("\n| derived test case | file | mutants killed | which |\n| --- | --- | --- | --- |\n")
        for (t, c) in sorted(case_kills, key=lambda k: (len(case_kills[k]), k)):
            ids = case_kills[(t, c)]
            f.write(f"| {c} | {short(t)} | {len(ids)} | {', '.join(f'`{x}`' for x in ids)} |\n")
    with open(os.path.splitext(args.report)[0] + ".json", "w", encoding="utf-8") as f:
        json.dump({"revision": rev, "dirty": bool(dirty), "all_stages": args.all_stages, "summary": summary,
                   "left_out": baseline_failures, "mutants": results,
                   "derived_cases": [{"file": t, "case": c, "killed": ids} for (t, c), ids in sorted(case_kills.items())]},
                  f, indent=1)
        f.write("\n")
    print("mutate: " + summary)
    print(f"mutate: report {args.report}; logs {logs}")
    if not args.keep:
        shutil.rmtree(src, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
