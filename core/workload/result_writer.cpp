// Workload results as JSON (deterministic key order), as the human report section, and as a
// Chrome trace / Perfetto timeline (lanes: compute, HBM and fabric per device group).
#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <type_traits>

#include "common/format.h"
#include "workload/workload.h"

namespace trnsim::workload {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

json ops_json(const Result& R, const Phase& ph) {
  json arr = json::array();
  for (const auto& o : ph.ops) {
    json j;
    j["name"] = o.name;
    j["scope"] = plan::scope_name(o.scope);
    j["layer_type"] = o.layer_type >= 0 ? json(R.layer_type_names[o.layer_type]) : json(nullptr);
    j["category"] = price::category_name(o.category);
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

namespace {

// The attention shapes of a model whose layers differ (Gemma 4, MiMo-V2-Flash): one entry per
// shape, with the layers' mixer and count.
json layer_attention_json(const ModelConfig& m) {
  json out = json::array();
  std::vector<std::pair<model::Mixer, model::AttentionShape>> seen;
  std::vector<int> counts;
  for (const auto& l : m.layer_specs) {
    if (l.mixer == model::Mixer::linear_attention) continue;
    auto it = std::find_if(seen.begin(), seen.end(), [&](const auto& s) { return s.first == l.mixer && s.second == l.attn; });
    if (it == seen.end()) seen.push_back({l.mixer, l.attn}), counts.push_back(1);
    else counts[it - seen.begin()]++;
  }
  for (std::size_t i = 0; i < seen.size(); ++i) {
    const model::AttentionShape& a = seen[i].second;
    out.push_back({{"layer_type", model::mixer_name(seen[i].first)}, {"layers", counts[i]}, {"kv_heads", a.kv_heads},
                   {"head_dim", a.head_dim}, {"v_head_dim", a.v_head_dim}, {"k_eq_v", a.k_eq_v}, {"sinks", a.sinks}});
  }
  return out;
}

// The same in words for the text report: "sliding 16 KV x 256, full 4 KV x 512 (K = V)".
std::string layer_attention_text(const ModelConfig& m) {
  std::string s;
  for (const auto& e : layer_attention_json(m)) {
    const std::string type = e["layer_type"].get<std::string>();
    s += (s.empty() ? "" : ", ") + std::to_string(e["layers"].get<int>()) + " " + type.substr(0, type.find('_')) + " " +
         std::to_string(e["kv_heads"].get<int>()) + " KV x " + std::to_string(e["head_dim"].get<int>());
    if (e["v_head_dim"] != e["head_dim"]) s += "/" + std::to_string(e["v_head_dim"].get<int>());
    if (e["k_eq_v"].get<bool>()) s += " (K = V)";
    if (e["sinks"].get<bool>()) s += " (sinks)";
  }
  return s;
}

json model_json(const Result& R, const LanguageModelResult& lm) {
  const ModelConfig& m = lm.model;
  json layer_types = json::array();
  for (const auto& n : R.layer_type_names) layer_types.push_back(n);
  return {{"name", m.name},
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
           {{"total", lm.params.total},
            {"active", lm.params.active},
            {"embedding", lm.params.embedding},
            {"lm_head", lm.params.lm_head},
            {"attention", lm.params.attention},
            {"dense_mlp", lm.params.dense_mlp},
            {"routed_experts", lm.params.routed_experts},
            {"shared_experts", lm.params.shared_experts},
            {"router", lm.params.router},
            {"norms", lm.params.norms}}},
          {"kv_bytes_per_token", lm.kv_bytes_per_token},
          {"layer_types", layer_types},
          {"ignored_fields", m.ignored_fields}};
}

json inference_json(const Result& R, const InferenceResult& x) {
  const auto& in = R.spec.inference;
  return {{"batch", in.batch},
          {"input_tokens", in.input_tokens},
          {"output_tokens", in.output_tokens},
          {"ttft_s", x.ttft_s},
          {"tpot_s", x.tpot_s},
          {"request_latency_s", x.request_latency_s},
          {"decode_tokens_per_s_per_replica", x.decode_tokens_per_s_per_replica},
          {"prefill_batch", in.prefill_batch},
          {"pools",
           {{"prefill_tokens_per_s_per_replica", x.prefill_tokens_per_s_per_replica},
            {"prefill_tokens_per_s_per_server", x.prefill_tokens_per_s_per_server},
            {"decode_tokens_per_s_per_server", x.decode_tokens_per_s_per_server}}},
          {"output_tokens_per_s",
           {{"per_replica", x.output_tokens_per_s_per_replica},
            {"per_chip", x.output_tokens_per_s_per_chip},
            {"per_server", x.output_tokens_per_s_per_server},
            {"per_system", x.output_tokens_per_s_per_system}}},
          {"replicas", x.replicas}};
}

json training_json(const TrainingResult& x) {
  json scaling = json::array();
  for (const auto& s : x.scaling)
    scaling.push_back({{"ultraservers", s.ultraservers},
                       {"chips", s.chips},
                       {"step_time_s", s.step_time_s},
                       {"tokens_per_s", s.tokens_per_s},
                       {"scaling_efficiency", s.scaling_efficiency}});
  return {{"step_time_s", x.step_time_s},
          {"tokens_per_step", x.tokens_per_step},
          {"tokens_per_s", x.tokens_per_s},
          {"tokens_per_s_per_chip", x.tokens_per_s_per_chip},
          {"mfu", x.mfu},
          {"hfu", x.hfu},
          {"model_flops_per_step", x.model_flops_per_step},
          {"hardware_flops_per_step", x.hardware_flops_per_step},
          {"micro_batches", x.micro_batches},
          {"pipeline_bubble_fraction", x.pipeline_bubble_fraction},
          {"scaling", scaling}};
}

// Memory, time shares, economics, assumptions and phases: what every kind reports.
void common_json(const Result& R, json& j) {
  json items;
  for (const auto& x : R.memory) items[x.name] = x.bytes;
  j["memory_per_chip"] = {{"capacity_bytes", R.hbm_capacity_bytes},
                          {"used_bytes", R.hbm_used_bytes},
                          {"fits", R.hbm_used_bytes <= R.hbm_capacity_bytes},
                          {"items", items}};
  j["time_shares"] = shares_json(R.time_shares);
  // Per token for the language-model kinds; a clip's economics are in the video section.
  const LanguageModelResult* lm = R.language_model();
  json& ec = j["economics"];
  ec["chip_power_watts"] = R.chip_power_watts;
  ec["all_in_power_per_chip_watts"] = R.power_per_chip_all_in_watts;
  if (lm) ec["tokens_per_s_per_megawatt"] = lm->tokens_per_s_per_megawatt;
  ec["price_per_chip_hour_usd"] = R.price_per_chip_hour_usd;
  if (lm) ec["usd_per_million_tokens"] = lm->usd_per_million_tokens;
  json as = json::array();
  for (const auto& a : R.assumptions)
    as.push_back({{"name", a.name}, {"value", a.value}, {"unit", a.unit}, {"source", a.source}});
  j["assumptions"] = as;
  json phases = json::array();
  for (const auto& ph : R.phases)
    phases.push_back({{"name", ph.name},
                      {"unit", ph.unit},
                      {"time_s", ph.time_s},
                      {"compute_s", ph.split.compute_s},
                      {"hbm_s", ph.split.hbm_s},
                      {"fabric_s", ph.split.fabric_s},
                      {"overhead_s", ph.split.overhead_s},
                      {"hidden_s", ph.hidden_s},
                      {"ops", ops_json(R, ph)}});
  j["phases"] = phases;
}

}  // namespace

json shares_json(const TimeSplit::Shares& s) {
  return {{"compute", s.compute}, {"hbm", s.hbm}, {"fabric", s.fabric}, {"overhead", s.overhead}};
}

json result_to_json(const Result& R) {
  json j;
  j["kind"] = kind_name(R.kind());
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
  const LanguageModelResult* lm = R.language_model();
  j["model"] = lm ? model_json(R, *lm) : video_model_json(R);
  if (lm && lm->model.per_layer_attention()) j["model"]["layer_attention"] = layer_attention_json(lm->model);
  j["precision"] = {{"matmul", R.matmul_dtype},
                    {"weights", R.weights_dtype},
                    {"attention_weights", R.attention_weights_dtype},
                    {"kv_cache", R.kv_dtype}};
  j["warnings"] = R.warnings;
  j[kind_name(R.kind())] = std::visit(
      [&R](const auto& x) -> json {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, InferenceResult>) return inference_json(R, x);
        else if constexpr (std::is_same_v<T, TrainingResult>) return training_json(x);
        else return video_json(R);
      },
      R.figures);
  common_json(R, j);
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
    if (r.detail.empty()) r.detail = o.detail, r.category = price::category_name(o.category);
  }
  std::vector<Row> v;
  for (auto& [k, r] : rows) v.push_back(r);
  std::stable_sort(v.begin(), v.end(), [](const Row& a, const Row& b) { return a.total > b.total; });
  out << "    " << fmt::pad("operator", 30) << fmt::lpad("count", 8) << fmt::lpad("total", 13) << fmt::lpad("share", 8) << "  "
      << fmt::pad("bound", 9) << "detail\n";
  std::size_t shown = 0;
  double rest = 0;
  for (const auto& r : v) {
    if (shown >= max_rows) {
      rest += r.total;
      continue;
    }
    ++shown;
    out << "    " << fmt::pad(r.name, 30) << fmt::lpad(fmt::number(r.count), 8) << fmt::lpad(fmt::time(r.total), 13)
        << fmt::lpad(ph.time_s > 0 ? fmt::percent(r.total / ph.time_s) : "-", 8) << "  " << fmt::pad(r.category, 9) << r.detail
        << "\n";
  }
  if (rest > 0) out << "    " << fmt::pad("(others)", 30) << fmt::lpad("", 8) << fmt::lpad(fmt::time(rest), 13) << "\n";
}

