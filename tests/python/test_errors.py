"""Bad input raises trnsim.InputError carrying the field path and the CLI's exit-2 message."""
import json

import numpy as np
import pytest

import trnsim
from conftest import SOURCE_DIR, cli


def default_with(path, value):
    s = trnsim.example("default")
    node = s
    keys = path.split(".")
    for k in keys[:-1]:
        node = node.setdefault(k, {})
    node[keys[-1]] = value
    return s


SCENARIO_CASES = [  # (dotted path, bad value, expected field)
    ("workload.inference.batch", 0, "workload.inference.batch"),
    ("workload.inference.bach", 4, "workload.inference.bach"),
    ("workload.parallelism.tp", "eight", "workload.parallelism.tp"),
    ("workload.precision.weights", "fp3", "workload.precision.weights"),
    ("system", "trn9-ultraserver", "system"),
    ("workload.model", "no-such-model", "workload.model"),
    ("workload.efficiency.compute", 1.5, "workload.efficiency.compute"),
]


@pytest.mark.parametrize("path,value,field", SCENARIO_CASES, ids=[c[0] + "=" + str(c[1]) for c in SCENARIO_CASES])
def test_scenario_errors_name_the_field_like_the_cli(tmp_path, path, value, field):
    s = default_with(path, value)
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(s))
    p = cli("run", f, check=False)
    assert p.returncode == 2
    cli_message = p.stderr.strip().removeprefix("trnsim run: error: ")
    with pytest.raises(trnsim.InputError) as info:
        trnsim.run(s)
    e = info.value
    assert isinstance(e, ValueError)
    assert e.field == field
    assert str(e) == cli_message == f"{e.field}: {e.message}"
    assert e.message  # the problem, not empty


def test_a_workload_that_does_not_fit_names_the_placement():
    s = default_with("workload.parallelism.tp", 1)
    s["system"] = "trn2-48xlarge"
    s["workload"]["model"] = "DeepSeek-V3"
    with pytest.raises(trnsim.InputError) as info:
        trnsim.run(s)
    assert info.value.field.startswith("workload.parallelism")
    assert "does not fit" in info.value.message


def test_syntax_errors_and_wrong_types():
    with pytest.raises(trnsim.InputError) as info:
        trnsim.run('{"system": ')
    assert info.value.field == "scenario"
    with pytest.raises(trnsim.InputError) as info:
        trnsim.run(SOURCE_DIR / "examples/nope.json")
    assert info.value.field.endswith("nope.json")
    with pytest.raises(TypeError):
        trnsim.run(42)


def test_other_entry_points_raise_input_error():
    cases = [
        (lambda: trnsim.describe("trainium9"), None),
        (lambda: trnsim.collective("trn3-gen2-ultraserver", "all-sum", 1024), None),
        (lambda: trnsim.collective("trn3-gen2-ultraserver", "all-reduce", -1), "bytes"),
        (lambda: trnsim.collective("trn3-gen2-ultraserver", "all-reduce", 1024, ranks=100000), None),
        (lambda: trnsim.link.decode("http://127.0.0.1:8080/#s=1.!!!"), "link"),
        (lambda: trnsim.link.decode("hello"), "link"),
        (lambda: trnsim.example("defualt"), "example"),
        (lambda: trnsim.mx.quantize(np.zeros(32, np.float32), "e9m9"), "format"),
        (lambda: trnsim.mx.quantize(np.zeros(32, np.float32), "e2m1", scale="nki"), "scale"),
        (lambda: trnsim.mx.quantize(np.zeros(32, np.float32), "e4m3", overflow="wrap"), "overflow"),
        (lambda: trnsim.mx.quantize(np.zeros(32, np.float32), "e4m3", path="neon"), "path"),
        (lambda: trnsim.mx.dot(np.zeros(32, np.float32), np.zeros(64, np.float32), a_format="e4m3", b_format="e4m3"), "dot"),
        (lambda: trnsim.mx.error("e4m3", dist="cauchy"), "dist"),
    ]
    for fn, field in cases:
        with pytest.raises(trnsim.InputError) as info:
            fn()
        e = info.value
        assert str(e) == (f"{e.field}: {e.message}" if e.field else e.message)
        if field is not None:
            assert e.field == field, str(e)
    assert "did you mean 'default'" in str(pytest.raises(trnsim.InputError, trnsim.example, "defualt").value)


def test_cli_and_python_agree_on_describe_and_collective_errors():
    p = cli("describe", "trainium9", check=False)
    with pytest.raises(trnsim.InputError) as info:
        trnsim.describe("trainium9")
    assert p.returncode == 2 and p.stderr.strip() == "trnsim describe: error: " + str(info.value)
    p = cli("collective", "--system", "trn3-gen2-ultraserver", "--op", "all-sum", "--bytes", "1K", check=False)
    with pytest.raises(trnsim.InputError) as info:
        trnsim.collective("trn3-gen2-ultraserver", "all-sum", 1024)
    assert p.returncode == 2 and p.stderr.strip() == "trnsim collective: error: " + str(info.value)


def test_help_and_docstrings():
    assert "report" in trnsim.run.__doc__ and "InputError" in trnsim.run_json.__doc__
    assert trnsim.InputError.__doc__ and "field" in trnsim.InputError.__doc__
    for name in trnsim.__all__:
        obj = getattr(trnsim, name)
        if callable(obj) and name not in ("Scenario",):
            assert obj.__doc__, name
    for name in trnsim.mx.__all__:
        obj = getattr(trnsim.mx, name)
        if callable(obj):
            assert obj.__doc__, "mx." + name
