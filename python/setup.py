"""Builds the `trnsim` Python package from the source tree, offline (see pyproject.toml).

The extension trnsim._trnsim is the CMake target `trnsim_python` (python/CMakeLists.txt):
this script configures the project for the interpreter running pip and builds that target,
then packages it with the pure-Python files. Where the README's build already configured
build/native for the same interpreter, that build is reused (nothing is compiled twice);
otherwise build/pip/ is used. TRNSIM_BUILD_DIR overrides the folder.

Needs what scripts/setup.sh installs (cmake, ninja-build, g++, nlohmann-json3-dev,
python3-pybind11, python3-dev); nothing is downloaded.
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = pathlib.Path(__file__).resolve().parent
TOP = HERE.parent


def project_version():
    text = (TOP / "CMakeLists.txt").read_text()
    return re.search(r"project\(trnsim VERSION ([0-9.]+)", text).group(1)


def same_interpreter(cache: pathlib.Path) -> bool:
    """True when a configured build's TRNSIM_PYTHON is the interpreter running this build."""
    m = re.search(r"^TRNSIM_PYTHON:FILEPATH=(.*)$", cache.read_text(), re.M)
    base = getattr(sys, "_base_executable", sys.executable)
    return bool(m) and os.path.realpath(m.group(1)) == os.path.realpath(base)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        if shutil.which("cmake") is None:
            sys.exit("trnsim: cmake not found; run scripts/setup.sh (Debian packages cmake, ninja-build)")
        build = os.environ.get("TRNSIM_BUILD_DIR")
        if not build:
            native = TOP / "build" / "native"
            cache = native / "CMakeCache.txt"
            build = native if cache.exists() and same_interpreter(cache) else TOP / "build" / "pip"
        build = pathlib.Path(build)
        if not (build / "CMakeCache.txt").exists() or build.name == "pip":
            subprocess.check_call(["cmake", "-S", str(TOP), "-B", str(build), "-G", "Ninja",
                                   "-DCMAKE_BUILD_TYPE=Release", "-DTRNSIM_PYTHON=" + sys.executable])
        subprocess.check_call(["cmake", "--build", str(build), "--target", "trnsim_python"])
        built = sorted((build / "python" / "trnsim").glob("_trnsim*.so"))
        if not built:
            sys.exit(f"trnsim: the build in {build} made no _trnsim*.so")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[-1], target)


(TOP / "build" / "pip-setuptools").mkdir(parents=True, exist_ok=True)

setup(
    name="trnsim",
    version=project_version(),
    description="A model of AWS Trainium2/Trainium3 systems (chips, HBM, fabrics, MX numerics, LLM workloads)",
    python_requires=">=3.9",
    packages=["trnsim"],
    package_dir={"trnsim": "trnsim"},
    package_data={"trnsim": ["*.pyi", "py.typed"]},
    ext_modules=[Extension("trnsim._trnsim", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
    # setuptools' own scratch files go under the project's ignored build/ folder, not python/.
    options={"build": {"build_base": str(TOP / "build" / "pip-setuptools")},
             "egg_info": {"egg_base": str(TOP / "build" / "pip-setuptools")}},
)