std::string shares_line(const TimeSplit::Shares& s) {
  return "compute " + fmt::percent(s.compute) + " | HBM " + fmt::percent(s.hbm) + " | fabric " + fmt::percent(s.fabric) +
         " | kernel overhead " + fmt::percent(s.overhead);
}

}  // namespace

namespace {

void text_header(std::ostringstream& out, const Result& R, const LanguageModelResult& lm) {
  const ModelConfig& m = lm.model;
  const auto& P = R.spec.parallelism;
  out << "Workload: " << m.name << " " << kind_name(R.kind()) << " on " << R.system_display_name << "\n";
  out << "  model         " << m.model_type << ", " << m.layers << " layers, hidden " << m.hidden << ", "
      << (m.attention == AttentionKind::mla ? "MLA" : "GQA") << " " << m.heads << " heads";
  if (m.attention == AttentionKind::gqa && m.per_layer_attention()) out << " (layers: " << layer_attention_text(m) << ")";
  else if (m.attention == AttentionKind::gqa) out << " / " << m.kv_heads << " KV heads";
  if (m.sliding_window > 0) out << ", " << m.sliding_layer_count() << " sliding-window layers (" << m.sliding_window << ")";
  if (m.attention_chunk > 0)
    out << ", " << m.mixer_layer_count(model::Mixer::chunked_attention) << " chunked-attention layers (" << m.attention_chunk << ")";
  if (m.mixer_layer_count(model::Mixer::linear_attention) > 0)
    out << ", " << m.mixer_layer_count(model::Mixer::linear_attention) << " " << model::linear_kind_name(m.linear.kind)
        << " layers";
  if (m.nope_layer_count() > 0) out << ", " << m.nope_layer_count() << " NoPE layers";
  if (m.is_moe())
    out << ", MoE " << m.experts << " experts top-" << m.experts_per_token << " in " << m.moe_layer_count() << " layers";
  out << "\n";
  out << "  parameters    " << fmt::params(lm.params.total) << " total, " << fmt::params(lm.params.active)
      << " active per token; KV cache " << fmt::number(lm.kv_bytes_per_token / 1024.0) << " KiB per token\n";
  out << "  placement     tp " << P.tp << " x pp " << P.pp << " x dp " << P.dp << " (ep " << P.ep << ") = "
      << R.chips_used << " of " << R.system_chips << " chips";
  if (R.domains_used > 1) out << " across " << R.domains_used << " UltraServers";
  out << "\n";
  out << "  precision     matmuls " << R.matmul_dtype << ", MLP/expert weights " << R.weights_dtype
      << ", attention weights " << R.attention_weights_dtype << ", KV cache " << R.kv_dtype << "\n";

}

void text_headline(std::ostringstream& out, const Result& R, const InferenceResult& x) {
  const auto& in = R.spec.inference;
  out << "  requests      " << in.batch << " concurrent per replica x " << in.input_tokens << " in / "
      << in.output_tokens << " out\n\n";
  out << "  TTFT                 " << fmt::time(x.ttft_s) << "\n";
  out << "  time per token       " << fmt::time(x.tpot_s) << "\n";
  out << "  request latency      " << fmt::time(x.request_latency_s) << " (own prefill, decode, and the other streams' prefills)\n";
  out << "  output tokens/s      " << fmt::number(x.output_tokens_per_s_per_replica) << " per replica | "
      << fmt::number(x.output_tokens_per_s_per_chip) << " per chip | " << fmt::number(x.output_tokens_per_s_per_server)
      << " per server | " << fmt::number(x.output_tokens_per_s_per_system) << " per system (prefill included; decode alone "
      << fmt::number(x.decode_tokens_per_s_per_replica) << " per replica)\n";
}

void text_headline(std::ostringstream& out, const Result& R, const TrainingResult& x) {
  const auto& t = R.spec.training;
  out << "  batch         " << t.global_batch << " sequences x " << t.sequence_length << " tokens, micro-batch "
      << t.micro_batch << " (" << x.micro_batches << " per replica), ZeRO-" << t.zero_stage << ", " << t.recompute
      << " recompute, " << fmt::percent(t.overlap) << " DP overlap\n\n";
  out << "  step time            " << fmt::time(x.step_time_s) << " (pipeline bubble "
      << fmt::percent(x.pipeline_bubble_fraction) << ")\n";
  out << "  tokens/s             " << fmt::number(x.tokens_per_s) << " | " << fmt::number(x.tokens_per_s_per_chip)
      << " per chip\n";
  out << "  MFU / HFU            " << fmt::percent(x.mfu) << " / " << fmt::percent(x.hfu) << " of " << R.matmul_dtype
      << " peak\n";
}

void text_resources(std::ostringstream& out, const Result& R) {
  out << "  HBM per chip         " << fmt::fixed(R.hbm_used_bytes / kGiB, 1) << " of " << fmt::fixed(R.hbm_capacity_bytes / kGiB, 1)
      << " GiB (";
  for (std::size_t i = 0; i < R.memory.size(); ++i)
    out << (i ? ", " : "") << R.memory[i].name << " " << fmt::fixed(R.memory[i].bytes / kGiB, 1);
  out << ")\n";
  out << "  time shares          " << shares_line(R.time_shares) << "\n";
  out << "  power                " << fmt::number(R.chip_power_watts) << " W per chip, " << fmt::number(R.power_per_chip_all_in_watts)
      << " W all-in (host +" << fmt::percent(R.spec.economics.host_power_fraction) << ", PUE " << fmt::fixed(R.spec.economics.pue, 2)
      << ")\n";
  const LanguageModelResult* lm = R.language_model();
  if (!lm) return video_text_economics(out, R);
  const char* tok = R.kind() == Kind::inference ? "output" : "training";
  out << "  tokens per MW        " << fmt::number(lm->tokens_per_s_per_megawatt) << " " << tok << " tokens/s per MW\n";
  out << "  cost                 $" << fmt::fixed(lm->usd_per_million_tokens, 3) << " per million " << tok << " tokens at $"
      << fmt::fixed(R.price_per_chip_hour_usd, 2) << " per chip-hour\n";
}

void text_scaling(std::ostringstream& out, const TrainingResult& x) {
  if (x.scaling.size() > 1) {
    out << "\n  Scaling across UltraServers (weak scaling, EFA between them):\n";
    out << "    " << fmt::lpad("servers", 8) << fmt::lpad("chips", 9) << fmt::lpad("step", 13) << fmt::lpad("tokens/s", 14)
        << fmt::lpad("efficiency", 12) << "\n";
    for (const auto& s : x.scaling)
      out << "    " << fmt::lpad(std::to_string(s.ultraservers), 8) << fmt::lpad(std::to_string(s.chips), 9)
          << fmt::lpad(fmt::time(s.step_time_s), 13) << fmt::lpad(fmt::number(s.tokens_per_s), 14)
          << fmt::lpad(fmt::percent(s.scaling_efficiency), 12) << "\n";
  }

}

}  // namespace

