// Validation rows from core/data/validation/*.json, evaluated through the same pipeline
// as every report (validate.h).
#include "validate/validate.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "collective/collective.h"
#include "common/format.h"
#include "embedded.h"
#include "hw/sources.h"
#include "hw/system.h"
#include "price/pricer.h"
#include "price/stack.h"
#include "report/metrics.h"
#include "report/report.h"
#include "scenario/scenario.h"
#include "scenario/schema.h"
#include "report/serving.h"

namespace trnsim::validate {

namespace {

// A computed value (SI units) and, for best points, which point it was.
struct Value {
  double v = 0;
  std::string point;  // "TP2 x 256"
};

// Multiplies an SI value into the published unit (a product, as the figures were always shown).
double unit_factor(const std::string& unit, const std::string& path) {
  if (unit == "ms") return 1e3;
  if (unit == "us") return 1e6;
  if (unit == "s" || unit == "tok/s" || unit == "req/s" || unit == "x") return 1.0;
  if (unit == "GB/s") return 1e-9;
  throw InputError(path, "unknown unit '" + unit + "'; one of: s, ms, us, tok/s, req/s, x, GB/s");
}

class Evaluator {
 public:
  explicit Evaluator(Options o) : options_(std::move(o)) {}
  Value eval(const json& e, const std::string& path);

