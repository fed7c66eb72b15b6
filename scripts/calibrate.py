#!/usr/bin/env python3
"""Refit the calibrated values on the validation rows marked "calibration": true.

The rows are core/data/validation/*.json (PERF.md measurements only; claims and rows not
marked are never fitted). Each row's own scenario (a serving run, a profiled step) is
evaluated through the Python module with the candidate values set in its workload, and the
fit minimises the sum of squared log errors by coordinate descent (each parameter in turn,
a bracketing search on a log scale, then narrower steps). It prints the fitted values, the
rows before and after, and the field-table lines to change (core/scenario/schema.cpp). It
changes no file: a refit is a reviewed commit that says which rows moved.

  PYTHONPATH=build/native/python /usr/bin/python3 scripts/calibrate.py [--rounds N]

Fitted here: workload.efficiency.compute, workload.efficiency.hbm,
workload.efficiency.kernel_overhead_s. With --stacks, jointly with them, the serving stacks'
values whose source reads "calibrated" (core/data/serving/*.json, STACK_PARAMS below; a value
another stack takes "as" this one moves with it): each candidate set is written to stack files
in a scratch folder that the rows' scenarios then name. The shipped stack values were each fitted
on the rows their sources name; the joint fit is a check of them (docs/neuron-execution.md,
section 6, says what it found). Not fitted here: the video efficiencies and the collective
launch overhead (their rows, V1/V2 and 12, each fit one value on their own), and the
shard-on-block stack's three values (nxdi-sdk2.29.1-shard-on-block: moe.kernel_block_time and
moe.kernel_output_passes, solved from row 21's TTFT at 128 and 8,192 tokens, a sum of four
context encodings that this script does not evaluate; moe.decode_pass_time, solved from the
slope of row 21's TPOT from batch 4 to 16, rows this script leaves out).

  PYTHONPATH=build/native/python /usr/bin/python3 scripts/calibrate.py --stacks [--hold NAME=VALUE ...]

--pricer engine fits the same values with every row priced by the engine-level NeuronCore
model (workload.pricer; a row stating its own pricer keeps it). The engine times GEMMs and
attention itself, so of the three efficiencies it mostly moves the kernel overhead; the shipped
defaults stay the roofline's fit (docs/hardware.md, section 5, reports the engine's).
"""
import argparse
import atexit
import copy
import json
import math
import os
import shutil
import sys
import tempfile

import trnsim

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(TOP, "core", "data", "validation")
PARAMS = {  # field under workload.efficiency: (lower, upper) of the search
    "compute": (0.1, 1.0),
    "hbm": (0.3, 1.0),
    "kernel_overhead_s": (1e-6, 1e-4),
}
# Stack values fitted with them: name -> ((stack, section, field), ...), bounds. The first
# location is the calibrated one; the others take it "as" that stack (their sources say so).
STACK_PARAMS = {
    "moe.kernel_block_time_us": ((("nxdi", "moe", "kernel_block_time"),
                                  ("optimum-neuron", "moe", "kernel_block_time")), (1.0, 1000.0)),
    "context_encoding_collective_overlap": ((("vllm-neuron", "batching", "context_encoding_collective_overlap"),
                                             ("nxdi", "batching", "context_encoding_collective_overlap"),
                                             ("optimum-neuron", "batching", "context_encoding_collective_overlap"),
                                             ("nxdi-sdk2.28-torch-blockwise", "batching", "context_encoding_collective_overlap"),
                                             ("nxdi-sdk2.29.1-shard-on-block", "batching", "context_encoding_collective_overlap"),
                                             ("vllm-neuron-sdk2.29-torch-blockwise", "batching", "context_encoding_collective_overlap")),
                                            (0.05, 1.0)),
    "step_host_ms": ((("vllm-neuron", "runtime", "step_host"), ("optimum-neuron", "runtime", "step_host"),
                      ("vllm-neuron-sdk2.29-torch-blockwise", "runtime", "step_host")),
                     (0.05, 20.0)),
    "request_host_ms": ((("vllm-neuron", "runtime", "request_host"), ("optimum-neuron", "runtime", "request_host"),
                         ("vllm-neuron-sdk2.29-torch-blockwise", "runtime", "request_host")),
                        (0.5, 200.0)),
    "step_extra_ms": ((("optimum-neuron", "runtime", "step_extra"),), (0.05, 20.0)),
    "moe.fallback_block_time_us": ((("nxdi-sdk2.28-torch-blockwise", "moe", "fallback_block_time"),
                                    ("vllm-neuron-sdk2.29-torch-blockwise", "moe", "fallback_block_time")), (1.0, 2000.0)),
}
STACKS = os.path.join(TOP, "core", "data", "serving")
SCALE = {"s": 1.0, "ms": 1e3, "us": 1e6, "tok/s": 1.0}
_scratch = tempfile.mkdtemp(prefix="trnsim-calibrate-")  # the candidate stack files; removed at exit
atexit.register(shutil.rmtree, _scratch, True)


def rows():
    out = []
    for f in sorted(os.listdir(DATA)):
        for r in json.load(open(os.path.join(DATA, f)))["rows"]:
            c = r["compute"]
            if not r.get("calibration") or not ("serve" in c or ("scenario" in c and "phase" in c)):
                continue
            if r["id"] == "21":  # row 21 fits its own stack's values apart (see the docstring)
                continue
            if r["id"].startswith("H"):  # GPU.md's H100 rows fit the H100's own data (chip execution block), not these
                continue
            unit = r["published"]["unit"]
            if unit not in SCALE:
                continue
            out.append((r["id"], r["figure"], r["published"]["value"], unit, c))
    return out


