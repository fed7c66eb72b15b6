"""Stopgap: trnsim.sweep through the `trnsim sweep` command of the same build, until the
core's sweep module (core/sweep/, the lead's issue-9 redesign) can be bound directly.
Grid expansion stays in one place (the CLI today); nothing of it is reimplemented here.
"""
from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
from typing import Any, Callable, Dict, Iterator, Mapping, Optional, Union

from ._errors import input_error

_PREFIX = "trnsim sweep: error: "


def cli_path() -> str:
    """TRNSIM, else the CLI of the build this package sits in (build/native/python/trnsim), else PATH."""
    if os.environ.get("TRNSIM"):
        return os.environ["TRNSIM"]
    here = pathlib.Path(__file__).resolve().parent
    beside = here.parent.parent / "trnsim"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which("trnsim")
    if found:
        return found
    raise RuntimeError("trnsim.sweep needs the trnsim CLI until core/sweep lands: set TRNSIM to build/native/trnsim")


def _raise_cli_error(stderr: str) -> None:
    message = stderr.strip().splitlines()[-1] if stderr.strip() else "trnsim sweep failed"
    if message.startswith(_PREFIX):
        text = message[len(_PREFIX):]
        field, sep, problem = text.partition(": ")
        raise input_error(field, problem) if sep else input_error("", text)
    raise RuntimeError(message)


def run_sweep(sweep: Union[Mapping[str, Any], str, "os.PathLike[str]"], *, jobs: int, shard: Optional[str], full: bool,
              callback: Optional[Callable[[int, Optional[int]], None]]) -> Iterator[Dict[str, Any]]:
    if isinstance(sweep, Mapping):
        path, stdin_text = "-", json.dumps(sweep, ensure_ascii=False)  # relative bases: from the working directory
    elif isinstance(sweep, (str, os.PathLike)):
        path, stdin_text = os.fspath(sweep), None
    else:
        raise TypeError("sweep must be a dict or a path to a sweep file, not " + type(sweep).__name__)
    args = [cli_path(), "sweep", path, "--jobs", str(int(jobs)), "--no-progress"]
    if shard is not None:
        args += ["--shard", str(shard)]
    if full:
        args.append("--full")

    def points() -> Iterator[Dict[str, Any]]:
        with subprocess.Popen(args, stdin=subprocess.PIPE if stdin_text is not None else subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8") as p:
            if stdin_text is not None:
                p.stdin.write(stdin_text)
                p.stdin.close()
            done = 0
            for line in p.stdout:
                done += 1
                yield json.loads(line)
                if callback is not None:
                    callback(done, None)
            stderr = p.stderr.read()
            if p.wait() != 0:
                _raise_cli_error(stderr)

    return points()
