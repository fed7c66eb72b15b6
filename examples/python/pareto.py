#!/usr/bin/env python3
# %% [markdown]
# # Which placement of gpt-oss-120b gives the most tokens per chip within a latency target?
#
# A notebook-style script (cells marked `# %%`, runnable as a whole or cell by cell in an
# editor): it sweeps tensor parallelism and batch on a Trn3 Gen2 UltraServer and a Trn2
# UltraServer, draws the Pareto front of output throughput per chip against time per output
# token for each system, and prints the best point under a time-per-token target.
#
#   PYTHONPATH=build/native/python /usr/bin/python3 examples/python/pareto.py [--tpot-ms 10] [-o pareto.png]
#
# (or, after `pip install --no-build-isolation ./python` in a venv, with that venv's python).

# %%
import argparse
import pathlib

import matplotlib

matplotlib.use("Agg")  # write files; no display needed

import trnsim
import trnsim.plot

here = pathlib.Path(__file__).resolve().parent
ap = argparse.ArgumentParser(description=__doc__)
ap.add_argument("--tpot-ms", type=float, default=10.0, help="time-per-output-token target (ms)")
ap.add_argument("-o", "--output", default="pareto.png", help="chart file (.png, .svg, .pdf)")
args = ap.parse_args()

# %% The sweep: 2 systems x 4 TP degrees x 9 batch sizes, on the bundled gpt-oss example.
sweep = {
    "base": str(here.parent / "gpt-oss-120b-trn3-gen2.json"),
    "grid": {
        "compare_system": [""],
        "system": ["trn3-gen2-ultraserver", "trn2-ultraserver"],
        "workload.parallelism.tp": [1, 2, 4, 8],
        "workload.inference.batch": [1, 2, 4, 8, 16, 32, 64, 128, 256],
    },
}
points = list(trnsim.sweep(sweep, jobs=2))
ran = [p for p in points if p["ok"]]
print(f"{len(points)} points, {len(ran)} ran ({len(points) - len(ran)} do not fit or cannot be placed)")

# %% The Pareto chart: one front per system.
ax = trnsim.plot.pareto(points, color="system", title="gpt-oss-120b: throughput per chip vs time per token")
ax.axvline(args.tpot_ms, color="gray", linestyle="--", linewidth=1)
ax.figure.savefig(args.output, dpi=120)
print(f"chart: {args.output}")

# %% The best point per system under the target, and how the systems compare there.
best = {}
for p in ran:
    m = p["primary"]
    if m["tpot_s"] * 1e3 <= args.tpot_ms:
        s = m["system"]
        if s not in best or m["output_tokens_per_s_per_chip"] > best[s]["primary"]["output_tokens_per_s_per_chip"]:
            best[s] = p
for system, p in best.items():
    m, g = p["primary"], p["point"]
    print(f"best on {system} with TPOT <= {args.tpot_ms:g} ms: TP{g['workload.parallelism.tp']} x batch "
          f"{g['workload.inference.batch']}: {m['output_tokens_per_s_per_chip']:.1f} output tokens/s per chip, "
          f"TPOT {m['tpot_s'] * 1e3:.2f} ms, TTFT {m['ttft_s'] * 1e3:.1f} ms (point {p['index']})")
if len(best) == 2:
    a, b = (best[s]["primary"]["output_tokens_per_s_per_chip"] for s in ("trn3-gen2-ultraserver", "trn2-ultraserver"))
    print(f"Trn3 / Trn2 per chip at the target: {a / b:.2f}x")
