// workload::evaluate: the system-dependent steps around plan -> price -> schedule (see
// workload.h): precision fallback, placement checks, the HBM fit and the time shares.
#include <algorithm>
#include <stdexcept>

#include "common/format.h"
#include "workload/evaluate_parts.h"
#include "workload/fields.h"

namespace trnsim::workload {

namespace detail {

std::string fixed(double v, int decimals) { return fmt::fixed(v, decimals); }

Phase make_phase(const std::string& name, const std::string& unit, std::vector<OpRecord> ops) {
  Phase ph;
  ph.name = name;
  ph.unit = unit;
  for (const auto& o : ops) {
    ph.time_s += o.total_s();
    ph.split += o.split();
  }
  ph.ops = std::move(ops);
  return ph;
}

void finish_shares(Result& R, const std::vector<std::pair<const Phase*, double>>& weighted) {
  double total = 0;
  TimeSplit split;
  for (const auto& [ph, w] : weighted) {
    total += w * ph->time_s;
    split += ph->split * w;
  }
  R.time_shares = split.shares_of(total);
}

namespace {

void check_fit(const Result& R, const hw::Chip& chip) {
  constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
  double cap = chip.hbm_capacity_bytes;
  if (R.hbm_used_bytes <= cap) return;
  std::string parts;
  for (const auto& m : R.memory) parts += (parts.empty() ? "" : ", ") + m.name + " " + fixed(m.bytes / kGiB, 1);
  throw InputError("workload.parallelism",
                   "does not fit in HBM: needs " + fixed(R.hbm_used_bytes / kGiB, 1) + " GiB per chip (" + parts +
                       "), " + chip.display_name + " has " + fixed(cap / kGiB, 1) + " GiB: over by " +
                       fixed((R.hbm_used_bytes - cap) / kGiB, 1) +
                       " GiB; use more tp/pp/ep, a smaller batch or a lower precision");
}

}  // namespace

void hold_memory(const Evaluation& ev, const std::vector<MemoryItem>& items, Result& R) {
  R.memory = items;
  R.memory.push_back({"reserve", ev.spec.efficiency.hbm_reserve_fraction * ev.system.chip.hbm_capacity_bytes});
  R.hbm_used_bytes = 0;
  for (const auto& x : R.memory) R.hbm_used_bytes += x.bytes;
  R.hbm_capacity_bytes = ev.system.chip.hbm_capacity_bytes;
  check_fit(R, ev.system.chip);
}

}  // namespace detail

namespace {

using detail::Evaluation;

bool chip_supports(const hw::Chip& chip, const std::string& dtype) {
  auto it = chip.peak_flops.find(dtype);
  return it != chip.peak_flops.end() && it->second > 0;
}

// The precision actually run on this chip: unsupported formats fall back, with a warning.
std::string resolve_dtype(const hw::Chip& chip, const std::string& want, const std::string& what,
                          std::vector<std::string>& warnings) {
  if (chip_supports(chip, want)) return want;
  for (const auto& c : dtype::get(want, what).fallback) {
    if (!chip_supports(chip, c)) continue;
    std::string why = want == "mxfp4" ? " (as Neuron does for gpt-oss's MXFP4 experts on Trainium2, PERF #5)" : "";
    warnings.push_back(what + ": " + want + " is not supported by " + chip.display_name + "; modeled as " + c + why);
    return c;
  }
  throw std::runtime_error("chip " + chip.name + " has no bf16 peak in its data");
}

// `stack` null: no weight-only path (every format the chip lacks falls back in storage too).
plan::Dtypes resolve_dtypes(const hw::Chip& chip, const Precision& p, std::vector<std::string>& warnings,
                            const price::Stack* stack = nullptr) {
  plan::Dtypes d;
  const std::string P = "workload.precision.";
  d.matmul = resolve_dtype(chip, p.activations, P + "activations", warnings);
  // Weight-only: the stack's kernels keep a format the chip has no peak for in storage and
  // dequantize it in the kernel to the activations' dtype, when that is the narrower storage.
  const bool weight_only =
      stack && !chip_supports(chip, p.weights) &&
      std::find(stack->weight_only_dtypes.begin(), stack->weight_only_dtypes.end(), p.weights) !=
          stack->weight_only_dtypes.end() &&
      bytes_per_element(p.weights) < bytes_per_element(d.matmul);
  if (weight_only) {
    d.weights = p.weights;
    d.weight_only = true;
    d.weight_only_rate = stack->weight_only_rate;
    warnings.push_back(P + "weights: " + p.weights + " is not computed by " + chip.display_name + "; stored as " +
                       p.weights + " (" + fmt::general(8 * bytes_per_element(p.weights), 3) +
                       " bits) and computed as " + d.matmul + " after the " + stack->name +
                       " stack's kernels dequantize it (weight-only, at " + fmt::general(stack->weight_only_rate, 3) +
                       " of the " + d.matmul + " matmul rate)");
  } else {
    d.weights = resolve_dtype(chip, p.weights, P + "weights", warnings);
  }
  d.attention_weights = resolve_dtype(chip, p.attention_weights, P + "attention_weights", warnings);
  d.kv_cache = p.kv_cache;  // storage only: the attention kernel converts on load
  d.wb = bytes_per_element(d.weights);
  d.awb = bytes_per_element(d.attention_weights);
  d.ab = bytes_per_element(d.matmul);
  d.kvb = bytes_per_element(d.kv_cache);
  return d;
}

// Without head padding (Neuron pads by default: plan/plan.h), the TP ranks (tp chips x the
// stack's logical NeuronCores per chip) must divide the heads.
void check_unpadded_heads(const ModelConfig& m, int tp, int per_chip) {
  const int ranks = tp * per_chip;
  const std::string got = std::to_string(tp) + (per_chip > 1 ? " (" + std::to_string(ranks) + " TP ranks: " +
                                                                   std::to_string(per_chip) + " logical NeuronCores per chip)"
                                                             : std::string());
  const std::string P = "workload.parallelism.";
  if (m.heads % ranks != 0)
    throw InputError(P + "tp", "must divide the model's " + std::to_string(m.heads) +
                                   " attention heads when heads are not padded, got " + got);
  if (m.attention != AttentionKind::gqa) return;
  std::vector<int> kv_counts = {m.kv_heads};  // the model's, then any layer's own (Gemma 4, MiMo-V2-Flash)
  std::vector<std::string> whose = {""};
  for (const auto& l : m.layer_specs)
    if (l.mixer != model::Mixer::linear_attention &&
        std::find(kv_counts.begin(), kv_counts.end(), l.attn.kv_heads) == kv_counts.end()) {
      kv_counts.push_back(l.attn.kv_heads);
      whose.push_back(std::string(" of its ") + model::mixer_name(l.mixer) + " layers");
    }
  for (std::size_t i = 0; i < kv_counts.size(); ++i)
    if (kv_counts[i] % ranks != 0 && ranks % kv_counts[i] != 0)
      throw InputError(P + "tp", "must divide the model's " + std::to_string(kv_counts[i]) + " KV heads" + whose[i] +
                                     " or be a multiple of them when heads are not padded, got " + got);
}

// What padding the heads to tp costs, for the report (nothing when tp divides them).
void note_head_padding(const model::HeadSharding& h, const char* what, Result& R) {
  if (!h.padded()) return;
  const double extra = h.model_q_heads > 0 ? 100.0 * h.padded_q_heads() / h.model_q_heads : 0;
  std::string s = "workload.parallelism.tp: " + std::to_string(h.tp) + " TP ranks do not divide the " +
                  std::to_string(h.model_q_heads) + " " + what + "; padded to " + std::to_string(h.q_heads) +
                  " as Neuron does (" + std::to_string(h.q_heads_per_rank()) + " per TP rank, " +
                  std::to_string(h.padded_q_heads()) + " zero heads: +" + fmt::fixed(extra, 0) +
                  "% of their projection weights, FLOPs and attention work)";
  if (h.kv == model::KvSharding::replicate_to_tp)
    s += "; its " + std::to_string(h.model_kv_heads) + " shared heads are replicated to " + std::to_string(h.kv_heads) +
         " (1 per TP rank)";
  if (h.kv == model::KvSharding::convert_to_mha)
    s += "; its " + std::to_string(h.model_kv_heads) + " shared heads become " + std::to_string(h.kv_heads) +
         " (convert-to-mha: one per padded head, " + std::to_string(h.kv_heads_per_rank()) + " per TP rank)";
  R.warnings.push_back(s);
}

void check_heads_and_domain(const ModelConfig& m, const Parallelism& p, const hw::System& sys, bool pad_heads) {
  const std::string P = "workload.parallelism.";
  const int tp = p.tp;
  if (!pad_heads) check_unpadded_heads(m, tp, 1);
  const int domain = sys.chips_per_domain > 0 ? sys.chips_per_domain : sys.chips;
  if (tp > domain || domain % tp != 0)
    throw InputError(P + "tp", "a tensor-parallel group must fit in (and divide) one scale-up domain of " +
                                   std::to_string(domain) + " chips on " + sys.display_name + ", got " + std::to_string(tp));
  if (p.pp > m.layers)
    throw InputError(P + "pp", "cannot exceed the model's " + std::to_string(m.layers) + " layers, got " + std::to_string(p.pp));
}

void check_experts(const ModelConfig& m, const Parallelism& p, int domain, long long chips, bool training) {
  const std::string P = "workload.parallelism.";
  const int tp = p.tp, dp = p.dp, ep = p.ep, r = p.redundant_experts;
  if (!m.is_moe() && ep != 1) throw InputError(P + "ep", "must be 1 for a dense model, got " + std::to_string(ep));
  if (r != 0 && (!m.is_moe() || ep == 1 || training))
    throw InputError(P + "redundant_experts", std::string("must be 0 ") +
                                                  (!m.is_moe() ? "for a dense model"
                                                   : training ? "for training (a serving load balancer's copies)"
                                                              : "without expert parallelism (ep = 1)") +
                                                  ", got " + std::to_string(r));
  if (!m.is_moe()) return;
  const int slots = m.experts + r;
  if (slots % ep != 0)
    throw InputError(r == 0 ? P + "ep" : P + "redundant_experts",
                     r == 0 ? "must divide the model's " + std::to_string(m.experts) + " experts, got " + std::to_string(ep)
                            : "the model's " + std::to_string(m.experts) + " experts + " + std::to_string(r) +
                                  " redundant = " + std::to_string(slots) + " slots must split evenly over ep = " +
                                  std::to_string(ep));
  if (ep <= tp ? tp % ep != 0 : (ep % tp != 0 || (tp * dp) % ep != 0))
    throw InputError(P + "ep", "must divide tp (" + std::to_string(tp) + "), or be a multiple of tp that divides tp*dp (" +
                                   std::to_string(tp * dp) + "), got " + std::to_string(ep));
  // A wide EP group spans whole scale-up domains of a cluster (its all-to-alls cross the
  // scale-out network); within one domain it must fit.
  if (ep > domain && (ep % domain != 0 || ep > chips))
    throw InputError(P + "ep", "an expert-parallel group must fit in one scale-up domain of " + std::to_string(domain) +
                                   " chips or span whole domains of a cluster (a multiple of " + std::to_string(domain) +
                                   ", at most its " + std::to_string(chips) + " chips), got " + std::to_string(ep));
}

void check_placement(const ModelConfig& m, const Spec& s, const hw::System& sys, bool training) {
  const Parallelism& p = s.parallelism;
  const std::string P = "workload.parallelism.";
  check_heads_and_domain(m, p, sys, p.pad_heads);
  const int domain = sys.chips_per_domain > 0 ? sys.chips_per_domain : sys.chips;
  check_experts(m, p, domain, sys.chips, training);
  const long long used = static_cast<long long>(p.tp) * p.pp * p.dp;
  if (p.ep > p.tp && used > domain && domain % p.ep != 0 && p.ep % domain != 0)
    throw InputError(P + "ep", "an expert-parallel group spanning replicas must divide the scale-up domain of " +
                                   std::to_string(domain) + " chips or span whole domains, got " + std::to_string(p.ep));
  if (!training && s.inference.prefill_batch > s.inference.batch)
    throw InputError("workload.inference.prefill_batch", "must be at most the batch (" +
                                                             std::to_string(s.inference.batch) + "), got " +
                                                             std::to_string(s.inference.prefill_batch));
  if (used > sys.chips)
    throw InputError(P + "dp", "tp*pp*dp = " + std::to_string(used) + " chips, but " + sys.display_name + " has " +
                                   std::to_string(sys.chips) +
                                   (training ? " (for more, name a cluster such as trn3-gen2-ultracluster:N)" : ""));
  if (training && s.training.global_batch % (static_cast<long long>(p.dp) * s.training.micro_batch) != 0)
    throw InputError("workload.training.global_batch",
                     "must be a multiple of dp * micro_batch (" +
                         std::to_string(static_cast<long long>(p.dp) * s.training.micro_batch) + "), got " +
                         std::to_string(s.training.global_batch));
}

plan::Placement placement_of(const ModelConfig& m, const Parallelism& P, int per_chip) {
  plan::Placement pl = plan::make_placement(m, P.tp, P.pp, P.dp, P.ep, per_chip);
  if (m.is_moe() && P.redundant_experts > 0) pl.expert_slots = m.experts + P.redundant_experts;
  return pl;
}

price::Settings pricing(const Efficiency& e) {
  price::Settings s;
  s.compute_efficiency = e.compute;
  s.attention_efficiency = e.attention;
  s.hbm_efficiency = e.hbm;
  s.kernel_overhead_s = e.kernel_overhead_s;
  return s;
}

void describe_system(const hw::System& system, Result& R) {
  R.system_name = system.name;
  R.system_display_name = system.display_name;
  R.system_chips = system.chips;
  R.chips_per_server = system.chips_per_server;
  R.chips_per_domain = system.chips_per_domain;
}

const price::Stack& spec_stack(const Spec& spec) {
  try {
    return price::load_stack(spec.stack);
  } catch (const InputError& e) {
    throw InputError("workload.stack", e.what());
  }
}

}  // namespace

namespace detail {
void describe_system_into(const hw::System& system, Result& R) { describe_system(system, R); }
plan::Dtypes chip_dtypes(const hw::Chip& chip, const Precision& p, Result& R) {
  const plan::Dtypes d = resolve_dtypes(chip, p, R.warnings);
  R.matmul_dtype = d.matmul;
  R.weights_dtype = d.weights;
  R.attention_weights_dtype = d.attention_weights;
  R.kv_dtype = d.kv_cache;
  return d;
}
price::Settings pricing_settings(const Efficiency& e) { return pricing(e); }

namespace {
bool at_default(const char* field, double value) {
  return json(value) == workload::field(std::string("workload.") + field).default_value;
}
std::string chip_data_source(const hw::System& system, const std::string& key) {
  for (const std::string& k : {key, "chip." + key}) {
    auto it = system.sources.find(k);
    if (it != system.sources.end()) return it->second;
  }
  return "chip data";
}
}  // namespace

EffectiveEfficiency effective_efficiency(const Spec& spec, const hw::System& system, const std::string& matmul_dtype) {
  EffectiveEfficiency r{spec.efficiency, {}};
  const hw::Chip& c = system.chip;
  if (!c.execution) return r;
  const hw::ExecutionBlock& x = *c.execution;
  const std::string who = c.display_name + " data: ";
  const double compute = x.compute_efficiency(matmul_dtype, c.peak(matmul_dtype));
  if (compute > 0 && at_default("efficiency.compute", spec.efficiency.compute)) {
    r.value.compute = compute;
    r.chip_source["efficiency.compute"] =
        who + "achieved " + matmul_dtype + " matmul / peak, " +
        chip_data_source(system, "execution.achieved_flops." + matmul_dtype);
  }
  if (x.achieved_hbm_bytes_per_s > 0 && c.hbm_bandwidth_bytes_per_s > 0 &&
      at_default("efficiency.hbm", spec.efficiency.hbm)) {
    r.value.hbm = x.achieved_hbm_bytes_per_s / c.hbm_bandwidth_bytes_per_s;
    r.chip_source["efficiency.hbm"] =
        who + "achieved / published HBM bandwidth, " + chip_data_source(system, "execution.achieved_hbm_bandwidth");
  }
  if (x.kernel_overhead_s && at_default("efficiency.kernel_overhead_s", spec.efficiency.kernel_overhead_s)) {
    r.value.kernel_overhead_s = *x.kernel_overhead_s;
    r.chip_source["efficiency.kernel_overhead_s"] = who + chip_data_source(system, "execution.kernel_overhead");
  }
  return r;
}
}  // namespace detail

std::unique_ptr<Pricing> make_pricing(const Spec& spec, const hw::System& system) {
  if (names_video_model(spec))
    throw InputError("workload.model", "'" + (spec.model_name.empty() ? std::string("the inline bundle") : spec.model_name) +
                                           "' is a video model: set workload.kind to \"video\"");
  std::shared_ptr<const ModelConfig> model = spec_model(spec);
  const ModelConfig& m = *model;
  if (system.chips <= 0) throw InputError("system", "has no chips");
  const Parallelism& P = spec.parallelism;
  check_placement(m, spec, system, spec.kind == Kind::training);
  const price::Stack& stack = spec_stack(spec);
  // A GPU server stack (one with a "server" block: CUDA kernels, CUDA graphs) does not run on a
  // Neuron chip; the Neuron stacks refuse a chip without NeuronCores the same way (Chip::neuron).
  if (stack.server && system.chip.neuroncore) {
    std::string neuron;
    for (const auto& n : price::stack_names())
      if (!price::load_stack(n).server) neuron += std::string(neuron.empty() ? "" : ", ") + n;
    throw InputError("workload.stack", "'" + stack.name + "' is a GPU serving stack, " + stack.display_name + "; " +
                                           system.display_name + " runs " + system.chip.display_name +
                                           " chips: choose a stack that runs on them (" + neuron + ")");
  }
  const int per_chip = price::ranks_per_chip(stack, system.chip);
  if (!P.pad_heads) check_unpadded_heads(m, P.tp, per_chip);
  // Gathering the EP group's tokens (TensorRT-LLM's attention data parallelism) runs each
  // replica's attention on one GPU: an EP group spanning replicas of several chips is not it.
  if (m.is_moe() && P.ep > P.tp && P.tp > 1 && stack.moe.dispatch == plan::MoeDispatch::allgather_reducescatter)
    throw InputError("workload.parallelism.tp",
                     "the " + stack.name + " stack's attention data parallelism (ep " + std::to_string(P.ep) +
                         " > tp) runs each replica's attention at tp 1 (every GPU its own batch, as "
                         "enable_attention_dp does), got tp " + std::to_string(P.tp) +
                         "; use tp 1 with dp and ep the GPUs of the group, or ep at most tp");
  std::vector<std::string> warnings;
  plan::Dtypes dt = resolve_dtypes(system.chip, spec.precision, warnings, &stack);
  auto pr = std::unique_ptr<Pricing>(new Pricing{model, plan::Context{m, dt, placement_of(m, P, per_chip), stack.moe, stack.mla_decode_kernels, stack.mla_decode_op_s},
                                                 plan::make_layout(m, P.pp),
                                                 price::make_pricer(spec.pricer, system, pricing(detail::effective_efficiency(spec, system, dt.matmul).value)), &stack,
                                                 std::move(warnings)});
  return pr;
}

const std::string& Result::model_name() const {
  if (const VideoResult* v = std::get_if<VideoResult>(&figures)) return v->model_name;
  return language_model()->model.name;
}

const LanguageModelResult* Result::language_model() const {
  return std::visit([](const auto& x) -> const LanguageModelResult* {
    if constexpr (std::is_base_of_v<LanguageModelResult, std::decay_t<decltype(x)>>) return &x;
    else return nullptr;
  }, figures);
}

LanguageModelResult* Result::language_model() {
  return const_cast<LanguageModelResult*>(static_cast<const Result*>(this)->language_model());
}

Result evaluate(const Spec& spec, const hw::System& system) {
  if (spec.kind == Kind::video) return detail::evaluate_video(spec, system);
  std::unique_ptr<Pricing> pr;
  return evaluate(spec, system, pr);
}

Result evaluate(const Spec& spec, const hw::System& system, std::unique_ptr<Pricing>& pricing) {
  if (spec.kind == Kind::video) throw std::logic_error("evaluate with its pricing: a language model's kind");
  std::unique_ptr<Pricing> pr = make_pricing(spec, system);
  const ModelConfig& m = *pr->model;
  Result R;
  R.spec = spec;
  if (spec.kind == Kind::training) R.figures.emplace<TrainingResult>();
  else R.figures.emplace<InferenceResult>();
  LanguageModelResult& lm = *R.language_model();
  describe_system(system, R);
  lm.model = m;
  lm.params = model::count_parameters(m);
  R.warnings = m.warnings;
  R.warnings.insert(R.warnings.end(), pr->warnings.begin(), pr->warnings.end());
  const plan::Dtypes& dt = pr->ctx.dt;
  R.matmul_dtype = dt.matmul;
  R.weights_dtype = dt.weights;
  R.attention_weights_dtype = dt.attention_weights;
  R.kv_dtype = dt.kv_cache;
  const Parallelism& P = spec.parallelism;

  Evaluation ev{system, spec, pr->ctx, pr->layout, std::move(pr->pricer), pr->stack};
  lm.kv_bytes_per_token = model::kv_bytes_per_sequence(m, 1.0, ev.ctx.dt.kvb);
  note_head_padding(ev.ctx.pl.heads, "attention heads", R);
  {  // layers whose own KV-head count shards otherwise (Gemma 4's global layers, MiMo's sliding ones)
    std::vector<int> seen = {m.kv_heads};
    for (const auto& l : m.layer_specs) {
      if (m.attention != AttentionKind::gqa || l.mixer == model::Mixer::linear_attention) continue;
      if (std::find(seen.begin(), seen.end(), l.attn.kv_heads) != seen.end()) continue;
      seen.push_back(l.attn.kv_heads);
      const model::HeadSharding h = model::shard_heads(m.heads, l.attn.kv_heads, ev.ctx.pl.tp_ranks());
      if (h.kv != ev.ctx.pl.heads.kv && h.kv != model::KvSharding::split)
        note_head_padding(h, (std::string("attention heads of the ") + model::mixer_name(l.mixer) + " layers").c_str(), R);
    }
  }
  if (m.mixer_layer_count(model::Mixer::linear_attention) > 0)
    note_head_padding(ev.ctx.pl.linear_heads, m.linear.mamba2() ? "Mamba2 heads" : "Gated DeltaNet value heads", R);
  R.chips_used = P.tp * P.pp * P.dp;
  const int per_domain = system.chips_per_domain > 0 ? system.chips_per_domain : system.chips;
  R.domains_used = (R.chips_used + per_domain - 1) / per_domain;
  R.layer_type_names = ev.layout.type_names;
  lm.layer_types = ev.layout.layer_type;
  lm.layer_stages = ev.layout.layer_stage;

  if (TrainingResult* t = std::get_if<TrainingResult>(&R.figures)) detail::evaluate_training(ev, R, *t);
  else detail::evaluate_inference(ev, R, R.inference());
  pr->pricer = std::move(ev.pricer);
  pricing = std::move(pr);
  return R;
}

}  // namespace trnsim::workload