def stack_files(values):
    """The stack files with `values`' stack parameters set: {stack name: path}."""
    texts = {}
    for name, (where, _) in STACK_PARAMS.items():
        for stack, section, field in where:
            d = texts.setdefault(stack, json.load(open(os.path.join(STACKS, stack + ".json"))))
            d[section][field]["value"] = values[name]
    paths = {}
    for stack, d in texts.items():
        paths[stack] = os.path.join(_scratch, stack + ".json")
        with open(paths[stack], "w") as f:
            json.dump(d, f)
    return paths


PRICER = None  # --pricer: every row's workload.pricer unless the row states one


def with_values(scenario, values):
    s = copy.deepcopy(scenario)
    w = s.setdefault("workload", {})
    if PRICER:
        w.setdefault("pricer", PRICER)
    eff = w.setdefault("efficiency", {})
    for k in PARAMS:
        eff.setdefault(k, values[k])  # a row that states its own value keeps it
    if any(k in values for k in STACK_PARAMS):
        stack = w.get("stack", "vllm-neuron")  # the field's default
        w["stack"] = stack_files(values).get(stack, stack)
    return s


def model_value(c, values, unit):
    if "serve" in c:
        v = trnsim.serve(with_values(c["serve"], values))["serve"]["metrics"][c["metric"]]
    else:
        p = next(x for x in trnsim.run(with_values(c["scenario"], values))["primary"]["result"]["phases"]
                 if x["name"] == c["phase"])
        v = {"time": p["time_s"], "compute+overhead": p["compute_s"] + p["overhead_s"],
             "fabric": p["fabric_s"], "hbm": p["hbm_s"]}[c["part"]]
    return v * SCALE[unit]


def defaults(stacks=False):
    """The shipped values of the fitted parameters: the field table's efficiencies (as the
    canonical scenario of any run states them) and, with `stacks`, the stack files' calibrated values."""
    eff = trnsim.run({"workload": {"model": "Llama-3.1-8B"}})["scenario"]["workload"]["efficiency"]
    out = {k: eff[k] for k in PARAMS}
    for name, (where, _) in (STACK_PARAMS.items() if stacks else ()):
        vals = set()
        for stack, section, field in where:
            vals.add(json.load(open(os.path.join(STACKS, stack + ".json")))[section][field]["value"])
        assert len(vals) == 1, f"{name}: the stacks that take it differ: {where} = {vals}"
        out[name] = vals.pop()
    return out


def bounds(values):
    """The search interval of each parameter in `values`."""
    every = {**PARAMS, **{k: b for k, (_, b) in STACK_PARAMS.items()}}
    return {k: every[k] for k in values}


def loss(rs, values):
    return sum(math.log(model_value(c, values, u) / pub) ** 2 for _, _, pub, u, c in rs)


def fit(rs, start, rounds, hold=()):
    """Coordinate descent from `start` over its parameters, those named in `hold` kept."""
    best = dict(start)
    cur = loss(rs, best)
    step = 0.25  # in log space
    for _ in range(rounds):
        for k, (lo, hi) in bounds(start).items():
            if k in hold:
                continue
            for direction in (+1, -1):
                while True:
                    trial = dict(best)
                    trial[k] = min(hi, max(lo, best[k] * math.exp(direction * step)))
                    if trial[k] == best[k]:
                        break
                    l = loss(rs, trial)
                    if l >= cur:
                        break
                    best, cur = trial, l
        step /= 2
    return best, cur


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--stacks", action="store_true", help="fit the stacks' calibrated values jointly")
    ap.add_argument("--hold", action="append", default=[], metavar="NAME=VALUE",
                    help="keep a parameter at VALUE (repeatable), e.g. hbm=0.856")
    ap.add_argument("--pricer", help="price every row with this workload.pricer (the core checks the name)")
    a = ap.parse_args()
    global PRICER
    PRICER = a.pricer
    rs = rows()
    before = defaults(a.stacks)
    start, hold = dict(before), set()
    for h in a.hold:
        name, eq, value = h.partition("=")
        if not eq or name not in before:
            ap.error(f"--hold {h}: expected NAME=VALUE with NAME one of {', '.join(before)}")
        try:
            start[name] = float(value)
        except ValueError:
            ap.error(f"--hold {h}: {value!r} is not a number")
        hold.add(name)
    print(f"{len(rs)} calibration rows; defaults {before}, loss {loss(rs, before):.4f}")
    fitted, l = fit(rs, start, a.rounds, hold)
    print(f"fitted {json.dumps({k: float(f'{v:.3g}') for k, v in fitted.items()})}, loss {l:.4f}")
    print(f"{'row':5} {'figure':60} {'published':>10} {'before':>10} {'after':>10}")
    for rid, fig, pub, u, c in rs:
        b, f = model_value(c, before, u), model_value(c, fitted, u)
        print(f"{rid:5} {fig[:60]:60} {pub:10.4g} {b:10.4g} {f:10.4g}  {100 * (f / pub - 1):+.0f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
