// `trnsim sweep SWEEP.json [--jobs N] [--shard I/N] [--full] [--no-progress]`: evaluate a grid
// over any scenario fields, one JSON line per point on stdout, a progress bar on stderr.
//
// SWEEP.json:
//   { "base": "examples/gpt-oss-120b-trn3-gen2.json",   // a path (relative to the sweep file,
//                                                        // else an embedded example) or a scenario object
//     "grid": { "system": ["trn3-gen2-ultraserver", "trn2-ultraserver"],
//               "workload.inference.batch": [1, 4, 16, 64],
//               "workload.parallelism.tp": [4, 8] } }
// Points are the Cartesian product in the grid's key order, the last key varying fastest;
// point i is the same on every machine, so `--shard I/N` (the I-th of N contiguous blocks)
// lets Slurm arrays, Kubernetes indexed jobs or GNU parallel split a sweep, and the shards'
// outputs concatenated in order equal the unsharded output. Lines are printed in index order
// whatever --jobs is. A point that cannot run (does not fit, bad placement) is a line with
// "ok": false and the error; a grid path that does not exist is an error before anything runs.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <ostream>
#include <system_error>
#include <thread>

#include "cli.h"
#include "embedded.h"
#include "report/report.h"
#include "scenario/scenario.h"

namespace {

using trnsim::InputError;
using trnsim::json;

struct Sweep {
  json base;
  std::vector<std::string> paths;
  std::vector<std::vector<json>> values;
  bool full = false;
  std::size_t points() const {
    std::size_t n = 1;
    for (const auto& v : values) n *= v.size();
    return n;
  }
};

std::string dir_of(const std::string& path) {
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

Sweep read_sweep(const std::string& path, trnsim::cli::Io& io) {
  json j = trnsim::parse_json_text(trnsim::cli::read_file(path, io), path);
  trnsim::ObjectReader r(j, "sweep");
  Sweep s;
  // Unknown keys first (a typo'd "gird" is the error, not a missing "grid").
  const json* base_p = r.optional_raw("base");
  const json* grid_p = r.optional_raw("grid");
  s.full = r.choice("output", "summary", {"summary", "full"}) == "full";
  r.finish();
  if (!base_p) throw InputError("sweep.base", "missing (required)");
  if (!grid_p) throw InputError("sweep.grid", "missing (required)");
  const json& base = *base_p;
  if (base.is_string()) {
    std::string name = base.get<std::string>();
    std::string text;
    std::string local = (name.empty() || name[0] == '/') ? name : dir_of(path) + name;
    try {
      text = trnsim::cli::read_file(local, io);
    } catch (const InputError&) {
      const std::string* emb = trnsim::find_embedded(name);
      if (!emb) throw InputError("sweep.base", "no file '" + local + "' and no embedded example '" + name + "'");
      text = *emb;
    }
    s.base = trnsim::parse_json_text(text, name);
  } else if (base.is_object()) {
    s.base = base;
  } else {
    throw InputError("sweep.base", "expected a scenario file path or a scenario object");
  }
  const json& grid = *grid_p;
  if (!grid.is_object() || grid.empty())
    throw InputError("sweep.grid", "expected an object of \"json.path\": [values...]");
  for (auto it = grid.begin(); it != grid.end(); ++it) {
    std::string p = "sweep.grid." + it.key();
    if (!it.value().is_array() || it.value().empty()) throw InputError(p, "expected a non-empty list of values");
    s.paths.push_back(it.key());
    s.values.emplace_back(it.value().begin(), it.value().end());
  }
  double n = 1;
  for (const auto& v : s.values) n *= static_cast<double>(v.size());
  if (n > 1e8) throw InputError("sweep.grid", "more than 100,000,000 points");
  return s;
}

// Sets a dotted path ("workload.inference.batch") in a scenario object.
void set_path(json& doc, const std::string& path, const json& value) {
  json* node = &doc;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = path.find('.', start);
    std::string key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (key.empty()) throw InputError("sweep.grid." + path, "empty path segment");
    if (!node->is_object())
      throw InputError("sweep.grid." + path, "'" + path.substr(0, start ? start - 1 : 0) + "' is not an object in the base scenario");
    if (dot == std::string::npos) {
      (*node)[key] = value;
      return;
    }
    if (!node->contains(key)) (*node)[key] = json::object();
    node = &(*node)[key];
    start = dot + 1;
  }
}

json point_values(const Sweep& s, std::size_t index, json* scenario) {
  json point = json::object();
  std::size_t rest = index;
  std::vector<std::size_t> pick(s.paths.size());
  for (std::size_t k = s.paths.size(); k-- > 0;) {
    pick[k] = rest % s.values[k].size();
    rest /= s.values[k].size();
  }
  for (std::size_t k = 0; k < s.paths.size(); ++k) {
    point[s.paths[k]] = s.values[k][pick[k]];
    if (scenario) set_path(*scenario, s.paths[k], s.values[k][pick[k]]);
  }
  return point;
}

json summary(const trnsim::workload::Result& r) {
  json j;
  j["system"] = r.system_name;
  j["kind"] = r.kind;
  if (r.kind == "inference") {
    j["ttft_s"] = r.ttft_s;
    j["tpot_s"] = r.tpot_s;
    j["request_latency_s"] = r.request_latency_s;
    j["output_tokens_per_s_per_chip"] = r.output_tokens_per_s_per_chip;
    j["output_tokens_per_s_per_server"] = r.output_tokens_per_s_per_server;
    j["output_tokens_per_s_per_system"] = r.output_tokens_per_s_per_system;
  } else {
    j["step_time_s"] = r.step_time_s;
    j["training_tokens_per_s"] = r.training_tokens_per_s;
    j["training_tokens_per_s_per_chip"] = r.training_tokens_per_s_per_chip;
    j["mfu"] = r.mfu;
    j["hfu"] = r.hfu;
  }
  j["hbm_used_bytes"] = r.hbm_used_bytes;
  j["compute_share"] = r.compute_share;
  j["hbm_share"] = r.hbm_share;
  j["fabric_share"] = r.fabric_share;
  j["overhead_share"] = r.overhead_share;
  j["tokens_per_s_per_megawatt"] = r.tokens_per_s_per_megawatt;
  j["usd_per_million_tokens"] = r.usd_per_million_tokens;
  return j;
}

std::string evaluate_point(const Sweep& s, std::size_t index) {
  json scenario = s.base;
  json line;
  line["index"] = index;
  line["point"] = point_values(s, index, &scenario);
  try {
    trnsim::Report rep = trnsim::evaluate(trnsim::scenario_from_json(scenario));
    line["ok"] = true;
    if (s.full) {
      line["report"] = trnsim::report_to_json(rep);
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
  return line.dump();
}

struct Progress {
  std::ostream& err;
  bool enabled;
  std::size_t total;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now(), last = start;
  void update(std::size_t done, bool final) {
    if (!enabled) return;
    auto now = std::chrono::steady_clock::now();
    if (!final && now - last < std::chrono::milliseconds(100)) return;
    last = now;
    const int width = 30;
    int filled = total ? static_cast<int>(done * width / total) : width;
    double secs = std::chrono::duration<double>(now - start).count();
    char buf[160];
    std::snprintf(buf, sizeof buf, "\rsweep [%s%s] %zu/%zu points, %.1f s", std::string(filled, '#').c_str(),
                  std::string(width - filled, '.').c_str(), done, total, secs);
    err << buf << (final ? "\n" : "") << std::flush;
  }
};

std::pair<std::size_t, std::size_t> parse_shard(const std::string& text) {
  auto slash = text.find('/');
  auto bad = [&] { return InputError("--shard", "expected I/N with 0 <= I < N, got '" + text + "'"); };
  if (slash == std::string::npos || slash == 0 || slash + 1 >= text.size()) throw bad();
  std::size_t i = 0, n = 0;
  try {
    std::size_t used = 0;
    i = std::stoul(text.substr(0, slash), &used);
    if (used != slash) throw bad();
    n = std::stoul(text.substr(slash + 1), &used);
    if (used != text.size() - slash - 1) throw bad();
  } catch (const std::logic_error&) {
    throw bad();
  }
  if (n == 0 || i >= n) throw bad();
  return {i, n};
}

int run_sweep(const std::vector<std::string>& raw, trnsim::cli::Io& io) {
  trnsim::cli::Args args(raw, {"jobs", "shard"}, {"full", "no-progress"});
  args.expect_positional({"SWEEP.json"});
  Sweep s = read_sweep(args.positional()[0], io);
  if (args.flag("full")) s.full = true;
  int jobs = 1;
  if (auto j = args.value("jobs")) {
    try {
      std::size_t used = 0;
      jobs = std::stoi(*j, &used);
      if (used != j->size()) throw std::invalid_argument("");
    } catch (const std::logic_error&) {
      throw InputError("--jobs", "expected a whole number, got '" + *j + "'");
    }
    if (jobs < 1 || jobs > 256) throw InputError("--jobs", "must be between 1 and 256, got " + *j);
  }
  const std::size_t total = s.points();
  std::size_t first = 0, last = total;
  if (auto sh = args.value("shard")) {
    auto [i, n] = parse_shard(*sh);
    first = total * i / n;
    last = total * (i + 1) / n;
  }
  // A grid path that does not fit the scenario format is the sweep's error, not a point's.
  {
    json scenario = s.base;
    json point = point_values(s, 0, &scenario);
    try {
      trnsim::scenario_from_json(scenario);
    } catch (const InputError& e) {
      throw InputError("sweep", "point 0 " + point.dump() + " is not a valid scenario: " + e.what());
    }
  }

  const std::size_t count = last - first;
  Progress progress{io.err, !args.flag("no-progress"), count};
  std::vector<std::string> lines(count);
  std::vector<char> ready(count, 0);
  std::mutex mu;
  std::condition_variable cv;
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t k; (k = next.fetch_add(1)) < count;) {
      std::string line = evaluate_point(s, first + k);
      std::lock_guard<std::mutex> lock(mu);
      lines[k] = std::move(line);
      ready[k] = 1;
      cv.notify_all();
    }
  };
  std::vector<std::thread> threads;
  if (jobs > 1) {
    try {
      for (int t = 0; t < jobs; ++t) threads.emplace_back(worker);
    } catch (const std::system_error&) {
      io.err << "sweep: threads are not available here; running on one\n";
    }
  }
  if (threads.empty()) {
    for (std::size_t k = 0; k < count; ++k) {
      io.out << evaluate_point(s, first + k) << "\n";
      progress.update(k + 1, false);
    }
  } else {
    for (std::size_t k = 0; k < count; ++k) {
      std::string line;
      {
        std::unique_lock<std::mutex> lock(mu);
        cv.wait(lock, [&] { return ready[k] != 0; });
        line.swap(lines[k]);
      }
      io.out << line << "\n";
      progress.update(k + 1, false);
    }
    for (auto& t : threads) t.join();
  }
  io.out.flush();
  progress.update(count, true);
  return 0;
}

}  // namespace

TRNSIM_COMMAND("sweep", "evaluate a grid over scenario fields (JSON Lines out; --jobs, --shard)",
               "Usage: trnsim sweep SWEEP.json [--jobs N] [--shard I/N] [--full] [--no-progress]\n"
               "  SWEEP.json  {\"base\": \"scenario.json\" or {...}, \"grid\": {\"json.path\": [values...], ...},\n"
               "               \"output\": \"summary\" (default) or \"full\"}\n"
               "              e.g. \"grid\": {\"system\": [\"trn3-gen2-ultraserver\", \"trn2-ultraserver\"],\n"
               "                             \"workload.inference.batch\": [1, 16, 64]}\n"
               "  Prints one JSON line per point, in index order: {index, point, ok, primary, compare}\n"
               "  (or {index, point, ok: false, error}); the last grid key varies fastest.\n"
               "  --jobs N     evaluate on N threads (output order unchanged)\n"
               "  --shard I/N  only the I-th of N contiguous blocks of points (0-based), for batch engines\n"
               "  --full       the whole report JSON per point instead of the summary\n"
               "  --no-progress  no progress bar on stderr\n"
               "Exit codes: 0 ok (failing points are lines with ok:false), 2 bad sweep file or options.\n",
               run_sweep);
