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


def _eos_scenario(output, requests=3000):
    return {"system": "trn2-48xlarge", "compare_system": "", "workload": {"model": "Llama-3.1-8B", "stack": "plain"},
            "serve": {"arrivals": "constant", "rate": 0.5, "requests": requests, "warmup_requests": 0,
                      "output_tokens": output}}


def test_outputs_stopping_at_eos_average_the_stated_mean():
    # guidellm sends its draw as max_tokens and vLLM stops at EOS: with eos_mean the served
    # outputs (output tokens / requests) average eos_mean while no request runs past its draw.
    drawn = {"distribution": "normal", "mean": 250, "spread": 4.47, "max": 350}
    full = trnsim.serve(_eos_scenario(drawn))["serve"]
    for eos in (236.6, 191.1, 120.0):
        s = trnsim.serve(_eos_scenario(dict(drawn, eos_mean=eos)))["serve"]
        served = s["metrics"]["serve_output_tokens_per_s"] / s["metrics"]["serve_request_rate"]
        assert abs(served / eos - 1) < 0.03, (eos, served)
        assert "outputs stop at EOS" in s["source"]
        assert s["metrics"]["serve_output_tokens_per_s"] < full["metrics"]["serve_output_tokens_per_s"]
    # a stop that cannot shorten anything (fixed draws at the stated mean) changes nothing
    fixed = {"distribution": "fixed", "mean": 250}
    assert (trnsim.serve(_eos_scenario(dict(fixed, eos_mean=250), 200))["serve"] ==
            trnsim.serve(_eos_scenario(fixed, 200))["serve"])


def test_eos_mean_errors_name_the_field():
    with pytest.raises(trnsim.InputError) as e:
        trnsim.serve(_eos_scenario({"distribution": "fixed", "mean": 250, "eos_mean": 300}))
    assert e.value.field == "serve.output_tokens.eos_mean" and "at most the drawn mean" in str(e.value)
    with pytest.raises(trnsim.InputError) as e:
        trnsim.serve({"workload": {"model": "Llama-3.1-8B"},
                      "serve": {"arrivals": "trace", "output_tokens": {"eos_mean": 100},
                                "trace": {"text": "arrived_at,num_prefill_tokens,num_decode_tokens\n0,10,5\n"}}})
    assert e.value.field == "serve.output_tokens.eos_mean"
    with pytest.raises(trnsim.InputError) as e:
        trnsim.serve(_eos_scenario({"eos_mean": 0.5}))
    assert e.value.field == "serve.output_tokens.eos_mean"
