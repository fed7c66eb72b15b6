"""The README's documented line of Python works from the source folder and prints the default
scenario's time per output token, equal to the CLI's."""
import json
import os
import re
import subprocess

from conftest import SOURCE_DIR, cli


def test_readme_one_line_prints_the_cli_tpot():
    readme = (SOURCE_DIR / "README.md").read_text()
    section = readme.split("## Python", 1)[1].split("\n## ", 1)[0]
    line = re.search(r"^PYTHONPATH=build/native/python /usr/bin/python3 -c .*$", section, re.M).group(0)
    build = os.environ.get("TRNSIM_BUILD_DIR", str(SOURCE_DIR / "build/native"))
    line = line.replace("PYTHONPATH=build/native/python", f"PYTHONPATH={build}/python", 1)
    p = subprocess.run(["bash", "-c", line], capture_output=True, text=True, cwd=SOURCE_DIR)
    assert p.returncode == 0, p.stderr
    want = json.loads(cli("run", "examples/default.json", "--json").stdout)["primary"]["result"]["inference"]["tpot_s"]
    assert float(p.stdout) == want
