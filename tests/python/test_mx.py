"""trnsim.mx on NumPy arrays gives the CLI's bits: quantize (scale bytes and element codes),
dequantize, dot and the error statistics, on every format, scale rule and code path; and it
reads and writes NumPy memory in place."""
import struct

import numpy as np
import pytest

import trnsim
from conftest import cli

mx = trnsim.mx
FORMATS = [f for f in mx.formats() if f != "nvfp4"]  # the MX formats (their options apply)


def awkward_values(n, seed):
    """Normal values over many magnitudes plus zeros, subnormals, huge values, NaN and Inf."""
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(n) * np.exp2(rng.integers(-30, 30, n))).astype(np.float32)
    specials = np.array([0.0, -0.0, 1e-45, -3e-39, 3.4e38, -448.0, 6.0, np.inf, -np.inf, np.nan], np.float32)
    x[rng.choice(n, 12)] = rng.choice(specials, 12)
    x[64:96] = 0.0  # an all-zero block
    return x


def cli_quantize(x, fmt, *opts):
    out = cli("mx", "quantize", "--format", fmt, "--input", "f32", *opts, input=x.astype("<f4").tobytes()).stdout
    rows = [[int(t, 16) for t in line.split()] for line in out.decode().splitlines()]
    return np.array([r[0] for r in rows], np.uint8), np.array([r[1:] for r in rows], np.uint8).reshape(-1)


def bits(v):
    return np.asarray(v, np.float32).view(np.uint32)


OPTION_SETS = [((), {}), (("--scale", "rceil"), {"scale": "rceil"}), (("--scale", "even"), {"scale": "even"}),
               (("--overflow", "inf", "--flush-subnormals"), {"overflow": "inf", "flush_subnormals": True})]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("opts", OPTION_SETS, ids=["floor", "rceil", "even", "inf+flush"])
def test_quantize_equals_the_cli(fmt, opts):
    cli_opts, kwargs = opts
    x = awkward_values(32 * 9 + 7, seed=len(fmt) + len(cli_opts))  # a partial last block
    scales, codes = cli_quantize(x, fmt, *cli_opts)
    q = mx.quantize(x, fmt, **kwargs)
    assert q.shape == x.shape and q.scales.shape == (1, 10)
    assert np.array_equal(q.scales.reshape(-1), scales)
    assert np.array_equal(q.codes().reshape(-1), codes)


def test_nki_scale_rule_equals_the_cli():
    x = awkward_values(256, seed=3)
    for fmt in ("e4m3", "e5m2"):
        scales, codes = cli_quantize(x, fmt, "--scale", "nki")
        q = mx.quantize(x, fmt, scale="nki")
        assert np.array_equal(q.scales.reshape(-1), scales) and np.array_equal(q.codes().reshape(-1), codes)


@pytest.mark.parametrize("fmt", FORMATS)
def test_dequantize_equals_the_cli(fmt):
    x = awkward_values(32 * 5, seed=11)
    q_text = cli("mx", "quantize", "--format", fmt, "--input", "f32", input=x.astype("<f4").tobytes()).stdout
    want = np.array([float(t) for t in cli("mx", "dequantize", "--format", fmt, input=q_text).stdout.decode().split()],
                    np.float32)
    got = mx.dequantize(mx.quantize(x, fmt))
    assert got.dtype == np.float32 and got.shape == x.shape
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan)
    assert np.array_equal(bits(got[~nan]), bits(want[~nan]))  # the CLI prints the shortest exact decimal


@pytest.mark.parametrize("fa,fb", [("e4m3", "e4m3"), ("e2m1", "e2m1"), ("e2m1", "e4m3"), ("e5m2", "int8"),
                                   ("e3m2", "e2m3")])
def test_dot_equals_the_cli(fa, fb):
    rng = np.random.default_rng(len(fa + fb))
    a = rng.standard_normal(1000).astype(np.float32)
    b = (rng.standard_normal(1000) * 3).astype(np.float32)
    lines = " ".join(repr(float(v)) for v in a) + "\n" + " ".join(repr(float(v)) for v in b) + "\n"
    text, hexbits = cli("mx", "dot", "--a-format", fa, "--b-format", fb, input=lines).stdout.split()
    got = mx.dot(a, b, a_format=fa, b_format=fb)
    assert int(bits(got)) == int(hexbits, 16)
    assert got == mx.dot(mx.quantize(a, fa), mx.quantize(b, fb))


