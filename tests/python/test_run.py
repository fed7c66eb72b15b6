"""trnsim.run and friends equal the CLI: every example's report byte for byte, traces,
describe, collectives and links."""
import json
import pathlib

import pytest

import trnsim
from conftest import SOURCE_DIR, canonical, cli

EXAMPLES = sorted((SOURCE_DIR / "examples").glob("*.json"))


def test_examples_are_the_bundled_ones():
    assert EXAMPLES, "no examples found"
    assert trnsim.examples() == [p.stem for p in EXAMPLES]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_report_equals_the_cli(path):
    want = cli("run", path.relative_to(SOURCE_DIR), "--json").stdout
    # The exact bytes from a file path, and the same report from every other scenario form.
    assert trnsim.run_json(path.relative_to(SOURCE_DIR)) == want
    as_dict = json.loads(path.read_text())
    assert canonical(trnsim.run(as_dict)) == canonical(want)
    assert canonical(trnsim.run(path.read_text())) == canonical(want)
    assert canonical(trnsim.run(trnsim.example(path.stem))) == canonical(want)
    assert trnsim.run_json(as_dict) == want


def test_default_scenario_time_per_output_token_equals_the_cli():
    want = json.loads(cli("run", "examples/default.json", "--json").stdout)
    tpot = trnsim.run()["primary"]["result"]["inference"]["tpot_s"]
    assert tpot == want["primary"]["result"]["inference"]["tpot_s"]
    assert tpot > 0
    assert trnsim.default_scenario() == trnsim.scenario(SOURCE_DIR / "examples/default.json")


def test_trace_equals_the_cli(tmp_path):
    out = tmp_path / "t.json"
    cli("run", "examples/default.json", "--trace", out)
    assert canonical(trnsim.trace(trnsim.example("default"))) == canonical(out.read_text())


@pytest.mark.parametrize("system", ["trainium3", "trn2-ultraserver", "trn3-gen2-ultraserver",
                                    "trn2-ultracluster:4", "trainium3+nki-guide", "gb200-nvl72+hbm-192",
                                    "dgx-h100"])
def test_describe_equals_the_cli(system):
    assert canonical(trnsim.describe(system)) == canonical(cli("describe", system, "--json").stdout)


def test_systems_are_the_describable_ones():
    names = trnsim.systems()
    assert "trn3-gen2-ultraserver" in names and names == sorted(names)
    for n in names:
        assert trnsim.describe(n)["chips"] >= 1


@pytest.mark.parametrize("system,op,size,extra", [
    ("trn3-gen2-ultraserver", "all-reduce", 1 << 20, {}),
    ("trn2-ultraserver", "all-gather", 64 << 10, {"ranks": 16}),
    ("trn2-ultracluster:4", "all-to-all", 1 << 26, {"backend": "event", "ranks": 64, "stride": 2}),
    ("trn3-gen2-ultraserver", "reduce-scatter", 1 << 24, {"algo": "ring"}),
])
def test_collective_equals_the_cli(system, op, size, extra):
    args = ["collective", "--system", system, "--op", op, "--bytes", str(size), "--json"]
    for k, v in extra.items():
        args += ["--" + k, str(v)]
    want = json.loads(cli(*args).stdout)
    got = trnsim.collective(system, op, size, **extra)
    row = want["results"][0]
    for key in ("bytes", "time_s", "algbw_bytes_per_s", "busbw_bytes_per_s", "algorithm", "steps", "overhead_s",
                "latency_s"):
        assert got[key] == row[key], key
    for key in ("system", "op", "ranks", "stride", "backend"):
        assert got[key] == want[key], key


def test_link_round_trip_equals_the_cli(tmp_path):
    for path in EXAMPLES:
        rel = path.relative_to(SOURCE_DIR)
        url = cli("link", "encode", rel).stdout.strip()
        assert trnsim.link.encode(rel) == url
        assert trnsim.link.encode(json.loads(path.read_text())) == url
        assert trnsim.link.decode(url) == json.loads(cli("link", "decode", url).stdout)
        assert trnsim.link.decode(url) == trnsim.scenario(rel)
    base = "https://example.org/trnsim/"
    assert trnsim.link.encode(None, base=base) == cli("link", "encode", "examples/default.json", "--base", base).stdout.strip()


def test_version_matches_the_cli():
    assert cli("--version").stdout.strip() == "trnsim " + trnsim.__version__


