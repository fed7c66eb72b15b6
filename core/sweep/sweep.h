// Design-space sweeps: a grid over any scenario fields (the field table's paths), expanded
// into points evaluated one by one. The CLI (`trnsim sweep`, with --jobs and --shard), the
// Python module (`trnsim.sweep`) and batch engines (examples/slurm/) share this code, so a
// point is the same everywhere and shards concatenated in order equal the unsharded run.
//
// A sweep file:
//   { "base": "examples/gpt-oss-120b-trn3-gen2.json",   // a path (resolved by the caller) or a scenario object
//     "grid": { "system": ["trn3-gen2-ultraserver", "trn2-ultraserver"],
//               "workload.inference.batch": [1, 4, 16, 64] },
//     "output": "summary" | "full" }
// Points are the Cartesian product in the grid's key order, the last key varying fastest.
// A null in a list is the base scenario's own value of that field (its default unless the base
// sets it), so a grid can hold "as shipped" beside alternatives without copying a number that
// would go stale when the default is recalibrated; points show the value they ran with.
// A point that cannot run (does not fit, bad placement, a value the field refuses) is a
// line with "ok": false and the error; a grid path that is not a scenario field, and a
// first point that is not a valid scenario, are errors of the sweep itself.
#pragma once
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common/fields.h"
#include "scenario/scenario.h"

namespace trnsim::sweep {

constexpr double kMaxPoints = 1e8;

struct Sweep {
  Scenario base;
  std::vector<std::string> paths;         // scenario field paths, grid order
  std::vector<std::vector<json>> values;  // per path
  bool full = false;                      // whole reports instead of summaries
  std::map<std::string, json> model_files;  // "workload.model" paths in the grid -> their configs
  std::size_t points() const;
};

// Reads a sweep object. `load_base(name)` returns the scenario JSON text a string "base"
// names (the CLI resolves it relative to the sweep file, else as an embedded example).
// `files_for(name)` reads the files a scenario names by path ("workload.model":
// "configs/x.json"): for the base named `name`, relative to that base's folder; for "" (an
// inline base object, and "workload.model" paths in the grid), relative to the sweep file's.
// Without it a model path is an error saying to put the config inline.
// Errors: InputError naming "sweep.<field>".
using FilesFor = std::function<ScenarioFiles(const std::string& base_name)>;
Sweep parse_sweep(const json& j, const std::function<std::string(const std::string&)>& load_base,
                  const FilesFor& files_for = {});
// Sets a point's grid values on `scenario` (a model path in the grid as its config).
void apply_point(Scenario& scenario, const Sweep& s, const json& point);
// The grid values of point `index`: {"path": value, ...}.
json point_values(const Sweep& s, std::size_t index);
// Evaluates point `index`: {"index", "point", "ok", "primary", "compare"} (summaries: the
// system, the kind and every summary metric of core/report/metrics.h), or with s.full the
// whole report, or {"index", "point", "ok": false, "error"}.
json evaluate_point(const Sweep& s, std::size_t index);
// Block `shard` of `shards` contiguous blocks of [0, points): [first, last).
std::pair<std::size_t, std::size_t> shard_range(std::size_t points, std::size_t shard, std::size_t shards);

}  // namespace trnsim::sweep
