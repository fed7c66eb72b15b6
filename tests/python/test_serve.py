"""trnsim.serve equals `trnsim serve --json`: every serving example byte for byte, a trace
file beside a scenario file, the rate search, and errors as trnsim.InputError naming the field."""
import json
import pathlib

import pytest

import trnsim
from conftest import SOURCE_DIR, canonical, cli

SERVING = sorted((SOURCE_DIR / "examples").glob("serve-*.json"))


@pytest.mark.parametrize("path", SERVING, ids=lambda p: p.stem)
def test_every_serving_example_equals_the_cli(path):
    want = cli("serve", path.relative_to(SOURCE_DIR), "--json").stdout
    assert trnsim.serve_json(path.relative_to(SOURCE_DIR)) == want
    assert canonical(trnsim.serve(json.loads(path.read_text()))) == canonical(want)


def test_serve_reads_a_trace_beside_the_scenario_file(tmp_path):
    (tmp_path / "t.csv").write_text("arrived_at,num_prefill_tokens,num_decode_tokens\n0.0,591,140\n0.2,547,24\n")
    scenario = {"system": "trn2-48xlarge", "compare_system": "", "workload": {"model": "Llama-3.1-8B"},
                "serve": {"arrivals": "trace", "trace": {"file": "t.csv"}}}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(scenario))
    report = trnsim.serve(path)
    assert report["serve"]["requests"]["measured"] == 2
    assert trnsim.serve_json(path) == cli("serve", path, "--json").stdout


def test_rate_search_and_metrics():
    scenario = {"system": "trn2-48xlarge", "compare_system": "", "workload": {"model": "Llama-3.1-8B"},
                "serve": {"requests": 150, "rate": 2, "max_num_seqs": 16, "targets": {"ttft_s": 0.5, "tpot_s": 0.03}}}
    s = trnsim.serve(scenario, find_rate=True)["serve"]
    assert s["rate_search"]["max_rate"] > 0
    assert s["metrics"]["serve_max_rate"] == s["rate_search"]["max_rate"]
    assert s["latency"]["ttft_s"]["p50"] == s["metrics"]["serve_ttft_p50_s"]


def test_serve_errors_name_the_field():
    with pytest.raises(trnsim.InputError) as e:
        trnsim.serve({"workload": {"model": "Llama-3.1-8B"}, "serve": {"rate": 0}})
    assert e.value.field == "serve.rate"
    with pytest.raises(trnsim.InputError) as e:
        trnsim.serve({"workload": {"model": "Llama-3.1-8B"},
                      "serve": {"arrivals": "trace", "trace": {"text": "arrived_at,num_prefill_tokens,num_decode_tokens\n0,x,1\n"}}})
    assert "line 2" in e.value.field and "num_prefill_tokens" in e.value.field
