"""The package as an editor and help() see it: the stub of the native module lists exactly
what the module has, with the same parameter names; every public name is documented."""
import ast
import inspect
import pathlib
import re

import trnsim
from trnsim import _trnsim

STUB = pathlib.Path(trnsim.__file__).with_name("_trnsim.pyi")


def stub_functions():
    tree = ast.parse(STUB.read_text())
    return {n.name: [a.arg for a in n.args.args] for n in tree.body if isinstance(n, ast.FunctionDef)}


def native_functions():
    out = {}
    for name, obj in vars(_trnsim).items():
        if name.startswith("_") or not callable(obj) or isinstance(obj, type):
            continue
        # pybind11 puts the signature on the docstring's first line: name(a: T, b: U) -> R
        first = obj.__doc__.splitlines()[0]
        params = re.match(rf"{name}\((.*)\) ->", first).group(1)
        out[name] = [p.split(":")[0].strip() for p in params.split(",") if p.strip()]
    return out


def test_stub_matches_the_native_module():
    assert STUB.exists(), "the stub is installed next to the extension"
    assert stub_functions() == native_functions()
    assert (pathlib.Path(trnsim.__file__).with_name("py.typed")).exists()


def test_public_api_is_annotated_and_documented():
    for module in (trnsim, trnsim.mx, trnsim.link, trnsim.plot):
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isfunction(obj):
                assert obj.__doc__ and obj.__doc__.strip(), f"{module.__name__}.{name}"
                sig = inspect.signature(obj)
                assert sig.return_annotation is not inspect.Signature.empty, f"{module.__name__}.{name}"


def test_help_shows_the_docstring():
    text = inspect.getdoc(trnsim.run)
    assert "trnsim run FILE --json" in text
    assert inspect.signature(trnsim.run).parameters["scenario"].default is None