std::string phase_time_text(const Phase& ph) { return fmt::time(ph.time_s - ph.hidden_s); }

std::string phase_overlap_text(const Phase& ph) {
  if (!(ph.hidden_s > 0)) return "";
  return "its operators " + fmt::time(ph.time_s) + ", of which " + fmt::time(ph.hidden_s) +
         " of collectives run under compute: " + ph.hidden_by + " stack";
}

namespace {

void text_phases(std::ostringstream& out, const Result& R) {
  for (const auto& ph : R.phases) {
    if (ph.ops.empty()) continue;
    const std::string overlap = phase_overlap_text(ph);
    out << "\n  " << ph.name << ": " << ph.unit << ": " << phase_time_text(ph)
        << (overlap.empty() ? "" : " (" + overlap + ")") << "\n";
    out << "    " << shares_line(ph.split.shares_of(ph.time_s)) << "\n";
    ops_table(out, ph, 12);
  }

}

void text_notes(std::ostringstream& out, const Result& R) {
  if (!R.warnings.empty()) {
    out << "\n  Warnings:\n";
    for (const auto& w : R.warnings) out << "    - " << w << "\n";
  }
  out << "\n  Assumptions (adjust them in the scenario's workload.efficiency / workload.economics):\n";
  for (const auto& a : R.assumptions)
    out << "    - " << fmt::pad(a.name, 36) << fmt::lpad(fmt::number(a.value), 10) << " " << a.unit << "  [" << a.source << "]\n";
}

}  // namespace

