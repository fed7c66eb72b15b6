"""trnsim.sweep yields the CLI's points; trnsim.plot draws the same series, fronts, labels and
units as `trnsim plot`; the examples/python script runs end to end."""
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import trnsim
import trnsim.plot
from conftest import SOURCE_DIR, canonical, cli

SWEEP = "examples/sweeps/gpt-oss-batch-tp.json"


@pytest.fixture(scope="module")
def points():
    return list(trnsim.sweep(SWEEP))


def test_sweep_yields_the_cli_points(points):
    want = cli("sweep", SWEEP, "--no-progress").stdout.splitlines()
    assert [canonical(p) for p in points] == [canonical(l) for l in want]
    assert [p["index"] for p in points] == list(range(len(want)))


def test_sweep_from_a_dict_with_shards_jobs_and_a_callback(points):
    spec = json.loads((SOURCE_DIR / SWEEP).read_text())
    spec["base"] = "examples/gpt-oss-120b-trn3-gen2.json"  # relative to the working directory
    calls = []
    shards = [list(trnsim.sweep(spec, shard=f"{i}/3", jobs=2, callback=lambda d, t: calls.append(d))) for i in range(3)]
    assert sum(shards, []) == points
    assert calls == list(range(1, len(shards[0]) + 1)) + list(range(1, len(shards[1]) + 1)) + list(range(1, len(shards[2]) + 1))
    full = list(trnsim.sweep(spec, shard="0/8", full=True))
    assert full[0]["report"]["trnsim"] == trnsim.__version__


def test_sweep_errors_raise_input_error():
    with pytest.raises(trnsim.InputError) as info:
        list(trnsim.sweep({"base": "examples/default.json", "grid": {"system": []}}))
    assert info.value.field == "sweep.grid.system" and "non-empty" in info.value.message
    with pytest.raises(trnsim.InputError) as info:
        list(trnsim.sweep(SWEEP, shard="4/4"))
    assert info.value.field == "shard"
    with pytest.raises(trnsim.InputError) as info:
        list(trnsim.sweep({"base": "nope.json", "grid": {"system": ["trainium3"]}}))
    assert info.value.field == "sweep.base" and "no embedded example 'nope.json'" in info.value.message
    with pytest.raises(trnsim.InputError) as info:
        list(trnsim.sweep({"base": "examples/default.json", "grid": {"workload.inference.bach": [1]}}))
    cli_err = subprocess.run([os.environ.get("TRNSIM", "build/native/trnsim"), "sweep", "-"], input=json.dumps(
        {"base": "examples/default.json", "grid": {"workload.inference.bach": [1]}}), capture_output=True, text=True,
        cwd=SOURCE_DIR).stderr.strip()
    assert cli_err == "trnsim sweep: error: " + str(info.value)


def test_chart_data_equals_the_cli_svg(points, tmp_path):
    data = trnsim.plot.chart(points, "tpot_s", "output_tokens_per_s_per_chip", "system", pareto=True)
    assert data["x"]["label"].lower() == "time per output token" and data["x"]["unit"] == "s" and data["x"]["better"] == -1
    assert data["y"]["display_unit"] == "tokens/s" and data["y"]["better"] == 1
    assert data["failed"] == sum(not p["ok"] for p in points)
    jsonl = tmp_path / "p.jsonl"
    jsonl.write_text("".join(json.dumps(p) + "\n" for p in points))
    assert trnsim.plot.chart(jsonl, "tpot_s", "output_tokens_per_s_per_chip", "system", pareto=True) == data
    svg = ET.fromstring(cli("plot", jsonl, "--pareto", "--color", "system").stdout)
    ns = "{http://www.w3.org/2000/svg}"
    for s in data["series"]:
        g = next(g for g in svg.iter(ns + "g") if g.get("data-name") == s["name"])
        titles = [c.find(ns + "title").text for c in g.findall(ns + "circle")]
        front = sorted(int(re.search(r"point (\d+):", t).group(1)) for t in titles if "(front)" in t)
        assert front == sorted(p[2] for p in s["front"])
        assert len(titles) == len(s["points"]) + len(s["front"])


def test_matplotlib_charts(points, tmp_path):
    ax = trnsim.plot.pareto(points)
    tpot, per_chip = trnsim.plot.metric("tpot_s"), trnsim.plot.metric("output_tokens_per_s_per_chip")
    assert tpot["unit"] == "s" and tpot["better"] == -1 and per_chip["better"] == 1
    assert ax.get_xlabel() == tpot["label"] + " (ms)"  # seconds below one are shown in ms
    assert ax.get_ylabel() == per_chip["label"] + " (tokens/s)"
    assert {t.get_text() for t in ax.get_legend().get_texts()} == {"trn3-gen2-ultraserver", "trn2-ultraserver"}
    ax.figure.savefig(tmp_path / "pareto.svg")
    assert (tmp_path / "pareto.svg").stat().st_size > 1000
    ax = trnsim.plot.sweep(points, x="batch", y="tpot_s", color="system,tp", log_x=True)
    assert ax.get_xscale() == "log" and len(ax.get_lines()) == len({(p["point"]["system"], p["point"]["workload.parallelism.tp"]) for p in points if p["ok"]})
    with pytest.raises(trnsim.InputError) as info:
        trnsim.plot.sweep(points, x="bacth", y="tpot_s")
    assert info.value.field == "x" and "there are: system" in info.value.message


def test_the_example_script_runs(tmp_path):
    out = tmp_path / "pareto.png"
    package_root = os.path.dirname(os.path.dirname(trnsim.__file__))
    env = dict(os.environ, PYTHONPATH=package_root)
    p = subprocess.run([sys.executable, str(SOURCE_DIR / "examples/python/pareto.py"), "-o", str(out)],
                       capture_output=True, text=True, cwd=tmp_path, env=env)
    assert p.returncode == 0, p.stderr
    assert out.stat().st_size > 10000
    best = [l for l in p.stdout.splitlines() if l.startswith("best on ")]
    assert len(best) == 2, p.stdout
    assert "Trn3 / Trn2 per chip at the target" in p.stdout
