"""Playground links that hold a whole scenario in the URL fragment (``trnsim link``).

    >>> url = trnsim.link.encode(trnsim.default_scenario())   # 'http://127.0.0.1:8080/#s=1....'
    >>> trnsim.link.decode(url) == trnsim.default_scenario()
    True

The codec is the core's (core/link): the page, the CLI and this module make the same link
for the same scenario, and the round trip is lossless (decode gives the canonical scenario).
"""
from __future__ import annotations

import json as _json
from typing import Any, Dict

from . import _trnsim

DEFAULT_BASE: str = _trnsim.default_link_base


def encode(scenario: "Any" = None, *, base: str = DEFAULT_BASE) -> str:
    """A playground link for a scenario (validated first; see trnsim.run for the accepted forms)."""
    from . import _base_dir, _scenario_text  # the package's one reader of scenario forms

    text, what = _scenario_text(scenario)
    return _trnsim.link_encode(text, what, base, _base_dir(scenario))


def decode(link: str) -> Dict[str, Any]:
    """The scenario held by a link, a '#s=1....' fragment or 's=1....', validated, canonical.

    Raises InputError (field "link") for anything that is not a trnsim link, and the
    scenario's field errors for a link whose scenario is invalid.
    """
    return _json.loads(_trnsim.link_decode(link.strip()))


__all__ = ["encode", "decode", "DEFAULT_BASE"]