std::string result_to_text(const Result& R) {
  std::ostringstream out;
  switch (R.kind()) {
    case Kind::inference:
      text_header(out, R, R.inference());
      text_headline(out, R, R.inference());
      text_resources(out, R);
      break;
    case Kind::training:
      text_header(out, R, R.training());
      text_headline(out, R, R.training());
      text_resources(out, R);
      text_scaling(out, R.training());
      break;
    case Kind::video:
      video_text_header(out, R);
      video_text_headline(out, R);
      text_resources(out, R);
      video_text_scaling(out, R);
      break;
  }
  text_phases(out, R);
  text_notes(out, R);
  return out.str();
}

// ---- Chrome trace --------------------------------------------------------------------

json chrome_trace(const Result& R) {
  // The result's timeline (core/schedule/) as Chrome trace events: one process per
  // pipeline stage, one thread per lane. At most kLimit events (a huge model's prefill
  // would otherwise make a file no viewer opens); "truncated" says when the cut applied.
  constexpr std::size_t kLimit = 20000;
  const schedule::Timeline tl = R.timeline();
  json events = json::array();
  auto meta = [&](int pid, int tid, const char* what, const std::string& name) {
    events.push_back({{"ph", "M"}, {"pid", pid}, {"tid", tid}, {"name", what}, {"args", {{"name", name}}}});
  };
  for (std::size_t s = 0; s < tl.stage_names.size(); ++s) {
    const int pid = static_cast<int>(s);
    meta(pid, 0, "process_name", tl.stage_names[s]);
    meta(pid, static_cast<int>(schedule::Lane::compute), "thread_name", "compute (tensor engine)");
    meta(pid, static_cast<int>(schedule::Lane::hbm), "thread_name", "HBM");
    meta(pid, static_cast<int>(schedule::Lane::fabric), "thread_name", "fabric (collectives)");
  }
  bool truncated = false;
  for (const auto& sp : tl.spans) {
    if (events.size() >= kLimit) {
      truncated = true;
      break;
    }
    json args = json::object();
    if (sp.op) {
      args = {{"phase", sp.phase}, {"detail", sp.detail}};
      if (sp.flops > 0) args["flops"] = sp.flops;
      if (sp.hbm_bytes > 0) args["hbm_bytes"] = sp.hbm_bytes;
      if (sp.fabric_bytes > 0) args["fabric_bytes"] = sp.fabric_bytes;
    }
    events.push_back({{"ph", "X"},
                      {"pid", sp.stage},
                      {"tid", static_cast<int>(sp.lane)},
                      {"name", sp.name},
                      {"cat", sp.phase},
                      {"ts", sp.start_s * 1e6},
                      {"dur", sp.dur_s * 1e6},
                      {"args", args}});
  }
  json trace;
  trace["traceEvents"] = events;
  trace["displayTimeUnit"] = "ms";
  trace["otherData"] = {{"generator", "trnsim"},
                        {"model", R.model_name()},
                        {"system", R.system_name},
                        {"kind", kind_name(R.kind())},
                        {"note", tl.note},
                        {"truncated", truncated}};
  return trace;
}

}  // namespace trnsim::workload
