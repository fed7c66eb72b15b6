"""trnsim: a model of AWS Trainium2 / Trainium3 systems, from Python.

The same C++ core as the ``trnsim`` command line and the browser playground (bound with
pybind11; nothing is reimplemented here), with JSON as the exchange format: ``run(s)``
returns exactly the report ``trnsim run s.json --json`` prints, as a dict.

    >>> import trnsim
    >>> report = trnsim.run(trnsim.example("default"))
    >>> report["primary"]["result"]["inference"]["tpot_s"]      # time per output token, s
    >>> trnsim.describe("trn3-gen2-ultraserver")["peak_flops"]["mxfp8"]
    >>> trnsim.collective("trn3-gen2-ultraserver", "all-reduce", 1 << 20)["time_s"]
    >>> q = trnsim.mx.quantize(np.random.randn(4096).astype(np.float32), "e2m1")
    >>> trnsim.link.encode(trnsim.default_scenario())

A scenario is a dict (as in examples/*.json), JSON text, a path to a JSON file
(``pathlib.Path``), or None for the playground's default scenario. Bad input raises
:class:`InputError` (a ValueError) whose ``.field`` names the JSON path or option and
whose ``.message`` says what is wrong -- the CLI's exit-2 errors, word for word.

Submodules: :mod:`trnsim.mx` (MX numerics on NumPy arrays), :mod:`trnsim.link`
(playground links), :mod:`trnsim.plot` (matplotlib charts of sweep results).
"""
from __future__ import annotations

import json as _json
import os as _os
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Union

from . import _trnsim
from ._errors import input_error as _input_error

__version__: str = _trnsim.__version__

InputError = _trnsim.InputError
InputError.__module__ = "trnsim"

Scenario = Union[Mapping[str, Any], str, bytes, "_os.PathLike[str]", None]
"""What every function taking a scenario accepts: a dict, JSON text, a file path, or None (the default)."""


def _scenario_text(scenario: Scenario) -> "tuple[str, str]":
    """(JSON text, name used in error messages) for any accepted scenario form."""
    if scenario is None:
        return _trnsim.default_scenario(), "default scenario"
    if isinstance(scenario, Mapping):
        return _json.dumps(scenario, ensure_ascii=False), "scenario"
    if isinstance(scenario, bytes):
        return scenario.decode("utf-8"), "scenario"
    if isinstance(scenario, str):
        return scenario, "scenario"
    if isinstance(scenario, _os.PathLike):
        path = _os.fspath(scenario)
        try:
            with open(path, encoding="utf-8") as f:
                return f.read(), path
        except OSError as e:
            raise _input_error(path, "cannot open file (" + (e.strerror or str(e)) + ")") from None
    raise TypeError("scenario must be a dict, JSON text, a path (os.PathLike) or None, not " + type(scenario).__name__)


def _base_dir(scenario: Scenario) -> str:
    """Where files a scenario names by path are read: beside a scenario file, else the working directory."""
    return _os.path.dirname(_os.fspath(scenario)) if isinstance(scenario, _os.PathLike) else ""


def run_json(scenario: Scenario = None) -> str:
    """The report of a scenario as JSON text, byte for byte what ``trnsim run FILE --json`` prints.

    Raises InputError when the scenario is invalid or its workload cannot run on its system
    (e.g. ``workload.parallelism: does not fit in HBM ...``).
    """
    text, what = _scenario_text(scenario)
    return _trnsim.run_json(text, what, _base_dir(scenario))


def run(scenario: Scenario = None) -> Dict[str, Any]:
    """Evaluate a scenario; returns the report ``trnsim run FILE --json`` prints, as a dict.

    Keys: ``trnsim`` (version), ``scenario`` (canonical, defaults filled), ``primary``
    (``system`` and ``result``: for inference ``result["inference"]["tpot_s"]``, ``ttft_s``,
    ``output_tokens_per_s``...; for training ``result["training"]``; for video
    ``result["video"]["video_s"]``, ``real_time_factor``...), ``compare`` and
    ``ratios`` when the scenario names a comparison system. Units are SI (s, bytes, FLOP/s).

    >>> trnsim.run({"system": "trn2-ultraserver", "workload": {"model": "Llama-3.1-8B"}})
    """
    return _json.loads(run_json(scenario))


def serve_json(scenario: Scenario = None, *, find_rate: bool = False) -> str:
    """The serving report as JSON text, byte for byte what ``trnsim serve FILE --json`` prints.

    ``find_rate`` also searches the highest request rate meeting ``serve.targets`` (as
    ``--find-rate``). A trace file (``serve.trace.file``) is read relative to the scenario
    file when ``scenario`` is a path, else to the working directory.
    """
    text, what = _scenario_text(scenario)
    return _trnsim.serve_json(text, what, bool(find_rate), _base_dir(scenario))


