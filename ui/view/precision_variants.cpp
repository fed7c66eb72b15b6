#include "ui/view/precision_variants.h"

#include "report/metrics.h"
#include "workload/workload.h"

namespace trnsim::ui {

namespace {

// The first of the metrics that applies to the result (inference or training).
double first_metric(const workload::Result& r, std::initializer_list<const char*> keys) {
  for (const char* k : keys)
    if (auto v = find_metric(k).of(r)) return *v;
  return 0;
}

void fill(PrecisionVariant& v, const workload::Result& r, const hw::System& sys, const std::string& field) {
  v.evaluated = true;
  for (const auto& m : r.memory)
    if (m.name == "weights") v.weights_bytes = m.bytes;
  const bool inference = r.kind() == workload::Kind::inference;
  for (const auto& ph : r.phases)
    if (!inference || ph.name == "decode")
      for (const auto& o : ph.ops) v.hbm_bytes += o.count * o.hbm_bytes;
  v.peak_flops = sys.chip.peak(r.matmul_dtype);
  v.time_s = first_metric(r, {"tpot_s", "step_time_s"});
  v.tokens_per_s_chip = first_metric(r, {"output_tokens_per_s_per_chip", "training_tokens_per_s_per_chip"});
  for (const auto& w : r.warnings)
    if (w.rfind(field + ":", 0) == 0) v.error = w.substr(field.size() + 2);
}

}  // namespace

std::vector<PrecisionVariant> precision_variants(const Scenario& base, const hw::System& sys, const std::string& field) {
  std::vector<PrecisionVariant> out;
  const Field& f = find_field(field);
  const json current = get_field(base, field);
  for (const auto& p : f.choices ? f.choices() : std::vector<std::string>()) {
    PrecisionVariant v;
    v.precision = p;
    v.current = current == p;
    try {
      Scenario s = base;
      set_field(s, field, p);
      fill(v, workload::evaluate(s.workload, sys), sys, field);
    } catch (const InputError& e) {
      v.error = e.what();
    }
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace trnsim::ui
