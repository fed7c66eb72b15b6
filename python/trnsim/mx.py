"""MX (OCP Microscaling) numerics on NumPy arrays, bit-exact with ``trnsim mx``.

Blocks of 32 elements along the last axis share one E8M0 scale byte (value_i = 2^(X-127) * P_i).
The kernels are the core's (core/mx): every code path (scalar, AVX2, AVX-512, WebAssembly
SIMD128) gives the same bits, and the CLI prints those same bits.

    >>> import numpy as np, trnsim
    >>> x = np.random.default_rng(0).standard_normal((64, 4096), dtype=np.float32)
    >>> q = trnsim.mx.quantize(x, "e2m1")           # MXFP4: q.scales (64, 128), q.elements (64, 2048)
    >>> y = trnsim.mx.dequantize(q)                 # float32, shape (64, 4096)
    >>> trnsim.mx.dot(q[0], trnsim.mx.quantize(x[1], "e4m3"))   # FP32 DotGeneral (spec 6.2)

No copies of large arrays: ``quantize`` reads the input where it is (it must be a
C-contiguous float32 array, or uint16 BF16 bit patterns with ``bf16=True``; anything else is
a TypeError telling how to convert) and the kernels write straight into the NumPy arrays
returned. ``dequantize`` and ``dot`` read ``scales`` / ``elements`` in place.

Packed layout (per block; docs/mx.md, core/mx/mx.h): 8-bit formats one byte per element;
FP6 element i in bits 6i..6i+5 of the block's 24 bytes (little-endian bit string); FP4
element 2i in the low nibble of byte i, 2i+1 in the high nibble. ``MXArray.codes()``
unpacks to one code per byte, as ``trnsim mx quantize`` prints them.

NVFP4 (format "nvfp4", core/mx/nvfp4.h): E2M1 elements in blocks of 16, an E4M3 scale byte per
block and one FP32 ``tensor_scale`` for the whole array (NVIDIA's recipe: amax / (6 * 448),
or given). ``quantize(x, "nvfp4")`` returns an MXArray whose ``tensor_scale`` is set, whose
``scales`` hold E4M3 bytes (rows, ceil(cols / 16)) and whose ``elements`` hold 8 bytes per
block; dequantize, dot (nvfp4 with nvfp4), codes, error and format_info take it too. The
MX options (scale, overflow, flush_subnormals, bf16) do not apply to it. Its quantize and
dequantize copy the packed result once (the core owns its arrays).
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np

from . import _trnsim
from ._errors import input_error as _error

BLOCK_SIZE = 32
NVFP4_BLOCK_SIZE = 16
NVFP4 = "nvfp4"


class MXArray:
    """A quantized array: ``shape`` logical values, quantized in blocks of 32 along the last axis.

    Attributes:
        format: element format name ("e4m3", "e5m2", "e3m2", "e2m3", "e2m1", "int8", "nvfp4").
        shape: the logical shape (that of the array that was quantized).
        scales: uint8 array (rows, blocks): the E8M0 scale byte of each block (nvfp4: E4M3).
        elements: uint8 array (rows, blocks * block_bytes): packed element codes.
        tensor_scale: nvfp4's FP32 tensor scale (a float); None for the MX formats.
    Rows are the leading axes flattened; a last partial block is padded with zero codes.
    """

    __slots__ = ("format", "shape", "scales", "elements", "tensor_scale")

    def __init__(self, format: str, shape: Tuple[int, ...], scales: np.ndarray, elements: np.ndarray,
                 tensor_scale: Optional[float] = None):
        self.format = format
        self.shape = tuple(int(d) for d in shape)
        self.scales = scales
        self.elements = elements
        self.tensor_scale = tensor_scale

    @property
    def cols(self) -> int:
        """Values per row (the last axis)."""
        return self.shape[-1] if self.shape else 0

    @property
    def nbytes(self) -> int:
        """Bytes held: scale bytes plus packed element bytes."""
        return int(self.scales.nbytes + self.elements.nbytes)

    def __len__(self) -> int:
        return self.shape[0]

    def __getitem__(self, row: int) -> "MXArray":
        """Row ``row`` of a 2-D array as a vector (views of the same memory, no copy)."""
        if len(self.shape) != 2:
            raise TypeError("indexing an MXArray selects a row of a 2-D array")
        r = range(self.shape[0])[row]  # IndexError like a list
        return MXArray(self.format, (self.shape[1],), self.scales[r:r + 1], self.elements[r:r + 1], self.tensor_scale)

    def codes(self) -> np.ndarray:
        """Element codes unpacked to one uint8 each: (rows, blocks * 32; nvfp4 blocks * 16), as ``trnsim mx quantize`` prints them."""
        if self.format == NVFP4:
            return _trnsim.nv_codes(self.scales, self.elements, self.cols)
        return _trnsim.mx_codes(self.format, self.scales, self.elements, self.cols)

    def __repr__(self) -> str:
        ts = "" if self.tensor_scale is None else f", tensor_scale={self.tensor_scale!r}"
        return f"MXArray(format={self.format!r}, shape={self.shape}, blocks={self.scales.size}, bytes={self.nbytes}{ts})"


def quantize(x: np.ndarray, format: str, *, scale: str = "floor", overflow: str = "saturate",
             flush_subnormals: bool = False, path: str = "auto", bf16: bool = False,
             tensor_scale: Optional[float] = None) -> MXArray:
    """Quantize FP32 values (or BF16 bit patterns) to MX blocks along the last axis.

    Args:
        x: C-contiguous float32 array (any shape, at least 1-D), or uint16 BF16 bits with bf16=True.
        format: "e4m3" | "e5m2" (MXFP8), "e3m2" | "e2m3" (MXFP6), "e2m1" (MXFP4), "int8" (MXINT8),
            "nvfp4" (NVFP4: one tensor scale for the whole array).
        scale: "floor" (OCP, default) | "rceil" | "even" | "nki" (FP8 only).
        overflow: "saturate" (default) | "inf" (FP8: E5M2 -> Inf, E4M3 -> NaN).
        flush_subnormals: treat FP32 subnormal inputs as zero.
        path: "auto" | "scalar" | "avx2" | "avx512" | "wasm_simd" (all give identical bits).
        tensor_scale: nvfp4 only: this FP32 tensor scale instead of amax / 2688.

    Same bits as ``trnsim mx quantize --format F --input f32`` on the same values.
    Raises InputError (field "format", "scale", "overflow" or "path") for bad options.
    """
    if not isinstance(x, np.ndarray):  # a list or scalar: nothing large to spare a copy of
        x = np.asarray(x, dtype=np.uint16 if bf16 else np.float32)
    if format == NVFP4:
        for name, value, default in (("scale", scale, "floor"), ("overflow", overflow, "saturate"),
                                     ("flush_subnormals", flush_subnormals, False), ("bf16", bf16, False)):
            if value != default:
                raise _error(name, "does not apply to nvfp4 (E4M3 block scales by NVIDIA's recipe)")
        scales, elements, ts = _trnsim.nv_quantize(x, 0.0 if tensor_scale is None else float(tensor_scale), path)
        return MXArray(format, x.shape, scales, elements, ts)
    if tensor_scale is not None:
        raise _error("tensor_scale", "applies to nvfp4 only")
    scales, elements = _trnsim.mx_quantize(x, format, scale, overflow, bool(flush_subnormals), path, bool(bf16))
    return MXArray(format, x.shape, scales, elements)


def _tensor_scale(a: MXArray, name: str) -> float:
    if a.tensor_scale is None:
        raise _error(f"{name}.tensor_scale", "an nvfp4 array needs its tensor scale")
    return float(a.tensor_scale)


def dequantize(a: MXArray, *, path: str = "auto") -> np.ndarray:
    """The FP32 values of an MXArray, in its logical shape (``trnsim mx dequantize``)."""
    if a.format == NVFP4:
        y = _trnsim.nv_dequantize(a.scales, a.elements, a.cols, _tensor_scale(a, "a"), path)
        return y.reshape(a.shape)
    y = _trnsim.mx_dequantize(a.format, a.scales, a.elements, a.cols, path)
    return y.reshape(a.shape)


def dot(a: Union[MXArray, np.ndarray], b: Union[MXArray, np.ndarray], *, a_format: Optional[str] = None,
        b_format: Optional[str] = None, scale: str = "floor", overflow: str = "saturate",
        flush_subnormals: bool = False, path: str = "auto") -> float:
    """FP32 DotGeneral (MX spec 6.2) of two vectors of equal length.

    Each operand is an MXArray vector, or a float32 array quantized first with ``a_format`` /
    ``b_format`` (and ``scale``, ``overflow``, ``flush_subnormals``) -- exactly what
    ``trnsim mx dot --a-format F --b-format G`` does with two lines of numbers.
    """
    def operand(v: Union[MXArray, np.ndarray], fmt: Optional[str], name: str) -> MXArray:
        if isinstance(v, MXArray):
            if fmt is not None and fmt != v.format:
                raise _error(f"{name}_format", f"{fmt} given, but {name} is already {v.format}")
            return v
        if fmt is None:
            raise TypeError(f"{name} is not an MXArray: pass {name}_format= to quantize it")
        return quantize(v, fmt, scale=scale, overflow=overflow, flush_subnormals=flush_subnormals, path=path)

    qa, qb = operand(a, a_format, "a"), operand(b, b_format, "b")
    if len(qa.shape) != 1 or len(qb.shape) != 1:
        raise _error("dot", "operands must be vectors (1-D)")
    if qa.cols != qb.cols:
        raise _error("dot", f"vector lengths differ ({qa.cols} and {qb.cols})")
    if (qa.format == NVFP4) != (qb.format == NVFP4):
        raise _error("b_format" if qa.format == NVFP4 else "a_format", "nvfp4 multiplies only nvfp4")
    if qa.format == NVFP4:
        return _trnsim.nv_dot(qa.scales, qa.elements, _tensor_scale(qa, "a"), qb.scales, qb.elements,
                              _tensor_scale(qb, "b"), qa.cols, path)
    return _trnsim.mx_dot(qa.format, qa.scales, qa.elements, qb.format, qb.scales, qb.elements, qa.cols, path)


def error(format: str, *, dist: str = "normal", n: int = 100000, seed: int = 1, scale: str = "floor",
          overflow: str = "saturate", flush_subnormals: bool = False,
          tensor_scale: Optional[float] = None) -> Dict[str, Any]:
    """Error of a quantize-dequantize round trip on n samples (``trnsim mx error``).

    Returns rmse, max_rel_error, sqnr_db, underflow_to_zero, clamped, n. The samples come from
    the core's fixed generator, so every build gives the same numbers.
    """
    if format == NVFP4:
        if scale != "floor" or overflow != "saturate" or flush_subnormals:
            raise _error("scale", "the MX options do not apply to nvfp4")
        return _trnsim.nv_error(dist, int(n), int(seed), 0.0 if tensor_scale is None else float(tensor_scale))
    if tensor_scale is not None:
        raise _error("tensor_scale", "applies to nvfp4 only")
    return _trnsim.mx_error(format, dist, int(n), int(seed), scale, overflow, bool(flush_subnormals))


def format_info(format: str) -> Dict[str, Any]:
    """Facts of an element format: bits, bias, emax, max_normal, min_subnormal, block_bytes, ..."""
    return _trnsim.nv_format_info() if format == NVFP4 else _trnsim.mx_format_info(format)


def formats() -> List[str]:
    """Format names: ['e4m3', 'e5m2', 'e3m2', 'e2m3', 'e2m1', 'int8', 'nvfp4']."""
    return list(_trnsim.mx_formats())


def paths() -> List[str]:
    """Code paths this build can run on this machine, scalar first."""
    return list(_trnsim.mx_paths())


__all__ = ["MXArray", "quantize", "dequantize", "dot", "error", "format_info", "formats", "paths", "BLOCK_SIZE", "NVFP4_BLOCK_SIZE"]