 private:
  Scenario scenario(const json& s, const std::string& path) const;
  const Report& report(const json& scenario, const std::string& path);
  Value scenario_value(ObjectReader& r, const std::string& path);
  Value serve_value(ObjectReader& r);
  Value collective_value(ObjectReader& r);
  Value system_value(ObjectReader& r);
  Value best_value(ObjectReader& r, const std::string& path);
  std::vector<Value> operands(const json& list, const std::string& path);
  Options options_;
  std::map<std::string, Report> reports_;
  std::map<std::string, serve::Result> served_;
};

Scenario scenario_of(const json& s, const std::string& path) {
  if (s.is_string()) {
    const std::string* text = find_embedded(s.get<std::string>());
    if (!text) throw InputError(path, "no bundled example '" + s.get<std::string>() + "'");
    Scenario sc = parse_scenario(*text, s.get<std::string>());
    sc.compare_system.clear();  // a row measures the primary system only
    return sc;
  }
  Scenario sc = scenario_from_json(s);
  sc.compare_system.clear();
  return sc;
}

// A row's scenario with the run's overrides (Options::pricer).
Scenario Evaluator::scenario(const json& s, const std::string& path) const {
  Scenario sc = scenario_of(s, path);
  // The engine pricer models NeuronCores: a row on a chip without them (the GPU rows) keeps
  // its own pricer.
  if (!options_.pricer.empty() &&
      (options_.pricer != "engine" || hw::load_system(sc.system).chip.neuroncore))
    sc.workload.pricer = options_.pricer;
  return sc;
}

const Report& Evaluator::report(const json& scenario_json, const std::string& path) {
  Scenario s = scenario(scenario_json, path);
  std::string key = scenario_to_string(s);
  auto it = reports_.find(key);
  if (it == reports_.end()) it = reports_.emplace(key, evaluate(s)).first;
  return it->second;
}

double metric_of(const Report& rep, const std::string& key, const std::string& path) {
  if (!rep.primary.result) throw InputError(path, "the scenario did not run");
  auto v = find_metric(key, path).of(*rep.primary.result);
  if (!v) throw InputError(path, "metric '" + key + "' does not apply to this scenario");
  return *v;
}

Value Evaluator::scenario_value(ObjectReader& r, const std::string& path) {
  const Report& rep = report(r.raw("scenario"), r.path("scenario"));
  if (r.has("metric")) return {metric_of(rep, r.string("metric"), r.path("metric")), ""};
  const std::string phase = r.string("phase");
  const std::string part = r.choice("part", {"time", "compute+overhead", "hbm", "fabric"});
  for (const auto& p : rep.primary.result->phases) {
    if (p.name != phase) continue;
    if (part == "compute+overhead") return {p.split.compute_s + p.split.overhead_s, ""};
    if (part == "fabric") return {p.split.fabric_s, ""};
    if (part == "hbm") return {p.split.hbm_s, ""};
    return {p.time_s, ""};
  }
  throw InputError(path + ".phase", "no phase '" + phase + "' in the result");
}

// A serving metric of a scenario run through the serving simulator (its harness's definitions),
// or a figure of its MLPerf summary (serve.harness mlperf); "set" first gives scenario fields
// computed values (a length derived from published figures).
Value Evaluator::serve_value(ObjectReader& r) {
  Scenario s = scenario(r.raw("serve"), r.path("serve"));
  if (const json* set = r.optional_raw("set")) {
    if (!set->is_object()) throw InputError(r.path("set"), "expected an object of field paths and computations");
    for (auto f = set->begin(); f != set->end(); ++f)
      set_field(s, f.key(), json(eval(f.value(), r.path("set") + "." + f.key()).v));
  }
  const std::string key = scenario_to_string(s);
  auto it = served_.find(key);
  if (it == served_.end()) it = served_.emplace(key, serve::run(s)).first;
  if (r.has("mlperf")) {
    const std::string figure = r.choice("mlperf", {"tokens_per_s", "samples_per_s", "ttft_mean_s", "ttft_p99_s",
                                                   "tpot_mean_s", "tpot_p99_s", "valid"});
    r.finish();
    if (!it->second.mlperf) throw InputError(r.path("mlperf"), "the serving run is not an MLPerf one (serve.harness mlperf)");
    const serve::Mlperf& m = *it->second.mlperf;
    if (figure == "tokens_per_s") return {m.tokens_per_s, ""};
    if (figure == "samples_per_s") return {m.samples_per_s, ""};
    if (figure == "ttft_mean_s") return {m.ttft_mean_s, ""};
    if (figure == "ttft_p99_s") return {m.ttft_p99_s, ""};
    if (figure == "tpot_mean_s") return {m.tpot_mean_s, ""};
    if (figure == "tpot_p99_s") return {m.tpot_p99_s, ""};
    return {m.valid ? 1.0 : 0.0, ""};
  }
  const std::string metric = r.string("metric");
  const Metric& m = find_metric(metric, r.path("metric"));
  if (!m.of_serve) throw InputError(r.path("metric"), "'" + metric + "' is not a serving metric (serve_...)");
  auto v = m.of_serve(it->second);
  if (!v) throw InputError(r.path("metric"), "metric '" + metric + "' does not apply to this serving run");
  r.finish();
  return {*v, ""};
}

Value Evaluator::collective_value(ObjectReader& r) {
  ObjectReader c(r.raw("collective"), r.path("collective"));
  collective::Request q;
  const hw::System& sys = hw::load_system(c.string("system"));
  q.op = c.string("op");
  q.bytes = c.number("bytes", 1, 1e15);
  q.ranks = static_cast<int>(c.integer("ranks", 1, 1 << 24));
  q.ranks_per_chip = static_cast<int>(c.integer("ranks_per_chip", 1, 1, 64));
  q.algo = c.string("algo", "auto");
  q.protocol = c.string("protocol", "auto");
  c.finish();
  collective::Result res = collective::run(sys, q);
  const std::string m = r.choice("metric", {"time_s", "busbw_bytes_per_s"});
  return {m == "time_s" ? res.time_s : res.busbw_bytes_per_s, ""};
}

Value Evaluator::system_value(ObjectReader& r) {
  const json d = hw::describe_json(hw::load_system(r.string("system")));
  const std::string q = r.string("quantity");
  const json* node = &d;
  std::size_t pos = 0;
  while (pos <= q.size()) {
    std::size_t dot = q.find('.', pos);
    std::string key = q.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
    if (!node->is_object() || !node->contains(key)) throw InputError(r.path("quantity"), "no '" + q + "' in describe");
    node = &(*node)[key];
    if (dot == std::string::npos) break;
    pos = dot + 1;
  }
  if (node->is_null()) return {0, ""};  // a peak the chip does not have
  if (!node->is_number()) throw InputError(r.path("quantity"), "'" + q + "' is not a number");
  return {node->get<double>(), ""};
}

// The point of a small grid that maximizes a metric under optional metric caps.
Value Evaluator::best_value(ObjectReader& r, const std::string& path) {
  ObjectReader b(r.raw("best"), r.path("best"));
  Scenario base = scenario(b.raw("scenario"), b.path("scenario"));
  if (const json* fixed = b.optional_raw("fixed"))
    for (auto it = fixed->begin(); it != fixed->end(); ++it) set_field(base, it.key(), it.value());
  const json& vary = b.raw("vary");
  const std::string maximize = b.string("maximize");
  const json* caps = b.optional_raw("subject_to");
  b.finish();
  std::vector<std::string> paths;
  std::vector<json> values;
  for (auto it = vary.begin(); it != vary.end(); ++it) paths.push_back(it.key()), values.push_back(it.value());
  std::size_t n = 1;
  for (const auto& v : values) n *= v.size();
  const std::string metric = r.string("metric");
  bool found = false;
  double best = 0, value = 0;
  std::string point;
  for (std::size_t i = 0; i < n; ++i) {
    Scenario s = base;
    std::size_t rest = i;
    std::vector<json> pick(paths.size());
    for (std::size_t k = paths.size(); k-- > 0;) pick[k] = values[k][rest % values[k].size()], rest /= values[k].size();
    try {
      for (std::size_t k = 0; k < paths.size(); ++k) set_field(s, paths[k], pick[k]);
      Report rep = evaluate(s);
      const auto& R = *rep.primary.result;
      bool ok = true;
      if (caps)
        for (auto it = caps->begin(); it != caps->end(); ++it) ok = ok && *find_metric(it.key()).of(R) <= it.value()["max"].get<double>();
      const double x = *find_metric(maximize).of(R);
      if (!ok || (found && !(x > best))) continue;
      found = true;
      best = x;
      value = metric_of(rep, metric, r.path("metric"));
      point = "TP" + std::to_string(R.spec.parallelism.tp) + " x " + std::to_string(R.spec.inference.batch);
    } catch (const InputError&) {
      // not feasible at this point (does not fit, bad placement)
    }
  }
  if (!found) throw InputError(path, "no feasible point");
  return {value, point};
}

std::vector<Value> Evaluator::operands(const json& list, const std::string& path) {
  if (!list.is_array() || list.empty()) throw InputError(path, "expected a non-empty list of computations");
  std::vector<Value> out;
  for (std::size_t i = 0; i < list.size(); ++i) out.push_back(eval(list[i], index_path(path, i)));
  return out;
}

Value Evaluator::eval(const json& e, const std::string& path) {
  ObjectReader r(e, path);
  if (r.has("scenario")) return scenario_value(r, path);
  if (r.has("serve")) return serve_value(r);
  if (r.has("collective")) return collective_value(r);
  if (r.has("system")) return system_value(r);
  if (r.has("best")) return best_value(r, path);
  if (r.has("given")) {  // a count the source publishes beside the figure (a harness's own token count)
    ObjectReader g(r.raw("given"), r.path("given"));
    const double v = g.number("value", 1e-12, 1e15);
    const std::string what = g.string("what");
    if (what.empty()) throw InputError(g.path("what"), "say what the given count is and where the source states it");
    g.finish();
    r.finish();
    return {v, ""};
  }
  if (r.has("figure")) {  // a published figure as an operand (a length derived from two of them)
    const double v = r.number("figure", -1e300, 1e300);
    r.finish();
    return {v, ""};
  }
  if (r.has("repeat")) {  // N copies of one computation: a harness's loop run one after another (its time),
                          // or replicas side by side (their throughputs summed)
    ObjectReader q(r.raw("repeat"), r.path("repeat"));
    const double n = q.number("count", 1, 4096);
    if (n != std::floor(n)) throw InputError(q.path("count"), "expected a whole number of repetitions");
    Value out = eval(q.raw("of"), q.path("of"));
    out.v *= n;
    q.finish();
    r.finish();
    return out;
  }
  for (const char* op : {"ratio", "divide", "sum", "max"}) {
    if (!r.has(op)) continue;
    std::vector<Value> v = operands(r.raw(op), r.path(op));
    const std::string o = op;
    if ((o == "ratio" || o == "divide") && v.size() != 2) throw InputError(r.path(op), "expected two computations");
    Value out = v[0];
    if (o == "ratio" || o == "divide") out.v = v[0].v / v[1].v;
    for (std::size_t i = 1; i < v.size() && o == "sum"; ++i) out.v += v[i].v;
    for (std::size_t i = 1; i < v.size() && o == "max"; ++i) out.v = std::max(out.v, v[i].v);
    if (o == "ratio" && !v[1].point.empty()) out.point += "|" + v[1].point;
    r.finish();
    return out;
  }
  throw InputError(path, "expected one of: scenario, serve, collective, system, best, given, figure, repeat, ratio, divide, sum, max, not_modeled");
}

// "{a}" and "{b}" in a note: the placements of a ratio of best points.
std::string fill_note(std::string note, const std::string& points) {
  auto bar = points.find('|');
  if (bar == std::string::npos) return note;
  for (auto [key, val] : {std::pair<std::string, std::string>{"{a}", points.substr(0, bar)}, {"{b}", points.substr(bar + 1)}}) {
    auto at = note.find(key);
    if (at != std::string::npos) note.replace(at, key.size(), val);
  }
  return note;
}

void check_row_source(const std::string& source, const std::string& path) {
  if (source.rfind("claim", 0) == 0) return;
  hw::check_source(source.rfind("FACTS ", 0) == 0 ? source.substr(6) : source, path);
}

Row read_row(Evaluator& ev, const json& j, const std::string& file, const std::string& path) {
  ObjectReader r(j, path);
  Row row;
  row.file = file;
  row.id = r.string("id");
  row.source = r.string("source");
  check_row_source(row.source, r.path("source"));
  row.figure = r.string("figure");
  {
    ObjectReader p(r.raw("published"), r.path("published"));
    row.published = p.number("value", 1e-300, 1e300);
    row.unit = p.string("unit");
    p.finish();
  }
  const double factor = unit_factor(row.unit, r.path("published.unit"));
  row.calibration = r.boolean("calibration", false);
  row.note = r.string("note", "");
  const json& compute = r.raw("compute");
  r.finish();
  if (compute.is_object() && compute.contains("not_modeled")) {
    row.modeled = false;
    return row;
  }
  Value v = ev.eval(compute, r.path("compute"));
  row.model = v.v * factor;
  row.note = fill_note(row.note, v.point);
  return row;
}

// The calibrated defaults, from the field table: "efficiency.compute = 0.5 and ...".
std::string calibrated_defaults() {
  std::string out;
  for (const auto& f : scenario_fields()) {
    if (f.calibrated.empty()) continue;
    const double v = f.default_value.get<double>() * f.display_scale;
    std::string name = f.path.rfind("workload.", 0) == 0 ? f.path.substr(9) : f.path;
    out += (out.empty() ? "" : " and ") + name + " = " + fmt::general(v, 6) +
           (f.display_unit.empty() ? "" : " " + f.display_unit);
  }
  return out;
}

// The serving stacks' values whose source says "calibrated" (core/data/serving/*.json).
std::string calibrated_stack_values() {
  std::string out;
  for (const auto& name : price::stack_names()) {
    const price::Stack& s = price::load_stack(name);
    if (s.calibrated.empty()) continue;
    std::string paths;
    for (const auto& p : s.calibrated) paths += (paths.empty() ? "" : ", ") + p;
    out += (out.empty() ? "" : "; ") + name + ": " + paths;
  }
  return out;
}

// The hardware data's fitted values: every source of a bundled system (its chip's under
// "chip.") that says "calibrated", by system.
std::string calibrated_hardware_values() {
  std::string out;
  for (const auto& name : hw::system_names()) {
    const hw::System s = hw::load_system(name);
    std::string paths;
    for (const auto& [key, source] : s.sources)
      if (source.rfind("calibrated", 0) == 0) paths += (paths.empty() ? "" : ", ") + key;
    if (!paths.empty()) out += (out.empty() ? "" : "; ") + name + ": " + paths;
  }
  return out;
}

}  // namespace

struct Run::State {
  explicit State(const Options& o) : ev(o) {}
  std::vector<std::pair<std::string, json>> docs;  // file, its rows
  std::size_t doc = 0, row = 0;                    // the next row to evaluate
  Evaluator ev;
};

Run::Run(const Options& options) : options_(options) {
  if (!options.pricer.empty()) price::check_pricer_name(options.pricer, "--pricer");
  state_ = std::make_unique<State>(options);
  for (const auto& key : embedded_keys("data/validation/")) {
    const std::string file = "core/" + key;
    json doc = parse_json_text(*find_embedded(key), file);
    ObjectReader r(doc, file);
    r.string("title");
    const json& list = r.raw("rows");
    r.finish();
    if (!list.is_array()) throw InputError(file + ": rows", "expected an array");
    total_ += list.size();
    state_->docs.emplace_back(file, list);
  }
  rows_.reserve(total_);
}

Run::~Run() = default;
Run::Run(Run&&) noexcept = default;
Run& Run::operator=(Run&&) noexcept = default;

void Run::step() {
  State& s = *state_;
  while (s.doc < s.docs.size() && s.row >= s.docs[s.doc].second.size()) ++s.doc, s.row = 0;
  if (s.doc == s.docs.size()) return;
  const auto& [file, list] = s.docs[s.doc];
  rows_.push_back(read_row(s.ev, list[s.row], file, index_path(file + ": rows", s.row)));
  ++s.row;
}

struct Computer::Impl {
  explicit Impl(const Options& o) : ev(o) {}
  Evaluator ev;
};

Computer::Computer(const Options& options) : impl_(std::make_unique<Impl>(options)) {}
Computer::~Computer() = default;

std::pair<double, std::string> Computer::operator()(const json& compute, const std::string& unit,
                                                    const std::string& path) {
  const double factor = unit_factor(unit, path + ": unit");
  Value v = impl_->ev.eval(compute, path);
  return {v.v * factor, v.point};
}

std::vector<Row> rows(const std::function<void(std::size_t, std::size_t)>& progress, const Options& options) {
  Run run(options);
  while (!run.done()) {
    run.step();
    if (progress) progress(run.evaluated(), run.total());
  }
  return run.rows();
}

Summary summarize(const std::vector<Row>& rows) {
  Summary s;
  for (const auto& r : rows) {
    if (!r.modeled) continue;
    ++s.modeled;
    const double a = std::fabs(r.error());
    if (a <= 0.25) ++s.within_25_percent;
    if (a > 0.5) {
      ++s.off_by_more_than_50_percent;
      s.far_rows.push_back(r.id + " " + r.figure);
    }
    const bool measurement = r.source.rfind("PERF-", 0) == 0;  // a measured figure, not a claim or a fact
    if (measurement && !r.calibration) {
      ++s.uncalibrated_measurements;
      if (a <= 0.25) ++s.uncalibrated_measurements_within_25_percent;
    }
  }
  return s;
}

json to_json(const std::vector<Row>& rows, const Options& options) {
  json arr = json::array();
  for (const auto& r : rows) {
    json j = {{"id", r.id}, {"source", r.source}, {"figure", r.figure}, {"unit", r.unit}, {"published", r.published}};
    j["model"] = r.modeled ? json(r.model) : json(nullptr);
    j["error"] = r.modeled ? json(r.error()) : json(nullptr);
    j["calibration"] = r.calibration;
    j["note"] = r.note;
    arr.push_back(j);
  }
  Summary s = summarize(rows);
  json out;
  if (!options.pricer.empty()) out["pricer"] = options.pricer;
  out["rows"] = arr;
  out["summary"] = {{"modeled", s.modeled},
                    {"within_25_percent", s.within_25_percent},
                    {"off_by_more_than_50_percent", s.off_by_more_than_50_percent},
                    {"uncalibrated_measurements", s.uncalibrated_measurements},
                    {"uncalibrated_measurements_within_25_percent", s.uncalibrated_measurements_within_25_percent}};
  return out;
}

std::string value_text(double v, const std::string& unit) {
  if (unit == "x") return fmt::ratio(v);
  if (v >= 1000) return fmt::fixed(v, 0) + " " + unit;
  if (v >= 100) return fmt::fixed(v, 1) + " " + unit;
  return fmt::fixed(v, 2) + " " + unit;
}

std::string error_text(const Row& r) {
  if (!r.modeled) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.0f%%", 100.0 * r.error());
  return buf;
}

std::string to_text(const std::vector<Row>& rows, const Options& options) {
  using fmt::lpad;
  auto pad = [](const std::string& s, std::size_t w) { return s.size() >= w ? s + " " : s + std::string(w - s.size(), ' '); };
  std::string o =
      (options.pricer.empty() ? std::string()
                              : "pricer: " + options.pricer +
                                    " for every row (workload.pricer; the calibrated defaults were fitted on the roofline)\n" +
                                    (options.pricer == "engine"
                                         ? "  (rows on GPUs keep the roofline: the engine model is the NeuronCore's)\n"
                                         : "")) +
      "trnsim validate: the model against published Trainium2/Trainium3 figures (PERF.md, FACTS.md)\n"
      "and NVIDIA H100 measurements (GPU.md, G keys of core/data/sources.json)\n"
      "Measurements are Neuron benchmarks on trn2.48xlarge (TP counts logical cores: TP64 = 16 chips at LNC=2).\n"
      "Rows marked cal calibrated the defaults " + calibrated_defaults() + ";\n"
      "and the serving stacks' values marked calibrated in core/data/serving (" + calibrated_stack_values() + ");\n"
      "and the hardware data's values marked calibrated in core/data (" + calibrated_hardware_values() + ");\n"
      "claims (C*) are explained, not fitted. Error = (model - published) / published.\n\n";
  o += pad("#", 5) + pad("figure", 64) + lpad("published", 12) + lpad("model", 12) + lpad("error", 9) + "  note\n";
  for (const auto& r : rows) {
    std::string model = r.modeled ? value_text(r.model, r.unit) : "n/a";
    std::string err = error_text(r);
    std::string note = (r.calibration ? std::string("cal") + (r.note.empty() ? "" : "; ") : "") + r.note;
    o += pad(r.id, 5) + pad(r.figure, 64) + lpad(value_text(r.published, r.unit), 12) + lpad(model, 12) + lpad(err, 9) + "  " +
         note + "\n";
  }
  Summary s = summarize(rows);
  o += "\n" + std::to_string(s.modeled) + " figures modeled: " + std::to_string(s.within_25_percent) + " within 25%, " +
       std::to_string(s.off_by_more_than_50_percent) + " off by more than 50%. Uncalibrated measurements within 25%: " +
       std::to_string(s.uncalibrated_measurements_within_25_percent) + " of " + std::to_string(s.uncalibrated_measurements) +
       ".\n";
  if (!s.far_rows.empty()) {
    o += "Far off (>50%):\n";
    for (const auto& f : s.far_rows) o += "  - " + f + "\n";
  }
  return o;
}

}  // namespace trnsim::validate
