#!/usr/bin/env python3
"""Refit the calibrated efficiencies on the validation rows marked "calibration": true.

The rows are core/data/validation/*.json (PERF.md measurements only; claims and rows not
marked are never fitted). Each row's own scenario (a serving run, a profiled step) is
evaluated through the Python module with the candidate values set in its workload, and the
fit minimises the sum of squared log errors by coordinate descent (each parameter in turn,
a bracketing search on a log scale, then narrower steps). It prints the fitted values, the
rows before and after, and the field-table lines to change (core/scenario/schema.cpp). It
changes no file: a refit is a reviewed commit that says which rows moved.

  PYTHONPATH=build/native/python /usr/bin/python3 scripts/calibrate.py [--rounds N]

Fitted here: workload.efficiency.compute, workload.efficiency.hbm,
workload.efficiency.kernel_overhead_s. Not fitted here: the stack files' runtime costs and the
video efficiencies (their rows and notes say how they were set).
"""
import argparse
import copy
import json
import math
import os
import sys

import trnsim

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(TOP, "core", "data", "validation")
PARAMS = {  # field under workload.efficiency: (lower, upper) of the search
    "compute": (0.1, 1.0),
    "hbm": (0.3, 1.0),
    "kernel_overhead_s": (1e-6, 1e-4),
}
SCALE = {"s": 1.0, "ms": 1e3, "us": 1e6, "tok/s": 1.0}


def rows():
    out = []
    for f in sorted(os.listdir(DATA)):
        for r in json.load(open(os.path.join(DATA, f)))["rows"]:
            c = r["compute"]
            if not r.get("calibration") or not ("serve" in c or ("scenario" in c and "phase" in c)):
                continue
            unit = r["published"]["unit"]
            if unit not in SCALE:
                continue
            out.append((r["id"], r["figure"], r["published"]["value"], unit, c))
    return out


def with_values(scenario, values):
    s = copy.deepcopy(scenario)
    eff = s.setdefault("workload", {}).setdefault("efficiency", {})
    for k, v in values.items():
        eff.setdefault(k, v)  # a row that states its own value keeps it
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


def defaults():
    """The field table's values of the fitted parameters, as the canonical scenario of any run states them."""
    eff = trnsim.run({"workload": {"model": "Llama-3.1-8B"}})["scenario"]["workload"]["efficiency"]
    return {k: eff[k] for k in PARAMS}


def loss(rs, values):
    return sum(math.log(model_value(c, values, u) / pub) ** 2 for _, _, pub, u, c in rs)


def fit(rs, start, rounds):
    best = dict(start)
    cur = loss(rs, best)
    step = 0.25  # in log space
    for _ in range(rounds):
        for k, (lo, hi) in PARAMS.items():
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
    a = ap.parse_args()
    rs = rows()
    before = defaults()
    print(f"{len(rs)} calibration rows; defaults {before}, loss {loss(rs, before):.4f}")
    fitted, l = fit(rs, before, a.rounds)
    print(f"fitted {json.dumps({k: float(f'{v:.3g}') for k, v in fitted.items()})}, loss {l:.4f}")
    print(f"{'row':5} {'figure':60} {'published':>10} {'before':>10} {'after':>10}")
    for rid, fig, pub, u, c in rs:
        b, f = model_value(c, before, u), model_value(c, fitted, u)
        print(f"{rid:5} {fig[:60]:60} {pub:10.4g} {b:10.4g} {f:10.4g}  {100 * (f / pub - 1):+.0f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
