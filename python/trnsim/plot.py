"""Charts of sweep results with matplotlib (Debian's python3-matplotlib): the same series,
Pareto fronts, labels and units as ``trnsim plot`` draws as SVG.

    >>> import trnsim, trnsim.plot
    >>> points = list(trnsim.sweep("examples/sweeps/gpt-oss-batch-tp.json"))
    >>> ax = trnsim.plot.pareto(points, color="system")          # throughput per chip vs TPOT
    >>> ax.figure.savefig("pareto.png")
    >>> trnsim.plot.sweep(points, x="batch", y="tpot_s", color="system,tp", log_x=True)

``points`` is a list of sweep lines (dicts, as trnsim.sweep yields them or ``trnsim sweep``
prints them), or a path to a JSONL file. Keys are those of ``trnsim plot``: a summary metric
("tpot_s", "output_tokens_per_s_per_chip", ...), a grid path ("workload.inference.batch",
"system") or its last part ("batch"), or a dotted path ("compare.tpot_s"). Which points,
which fronts, labels and units are computed by the core's plot_data (native/cli/plot_data.h),
not here; this module only draws. Points that could not run (ok: false) are not plotted.
"""
from __future__ import annotations

import json as _json
import os as _os
from typing import Any, Dict, Iterable, Mapping, Optional, Union

from . import _trnsim

Points = Union[Iterable[Mapping[str, Any]], str, "_os.PathLike[str]"]


def _jsonl(points: Points) -> "tuple[str, str]":
    if isinstance(points, (str, _os.PathLike)):
        path = _os.fspath(points)
        with open(path, encoding="utf-8") as f:
            return f.read(), path
    return "".join(_json.dumps(p, ensure_ascii=False) + "\n" for p in points), "points"


def chart(points: Points, x: str, y: str, color: Optional[str] = None, pareto: bool = False) -> Dict[str, Any]:
    """The chart's data: {x: {label, unit, display_unit, display_factor, better, ...}, y, color,
    series: [{name, points: [[x, y, index], ...], front: [...]}], failed, missing}.

    Raises InputError (field "x", "y" or "color") for a key no line has, naming the keys there are.
    """
    text, what = _jsonl(points)
    return _json.loads(_trnsim.chart_json(text, what, x, y, color or "", bool(pareto)))


def _axis_label(axis: Dict[str, Any]) -> str:
    return axis["label"] + (f" ({axis['display_unit']})" if axis["display_unit"] else "")


def _draw(data: Dict[str, Any], kind: str, pareto: bool, ax: Any, log_x: bool, log_y: bool,
          title: Optional[str]) -> Any:
    import matplotlib.pyplot as plt  # imported here: the rest of trnsim works without matplotlib

    if ax is None:
        _, ax = plt.subplots(figsize=(8, 5), layout="constrained")
    fx, fy = data["x"]["display_factor"], data["y"]["display_factor"]
    for s in data["series"]:
        pts = sorted(s["points"], key=lambda p: p[0]) if kind == "line" and not pareto else s["points"]
        xs, ys = [p[0] * fx for p in pts], [p[1] * fy for p in pts]
        name = s["name"] or None
        if pareto:
            dots = ax.scatter(xs, ys, s=14, alpha=0.3)
            front = s["front"]
            ax.plot([p[0] * fx for p in front], [p[1] * fy for p in front], marker="o", linewidth=2,
                    color=dots.get_facecolor()[0][:3], label=name)
        elif kind == "line":
            ax.plot(xs, ys, marker="o", markersize=4, label=name)
        else:
            ax.scatter(xs, ys, s=18, label=name)
    ax.set_xlabel(_axis_label(data["x"]))
    ax.set_ylabel(_axis_label(data["y"]))
    if log_x:
        ax.set_xscale("log")
    if log_y:
        ax.set_yscale("log")
    ax.set_title(title or f"{data['y']['label']} vs {data['x']['label']}")
    ax.grid(True, alpha=0.3)
    if data["color"]:
        legend_title = ", ".join(data["color_labels"])
        ax.legend(title=legend_title + (" (lines: Pareto fronts)" if pareto else ""), fontsize="small")
    return ax


def sweep(points: Points, x: str, y: str, color: Optional[str] = None, *, kind: str = "line", log_x: bool = False,
          log_y: bool = False, ax: Any = None, title: Optional[str] = None) -> Any:
    """A line (points joined in x order) or scatter chart of sweep points; returns the matplotlib Axes."""
    if kind not in ("line", "scatter"):
        from ._errors import input_error

        raise input_error("kind", f"unknown kind '{kind}' (expected line|scatter)")
    return _draw(chart(points, x, y, color), kind, False, ax, log_x, log_y, title)


def pareto(points: Points, x: str = "tpot_s", y: str = "output_tokens_per_s_per_chip", color: Optional[str] = "system",
           *, log_x: bool = False, log_y: bool = False, ax: Any = None, title: Optional[str] = None) -> Any:
    """All points faintly, each series' Pareto front as a line (by default throughput per chip
    against time per output token, one front per system); returns the matplotlib Axes."""
    return _draw(chart(points, x, y, color, pareto=True), "scatter", True, ax, log_x, log_y, title)


def metric(key: str) -> Dict[str, Any]:
    """Label, unit and better direction (+1 higher, -1 lower, 0 neither) of a value's key."""
    return _trnsim.metric_info(key)


__all__ = ["chart", "sweep", "pareto", "metric"]
