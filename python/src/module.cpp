// trnsim._trnsim: the Python binding of the trnsim core (pybind11). A thin layer over the
// core's public entry points -- the same ones the CLI calls -- with JSON text as the
// exchange format, so a report from Python is the CLI's `--json` report byte for byte:
//   scenario:   parse_scenario / scenario_to_string / default_scenario (core/scenario)
//   reports:    evaluate + report_to_json_string (core/report), chrome_trace (core/workload)
//   serving:    serve::run + result_to_json (core/serve)
//   capacity:   capacity::plan + result_to_json (core/capacity)
//   hardware:   hw::system_names / load_system / describe_json (core/hw)
//   collective: collective::run (core/collective)
//   links:      make_link / decode_fragment (core/link)
//   sweeps:     sweep::parse_sweep / evaluate_point / shard_range (core/sweep)
//   plots:      plot::make_chart / chart_to_json (native/cli/plot_data.h, shared with `trnsim plot`)
//   MX:         quantize_blocks / dequantize_blocks / dot_blocks / get_code (core/mx), on
//               NumPy buffers in place: inputs are read where they are, outputs are NumPy
//               arrays the kernels write into, nothing large is copied.
// trnsim::InputError becomes the Python exception trnsim.InputError (a ValueError) with
// .field (the JSON path or option name) and .message (the problem). The friendly Python
// API (argument forms, dicts, docstrings) is python/trnsim/*.py; this file only converts.
// Does NOT: implement anything of the model, keep state between calls, or hold the GIL
// while the core computes.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "collective/collective.h"
#include "common/error.h"
#include "embedded.h"
#include "hw/system.h"
#include "link/link.h"
#include "mx/mx.h"
#include "mx/nvfp4.h"
#include "plot_data.h"
#include "report/report.h"
#include "report/capacity.h"
#include "report/serving.h"
#include "scenario/examples.h"
#include "scenario/scenario.h"
#include "sweep/sweep.h"
#include "validate/validate.h"

namespace py = pybind11;
namespace mx = trnsim::mx;

