// Workload results as JSON (deterministic key order), as the human report section, and as a
// Chrome trace / Perfetto timeline (lanes: compute, HBM and fabric per device group).
#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "workload/workload.h"

namespace trnsim::workload {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

std::string fmtf(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string fmt_time(double s) {
  if (s >= 1.0) return fmtf(s, 3) + " s";
  if (s >= 1e-3) return fmtf(s * 1e3, 3) + " ms";
  return fmtf(s * 1e6, 2) + " us";
}

std::string fmt_pct(double f) { return fmtf(f * 100.0, 1) + "%"; }

// 3 significant digits with thousands separators for large values.
std::string fmt_num(double v) {
  if (v == 0) return "0";
  double a = v < 0 ? -v : v;
  if (a >= 1000) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    std::string s = buf, out;
    int start = s[0] == '-' ? 1 : 0;
    int n = static_cast<int>(s.size()) - start;
    for (int i = 0; i < static_cast<int>(s.size()); ++i) {
      out += s[i];
      int left = static_cast<int>(s.size()) - 1 - i;
      if (i >= start && left > 0 && left % 3 == 0) out += ',';
    }
    (void)n;
    return out;
  }
  if (a >= 100) return fmtf(v, 1);
  if (a >= 10) return fmtf(v, 2);
  if (a >= 1) return fmtf(v, 3);
  if (a >= 0.01) return fmtf(v, 4);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string fmt_params(double p) {
  if (p >= 1e9) return fmtf(p / 1e9, 2) + " B";
  return fmtf(p / 1e6, 2) + " M";
}

std::string pad(const std::string& s, std::size_t w) { return s.size() >= w ? s : s + std::string(w - s.size(), ' '); }
std::string lpad(const std::string& s, std::size_t w) { return s.size() >= w ? s : std::string(w - s.size(), ' ') + s; }

json ops_json(const Result& R, const Phase& ph) {
  json arr = json::array();
  for (const auto& o : ph.ops) {
    json j;
    j["name"] = o.name;
    j["scope"] = o.scope;
    j["layer_type"] = o.layer_type >= 0 ? json(R.layer_type_names[o.layer_type]) : json(nullptr);
    j["category"] = o.category;
    j["detail"] = o.detail;
    j["count"] = o.count;
    j["flops"] = o.flops;
    j["hbm_bytes"] = o.hbm_bytes;
    j["fabric_bytes"] = o.fabric_bytes;
    j["compute_s"] = o.compute_s;
    j["memory_s"] = o.memory_s;
    j["fabric_s"] = o.fabric_s;
    j["overhead_s"] = o.overhead_s;
    j["time_s"] = o.time_s;
    j["total_s"] = o.total_s();
    arr.push_back(j);
  }
  return arr;
}

}  // namespace

json result_to_json(const Result& R) {
  const ModelConfig& m = R.model;
  json j;
  j["kind"] = R.kind;
  j["system"] = {{"name", R.system_name},
                 {"display_name", R.system_display_name},
                 {"chips", R.system_chips},
                 {"chips_per_server", R.chips_per_server},
                 {"chips_per_domain", R.chips_per_domain}};
  const auto& P = R.spec.parallelism;
  j["placement"] = {{"tp", P.tp},
                    {"pp", P.pp},
                    {"dp", P.dp},
                    {"ep", P.ep},
                    {"expert_tp", P.ep <= P.tp ? P.tp / P.ep : 1},
                    {"chips_used", R.chips_used},
                    {"ultraservers_used", R.domains_used}};
  json layer_types = json::array();
  for (const auto& n : R.layer_type_names) layer_types.push_back(n);
  j["model"] = {{"name", m.name},
                {"model_type", m.model_type},
                {"layers", m.layers},
                {"hidden_size", m.hidden},
                {"attention", m.attention == AttentionKind::mla ? "mla" : "gqa"},
                {"heads", m.heads},
                {"kv_heads", m.kv_heads},
                {"head_dim", m.head_dim},
                {"sliding_window", m.sliding_window},
                {"sliding_layers", m.sliding_layer_count()},
                {"moe_layers", m.moe_layer_count()},
                {"experts", m.experts},
                {"experts_per_token", m.experts_per_token},
                {"vocab_size", m.vocab},
                {"checkpoint_precision", m.checkpoint_precision},
                {"params",
                 {{"total", R.params.total},
                  {"active", R.params.active},
                  {"embedding", R.params.embedding},
                  {"lm_head", R.params.lm_head},
                  {"attention", R.params.attention},
                  {"dense_mlp", R.params.dense_mlp},
                  {"routed_experts", R.params.routed_experts},
                  {"shared_experts", R.params.shared_experts},
                  {"router", R.params.router},
                  {"norms", R.params.norms}}},
                {"kv_bytes_per_token", R.kv_bytes_per_token},
                {"layer_types", layer_types},
                {"ignored_fields", m.ignored_fields}};
  j["precision"] = {{"matmul", R.matmul_dtype},
                    {"weights", R.weights_dtype},
                    {"attention_weights", R.attention_weights_dtype},
                    {"kv_cache", R.kv_dtype}};
  j["warnings"] = R.warnings;
  if (R.kind == "inference") {
    const auto& in = R.spec.inference;
    j["inference"] = {{"batch", in.batch},
                      {"input_tokens", in.input_tokens},
                      {"output_tokens", in.output_tokens},
                      {"ttft_s", R.ttft_s},
                      {"tpot_s", R.tpot_s},
                      {"request_latency_s", R.request_latency_s},
                      {"decode_tokens_per_s_per_replica", R.decode_tokens_per_s_per_replica},
                      {"output_tokens_per_s",
                       {{"per_replica", R.output_tokens_per_s_per_replica},
                        {"per_chip", R.output_tokens_per_s_per_chip},
                        {"per_server", R.output_tokens_per_s_per_server},
                        {"per_system", R.output_tokens_per_s_per_system}}},
                      {"replicas", R.replicas}};
  } else {
    json scaling = json::array();
    for (const auto& s : R.scaling)
      scaling.push_back({{"ultraservers", s.ultraservers},
                         {"chips", s.chips},
                         {"step_time_s", s.step_time_s},
                         {"tokens_per_s", s.tokens_per_s},
                         {"scaling_efficiency", s.scaling_efficiency}});
    j["training"] = {{"step_time_s", R.step_time_s},
                     {"tokens_per_step", R.tokens_per_step},
                     {"tokens_per_s", R.training_tokens_per_s},
                     {"tokens_per_s_per_chip", R.training_tokens_per_s_per_chip},
                     {"mfu", R.mfu},
                     {"hfu", R.hfu},
                     {"model_flops_per_step", R.model_flops_per_step},
                     {"hardware_flops_per_step", R.hardware_flops_per_step},
                     {"micro_batches", R.micro_batches},
                     {"pipeline_bubble_fraction", R.pipeline_bubble_fraction},
                     {"scaling", scaling}};
  }
  json items;
  for (const auto& x : R.memory) items[x.name] = x.bytes;
  j["memory_per_chip"] = {{"capacity_bytes", R.hbm_capacity_bytes},
                          {"used_bytes", R.hbm_used_bytes},
                          {"fits", R.hbm_used_bytes <= R.hbm_capacity_bytes},
                          {"items", items}};
  j["time_shares"] = {{"compute", R.compute_share},
                      {"hbm", R.hbm_share},
                      {"fabric", R.fabric_share},
                      {"overhead", R.overhead_share}};
  j["economics"] = {{"chip_power_watts", R.chip_power_watts},
                    {"all_in_power_per_chip_watts", R.power_per_chip_all_in_watts},
                    {"tokens_per_s_per_megawatt", R.tokens_per_s_per_megawatt},
                    {"price_per_chip_hour_usd", R.price_per_chip_hour_usd},
                    {"usd_per_million_tokens", R.usd_per_million_tokens}};
  json as = json::array();
  for (const auto& a : R.assumptions)
    as.push_back({{"name", a.name}, {"value", a.value}, {"unit", a.unit}, {"source", a.source}});
  j["assumptions"] = as;
  json phases = json::array();
  for (const auto& ph : R.phases)
    phases.push_back({{"name", ph.name},
                      {"unit", ph.unit},
                      {"time_s", ph.time_s},
                      {"compute_s", ph.compute_s},
                      {"hbm_s", ph.hbm_s},
                      {"fabric_s", ph.fabric_s},
                      {"overhead_s", ph.overhead_s},
                      {"ops", ops_json(R, ph)}});
  j["phases"] = phases;
  return j;
}

namespace {

// The operators of a phase grouped by name (summed over layer types), largest first.
void ops_table(std::ostringstream& out, const Phase& ph, std::size_t max_rows) {
  struct Row {
    std::string name, category, detail;
    double count = 0, total = 0;
  };
  std::map<std::string, Row> rows;
  for (const auto& o : ph.ops) {
    Row& r = rows[o.name];
    r.name = o.name;
    r.count += o.count;
    r.total += o.total_s();
    if (r.detail.empty()) r.detail = o.detail, r.category = o.category;
  }
  std::vector<Row> v;
  for (auto& [k, r] : rows) v.push_back(r);
  std::stable_sort(v.begin(), v.end(), [](const Row& a, const Row& b) { return a.total > b.total; });
  out << "    " << pad("operator", 30) << lpad("count", 8) << lpad("total", 13) << lpad("share", 8) << "  "
      << pad("bound", 9) << "detail\n";
  std::size_t shown = 0;
  double rest = 0;
  for (const auto& r : v) {
    if (shown >= max_rows) {
      rest += r.total;
      continue;
    }
    ++shown;
    out << "    " << pad(r.name, 30) << lpad(fmt_num(r.count), 8) << lpad(fmt_time(r.total), 13)
        << lpad(ph.time_s > 0 ? fmt_pct(r.total / ph.time_s) : "-", 8) << "  " << pad(r.category, 9) << r.detail
        << "\n";
  }
  if (rest > 0) out << "    " << pad("(others)", 30) << lpad("", 8) << lpad(fmt_time(rest), 13) << "\n";
}

std::string shares_line(double c, double h, double f, double o) {
  return "compute " + fmt_pct(c) + " | HBM " + fmt_pct(h) + " | fabric " + fmt_pct(f) + " | kernel overhead " +
         fmt_pct(o);
}

}  // namespace

std::string result_to_text(const Result& R) {
  const ModelConfig& m = R.model;
  const auto& P = R.spec.parallelism;
  std::ostringstream out;
  out << "Workload: " << m.name << " " << R.kind << " on " << R.system_display_name << "\n";
  out << "  model         " << m.model_type << ", " << m.layers << " layers, hidden " << m.hidden << ", "
      << (m.attention == AttentionKind::mla ? "MLA" : "GQA") << " " << m.heads << " heads";
  if (m.attention == AttentionKind::gqa) out << " / " << m.kv_heads << " KV heads";
  if (m.sliding_window > 0) out << ", " << m.sliding_layer_count() << " sliding-window layers (" << m.sliding_window << ")";
  if (m.is_moe())
    out << ", MoE " << m.experts << " experts top-" << m.experts_per_token << " in " << m.moe_layer_count() << " layers";
  out << "\n";
  out << "  parameters    " << fmt_params(R.params.total) << " total, " << fmt_params(R.params.active)
      << " active per token; KV cache " << fmt_num(R.kv_bytes_per_token / 1024.0) << " KiB per token\n";
  out << "  placement     tp " << P.tp << " x pp " << P.pp << " x dp " << P.dp << " (ep " << P.ep << ") = "
      << R.chips_used << " of " << R.system_chips << " chips";
  if (R.domains_used > 1) out << " across " << R.domains_used << " UltraServers";
  out << "\n";
  out << "  precision     matmuls " << R.matmul_dtype << ", MLP/expert weights " << R.weights_dtype
      << ", attention weights " << R.attention_weights_dtype << ", KV cache " << R.kv_dtype << "\n";

  if (R.kind == "inference") {
    const auto& in = R.spec.inference;
    out << "  requests      " << in.batch << " concurrent per replica x " << in.input_tokens << " in / "
        << in.output_tokens << " out\n\n";
    out << "  TTFT                 " << fmt_time(R.ttft_s) << "\n";
    out << "  time per token       " << fmt_time(R.tpot_s) << "\n";
    out << "  request latency      " << fmt_time(R.request_latency_s) << " (own prefill, decode, and the other streams' prefills)\n";
    out << "  output tokens/s      " << fmt_num(R.output_tokens_per_s_per_replica) << " per replica | "
        << fmt_num(R.output_tokens_per_s_per_chip) << " per chip | " << fmt_num(R.output_tokens_per_s_per_server)
        << " per server | " << fmt_num(R.output_tokens_per_s_per_system) << " per system (prefill included; decode alone "
        << fmt_num(R.decode_tokens_per_s_per_replica) << " per replica)\n";
  } else {
    const auto& t = R.spec.training;
    out << "  batch         " << t.global_batch << " sequences x " << t.sequence_length << " tokens, micro-batch "
        << t.micro_batch << " (" << R.micro_batches << " per replica), ZeRO-" << t.zero_stage << ", " << t.recompute
        << " recompute, " << fmt_pct(t.overlap) << " DP overlap\n\n";
    out << "  step time            " << fmt_time(R.step_time_s) << " (pipeline bubble "
        << fmt_pct(R.pipeline_bubble_fraction) << ")\n";
    out << "  tokens/s             " << fmt_num(R.training_tokens_per_s) << " | " << fmt_num(R.training_tokens_per_s_per_chip)
        << " per chip\n";
    out << "  MFU / HFU            " << fmt_pct(R.mfu) << " / " << fmt_pct(R.hfu) << " of " << R.matmul_dtype
        << " peak\n";
  }
  out << "  HBM per chip         " << fmtf(R.hbm_used_bytes / kGiB, 1) << " of " << fmtf(R.hbm_capacity_bytes / kGiB, 1)
      << " GiB (";
  for (std::size_t i = 0; i < R.memory.size(); ++i)
    out << (i ? ", " : "") << R.memory[i].name << " " << fmtf(R.memory[i].bytes / kGiB, 1);
  out << ")\n";
  out << "  time shares          " << shares_line(R.compute_share, R.hbm_share, R.fabric_share, R.overhead_share)
      << "\n";
  out << "  power                " << fmt_num(R.chip_power_watts) << " W per chip, " << fmt_num(R.power_per_chip_all_in_watts)
      << " W all-in (host +" << fmt_pct(R.spec.economics.host_power_fraction) << ", PUE " << fmtf(R.spec.economics.pue, 2)
      << ")\n";
  const char* tok = R.kind == "inference" ? "output" : "training";
  out << "  tokens per MW        " << fmt_num(R.tokens_per_s_per_megawatt) << " " << tok << " tokens/s per MW\n";
  out << "  cost                 $" << fmtf(R.usd_per_million_tokens, 3) << " per million " << tok << " tokens at $"
      << fmtf(R.price_per_chip_hour_usd, 2) << " per chip-hour\n";

  if (!R.scaling.empty() && R.kind == "training" && R.scaling.size() > 1) {
    out << "\n  Scaling across UltraServers (weak scaling, EFA between them):\n";
    out << "    " << lpad("servers", 8) << lpad("chips", 9) << lpad("step", 13) << lpad("tokens/s", 14)
        << lpad("efficiency", 12) << "\n";
    for (const auto& s : R.scaling)
      out << "    " << lpad(std::to_string(s.ultraservers), 8) << lpad(std::to_string(s.chips), 9)
          << lpad(fmt_time(s.step_time_s), 13) << lpad(fmt_num(s.tokens_per_s), 14)
          << lpad(fmt_pct(s.scaling_efficiency), 12) << "\n";
  }

  for (const auto& ph : R.phases) {
    if (ph.ops.empty()) continue;
    out << "\n  " << ph.name << ": " << ph.unit << ": " << fmt_time(ph.time_s) << "\n";
    out << "    " << shares_line(ph.time_s > 0 ? ph.compute_s / ph.time_s : 0, ph.time_s > 0 ? ph.hbm_s / ph.time_s : 0,
                                 ph.time_s > 0 ? ph.fabric_s / ph.time_s : 0,
                                 ph.time_s > 0 ? ph.overhead_s / ph.time_s : 0)
        << "\n";
    ops_table(out, ph, 12);
  }

  if (!R.warnings.empty()) {
    out << "\n  Warnings:\n";
    for (const auto& w : R.warnings) out << "    - " << w << "\n";
  }
  out << "\n  Assumptions (adjust them in the scenario's workload.efficiency / workload.economics):\n";
  for (const auto& a : R.assumptions)
    out << "    - " << pad(a.name, 36) << lpad(fmt_num(a.value), 10) << " " << a.unit << "  [" << a.source << "]\n";
  return out.str();
}

// ---- Chrome trace --------------------------------------------------------------------

namespace {

struct TraceWriter {
  json events = json::array();
  std::size_t limit = 20000;
  bool truncated = false;

