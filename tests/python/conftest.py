"""Shared fixtures of the Python tests: the CLI built beside the module, and the source tree.

ctest sets TRNSIM (the CLI), TRNSIM_SOURCE_DIR and PYTHONPATH (build/native/python); run by
hand: PYTHONPATH=build/native/python /usr/bin/python3 -m pytest tests/python
"""
import json
import os
import pathlib
import subprocess

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("TRNSIM_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
CLI = os.environ.get("TRNSIM", str(SOURCE_DIR / "build/native/trnsim"))


def cli(*args, input=None, check=True):
    """Runs the trnsim CLI; returns the CompletedProcess (stdout/stderr as text unless input is bytes)."""
    text = not isinstance(input, (bytes, bytearray))
    p = subprocess.run([CLI, *map(str, args)], input=input, capture_output=True, text=text, cwd=SOURCE_DIR)
    if check and p.returncode != 0:
        raise AssertionError(f"trnsim {' '.join(map(str, args))} exited {p.returncode}: {p.stderr}")
    return p


def canonical(obj_or_text):
    """The canonical dump both sides are compared in: parsed, keys sorted, no whitespace."""
    obj = json.loads(obj_or_text) if isinstance(obj_or_text, (str, bytes)) else obj_or_text
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@pytest.fixture(scope="session")
def source_dir():
    return SOURCE_DIR