def test_error_stats_equal_the_cli():
    out = cli("mx", "error", "--format", "e2m1", "--dist", "laplace", "--n", "5000", "--seed", "7").stdout
    fields = dict(line.split(" ", 1) for line in out.splitlines()[2:])
    got = mx.error("e2m1", dist="laplace", n=5000, seed=7)
    for key in ("rmse", "max_rel_error", "sqnr_db"):
        assert fields[key] == "%.6g" % got[key], key
    assert int(fields["underflow_to_zero"]) == got["underflow_to_zero"]
    assert int(fields["clamped"]) == got["clamped"]


def test_every_path_gives_the_same_bits():
    x = awkward_values(4096, seed=5).reshape(8, 512)
    for fmt in FORMATS:
        ref = mx.quantize(x, fmt, path="scalar")
        ref_y = mx.dequantize(ref, path="scalar")
        for p in mx.paths():
            q = mx.quantize(x, fmt, path=p)
            assert np.array_equal(q.scales, ref.scales) and np.array_equal(q.elements, ref.elements), (fmt, p)
            assert np.array_equal(bits(mx.dequantize(q, path=p)), bits(ref_y)), (fmt, p)


def test_matrices_quantize_row_by_row():
    x = awkward_values(3 * 70, seed=9).reshape(3, 70)
    q = mx.quantize(x, "e2m3")
    assert q.scales.shape == (3, 3) and q.elements.shape == (3, 3 * 24)
    for r in range(3):
        row = mx.quantize(np.ascontiguousarray(x[r]), "e2m3")
        assert np.array_equal(q[r].scales, row.scales) and np.array_equal(q[r].elements, row.elements)
    assert mx.dequantize(q).shape == (3, 70)


def test_bf16_input_equals_the_truncated_float32():
    x = np.random.default_rng(1).standard_normal(300).astype(np.float32)
    bf16 = (x.view(np.uint32) >> 16).astype(np.uint16)
    truncated = (bf16.astype(np.uint32) << 16).view(np.float32)
    a, b = mx.quantize(bf16, "e4m3", bf16=True), mx.quantize(truncated, "e4m3")
    assert np.array_equal(a.scales, b.scales) and np.array_equal(a.elements, b.elements)


def test_no_copies_in_or_out():
    x = np.random.default_rng(2).standard_normal((64, 1024)).astype(np.float32)
    q = mx.quantize(x, "e4m3")
    # The outputs are the arrays the kernels wrote into; rows are views of them.
    assert q.scales.flags.owndata and q.elements.flags.owndata
    assert np.shares_memory(q[3].elements, q.elements) and np.shares_memory(q[3].scales, q.scales)
    assert q.nbytes == 64 * 32 + 64 * 1024
    # Nothing is converted silently: a float64 or strided input, or a converted packed array, is an error.
    with pytest.raises(TypeError, match="float32"):
        mx.quantize(x.astype(np.float64), "e4m3")
    with pytest.raises(TypeError, match="C-contiguous"):
        mx.quantize(x[:, ::2], "e4m3")
    with pytest.raises(TypeError):
        mx.dequantize(mx.MXArray("e4m3", q.shape, q.scales.astype(np.int16), q.elements))
    # A plain list is converted (there is nothing large to spare).
    assert mx.dequantize(mx.quantize([1.0, 2.0, 3.0, 4.5], "e2m1")).tolist() == [1.0, 2.0, 3.0, 4.0]


def test_format_facts():
    info = mx.format_info("e2m1")
    assert info["element_bits"] == 4 and info["max_normal"] == 6.0 and info["block_bytes"] == 16
    assert mx.paths()[0] == "scalar"


# --- NVFP4 ------------------------------------------------------------------------------------

def cli_nv_quantize(x, *opts):
    out = cli("mx", "quantize", "--format", "nvfp4", "--input", "f32", *opts, input=x.astype("<f4").tobytes()).stdout
    lines = out.decode().splitlines()
    assert lines[0].startswith("tensor_scale 0x")
    ts = np.array([int(lines[0].split()[1], 16)], np.uint32).view(np.float32)[0]
    rows = [[int(t, 16) for t in line.split()] for line in lines[1:]]
    return ts, np.array([r[0] for r in rows], np.uint8), np.array([r[1:] for r in rows], np.uint8).reshape(-1)


