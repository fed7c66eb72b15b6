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

Sweep parse_sweep(const json& j, const std::function<std::string(const std::string&)>& load_base,
                  const FilesFor& files_for) {
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
  std::string base_name;  // "" for an inline base object
  if (base_p->is_string()) {
    base_name = base_p->get<std::string>();
    base = parse_json_text(load_base(base_name), base_name);
  } else if (base_p->is_object()) {
    base = *base_p;
  } else {
    throw InputError("sweep.base", "expected a scenario file path or a scenario object");
  }
  const auto files_of = [&](const std::string& name) { return files_for ? files_for(name) : ScenarioFiles{}; };
  try {
    inline_model_file(base, files_of(base_name));
  } catch (const InputError& e) {
    throw InputError("sweep.base", e.what());
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
    // A model config named by path in the grid: read once, relative to the sweep file; points
    // show the path and run the config (as a scenario file's model path does).
    if (it.key() == "workload.model")
      for (const json& v : s.values.back())
        if (v.is_string() && names_a_model_file(v.get<std::string>()) && !s.model_files.count(v.get<std::string>()))
          s.model_files[v.get<std::string>()] = read_model_file(v.get<std::string>(), files_of(""), p);
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
    apply_point(first, s, point0);
  } catch (const InputError& e) {
    throw InputError("sweep", "point 0 " + point0.dump() + " is not a valid scenario: " + e.what());
  }
  return s;
}

void apply_point(Scenario& scenario, const Sweep& s, const json& point) {
  for (const auto& p : s.paths) {
    const json& v = point[p];
    const auto file = v.is_string() ? s.model_files.find(v.get<std::string>()) : s.model_files.end();
    set_field(scenario, p, file != s.model_files.end() ? file->second : v);
  }
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
    apply_point(scenario, s, point);
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