namespace {

using Packed = py::array_t<std::uint8_t, py::array::c_style>;

PyObject* g_input_error = nullptr;  // the trnsim.InputError class (owned by the module)

// "field: problem" -> "problem" (InputError keeps only the joined text and the field).
std::string problem_of(const trnsim::InputError& e) {
  std::string what = e.what();
  if (!e.field().empty() && what.compare(0, e.field().size() + 2, e.field() + ": ") == 0)
    return what.substr(e.field().size() + 2);
  return what;
}

void translate_input_error(std::exception_ptr p) {
  try {
    if (p) std::rethrow_exception(p);
  } catch (const trnsim::InputError& e) {
    py::object cls = py::reinterpret_borrow<py::object>(g_input_error);
    py::object exc = cls(py::str(e.what()));
    exc.attr("field") = py::str(e.field());
    exc.attr("message") = py::str(problem_of(e));
    PyErr_SetObject(g_input_error, exc.ptr());
  }
}

// ---- scenarios and reports ---------------------------------------------------------------

// Every scenario entry reads files the scenario names by path (its model config) relative to
// `base_dir`: the scenario file's folder for a path, else the working directory.
trnsim::Scenario parse(const std::string& text, const std::string& what, const std::string& base_dir) {
  return trnsim::parse_scenario(text, what, trnsim::scenario_files_in(base_dir));
}

std::string run_json(const std::string& text, const std::string& what, const std::string& base_dir) {
  py::gil_scoped_release unlocked;
  trnsim::Report report = trnsim::evaluate(parse(text, what, base_dir));
  return trnsim::report_to_json_string(report);
}

std::string trace_json(const std::string& text, const std::string& what, const std::string& base_dir) {
  py::gil_scoped_release unlocked;
  trnsim::Report report = trnsim::evaluate(parse(text, what, base_dir));
  return trnsim::workload::chrome_trace(*report.primary.result).dump() + "\n";
}

// `trnsim serve --json`; trace files are read relative to `base_dir`.
std::string serve_json(const std::string& text, const std::string& what, bool find_rate, const std::string& base_dir) {
  py::gil_scoped_release unlocked;
  trnsim::serve::Options options;
  options.find_rate = find_rate;
  options.open_file = trnsim::serve::Options::files_in(base_dir);
  return trnsim::serve::result_to_json(trnsim::serve::run(parse(text, what, base_dir), options)).dump(2) + "\n";
}

// `trnsim capacity --json [--jobs N]`; trace files are read relative to `base_dir`.
std::string capacity_json(const std::string& text, const std::string& what, int jobs, const std::string& base_dir) {
  py::gil_scoped_release unlocked;
  trnsim::capacity::Options options;
  options.jobs = jobs;
  options.open_file = trnsim::serve::Options::files_in(base_dir);
  return trnsim::capacity::result_to_json(trnsim::capacity::plan(parse(text, what, base_dir), options)).dump(2) + "\n";
}

std::string canonical_scenario(const std::string& text, const std::string& what, const std::string& base_dir) {
  return trnsim::scenario_to_string(parse(text, what, base_dir));
}

std::string default_scenario() { return trnsim::scenario_to_string(trnsim::default_scenario()); }

// The bundled example scenarios ("default", "gpt-oss-120b-trn3-gen2", ...): the core's list
// (core/scenario/examples.h).
std::vector<std::string> example_names() { return trnsim::bundled_example_names(); }

std::string example_text(const std::string& name) { return trnsim::bundled_example_text(name); }

// ---- hardware, collectives, links ----------------------------------------------------------

std::string describe_json(const std::string& system) {
  return trnsim::hw::describe_json(trnsim::hw::load_system(system)).dump(2) + "\n";
}

py::dict collective(const std::string& system_name, const std::string& op, double bytes, const std::string& algo,
                    const std::string& backend, int ranks, int stride, const std::string& protocol) {
  if (!(bytes > 0) || bytes > 1e18) throw trnsim::InputError("bytes", "must be positive and at most 1e18");
  if (ranks < 0) throw trnsim::InputError("ranks", "must be at least 1 (0 = every chip)");
  if (stride < 1) throw trnsim::InputError("stride", "must be at least 1");
  trnsim::collective::Request req;
  req.op = op;
  req.bytes = bytes;
  req.algo = algo;
  req.backend = backend;
  req.ranks = ranks;
  req.stride = stride;
  req.protocol = protocol;
  trnsim::hw::System system;
  trnsim::collective::Result r;
  {
    py::gil_scoped_release unlocked;
    system = trnsim::hw::load_system(system_name);
    r = trnsim::collective::run(system, req);
  }
  py::dict d;
  d["system"] = system.name;
  d["op"] = req.op;
  d["bytes"] = bytes;
  d["ranks"] = trnsim::collective::request_ranks(system, req);
  d["stride"] = req.stride;
  d["time_s"] = r.time_s;
  d["algbw_bytes_per_s"] = r.algbw_bytes_per_s;
  d["busbw_bytes_per_s"] = r.busbw_bytes_per_s;
  d["algorithm"] = r.algorithm;
  d["protocol"] = r.protocol;
  d["backend"] = r.backend;
  d["steps"] = r.steps;
  d["overhead_s"] = r.overhead_s;
  d["latency_s"] = r.latency_s;
  d["flows_timed"] = r.flows_timed;
  return d;
}

std::string link_encode(const std::string& text, const std::string& what, const std::string& base,
                        const std::string& base_dir) {
  return trnsim::make_link(trnsim::scenario_to_json(parse(text, what, base_dir)), base);
}

std::string link_decode(const std::string& link) {
  return trnsim::scenario_to_string(trnsim::scenario_from_json(trnsim::decode_fragment(link)));
}

// ---- MX -------------------------------------------------------------------------------------

template <class Enum>
Enum parse_option(std::optional<Enum> parsed, const char* field, const std::string& value, const std::string& choices) {
  if (!parsed) throw trnsim::InputError(field, "unknown value '" + value + "' (expected " + choices + ")");
  return *parsed;
}

mx::Format format_of(const std::string& name, const char* field = "format") {
  return parse_option(mx::parse_format(name), field, name, mx::format_names());
}

mx::Path path_of(const std::string& name) {
  return mx::resolve_path(parse_option(mx::parse_path(name), "path", name, "auto|scalar|avx2|avx512|wasm_simd"));
}

mx::Options options_of(mx::Format f, const std::string& scale, const std::string& overflow, bool flush) {
  mx::Options o;
  o.scale = parse_option(mx::parse_scale_rule(scale), "scale", scale, "floor|rceil|even|nki");
  o.overflow = parse_option(mx::parse_overflow(overflow), "overflow", overflow, "saturate|inf");
  o.flush_subnormal_inputs = flush;
  try {
    mx::check_options(f, o);
  } catch (const trnsim::InputError& e) {
    throw trnsim::InputError("scale", problem_of(e));
  }
  return o;
}

// A float32 (or BF16-as-uint16) matrix viewed as rows x cols with its rows contiguous:
// the last axis is the block axis, leading axes are flattened. No conversion, no copy:
// anything else is a TypeError that says how to get there.
struct Rows {
  const void* data;
  std::size_t rows, cols;
};

Rows rows_of(const py::array& x, bool bf16) {
  const bool ok_dtype = bf16 ? x.dtype().is(py::dtype::of<std::uint16_t>()) : x.dtype().is(py::dtype::of<float>());
  if (!ok_dtype)
    throw py::type_error(std::string("x must be a ") + (bf16 ? "uint16 (BF16 bit patterns)" : "float32") +
                         " array, got dtype " + py::str(x.dtype()).cast<std::string>() +
                         " (convert explicitly, e.g. np.asarray(x, dtype=np.float32); trnsim does not copy silently)");
  if (!(x.flags() & py::array::c_style))
    throw py::type_error("x must be C-contiguous (np.ascontiguousarray(x)); trnsim does not copy silently");
  if (x.ndim() == 0) throw trnsim::InputError("x", "must have at least one axis");
  std::size_t cols = static_cast<std::size_t>(x.shape(x.ndim() - 1));
  std::size_t rows = cols ? static_cast<std::size_t>(x.size()) / cols : 0;
  return {x.data(), rows, cols};
}

// (scales[rows, blocks], elements[rows, blocks * block_bytes]) written in place by the kernels.
py::tuple quantize(const py::array& x, const std::string& format, const std::string& scale,
                   const std::string& overflow, bool flush, const std::string& path, bool bf16) {
  mx::Format f = format_of(format);
  mx::Options o = options_of(f, scale, overflow, flush);
  mx::Path p = path_of(path);
  Rows in = rows_of(x, bf16);
  const std::size_t blocks = mx::blocks_for(in.cols);
  const std::size_t row_bytes = blocks * static_cast<std::size_t>(mx::format_info(f).block_bytes);
  py::array_t<std::uint8_t> scales({in.rows, blocks});
  py::array_t<std::uint8_t> elements({in.rows, row_bytes});
  std::uint8_t* s = scales.mutable_data();
  std::uint8_t* e = elements.mutable_data();
  {
    py::gil_scoped_release unlocked;
    for (std::size_t r = 0; r < in.rows; ++r) {
      if (bf16)
        mx::quantize_blocks_bf16(static_cast<const std::uint16_t*>(in.data) + r * in.cols, in.cols, f, o,
                                 s + r * blocks, e + r * row_bytes, p);
      else
        mx::quantize_blocks(static_cast<const float*>(in.data) + r * in.cols, in.cols, f, o, s + r * blocks,
                            e + r * row_bytes, p);
    }
  }
  return py::make_tuple(scales, elements);
}

// Checks packed arrays against their format and logical length; returns the row count.
std::size_t check_packed(mx::Format f, const Packed& scales,
                         const Packed& elements, std::size_t cols, const char* what) {
  const std::string w = what;
  if (!(scales.flags() & py::array::c_style) || !(elements.flags() & py::array::c_style))
    throw py::type_error(w + ": scales and elements must be C-contiguous uint8 arrays");
  if (scales.ndim() != 2 || elements.ndim() != 2)
    throw trnsim::InputError(w, "scales and elements must be 2-D (rows x blocks, rows x bytes)");
  const std::size_t blocks = mx::blocks_for(cols);
  const std::size_t row_bytes = blocks * static_cast<std::size_t>(mx::format_info(f).block_bytes);
  const std::size_t rows = static_cast<std::size_t>(scales.shape(0));
  if (static_cast<std::size_t>(scales.shape(1)) != blocks)
    throw trnsim::InputError(w + ".scales", "has " + std::to_string(scales.shape(1)) + " columns, " +
                                                std::to_string(cols) + " values need " + std::to_string(blocks));
  if (static_cast<std::size_t>(elements.shape(0)) != rows || static_cast<std::size_t>(elements.shape(1)) != row_bytes)
    throw trnsim::InputError(w + ".elements", "shape must be (" + std::to_string(rows) + ", " +
                                                  std::to_string(row_bytes) + ") for " + mx::format_name(f));
  return rows;
}

py::array_t<float> dequantize(const std::string& format, const Packed& scales,
                              const Packed& elements, std::size_t cols, const std::string& path) {
  mx::Format f = format_of(format);
  mx::Path p = path_of(path);
  const std::size_t rows = check_packed(f, scales, elements, cols, "a");
  const std::size_t blocks = mx::blocks_for(cols), row_bytes = static_cast<std::size_t>(elements.shape(1));
  py::array_t<float> out({rows, cols});
  float* y = out.mutable_data();
  const std::uint8_t* s = scales.data();
  const std::uint8_t* e = elements.data();
  {
    py::gil_scoped_release unlocked;
    for (std::size_t r = 0; r < rows; ++r)
      mx::dequantize_blocks(f, s + r * blocks, e + r * row_bytes, cols, y + r * cols, p);
  }
  return out;
}

float dot(const std::string& fa_name, const Packed& sa, const Packed& ea,
          const std::string& fb_name, const Packed& sb, const Packed& eb,
          std::size_t cols, const std::string& path) {
  mx::Format fa = format_of(fa_name, "a.format"), fb = format_of(fb_name, "b.format");
  mx::Path p = path_of(path);
  if (check_packed(fa, sa, ea, cols, "a") != 1 || check_packed(fb, sb, eb, cols, "b") != 1)
    throw trnsim::InputError("dot", "operands must be vectors (one row each)");
  py::gil_scoped_release unlocked;
  return mx::dot_blocks(fa, sa.data(), ea.data(), fb, sb.data(), eb.data(), mx::blocks_for(cols), p);
}

// Element codes unpacked to one byte each: rows x (blocks * 32).
py::array_t<std::uint8_t> codes(const std::string& format, const Packed& scales,
                                const Packed& elements, std::size_t cols) {
  mx::Format f = format_of(format);
  const std::size_t rows = check_packed(f, scales, elements, cols, "a");
  const std::size_t blocks = mx::blocks_for(cols), bb = static_cast<std::size_t>(mx::format_info(f).block_bytes);
  py::array_t<std::uint8_t> out({rows, blocks * mx::kBlockSize});
  std::uint8_t* c = out.mutable_data();
  const std::uint8_t* e = elements.data();
  for (std::size_t b = 0; b < rows * blocks; ++b)
    for (int i = 0; i < mx::kBlockSize; ++i) c[b * mx::kBlockSize + i] = mx::get_code(f, e + b * bb, i);
  return out;
}

py::dict format_info(const std::string& name) {
  const mx::FormatInfo& i = mx::format_info(format_of(name));
  py::dict d;
  d["name"] = i.name;
  d["long_name"] = i.long_name;
  d["element_bits"] = i.element_bits;
  d["exponent_bits"] = i.exponent_bits;
  d["mantissa_bits"] = i.mantissa_bits;
  d["bias"] = i.bias;
  d["emax"] = i.emax;
  d["max_normal"] = i.max_normal;
  d["min_normal"] = i.min_normal;
  d["min_subnormal"] = i.min_subnormal;
  d["has_inf"] = i.has_inf;
  d["has_nan"] = i.has_nan;
  d["block_bytes"] = i.block_bytes;
  d["block_size"] = mx::kBlockSize;
  return d;
}

std::vector<std::string> formats() {
  std::vector<std::string> names;
  for (mx::Format f : mx::kAllFormats) names.push_back(mx::format_name(f));
  names.push_back("nvfp4");
  return names;
}

std::vector<std::string> paths() {
  std::vector<std::string> names;
  for (mx::Path p : mx::available_paths()) names.push_back(mx::path_name(p));
  return names;
}

py::dict error_stats(const std::string& format, const std::string& dist, std::size_t n, std::uint64_t seed,
                     const std::string& scale, const std::string& overflow, bool flush) {
  mx::Format f = format_of(format);
  mx::Options o = options_of(f, scale, overflow, flush);
  mx::Distribution d = parse_option(mx::parse_distribution(dist), "dist", dist, "normal|laplace|uniform|lognormal");
  if (n < 1 || n > (std::size_t{1} << 26)) throw trnsim::InputError("n", "must be in [1, 67108864]");
  mx::ErrorStats st;
  {
    py::gil_scoped_release unlocked;
    st = mx::error_stats(f, o, d, n, seed);
  }
  py::dict r;
  r["n"] = st.n;
  r["rmse"] = st.rmse;
  r["max_rel_error"] = st.max_rel_error;
  r["sqnr_db"] = st.sqnr_db;
  r["underflow_to_zero"] = st.zeros;
  r["clamped"] = st.clamped;
  return r;
}

// ---- NVFP4 (core/mx/nvfp4.h): E2M1 in blocks of 16, E4M3 block scales, one FP32 tensor scale.

mx::NvOptions nv_options_of(double tensor_scale) {
  mx::NvOptions o;
  if (tensor_scale != 0) {
    mx::check_nv_tensor_scale(static_cast<float>(tensor_scale), "tensor_scale");
    o.tensor_scale = static_cast<float>(tensor_scale);
  }
  return o;
}

// (scales[rows, blocks], elements[rows, blocks * 8], tensor_scale): one tensor scale for the array.
py::tuple nv_quantize(const py::array& x, double tensor_scale, const std::string& path) {
  const mx::NvOptions o = nv_options_of(tensor_scale);
  mx::Path p = path_of(path);
  Rows in = rows_of(x, false);
  mx::NvTensor t;
  {
    py::gil_scoped_release unlocked;
    t = mx::quantize_nvfp4(static_cast<const float*>(in.data), in.rows, in.cols, o, p);
  }
  py::array_t<std::uint8_t> scales({in.rows, t.blocks_per_row()});
  py::array_t<std::uint8_t> elements({in.rows, t.row_element_bytes()});
  std::copy(t.scales.begin(), t.scales.end(), scales.mutable_data());
  std::copy(t.elements.begin(), t.elements.end(), elements.mutable_data());
  return py::make_tuple(scales, elements, t.tensor_scale);
}

// An NvTensor from packed arrays (checked against cols; copied: the core owns its vectors).
mx::NvTensor nv_tensor_of(const Packed& scales, const Packed& elements, std::size_t cols, double tensor_scale,
                          const char* what) {
  const std::string w = what;
  if (scales.ndim() != 2 || elements.ndim() != 2)
    throw trnsim::InputError(w, "scales and elements must be 2-D (rows x blocks, rows x bytes)");
  const std::size_t rows = static_cast<std::size_t>(scales.shape(0));
  mx::NvTensor t = mx::make_nv_tensor(rows, cols, static_cast<float>(tensor_scale));
  mx::check_nv_tensor_scale(t.tensor_scale, (w + ".tensor_scale").c_str());
  if (static_cast<std::size_t>(scales.shape(1)) != t.blocks_per_row())
    throw trnsim::InputError(w + ".scales", "has " + std::to_string(scales.shape(1)) + " columns, " +
                                                std::to_string(cols) + " values need " + std::to_string(t.blocks_per_row()));
  if (static_cast<std::size_t>(elements.shape(0)) != rows ||
      static_cast<std::size_t>(elements.shape(1)) != t.row_element_bytes())
    throw trnsim::InputError(w + ".elements", "shape must be (" + std::to_string(rows) + ", " +
                                                  std::to_string(t.row_element_bytes()) + ") for nvfp4");
  std::copy(scales.data(), scales.data() + t.scales.size(), t.scales.begin());
  std::copy(elements.data(), elements.data() + t.elements.size(), t.elements.begin());
  return t;
}

py::array_t<float> nv_dequantize(const Packed& scales, const Packed& elements, std::size_t cols, double tensor_scale,
                                 const std::string& path) {
  mx::Path p = path_of(path);
  const mx::NvTensor t = nv_tensor_of(scales, elements, cols, tensor_scale, "a");
  py::array_t<float> out({t.rows, cols});
  std::vector<float> y;
  {
    py::gil_scoped_release unlocked;
    y = mx::dequantize(t, p);
  }
  std::copy(y.begin(), y.end(), out.mutable_data());
  return out;
}

float nv_dot(const Packed& sa, const Packed& ea, double ta, const Packed& sb, const Packed& eb, double tb,
             std::size_t cols, const std::string& path) {
  mx::Path p = path_of(path);
  const mx::NvTensor a = nv_tensor_of(sa, ea, cols, ta, "a"), b = nv_tensor_of(sb, eb, cols, tb, "b");
  if (a.rows != 1 || b.rows != 1) throw trnsim::InputError("dot", "operands must be vectors (one row each)");
  py::gil_scoped_release unlocked;
  return mx::dot(a, b, p);
}

// Element codes unpacked to one byte each: rows x (blocks * 16).
py::array_t<std::uint8_t> nv_codes(const Packed& scales, const Packed& elements, std::size_t cols) {
  const mx::NvTensor t = nv_tensor_of(scales, elements, cols, 1.0, "a");
  const std::size_t per_row = t.blocks_per_row() * mx::kNvBlockSize;
  py::array_t<std::uint8_t> out({t.rows, per_row});
  std::uint8_t* c = out.mutable_data();
  for (std::size_t i = 0; i < t.rows * per_row; ++i) c[i] = (t.elements[i / 2] >> ((i % 2) * 4)) & 0xF;
  return out;
}

py::dict nv_format_info() {
  const mx::FormatInfo& e = mx::format_info(mx::Format::e2m1);
  py::dict d;
  d["name"] = "nvfp4";
  d["long_name"] = "NVFP4 E2M1, E4M3 scale per 16, FP32 tensor scale";
  d["element_bits"] = e.element_bits;
  d["exponent_bits"] = e.exponent_bits;
  d["mantissa_bits"] = e.mantissa_bits;
  d["bias"] = e.bias;
  d["emax"] = e.emax;
  d["max_normal"] = e.max_normal;
  d["min_normal"] = e.min_normal;
  d["min_subnormal"] = e.min_subnormal;
  d["has_inf"] = false;
  d["has_nan"] = false;
  d["block_bytes"] = mx::kNvBlockBytes;
  d["block_size"] = mx::kNvBlockSize;
  d["block_scale"] = "e4m3";
  d["tensor_scale"] = "fp32";
  return d;
}

py::dict stats_dict(const mx::ErrorStats& st) {
  py::dict r;
  r["n"] = st.n;
  r["rmse"] = st.rmse;
  r["max_rel_error"] = st.max_rel_error;
  r["sqnr_db"] = st.sqnr_db;
  r["underflow_to_zero"] = st.zeros;
  r["clamped"] = st.clamped;
  return r;
}

py::dict nv_error_stats(const std::string& dist, std::size_t n, std::uint64_t seed, double tensor_scale) {
  const mx::NvOptions o = nv_options_of(tensor_scale);
  mx::Distribution d = parse_option(mx::parse_distribution(dist), "dist", dist, "normal|laplace|uniform|lognormal");
  if (n < 1 || n > (std::size_t{1} << 26)) throw trnsim::InputError("n", "must be in [1, 67108864]");
  mx::ErrorStats st;
  {
    py::gil_scoped_release unlocked;
    st = mx::nv_error_stats(d, n, seed, o);
  }
  return stats_dict(st);
}

// ---- sweeps ---------------------------------------------------------------------------------

// A parsed sweep; `base_text` is the scenario JSON text of a string "base" (the caller
// resolves names: a file relative to the sweep file, else an embedded example).
// `base_dir` and `sweep_dir` are the folders model paths resolve in: the base file's, and the
// sweep file's (else the working directory) for an inline base and the grid.
trnsim::sweep::Sweep sweep_parse(const std::string& text, const std::string& what, const std::string& base_text,
                                 const std::string& base_dir, const std::string& sweep_dir) {
  trnsim::json j = trnsim::parse_json_text(text, what);
  return trnsim::sweep::parse_sweep(
      j, [&](const std::string&) { return base_text; },
      [&](const std::string& name) { return trnsim::scenario_files_in(name.empty() ? sweep_dir : base_dir); });
}

std::string sweep_point(const trnsim::sweep::Sweep& s, std::size_t index) {
  if (index >= s.points()) throw py::index_error("point " + std::to_string(index) + " of " + std::to_string(s.points()));
  py::gil_scoped_release unlocked;  // points evaluate in parallel on Python threads
  return trnsim::sweep::evaluate_point(s, index).dump();
}

const std::string* embedded(const std::string& key) { return trnsim::find_embedded(key); }

// ---- plots ---------------------------------------------------------------------------------

std::string chart_json(const std::string& jsonl, const std::string& what, const std::string& x, const std::string& y,
                       const std::string& color, bool pareto) {
  return trnsim::plot::chart_to_json(
             trnsim::plot::make_chart(trnsim::plot::parse_lines(jsonl, what), x, y, color, pareto, "x", "y", "color"))
      .dump();
}

py::dict metric_info(const std::string& key) {
  trnsim::plot::MetricInfo m = trnsim::plot::metric_info(key);
  py::dict d;
  d["label"] = m.label;
  d["unit"] = m.unit;
  d["better"] = m.better;
  return d;
}

}  // namespace

