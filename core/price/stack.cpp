// Serving stacks from core/data/serving/*.json (stack.h).
#include "price/stack.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>

#include "common/dtype.h"
#include "embedded.h"
#include "hw/sources.h"

namespace trnsim::price {

namespace {

const char* kPrefix = "data/serving/";

// The position of a name rd.choice() has checked against `names`.
std::size_t name_index(const std::string& name, const std::vector<std::string>& names) {
  return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
}

// One {"value", "unit"?, "source"} entry: checks the source, records it under `path`.
class Reader {
 public:
  explicit Reader(Stack& s) : s_(s) {}
  const json& entry(ObjectReader& r, const std::string& key) {
    const std::string path = r.path(key);
    ObjectReader e(r.raw(key), path);
    const json& v = e.raw("value");
    std::string source = e.string("source");
    hw::check_source(source, path + ".source");
    unit_ = e.string("unit", "");
    e.ignore("note");
    e.finish();
    s_.sources[path] = source;
    if (source.rfind("calibrated", 0) == 0) s_.calibrated.push_back(path);
    return v;
  }
  double number(ObjectReader& r, const std::string& key, const Bound& lo, const Bound& hi) {
    const std::string path = r.path(key);
    double v = checked_number(entry(r, key), path + ".value", lo, hi);
    return v * time_factor(path);
  }
  int integer(ObjectReader& r, const std::string& key, const Bound& lo, const Bound& hi) {
    const std::string path = r.path(key);
    const json& v = entry(r, key);
    if (!unit_.empty()) throw InputError(path + ".unit", "a count has no unit, got '" + unit_ + "'");
    return static_cast<int>(checked_integer(v, path + ".value", lo, hi));
  }
  std::string text(ObjectReader& r, const std::string& key) {
    const std::string path = r.path(key) + ".value";
    std::string v = checked_string(entry(r, key), path);
    if (v.empty()) throw InputError(path, "must not be empty");
    return v;
  }
  bool boolean(ObjectReader& r, const std::string& key) { return checked_boolean(entry(r, key), r.path(key) + ".value"); }
  std::string choice(ObjectReader& r, const std::string& key, const std::vector<std::string>& allowed) {
    const std::string path = r.path(key) + ".value";
    return checked_choice(checked_string(entry(r, key), path), path, allowed);
  }
  // Runtime costs carry a time unit; ratios and counts none.
  double seconds(ObjectReader& r, const std::string& key) {
    const std::string path = r.path(key);
    double v = checked_number(entry(r, key), path + ".value", at_least(0, "a cost in time is not negative"),
                              limit(1e6, "trnsim's limit: a million of its unit"));
    static const std::map<std::string, double> units = {{"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}};
    auto it = units.find(unit_);
    if (it == units.end()) throw InputError(path + ".unit", "expected a time unit (s, ms, us, ns), got '" + unit_ + "'");
    if (v * it->second > 60) throw InputError(path + ".value", "more than a minute per event is not a runtime cost");
    return v * it->second;
  }

 private:
  double time_factor(const std::string& path) const {
    if (!unit_.empty()) throw InputError(path + ".unit", "this value has no unit, got '" + unit_ + "'");
    return 1;
  }
  Stack& s_;
  std::string unit_;
};

// A count or a size without a largest value of its own: trnsim's cap.
Bound size_cap(int n) { return limit(n, "trnsim's limit: " + std::to_string(n)); }

Stack parse_stack(const json& j, const std::string& origin) {
  Stack s;
  s.origin = origin;
  Reader rd(s);
  ObjectReader r(j, "");
  r.choice("format", {"trnsim-serving-stack-1"});
  s.name = r.string("name");
  if (s.name.empty()) throw InputError("name", "must not be empty");
  s.display_name = r.string("display_name", s.name);
  s.note = r.string("note", "");
  s.sdk_release = rd.text(r, "sdk_release");
  s.logical_nc_config =
      rd.integer(r, "logical_nc_config", at_least(0, "cores per rank are not negative; 0: ranks are chips"),
                 limit(8, "trnsim's limit: 8 physical cores a rank"));
  {
    ObjectReader m(r.raw("moe"), "moe");
    s.moe.strategy = static_cast<plan::MoeStrategy>(name_index(rd.choice(m, "strategy", plan::moe_strategy_names()),
                                                                plan::moe_strategy_names()));
    s.moe.selective_threshold = rd.number(m, "selective_loading_threshold",
                                          at_least(0, "a threshold on tokens x top_k / experts is not negative"),
                                          limit(1e6, "trnsim's limit: a million"));
    s.moe.block_size = rd.integer(m, "block_size", at_least(1, "a block holds at least one token"), size_cap(1 << 20));
    const Bound width_lo = at_least(0, "a width is not negative");
    const Bound multiple_lo = at_least(1, "a multiple is at least 1");
    s.moe.kernel_min_hidden = rd.integer(m, "kernel_min_hidden", width_lo, size_cap(1 << 24));
    s.moe.kernel_max_hidden = rd.integer(m, "kernel_max_hidden", width_lo, size_cap(1 << 24));
    s.moe.kernel_hidden_multiple = rd.integer(m, "kernel_hidden_multiple", multiple_lo, size_cap(1 << 24));
    s.moe.kernel_intermediate_multiple = rd.integer(m, "kernel_intermediate_multiple", multiple_lo, size_cap(1 << 24));
    s.moe.fallback_kernels_per_block = rd.integer(m, "fallback_kernels_per_block",
                                                  at_least(1, "a block runs at least one kernel"), size_cap(1024));
    s.moe.kernel_block_s = rd.seconds(m, "kernel_block_time");
    s.moe.fallback_block_s = rd.seconds(m, "fallback_block_time");
    s.moe.fallback_output_passes = rd.number(m, "fallback_output_passes", at_least(0, "passes over the output are not negative"),
                                             limit(64, "trnsim's limit: 64 passes a block"));
    s.moe.kernel = static_cast<plan::MoeKernel>(name_index(rd.choice(m, "kernel", plan::moe_kernel_names()),
                                                            plan::moe_kernel_names()));
    s.moe.kernel_output_passes = rd.number(m, "kernel_output_passes", at_least(0, "passes over the output are not negative"),
                                           limit(64, "trnsim's limit: 64 passes a block"));
    s.moe.decode_kernel = static_cast<plan::MoeDecodeKernel>(
        name_index(rd.choice(m, "decode_kernel", plan::moe_decode_kernel_names()), plan::moe_decode_kernel_names()));
    s.moe.decode_pass_s = rd.seconds(m, "decode_pass_time");
    if (m.has("dispatch"))  // optional: the all-to-all when not given
      s.moe.dispatch = static_cast<plan::MoeDispatch>(name_index(rd.choice(m, "dispatch", plan::moe_dispatch_names()),
                                                                 plan::moe_dispatch_names()));
    if (m.has("separate_passes"))  // optional: none when not given
      s.moe.separate_passes = rd.boolean(m, "separate_passes");
    if (s.moe.kernel_max_hidden < s.moe.kernel_min_hidden)
      throw InputError("moe.kernel_max_hidden.value", "must be at least moe.kernel_min_hidden");
    m.finish();
  }
  if (r.has("attention")) {
    ObjectReader a(r.raw("attention"), "attention");
    s.mla_decode_kernels = rd.integer(a, "mla_decode_kernels",
                                      at_least(5, "an MLA layer's decode runs at least its five operators"),
                                      size_cap(1024));
    s.mla_decode_op_s = rd.seconds(a, "mla_decode_op_time");
    a.finish();
  }
  if (r.has("weight_only")) {
    ObjectReader w(r.raw("weight_only"), "weight_only");
    const std::string path = w.path("dtypes") + ".value";
    const json& v = rd.entry(w, "dtypes");
    if (!v.is_array() || v.empty()) throw InputError(path, "must be a non-empty list of weight formats");
    for (std::size_t i = 0; i < v.size(); ++i) {
      const std::string at = path + "[" + std::to_string(i) + "]";
      const std::string name = checked_string(v[i], at);
      dtype::get(name, at);  // a known format, or InputError naming it
      s.weight_only_dtypes.push_back(name);
    }
    s.weight_only_rate = rd.number(w, "matmul_rate", above(0, "a kernel runs at some share of the matmul rate", 0.01),
                                   at_most(1, "a dequantizing kernel is not faster than the matmul dtype's rate"));
    w.finish();
  }
  {
    ObjectReader b(r.raw("batching"), "batching");
    s.context_encoding_batch = rd.integer(
        b, "context_encoding_batch", at_least(1, "a prefill graph holds at least one sequence"), size_cap(1 << 16));
    s.prefill_alone = rd.boolean(b, "prefill_alone");
    s.prefix_caching = rd.boolean(b, "prefix_caching");
    s.context_encoding_overlap =
        rd.number(b, "context_encoding_collective_overlap",
                  at_least(0, "a share of the collectives' time: not negative"),
                  at_most(1, "a share of the collectives' time: at most all of it"));
    if (b.has("decode_collective_overlap"))
      s.decode_overlap = rd.number(b, "decode_collective_overlap", at_least(0, "a share of the collectives' time: not negative"),
                                   at_most(1, "a share of the collectives' time: at most all of it"));
    b.finish();
  }
  {
    ObjectReader b(r.raw("buckets"), "buckets");
    Buckets& k = s.buckets;
    k.enabled = rd.boolean(b, "enabled");
    s.pad_prefill_to_max = rd.boolean(b, "pad_prefill_to_max");
    s.decode_reads_max = rd.boolean(b, "decode_reads_max");
    const Bound bucket_lo = at_least(1, "a bucket holds at least one token");
    k.min_context_encoding = rd.integer(b, "min_context_encoding", bucket_lo, size_cap(1 << 24));
    k.min_token_generation = rd.integer(b, "min_token_generation", bucket_lo, size_cap(1 << 24));
    k.min_prefix_context_encoding = rd.integer(b, "min_prefix_context_encoding", bucket_lo, size_cap(1 << 24));
    k.min_prefix_token_generation = rd.integer(b, "min_prefix_token_generation", bucket_lo, size_cap(1 << 24));
    b.finish();
  }
  {
    ObjectReader c(r.raw("runtime"), "runtime");
    RuntimeCosts& t = s.runtime;
    t.graph_launch_s = rd.seconds(c, "graph_launch");
    t.step_host_s = rd.seconds(c, "step_host");
    // "sampling" is step_extra's name before December 2026 (it held optimum-neuron's plugin cost,
    // which is not sampling: its exports sample on device); stack files using it still load.
    if (c.has("sampling") && c.has("step_extra"))
      throw InputError(c.path("sampling"), "the old name of step_extra: give one of the two");
    t.step_extra_s = rd.seconds(c, c.has("sampling") ? "sampling" : "step_extra");
    t.request_host_s = rd.seconds(c, "request_host");
    c.finish();
  }
  {
    ObjectReader c(r.raw("speculation"), "speculation");
    s.speculation_bonus_token = rd.boolean(c, "bonus_token");
    c.finish();
  }
  if (r.has("server")) {
    ObjectReader c(r.raw("server"), "server");
    ServerLimits v;
    // A count, or "trtllm-bench": derived from the request lengths as trtllm-bench builds its engine.
    auto count_or_tuned = [&](const std::string& key, int cap) {
      const std::string path = c.path(key);
      const json& val = rd.entry(c, key);
      if (val.is_string()) {
        checked_choice(val.get<std::string>(), path + ".value", {"trtllm-bench"});
        return ServerLimits::kTuned;
      }
      return static_cast<int>(checked_integer(val, path + ".value", at_least(1, "at least one"), size_cap(cap)));
    };
    v.max_batch_size = count_or_tuned("max_batch_size", 1 << 20);
    v.max_num_tokens = count_or_tuned("max_num_tokens", 1 << 24);
    v.batch_policy = rd.choice(c, "batch_policy", {"chunked"});
    v.capacity_policy = rd.choice(c, "capacity_policy", {"guaranteed_no_evict", "max_utilization"});
    v.decode_sequence_layer_s = rd.seconds(c, "decode_sequence_layer");
    c.finish();
    s.server = v;
  }
  r.finish();
  return s;
}

bool looks_like_path(const std::string& s) {
  return s.find('/') != std::string::npos || (s.size() > 5 && s.compare(s.size() - 5, 5, ".json") == 0);
}

std::string read_text(const std::string& name, std::string& origin) {
  if (!looks_like_path(name)) {
    origin = std::string(kPrefix) + name + ".json";
    if (const std::string* text = find_embedded(origin)) return *text;
    std::vector<std::string> all = stack_names();
    std::string list;
    for (const auto& n : all) list += (list.empty() ? "" : ", ") + n;
    std::string hint = closest_name(name, all);
    throw InputError("", "unknown serving stack '" + name + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                             "; one of: " + list + " (or a path to a stack .json file)");
  }
  origin = name;
  std::ifstream f(name, std::ios::binary);
  if (!f) throw InputError("", "cannot open serving stack file '" + name + "'");
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

}  // namespace

std::vector<std::string> stack_names() {
  std::vector<std::string> names;
  for (const auto& key : embedded_keys(kPrefix)) {
    std::string stem = key.substr(std::string(kPrefix).size());
    if (stem.size() > 5 && stem.compare(stem.size() - 5, 5, ".json") == 0) names.push_back(stem.substr(0, stem.size() - 5));
  }
  std::sort(names.begin(), names.end());
  return names;
}

const Stack& load_stack(const std::string& name) {
  // Stacks are immutable once read and cached by name and text: a file is read again on every
  // call, so one edited while the process runs (a Python session, the desktop GUI) is parsed
  // anew; earlier versions stay alive for the references already handed out.
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<Stack>> cache;
  std::string origin;
  std::string text = read_text(name, origin);
  std::string key = name;
  key += '\0';
  key += text;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(key);
  if (it != cache.end()) return *it->second;
  try {
    auto s = std::make_unique<Stack>(parse_stack(parse_json_text(text, origin), origin));
    return *cache.emplace(std::move(key), std::move(s)).first->second;
  } catch (const InputError& e) {
    throw InputError(e.field().empty() ? origin : origin + ": " + e.field(),
                     e.field().empty() ? std::string(e.what()) : e.problem());
  }
}

int ranks_per_chip(const Stack& stack, const hw::Chip& chip) {
  if (stack.logical_nc_config <= 0) return 1;
  const int cores = chip.neuron("serving stack '" + stack.name + "' (logical NeuronCores)").cores;
  if (cores % stack.logical_nc_config != 0)
    throw InputError("workload.stack", "logical_nc_config " + std::to_string(stack.logical_nc_config) + " does not divide " +
                                           chip.display_name + "'s " + std::to_string(cores) + " NeuronCores");
  return cores / stack.logical_nc_config;
}

std::vector<int> automatic_buckets(int min_length, int max_length) {
  if (min_length >= max_length) return {max_length};
  const int lo = static_cast<int>(std::floor(std::log2(static_cast<double>(min_length))));
  const int hi = static_cast<int>(std::lround(std::log2(static_cast<double>(max_length))));
  std::vector<int> out;
  for (int i = lo; i < hi; ++i)
    if ((1 << i) < max_length) out.push_back(1 << i);
  out.push_back(max_length);
  return out;
}

int bucket_for(const std::vector<int>& buckets, int length, const std::string& field) {
  for (int b : buckets)
    if (b >= length) return b;
  throw InputError(field, std::to_string(length) + " tokens exceed the largest compiled bucket (" +
                              (buckets.empty() ? std::string("none") : std::to_string(buckets.back())) + ")");
}

}  // namespace trnsim::price
