"""trnsim.sweep: the core's sweep (core/sweep, bound as _trnsim.Sweep) driven from Python --
base resolution like the CLI's, shards, threads in a bounded window, points in index order."""
from __future__ import annotations

import collections
import concurrent.futures
import json
import os
from typing import Any, Callable, Dict, Iterator, Mapping, Optional, Tuple, Union

from . import _trnsim
from ._errors import input_error


def _base_text(spec: Any, folder: str) -> Tuple[str, str]:
    """The scenario text a string "base" names -- a file relative to `folder`, else an embedded
    example -- and the folder the files it names (a model config by path) resolve in."""
    base = spec.get("base") if isinstance(spec, dict) else None
    if not isinstance(base, str):
        return "", folder  # an object base (or none: the core names the problem)
    local = base if os.path.isabs(base) or not base else os.path.join(folder, base)
    try:
        with open(local, encoding="utf-8") as f:
            return f.read(), os.path.dirname(local)
    except OSError:
        text = _trnsim.embedded_text(base)
        if text is None:
            raise input_error("sweep.base", f"no file '{local}' and no embedded example '{base}'") from None
        return text, folder


def _shard(shard: Union[str, Tuple[int, int], None]) -> Optional[Tuple[int, int]]:
    if shard is None:
        return None
    if isinstance(shard, str):
        i, sep, n = shard.partition("/")
        if not (sep and i.isdigit() and n.isdigit()):
            raise input_error("shard", f"expected I/N with 0 <= I < N, got '{shard}'")
        shard = (int(i), int(n))
    i, n = shard
    if not (0 <= i < n):
        raise input_error("shard", f"expected I/N with 0 <= I < N, got '{i}/{n}'")
    return i, n


def run_sweep(sweep: Union[Mapping[str, Any], str, "os.PathLike[str]"], *, jobs: int,
              shard: Union[str, Tuple[int, int], None], full: bool,
              callback: Optional[Callable[[int, int], None]]) -> Iterator[Dict[str, Any]]:
    if isinstance(sweep, Mapping):
        text, what, folder = json.dumps(sweep, ensure_ascii=False), "sweep", os.getcwd()
    elif isinstance(sweep, (str, os.PathLike)):
        what = os.fspath(sweep)
        try:
            with open(what, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise input_error(what, "cannot open file (" + (e.strerror or str(e)) + ")") from None
        folder = os.path.dirname(what)
    else:
        raise TypeError("sweep must be a dict or a path to a sweep file, not " + type(sweep).__name__)
    try:
        spec = json.loads(text)
    except ValueError:
        spec = None  # the core reports the syntax error with its position
    base_text, base_dir = _base_text(spec, folder)
    s = _trnsim.sweep_parse(text, what, base_text, base_dir, folder)
    if full:
        s.full = True
    jobs = int(jobs)
    if not 1 <= jobs <= 256:
        raise input_error("jobs", f"must be between 1 and 256, got {jobs}")
    first, last = 0, s.points()
    sh = _shard(shard)
    if sh is not None:
        first, last = _trnsim.sweep_shard_range(last, *sh)
    return _points(s, first, last, jobs, callback)


def _points(s: Any, first: int, last: int, jobs: int, callback: Optional[Callable[[int, int], None]]) -> Iterator[Dict[str, Any]]:
    total = last - first

    def done(k: int) -> None:
        if callback is not None:
            callback(k, total)

    if jobs == 1:
        for k, index in enumerate(range(first, last), 1):
            point = json.loads(_trnsim.sweep_point(s, index))
            done(k)
            yield point
        return
    # A bounded window of futures: memory stays flat however large the sweep.
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        window: "collections.deque[concurrent.futures.Future[str]]" = collections.deque()
        next_index, k = first, 0
        while next_index < last or window:
            while next_index < last and len(window) < 4 * jobs:
                window.append(pool.submit(_trnsim.sweep_point, s, next_index))
                next_index += 1
            point = json.loads(window.popleft().result())
            k += 1
            done(k)
            yield point
