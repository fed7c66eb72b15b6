// `trnsim sweep SWEEP.json [--jobs N] [--shard I/N] [--full] [--no-progress]`: evaluate a grid
// over any scenario fields, one JSON line per point on stdout, a progress bar on a terminal's stderr.
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
#include <condition_variable>
#include <mutex>
#include <ostream>
#include <system_error>
#include <thread>
#include <tuple>

#include "cli.h"
#include "embedded.h"
#include "progress.h"
#include "sweep/sweep.h"

namespace {

using trnsim::InputError;
using trnsim::json;
namespace sw = trnsim::sweep;

std::string folder_of(const std::string& path) {
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

// A string "base" is a file relative to the sweep file, else an embedded example.
sw::Sweep read_sweep(const std::string& path, trnsim::cli::Io& io) {
  json j = trnsim::parse_json_text(trnsim::cli::read_file(path, io), path);
  const auto local_of = [&](const std::string& name) {
    return (name.empty() || name[0] == '/') ? name : folder_of(path) + name;
  };
  return sw::parse_sweep(
      j,
      [&](const std::string& name) {
        const std::string local = local_of(name);
        try {
          return trnsim::cli::read_file(local, io);
        } catch (const InputError&) {
          const std::string* emb = trnsim::find_embedded(name);
          if (!emb) throw InputError("sweep.base", "no file '" + local + "' and no embedded example '" + name + "'");
          return *emb;
        }
      },
      // Files a scenario names by path: beside the base file, or beside the sweep file for an
      // inline base and the grid (stdin has no folder: such a path is then an error).
      [&](const std::string& name) -> trnsim::ScenarioFiles {
        if (path == "-") return {};
        return trnsim::scenario_files_in(trnsim::scenario_dir(name.empty() ? path : local_of(name)));
      });
}

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
  sw::Sweep s = read_sweep(args.positional()[0], io);
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
    std::tie(first, last) = sw::shard_range(total, i, n);
  }

  const std::size_t count = last - first;
  trnsim::cli::Progress progress(io.err, "sweep", "points", count, !args.flag("no-progress"));
  std::vector<std::string> lines(count);
  std::vector<char> ready(count, 0);
  std::mutex mu;
  std::condition_variable cv;
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t k; (k = next.fetch_add(1)) < count;) {
      std::string line = sw::evaluate_point(s, first + k).dump();
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
      io.out << sw::evaluate_point(s, first + k).dump() << "\n";
      progress.update(k + 1);
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
      progress.update(k + 1);
    }
    for (auto& t : threads) t.join();
  }
  io.out.flush();
  progress.finish();
  return 0;
}

}  // namespace

TRNSIM_COMMAND("sweep", "evaluate a grid over scenario fields (JSON Lines out; --jobs, --shard)",
               "Usage: trnsim sweep SWEEP.json [--jobs N] [--shard I/N] [--full] [--no-progress]\n"
               "  SWEEP.json  {\"base\": \"scenario.json\" or {...}, \"grid\": {\"json.path\": [values...], ...},\n"
               "               \"output\": \"summary\" (default) or \"full\"}\n"
               "              e.g. \"grid\": {\"system\": [\"trn3-gen2-ultraserver\", \"trn2-ultraserver\"],\n"
               "                             \"workload.inference.batch\": [1, 16, 64]}\n"
               "              null in a list: the base's own value of that field (its default unless set)\n"
               "  Prints one JSON line per point, in index order: {index, point, ok, primary, compare}\n"
               "  (or {index, point, ok: false, error}); the last grid key varies fastest.\n"
               "  --jobs N     evaluate on N threads (output order unchanged)\n"
               "  --shard I/N  only the I-th of N contiguous blocks of points (0-based), for batch engines\n"
               "  --full       the whole report JSON per point instead of the summary\n"
               "  --no-progress  no progress bar (one is drawn on stderr only when it is a terminal)\n"
               "Exit codes: 0 ok (failing points are lines with ok:false), 2 bad sweep file or options.\n",
               run_sweep);