def serve(scenario: Scenario = None, *, find_rate: bool = False) -> Dict[str, Any]:
    """Simulate serving a scenario's requests (``trnsim serve FILE --json``), as a dict.

    The scenario's ``serve`` object says how requests arrive (Poisson, gamma, constant,
    a burst, closed-loop clients, agentic sessions, a trace) and the server's settings.
    Keys of ``report["serve"]``: ``latency`` (``ttft_s``, ``tpot_s``, ``itl_s``, ``e2e_s``,
    ``queue_s``: ``mean``/``p50``/``p90``/``p99``/``max``), ``throughput``, ``goodput``,
    ``occupancy``, ``prefix_cache``, ``zero_load``, ``little``, ``kv``, ``series`` (over
    time), ``positions`` (over a response), ``sessions``, ``rate_search`` (with
    ``find_rate``), ``metrics`` (the serve_* metric keys) and ``definitions``. Units are SI.

    >>> trnsim.serve({"system": "trn2-48xlarge", "workload": {"model": "Llama-3.1-8B"},
    ...               "serve": {"rate": 4, "requests": 200}})["serve"]["latency"]["ttft_s"]["p90"]
    """
    return _json.loads(serve_json(scenario, find_rate=find_rate))


def capacity_json(scenario: Scenario = None, *, jobs: int = 1) -> str:
    """The capacity plan as JSON text, byte for byte what ``trnsim capacity FILE --json`` prints."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= 256:
        raise _input_error("jobs", "must be a whole number between 1 and 256, got " + repr(jobs))
    text, what = _scenario_text(scenario)
    return _trnsim.capacity_json(text, what, jobs, _base_dir(scenario))


def capacity(scenario: Scenario = None, *, jobs: int = 1) -> Dict[str, Any]:
    """The cheapest deployment meeting the scenario's serving targets, per system (``trnsim capacity FILE --json``).

    The scenario's ``capacity`` object is the search space (systems, tp/ep/pp, precisions,
    batch slots, stacks, batch policies, max chips); its ``workload`` the model and its
    ``serve`` object the traffic and ``targets``. Keys: ``best`` (per system: the cheapest
    configuration meeting the targets, or none), ``front`` (Pareto front of price against TTFT
    and TPOT), ``outcomes`` (every family: ``meets``, ``rejected_by``, ``reason``, replicas,
    chips, ``price_per_hour_usd``, ``usd_per_million_tokens``,
    ``output_tokens_per_s_per_megawatt``, ``ttft_s``, ``tpot_s`` at the target fraction's
    percentile), ``rejected`` (counts by reason), ``simulations``, ``configurations``.
    ``jobs`` threads give the same answer. docs/capacity.md.
    """
    return _json.loads(capacity_json(scenario, jobs=jobs))


def trace(scenario: Scenario = None) -> Dict[str, Any]:
    """The primary system's timeline as a Chrome trace / Perfetto dict (``trnsim run --trace``)."""
    text, what = _scenario_text(scenario)
    return _json.loads(_trnsim.trace_json(text, what, _base_dir(scenario)))


def scenario(scenario: Scenario = None) -> Dict[str, Any]:
    """A scenario validated and written canonically (every field, defaults filled, fixed order)."""
    text, what = _scenario_text(scenario)
    return _json.loads(_trnsim.canonical_scenario(text, what, _base_dir(scenario)))


def default_scenario() -> Dict[str, Any]:
    """The playground's default scenario (examples/default.json, canonical form)."""
    return _json.loads(_trnsim.default_scenario())


def examples() -> List[str]:
    """Names of the bundled example scenarios (examples/*.json), e.g. 'gpt-oss-120b-trn3-gen2'."""
    return list(_trnsim.example_names())


def example(name: str) -> Dict[str, Any]:
    """A bundled example scenario by name (see examples()), as written in examples/NAME.json."""
    return _json.loads(_trnsim.example_text(name))


def systems() -> List[str]:
    """Names of the built-in chips, systems and clusters (see describe())."""
    return list(_trnsim.system_names())


def describe(system: str) -> Dict[str, Any]:
    """What the hardware model knows about a chip, system or cluster: ``trnsim describe SYSTEM --json``.

    ``system`` is a built-in name (systems()), ``NAME:N`` (N UltraServers), ``NAME+ALT`` (a
    named alternative where sources disagree) or a path to a system JSON file. The dict has
    ``chips``, ``peak_flops`` (per dtype, FLOP/s), ``hbm_capacity_bytes``,
    ``hbm_bandwidth_bytes_per_s``, ``sources`` and more.
    """
    return _json.loads(_trnsim.describe_json(_os.fspath(system)))