def test_validate_equals_the_cli():
    want = cli("validate", "--json").stdout
    seen = []
    got = trnsim.validate(lambda done, total: seen.append((done, total)))
    assert got == json.loads(want)
    assert seen and seen[-1][0] == seen[-1][1] == len(got["rows"])
    assert [d for d, _ in seen] == list(range(1, len(got["rows"]) + 1))


def test_validate_with_the_engine_pricer_equals_the_cli():
    want = json.loads(cli("validate", "--pricer", "engine", "--json").stdout)
    got = trnsim.validate(pricer="engine")
    assert got == want and got["pricer"] == "engine"
    with pytest.raises(trnsim.InputError) as e:
        trnsim.validate(pricer="nope")
    assert e.value.field == "--pricer" and "one of: roofline, engine" in str(e.value)


def test_model_config_by_path_equals_the_same_config_inline(tmp_path, monkeypatch):
    """"workload.model": "configs/x.json" reads the file beside a scenario path (else in the
    working directory) and reports as the config inline does with the path as its
    _name_or_path (what names the model in reports); a missing file is an InputError."""
    config = json.loads((SOURCE_DIR / "examples/models/Qwen3-235B-A22B.json").read_text())
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs/my-model.json").write_text(json.dumps(config))
    body = {"system": "trn3-gen2-ultraserver", "workload": {"parallelism": {"tp": 16},
            "inference": {"batch": 2, "input_tokens": 256, "output_tokens": 16}}}
    by_path = json.loads(json.dumps(body))
    by_path["workload"]["model"] = "configs/my-model.json"
    inline = json.loads(json.dumps(body))
    inline["workload"]["model"] = {**config, "_name_or_path": "configs/my-model.json"}
    (tmp_path / "scenario.json").write_text(json.dumps(by_path))
    want = trnsim.run_json(inline)
    assert trnsim.run_json(tmp_path / "scenario.json") == want  # beside the scenario file
    monkeypatch.chdir(tmp_path)
    assert trnsim.run_json(by_path) == want  # a dict: the working directory
    assert trnsim.link.encode(by_path) == trnsim.link.encode(inline)
    by_path["workload"]["model"] = "configs/missing.json"
    with pytest.raises(trnsim.InputError) as e:
        trnsim.run(by_path)
    assert e.value.field == "workload.model" and "no such file" in e.value.message
    # A sweep: a base file naming the config by path, and model paths in the grid, both resolve
    # as the CLI resolves them and give the points of the config inline.
    (tmp_path / "inline.json").write_text(json.dumps(inline))
    grid = {"workload.inference.batch": [1, 2]}
    want_points = list(trnsim.sweep({"base": str(tmp_path / "inline.json"), "grid": grid}))
    (tmp_path / "sweeps").mkdir()
    (tmp_path / "sweeps/s.json").write_text(json.dumps({"base": "../scenario.json", "grid": grid}))
    monkeypatch.chdir(SOURCE_DIR)
    assert list(trnsim.sweep(tmp_path / "sweeps/s.json")) == want_points
    spec = {"base": str(tmp_path / "inline.json"), "grid": {"workload.model": ["configs/my-model.json"], **grid}}
    monkeypatch.chdir(tmp_path)
    got = list(trnsim.sweep(spec))
    assert [p["point"]["workload.model"] for p in got] == ["configs/my-model.json"] * 2
    assert [p["primary"] for p in got] == [p["primary"] for p in want_points]


def test_gpu_collective_equals_the_cli():
    # NCCL's algorithms and protocols on an NVIDIA node: the same row as `trnsim collective --json`.
    for algo, protocol in (("auto", "auto"), ("ring", "ll128")):
        got = trnsim.collective("dgx-h100", "all-reduce", 1 << 30, algo=algo, protocol=protocol)
        want = json.loads(cli("collective", "--system", "dgx-h100", "--op", "all-reduce", "--bytes", "1G",
                              "--algo", algo, "--protocol", protocol, "--json").stdout)["results"][0]
        for key in ("time_s", "busbw_bytes_per_s", "algorithm", "protocol"):
            assert got[key] == want[key], key
    assert trnsim.collective("dgx-h100", "all-reduce", 1 << 30)["algorithm"] == "nvls"
    with pytest.raises(trnsim.InputError, match="protocol"):
        trnsim.collective("dgx-h100", "all-reduce", 1 << 30, protocol="ll256")
