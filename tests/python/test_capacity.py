"""trnsim.capacity equals `trnsim capacity --json` byte for byte (one thread or two) on a small
plan and on every capacity example, its answer served again meets the targets, and errors are
trnsim.InputError naming the field."""
import json

import pytest

import trnsim
from conftest import SOURCE_DIR, cli

PLAN = {"version": 1, "system": "trn2-48xlarge", "compare_system": "",
        "workload": {"model": "Llama-3.1-8B", "inference": {"input_tokens": 1000, "output_tokens": 100},
                     "stack": "plain"},
        "serve": {"arrivals": "poisson", "rate": 20, "requests": 80,
                  "targets": {"ttft_s": 0.5, "tpot_s": 0.02, "fraction": 0.9}},
        "capacity": {"systems": "trn2-48xlarge", "tp": [1, 2, 4], "batch_slots": [4, 32],
                     "schedulers": "chunked, prefill_first", "max_chips": 16}}


def test_capacity_equals_the_cli(tmp_path):
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(PLAN))
    want = cli("capacity", path, "--json").stdout
    assert trnsim.capacity_json(path) == want
    assert trnsim.capacity_json(PLAN, jobs=2) == want
    plan = trnsim.capacity(PLAN)
    best = plan["best"][0]["configuration"]
    assert best["meets"] and best["attainment"] >= 0.9
    # Served again on its own, the chosen deployment meets the targets.
    f = best["family"]
    again = json.loads(json.dumps(PLAN))
    del again["capacity"]
    again["system"] = best["deployment_system"]
    again["workload"]["parallelism"] = {"tp": f["tp"], "ep": f["ep"], "pp": f["pp"], "dp": best["replicas"]}
    again["serve"].update({"max_num_seqs": f["batch_slots"], "scheduler": f["scheduler"] or "chunked"})
    served = trnsim.serve(again)["serve"]
    assert served["goodput"]["attainment"] == pytest.approx(best["attainment"], abs=1e-12)


@pytest.mark.parametrize("example", sorted(p.name for p in (SOURCE_DIR / "examples").glob("capacity-*.json")))
def test_capacity_examples_equal_the_cli(example):
    path = SOURCE_DIR / "examples" / example
    assert trnsim.capacity_json(path, jobs=2) == cli("capacity", path, "--json").stdout


@pytest.mark.parametrize("change, field", [
    ({"capacity": {"systems": "trn9-ultraserver"}}, "capacity.systems"),
    ({"capacity": {"weights": "int3"}}, "capacity.weights"),
    ({"serve": {"targets": {"tpot_s": 1e-5}}}, "serve.targets.tpot_s"),
])
def test_capacity_errors_name_the_field(change, field):
    plan = json.loads(json.dumps(PLAN))
    for key, part in change.items():
        for k, v in part.items():
            if isinstance(v, dict):
                plan[key][k].update(v)
            else:
                plan[key][k] = v
    with pytest.raises(trnsim.InputError) as e:
        trnsim.capacity(plan)
    assert e.value.field == field
    with pytest.raises(trnsim.InputError) as e:
        trnsim.capacity(PLAN, jobs=0)
    assert e.value.field == "jobs"