def collective(system: str, op: str, bytes: float, *, algo: str = "auto", backend: str = "analytic",
               ranks: int = 0, stride: int = 1, protocol: str = "auto") -> Dict[str, Any]:
    """Time one collective on a system's fabric (one row of ``trnsim collective``).

    Args:
        system: a system or cluster name (see describe()), e.g. "trn2-ultracluster:64".
        op: "all-reduce", "all-gather", "reduce-scatter", "all-to-all", "permute" or "broadcast".
        bytes: per-rank buffer size as nccl-tests counts it.
        algo: "auto" (Neuron's sweet spots by size; on NVIDIA systems the fastest of ring, tree and
            nvls, as NCCL's tuner), "ring", "kangaring", "mesh", "rdh", "hierarchical", "tree", "nvls".
        backend: "analytic" (alpha-beta with link sharing) or "event" (max-min fair flows).
        ranks: ranks in the group, 0 = every chip; rank i is chip i * stride.
        protocol: "auto" (the fastest) or one of the system's collective protocols ("ll", "ll128",
            "simple" on NVIDIA systems); the result's ``protocol`` names the one used.

    Returns a dict with ``time_s``, ``algbw_bytes_per_s``, ``busbw_bytes_per_s``, ``algorithm``
    (the one used), ``steps``, ``overhead_s``, ``latency_s``, ``ranks``, ...
    """
    return _trnsim.collective(_os.fspath(system), op, float(bytes), algo, backend, int(ranks), int(stride), protocol)


def validate(callback: Optional[Callable[[int, int], None]] = None, *, pricer: str = "") -> Dict[str, Any]:
    """The model against every published Trainium figure: what ``trnsim validate --json`` prints.

    Returns ``{"rows": [...], "summary": {...}}``; each row has ``id``, ``source``, ``figure``,
    ``unit``, ``published``, ``model`` (None where the figure is not modelled), ``error``
    ((model - published) / published), ``calibration`` (the row calibrated a default) and
    ``note``. The rows are data (core/data/validation/*.json). ``callback(done, total)`` is
    called after each row. ``pricer`` ("roofline" or "engine"; "" keeps each row's own) prices
    every row with that pricer, as ``trnsim validate --pricer`` does (the result then names it
    under ``"pricer"``); an unknown name raises InputError naming ``--pricer``.
    """
    return _json.loads(_trnsim.validate_json(callback, pricer))


def sweep(sweep: Union[Mapping[str, Any], str, "_os.PathLike[str]"], *, jobs: int = 1,
          shard: Union[str, "tuple[int, int]", None] = None, full: bool = False,
          callback: Optional[Callable[[int, int], None]] = None) -> Iterator[Dict[str, Any]]:
    """Evaluate a grid over scenario fields; yields one dict per point, in index order.

    ``sweep`` is a sweep file's path or its content as a dict::

        {"base": "examples/gpt-oss-120b-trn3-gen2.json",        # or a scenario dict
         "grid": {"system": ["trn3-gen2-ultraserver", "trn2-ultraserver"],
                  "workload.inference.batch": [1, 4, 16, 64]}}

    A string base is a file relative to the sweep file (for a dict: to the working
    directory), else a bundled example ("examples/default.json"), as for ``trnsim sweep``.
    Each point is what ``trnsim sweep`` prints on a line: ``index``, ``point`` (the grid
    values), ``ok``, ``primary`` / ``compare`` (summary metrics: tpot_s, ttft_s,
    output_tokens_per_s_per_chip, ...) or, with ``full``, the whole ``report``; a point that
    cannot run has ``ok: False`` and ``error``. ``shard="i/n"`` (or ``(i, n)``) evaluates the
    i-th of n contiguous blocks; ``jobs`` evaluates on that many threads (the core releases
    the GIL); ``callback(done, total)`` is called after each point of the (sharded) sweep.

    Grid expansion and evaluation are the core's (core/sweep), the same as the CLI's.
    Raises InputError (field "sweep.<key>", "shard", "jobs") for a bad sweep or option.
    """
    from ._sweep import run_sweep

    return run_sweep(sweep, jobs=jobs, shard=shard, full=full, callback=callback)


def __getattr__(name: str) -> Any:
    # trnsim.mx (needs NumPy) and trnsim.plot (matplotlib) load on first use.
    if name in ("mx", "plot"):
        import importlib

        return importlib.import_module("." + name, __name__)
    raise AttributeError(f"module 'trnsim' has no attribute '{name}'")


from . import link  # noqa: E402  (submodules need the names above)

__all__ = [
    "InputError", "Scenario", "run", "run_json", "serve", "serve_json", "capacity", "capacity_json", "trace", "scenario", "default_scenario", "examples",
    "example", "systems", "describe", "collective", "validate", "sweep", "mx", "link", "plot", "__version__",
]