  void meta(int pid, int tid, const std::string& what, const std::string& name) {
    json e = {{"ph", "M"}, {"pid", pid}, {"tid", tid}, {"name", what}, {"args", {{"name", name}}}};
    events.push_back(e);
  }
  void span(int pid, int tid, const std::string& name, const std::string& cat, double start_s, double dur_s,
            const json& args) {
    if (dur_s <= 0) return;
    if (events.size() >= limit) {
      truncated = true;
      return;
    }
    events.push_back({{"ph", "X"},
                      {"pid", pid},
                      {"tid", tid},
                      {"name", name},
                      {"cat", cat},
                      {"ts", start_s * 1e6},
                      {"dur", dur_s * 1e6},
                      {"args", args}});
  }
};

constexpr int kLaneCompute = 1, kLaneHbm = 2, kLaneFabric = 3;

// One operator on its lanes, starting at t; returns its duration.
double emit_op(TraceWriter& w, int pid, const OpRecord& o, double t, const std::string& phase) {
  json args = {{"phase", phase}, {"detail", o.detail}};
  if (o.flops > 0) args["flops"] = o.flops;
  if (o.hbm_bytes > 0) args["hbm_bytes"] = o.hbm_bytes;
  if (o.fabric_bytes > 0) args["fabric_bytes"] = o.fabric_bytes;
  if (o.category == "fabric") {
    w.span(pid, kLaneFabric, o.name, phase, t, o.time_s, args);
  } else {
    // Tensor engine busy for compute_s, HBM for memory_s, both within the op's time.
    if (o.compute_s > 0) w.span(pid, kLaneCompute, o.name, phase, t, o.compute_s + o.overhead_s, args);
    if (o.memory_s > 0) w.span(pid, kLaneHbm, o.name, phase, t, o.memory_s, args);
    if (o.compute_s <= 0 && o.memory_s <= 0) w.span(pid, kLaneCompute, o.name, phase, t, o.overhead_s, args);
  }
  return o.time_s;
}

// Replays one pass of a phase through every stage, layer by layer; returns the end time.
double replay_pass(TraceWriter& w, const Result& R, const Phase& ph, double t0, const std::string& label) {
  int stages = R.spec.parallelism.pp;
  std::vector<std::vector<const OpRecord*>> per_type(R.layer_type_names.size());
  std::vector<const OpRecord*> first, last, boundary;
  for (const auto& o : ph.ops) {
    if (o.scope == "layer" && o.layer_type >= 0) per_type[o.layer_type].push_back(&o);
    else if (o.scope == "first_stage") first.push_back(&o);
    else if (o.scope == "last_stage") last.push_back(&o);
    else if (o.scope == "boundary") boundary.push_back(&o);
  }
  double t = t0;
  for (int s = 0; s < stages; ++s) {
    if (s == 0)
      for (auto* o : first) t += emit_op(w, s, *o, t, label);
    for (std::size_t i = 0; i < R.layer_types.size(); ++i) {
      if (R.layer_stages[i] != s) continue;
      for (auto* o : per_type[R.layer_types[i]]) t += emit_op(w, s, *o, t, label + " layer " + std::to_string(i));
    }
    if (s == stages - 1)
      for (auto* o : last) t += emit_op(w, s, *o, t, label);
    else
      for (auto* o : boundary) t += emit_op(w, s, *o, t, label);
  }
  return t;
}

// Per-stage forward/backward time of one micro-batch (training).
std::vector<double> stage_times(const Result& R, const Phase& ph) {
  int stages = R.spec.parallelism.pp;
  std::vector<double> type_time(R.layer_type_names.size(), 0.0);
  double first = 0, last = 0;
  for (const auto& o : ph.ops) {
    if (o.scope == "layer" && o.layer_type >= 0) type_time[o.layer_type] += o.time_s;
    else if (o.scope == "first_stage") first += o.total_s();
    else if (o.scope == "last_stage") last += o.total_s();
  }
  std::vector<double> t(stages, 0.0);
  for (std::size_t i = 0; i < R.layer_types.size(); ++i) t[R.layer_stages[i]] += type_time[R.layer_types[i]];
  t[0] += first;
  t[stages - 1] += last;
  return t;
}

}  // namespace

json chrome_trace(const Result& R) {
  TraceWriter w;
  const auto& P = R.spec.parallelism;
  const int stages = P.pp;
  for (int s = 0; s < stages; ++s) {
    int first_chip = s * P.tp * P.dp;
    std::string group = "stage " + std::to_string(s) + ": TP group of chips " + std::to_string(first_chip) + "-" +
                        std::to_string(first_chip + P.tp - 1) + " (replica 0)";
    w.meta(s, 0, "process_name", group);
    w.meta(s, kLaneCompute, "thread_name", "compute (tensor engine)");
    w.meta(s, kLaneHbm, "thread_name", "HBM");
    w.meta(s, kLaneFabric, "thread_name", "fabric (collectives)");
  }
  std::string note;
  if (R.kind == "inference") {
    double t = 0;
    for (const auto& ph : R.phases) {
      if (ph.name == "prefill") {
        t = replay_pass(w, R, ph, t, "prefill");
      } else if (ph.name == "decode") {
        int steps = std::min(3, R.spec.inference.output_tokens - 1);
        for (int i = 0; i < steps; ++i) t = replay_pass(w, R, ph, t, "decode step " + std::to_string(i + 1));
      }
    }
    note = "Prefill, then the first decode steps of micro-batch 0 (every later step looks the same at its context length).";
  } else {
    // 1F1B schedule of aggregate forward/backward blocks per stage and micro-batch, then the
    // exposed data-parallel exchange and the optimizer.
    const Phase* fwd = nullptr;
    const Phase* bwd = nullptr;
    const Phase* pipe = nullptr;
    const Phase* dpp = nullptr;
    const Phase* opt = nullptr;
    for (const auto& ph : R.phases) {
      if (ph.name == "forward") fwd = &ph;
      if (ph.name == "backward") bwd = &ph;
      if (ph.name == "pipeline") pipe = &ph;
      if (ph.name == "data-parallel") dpp = &ph;
      if (ph.name == "optimizer") opt = &ph;
    }
    std::vector<double> tf = stage_times(R, *fwd), tb = stage_times(R, *bwd);
    double hop = 0;
    if (pipe && !pipe->ops.empty()) hop = pipe->ops[0].time_s;
    const int m = R.micro_batches;
    std::vector<double> free_at(stages, 0.0);
    std::vector<std::vector<double>> f_done(stages, std::vector<double>(m, -1.0)), b_done = f_done;
    // Task order per stage: warm-up forwards, then one forward / one backward, then backwards.
    std::vector<std::vector<std::pair<char, int>>> order(stages);
    for (int s = 0; s < stages; ++s) {
      int warm = std::min(stages - s - 1, m), nf = 0, nb = 0;
      for (int i = 0; i < warm; ++i) order[s].push_back({'F', nf++});
      while (nf < m || nb < m) {
        if (nf < m) order[s].push_back({'F', nf++});
        if (nb < m) order[s].push_back({'B', nb++});
      }
    }
    // Simple list scheduling: sweep until every task is placed (dependencies across stages).
    std::vector<std::size_t> next(stages, 0);
    bool progress = true;
    while (progress) {
      progress = false;
      for (int s = 0; s < stages; ++s) {
        while (next[s] < order[s].size()) {
          auto [kind, i] = order[s][next[s]];
          double ready = free_at[s];
          if (kind == 'F') {
            if (s > 0) {
              if (f_done[s - 1][i] < 0) break;
              ready = std::max(ready, f_done[s - 1][i] + hop);
            }
            w.span(s, kLaneCompute, "forward mb " + std::to_string(i), "forward", ready, tf[s], json::object());
            f_done[s][i] = ready + tf[s];
          } else {
            if (s < stages - 1) {
              if (b_done[s + 1][i] < 0) break;
              ready = std::max(ready, b_done[s + 1][i] + hop);
            } else {
              ready = std::max(ready, f_done[s][i]);
            }
            w.span(s, kLaneCompute, "backward mb " + std::to_string(i), "backward", ready, tb[s], json::object());
            b_done[s][i] = ready + tb[s];
          }
          free_at[s] = (kind == 'F' ? f_done[s][i] : b_done[s][i]);
          ++next[s];
          progress = true;
        }
      }
    }
    double end = 0;
    for (double x : free_at) end = std::max(end, x);
    double dp_time = 0;
    if (dpp)
      for (const auto& o : dpp->ops) dp_time += o.total_s();
    double exposed = std::max((1.0 - R.spec.training.overlap) * dp_time, 0.0);
    for (int s = 0; s < stages; ++s) {
      double start = std::max(0.0, end - (dp_time - exposed));
      w.span(s, kLaneFabric, "data-parallel gradient sync", "data-parallel", start, dp_time, json::object());
      if (opt && !opt->ops.empty())
        w.span(s, kLaneHbm, "optimizer step", "optimizer", start + dp_time, opt->ops[0].time_s, json::object());
    }
    note = "One training step: 1F1B pipeline blocks per micro-batch, the data-parallel exchange (overlapped with the "
           "end of backward by the scenario's overlap fraction) and the optimizer.";
  }
  json trace;
  trace["traceEvents"] = w.events;
  trace["displayTimeUnit"] = "ms";
  trace["otherData"] = {{"generator", "trnsim"},
                        {"model", R.model.name},
                        {"system", R.system_name},
                        {"kind", R.kind},
                        {"note", note},
                        {"truncated", w.truncated}};
  return trace;
}

}  // namespace trnsim::workload