PYBIND11_MODULE(_trnsim, m) {
  m.doc() = "The trnsim core (C++), bound with pybind11. Use the package `trnsim`, not this module.";
  m.attr("__version__") = TRNSIM_VERSION;

  g_input_error = PyErr_NewExceptionWithDoc(
      "trnsim.InputError",
      "Bad input (a scenario field, a system name, an option): the CLI's exit-2 errors.\n\n"
      "Attributes: field -- the JSON path or option the problem is in (e.g. 'workload.inference.batch');\n"
      "message -- what is wrong with it. str(error) is 'field: message'.",
      PyExc_ValueError, nullptr);
  m.add_object("InputError", py::handle(g_input_error));
  py::register_exception_translator(translate_input_error);

  using py::arg;
  m.def("run_json", &run_json, arg("text"), arg("what"), arg("base_dir"));
  m.def("trace_json", &trace_json, arg("text"), arg("what"), arg("base_dir"));
  m.def("serve_json", &serve_json, arg("text"), arg("what"), arg("find_rate"), arg("base_dir"));
  m.def("capacity_json", &capacity_json, arg("text"), arg("what"), arg("jobs"), arg("base_dir"));
  m.def("canonical_scenario", &canonical_scenario, arg("text"), arg("what"), arg("base_dir"));
  m.def("default_scenario", &default_scenario);
  m.def("example_names", &example_names);
  m.def("example_text", &example_text, arg("name"));
  m.def("system_names", &trnsim::hw::system_names);
  m.def("describe_json", &describe_json, arg("system"));
  m.def("collective", &collective, arg("system"), arg("op"), arg("bytes"), arg("algo"), arg("backend"), arg("ranks"),
        arg("stride"), arg("protocol") = "auto");
  m.def("collective_ops", &trnsim::collective::op_names);
  m.def("collective_algos", &trnsim::collective::algo_names);
  m.def("collective_backends", &trnsim::collective::backend_names);
  m.def("link_encode", &link_encode, arg("text"), arg("what"), arg("base"), arg("base_dir"));
  m.def("link_decode", &link_decode, arg("link"));
  m.attr("default_link_base") = trnsim::kDefaultLinkBase;

  py::class_<trnsim::sweep::Sweep>(m, "Sweep")
      .def("points", &trnsim::sweep::Sweep::points)
      .def_readwrite("full", &trnsim::sweep::Sweep::full)
      .def_readonly("paths", &trnsim::sweep::Sweep::paths);
  m.def("validate_json",
        [](std::optional<py::function> progress, const std::string& pricer) {
          trnsim::validate::Options options;
          options.pricer = pricer;
          std::vector<trnsim::validate::Row> rows;
          if (progress)
            rows = trnsim::validate::rows([&](std::size_t done, std::size_t total) { (*progress)(done, total); }, options);
          else rows = trnsim::validate::rows({}, options);
          return trnsim::validate::to_json(rows, options).dump(2) + "\n";
        },
        arg("progress") = py::none(), arg("pricer") = "");
  m.def("sweep_parse", &sweep_parse, arg("text"), arg("what"), arg("base_text"), arg("base_dir"), arg("sweep_dir"));
  m.def("sweep_point", &sweep_point, arg("sweep"), arg("index"));
  m.def("sweep_shard_range", &trnsim::sweep::shard_range, arg("points"), arg("shard"), arg("shards"));
  m.def("embedded_text", [](const std::string& key) -> std::optional<std::string> {
    const std::string* t = embedded(key);
    return t ? std::optional<std::string>(*t) : std::nullopt;
  }, arg("key"));
  m.def("chart_json", &chart_json, arg("jsonl"), arg("what"), arg("x"), arg("y"), arg("color"), arg("pareto"));
  m.def("metric_info", &metric_info, arg("key"));

  m.def("mx_quantize", &quantize, arg("x"), arg("format"), arg("scale"), arg("overflow"), arg("flush_subnormals"),
        arg("path"), arg("bf16"));
  // Packed arrays are never converted (noconvert): a wrong dtype or layout is a TypeError, not a copy.
  m.def("mx_dequantize", &dequantize, arg("format"), arg("scales").noconvert(), arg("elements").noconvert(),
        arg("cols"), arg("path"));
  m.def("mx_dot", &dot, arg("a_format"), arg("a_scales").noconvert(), arg("a_elements").noconvert(),
        arg("b_format"), arg("b_scales").noconvert(), arg("b_elements").noconvert(), arg("cols"), arg("path"));
  m.def("mx_codes", &codes, arg("format"), arg("scales").noconvert(), arg("elements").noconvert(), arg("cols"));
  m.def("mx_format_info", &format_info, arg("format"));
  m.def("mx_formats", &formats);
  m.def("mx_paths", &paths);
  m.def("mx_error", &error_stats, arg("format"), arg("dist"), arg("n"), arg("seed"), arg("scale"), arg("overflow"),
        arg("flush_subnormals"));
  m.def("nv_quantize", &nv_quantize, arg("x"), arg("tensor_scale"), arg("path"));
  m.def("nv_dequantize", &nv_dequantize, arg("scales").noconvert(), arg("elements").noconvert(), arg("cols"),
        arg("tensor_scale"), arg("path"));
  m.def("nv_dot", &nv_dot, arg("a_scales").noconvert(), arg("a_elements").noconvert(), arg("a_tensor_scale"),
        arg("b_scales").noconvert(), arg("b_elements").noconvert(), arg("b_tensor_scale"), arg("cols"), arg("path"));
  m.def("nv_codes", &nv_codes, arg("scales").noconvert(), arg("elements").noconvert(), arg("cols"));
  m.def("nv_format_info", &nv_format_info);
  m.def("nv_error", &nv_error_stats, arg("dist"), arg("n"), arg("seed"), arg("tensor_scale"));
}