@pytest.mark.parametrize("opts", [(), ("--tensor-scale", "0.01")], ids=["recipe", "given"])
def test_nvfp4_quantize_and_dequantize_equal_the_cli(opts):
    x = awkward_values(16 * 23 + 5, seed=21)  # a partial last block
    ts, scales, codes = cli_nv_quantize(x, *opts)
    q = mx.quantize(x, "nvfp4", tensor_scale=float(opts[1]) if opts else None)
    assert q.format == "nvfp4" and q.scales.shape == (1, 24) and q.elements.shape == (1, 24 * 8)
    assert np.float32(q.tensor_scale) == ts
    assert np.array_equal(q.scales.reshape(-1), scales)
    assert np.array_equal(q.codes().reshape(-1), codes)
    text = cli("mx", "quantize", "--format", "nvfp4", "--input", "f32", *opts, input=x.astype("<f4").tobytes()).stdout
    want = np.array([float(t) for t in cli("mx", "dequantize", "--format", "nvfp4", input=text).stdout.decode().split()],
                    np.float32)[:x.size]
    got = mx.dequantize(q)
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan)
    assert np.array_equal(bits(got[~nan]), bits(want[~nan]))


def test_nvfp4_recipe_from_first_principles():
    # tensor scale amax / 2688; block scale E4M3(block amax / (6 * tensor scale)); element x / (scale * tensor scale)
    x = np.array([2688.0, 1.0, -3.0] + [0.0] * 13 + [3.0, 1.4], np.float32)
    q = mx.quantize(x, "nvfp4")
    assert q.tensor_scale == 1.0
    assert q.scales.reshape(-1).tolist() == [0x7E, 0x30]  # 448 and 0.5
    assert mx.dequantize(q).tolist() == [2688.0, 0.0, -0.0] + [0.0] * 13 + [3.0, 1.5]


def test_nvfp4_dot_error_and_paths_equal_the_cli():
    rng = np.random.default_rng(3)
    a = rng.standard_normal(1000).astype(np.float32)
    b = (rng.standard_normal(1000) * 3).astype(np.float32)
    lines = " ".join(repr(float(v)) for v in a) + "\n" + " ".join(repr(float(v)) for v in b) + "\n"
    _, hexbits = cli("mx", "dot", "--a-format", "nvfp4", "--b-format", "nvfp4", input=lines).stdout.split()
    got = mx.dot(a, b, a_format="nvfp4", b_format="nvfp4")
    assert int(bits(got)) == int(hexbits, 16)
    assert got == mx.dot(mx.quantize(a, "nvfp4"), mx.quantize(b, "nvfp4"))
    out = cli("mx", "error", "--format", "nvfp4", "--dist", "laplace", "--n", "5000", "--seed", "7").stdout
    fields = dict(line.split(" ", 1) for line in out.splitlines()[2:])
    e = mx.error("nvfp4", dist="laplace", n=5000, seed=7)
    for key in ("rmse", "max_rel_error", "sqnr_db"):
        assert fields[key] == "%.6g" % e[key], key
    assert int(fields["clamped"]) == e["clamped"]
    assert e["sqnr_db"] > mx.error("e2m1", dist="laplace", n=5000, seed=7)["sqnr_db"]
    x = awkward_values(4096, seed=5).reshape(8, 512)
    ref = mx.quantize(x, "nvfp4", path="scalar")
    for p in mx.paths():
        q = mx.quantize(x, "nvfp4", path=p)
        assert q.tensor_scale == ref.tensor_scale
        assert np.array_equal(q.scales, ref.scales) and np.array_equal(q.elements, ref.elements), p
        assert np.array_equal(bits(mx.dequantize(q, path=p)), bits(mx.dequantize(ref, path="scalar"))), p
        assert bits(mx.dot(q[1], q[2], path=p)) == bits(mx.dot(ref[1], ref[2], path="scalar"))  # NaN rows too


def test_nvfp4_facts_and_bad_input():
    assert "nvfp4" in mx.formats()
    info = mx.format_info("nvfp4")
    assert info["block_size"] == 16 and info["block_bytes"] == 8 and info["block_scale"] == "e4m3"
    x = np.ones(32, np.float32)
    with pytest.raises(trnsim.InputError, match="does not apply to nvfp4"):
        mx.quantize(x, "nvfp4", scale="rceil")
    with pytest.raises(trnsim.InputError, match="outside"):
        mx.quantize(x, "nvfp4", tensor_scale=0.0 + 1e-45)
    with pytest.raises(trnsim.InputError, match="nvfp4 only"):
        mx.quantize(x, "e2m1", tensor_scale=1.0)
    with pytest.raises(trnsim.InputError, match="multiplies only nvfp4"):
        mx.dot(mx.quantize(x, "nvfp4"), mx.quantize(x, "e2m1"))
