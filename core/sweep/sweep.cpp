// Sweep expansion and evaluation (sweep.h).
#include "sweep/sweep.h"

#include "report/metrics.h"
#include "report/report.h"
#include "scenario/schema.h"

namespace trnsim::sweep {

std::size_t Sweep::points() const {
  std::size_t n = 1;
  for (const auto& v : values) n *= v.size();
  return n;
}

Sweep parse_sweep(const json& j, const std::function<std::string(const std::string&)>& load_base) {
  ObjectReader r(j, "sweep");
  // Unknown keys first (a typo'd "gird" is the error, not a missing "grid").
  const json* base_p = r.optional_raw("base");
  const json* grid_p = r.optional_raw("grid");
  Sweep s;
  s.full = r.choice("output", "summary", {"summary", "full"}) == "full";
  r.finish();
  if (!base_p) throw InputError("sweep.base", "missing (required)");
  if (!grid_p) throw InputError("sweep.grid", "missing (required)");
  json base;
  if (base_p->is_string()) {
    const std::string name = base_p->get<std::string>();
    base = parse_json_text(load_base(name), name);
  } else if (base_p->is_object()) {
    base = *base_p;
  } else {
    throw InputError("sweep.base", "expected a scenario file path or a scenario object");
  }
  const json& grid = *grid_p;
  if (!grid.is_object() || grid.empty())
    throw InputError("sweep.grid", "expected an object of \"field.path\": [values...]");
  double n = 1;
  for (auto it = grid.begin(); it != grid.end(); ++it) {
    const std::string p = "sweep.grid." + it.key();
    if (!find_field_or_null(it.key())) {
      try {
        find_field(it.key());
      } catch (const InputError& e) {
        throw InputError(p, e.problem());
      }
    }
    if (!it.value().is_array() || it.value().empty()) throw InputError(p, "expected a non-empty list of values");
    s.paths.push_back(it.key());
    s.values.emplace_back(it.value().begin(), it.value().end());
    n *= static_cast<double>(it.value().size());
  }
  if (n > kMaxPoints) throw InputError("sweep.grid", "more than 100,000,000 points");
  try {
    s.base = scenario_from_json(base);
  } catch (const InputError& e) {
    throw InputError("sweep.base", e.what());
  }
  // null in a grid list: the base scenario's own value of that field (its default unless the
  // base sets it), resolved here so each point's line shows the value it ran with.
  for (std::size_t k = 0; k < s.paths.size(); ++k)
    for (json& v : s.values[k])
      if (v.is_null()) v = get_field(s.base, s.paths[k]);
  // A grid value the field refuses at point 0 is the sweep's error, not a point's.
  json point0 = point_values(s, 0);
  try {
    Scenario first = s.base;
    for (std::size_t k = 0; k < s.paths.size(); ++k) set_field(first, s.paths[k], point0[s.paths[k]]);
  } catch (const InputError& e) {
    throw InputError("sweep", "point 0 " + point0.dump() + " is not a valid scenario: " + e.what());
  }
  return s;
}

json point_values(const Sweep& s, std::size_t index) {
  json point = json::object();
  std::vector<std::size_t> pick(s.paths.size());
  std::size_t rest = index;
  for (std::size_t k = s.paths.size(); k-- > 0;) {
    pick[k] = rest % s.values[k].size();
    rest /= s.values[k].size();
  }
  for (std::size_t k = 0; k < s.paths.size(); ++k) point[s.paths[k]] = s.values[k][pick[k]];
  return point;
}

namespace {

json summary(const workload::Result& r) {
  json j;
  j["system"] = r.system_name;
  j["kind"] = workload::kind_name(r.kind());
  for (const auto& m : metrics()) {
    if (!m.summary) continue;
    if (auto v = m.of(r)) j[m.key] = *v;
  }
  return j;
}

}  // namespace

json evaluate_point(const Sweep& s, std::size_t index) {
  json line;
  line["index"] = index;
  json point = point_values(s, index);
  line["point"] = point;
  try {
    Scenario scenario = s.base;
    for (const auto& p : s.paths) set_field(scenario, p, point[p]);
    Report rep = evaluate(scenario);
    line["ok"] = true;
    if (s.full) {
      line["report"] = report_to_json(rep);
    } else {
      line["primary"] = summary(*rep.primary.result);
      if (rep.compare) {
        if (rep.compare->result) line["compare"] = summary(*rep.compare->result);
        else line["compare"] = {{"system", rep.compare->system.name}, {"error", rep.compare->error}};
      }
    }
  } catch (const InputError& e) {
    line["ok"] = false;
    line["error"] = e.what();
  }
  return line;
}

std::pair<std::size_t, std::size_t> shard_range(std::size_t points, std::size_t shard, std::size_t shards) {
  return {points * shard / shards, points * (shard + 1) / shards};
}

}  // namespace trnsim::sweep
