"""`pip install` of the source tree into a virtual environment, offline, as the README says:
the installed package (extension, stubs, py.typed) imports outside the source tree and prints
the default scenario's time per output token equal to the CLI's."""
import json
import os
import pathlib
import subprocess
import sys

from conftest import SOURCE_DIR, cli


def test_pip_install_into_a_venv(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    # Reuse this build (ctest passes it) instead of configuring a fresh one.
    env["TRNSIM_BUILD_DIR"] = os.environ.get("TRNSIM_BUILD_DIR", str(SOURCE_DIR / "build/native"))
    pip = subprocess.run([str(venv / "bin/pip"), "install", "--no-build-isolation", "--no-index", str(SOURCE_DIR / "python")],
                         capture_output=True, text=True, env=env)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    one_line = 'import trnsim; print(trnsim.run()["primary"]["result"]["inference"]["tpot_s"])'
    run = subprocess.run([str(venv / "bin/python"), "-c", one_line], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    want = json.loads(cli("run", "examples/default.json", "--json").stdout)["primary"]["result"]["inference"]["tpot_s"]
    assert float(run.stdout) == want
    where = subprocess.run([str(venv / "bin/python"), "-c", "import trnsim, os; print(os.path.dirname(trnsim.__file__))"],
                           capture_output=True, text=True, env=env, cwd=tmp_path).stdout.strip()
    installed = pathlib.Path(where)
    assert installed.is_relative_to(venv), where
    names = {p.name for p in installed.iterdir()}
    assert {"__init__.py", "mx.py", "plot.py", "link.py", "_trnsim.pyi", "py.typed"} <= names, names
    assert any(n.startswith("_trnsim.") and n.endswith(".so") for n in names), names
