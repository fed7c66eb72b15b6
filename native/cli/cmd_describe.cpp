// `trnsim describe SYSTEM [--json]`: what the hardware model knows about a chip, system
// or cluster (derived aggregates, per-chip data, fabric, alternatives, sources).
// `trnsim describe --sources [--json]`: the source keys every data file cites
// (core/data/sources.json), the list the site's about page shows.
#include <ostream>

#include "cli.h"
#include "common/format.h"
#include "hw/sources.h"
#include "hw/system.h"

namespace {

std::string names_list() {
  std::string list;
  for (const auto& n : trnsim::hw::system_names()) list += (list.empty() ? "" : ", ") + n;
  return list;
}

int print_sources(bool as_json, trnsim::cli::Io& io) {
  const auto& keys = trnsim::hw::source_keys();
  if (as_json) {
    trnsim::json arr = trnsim::json::array();
    for (const auto& k : keys)
      arr.push_back({{"key", k.key}, {"repository", k.repository}, {"document", k.document}, {"used_for", k.used_for}});
    io.out << arr.dump(2) << "\n";
    return 0;
  }
  io.out << "Source keys the data cite (core/data/sources.json):\n";
  for (const auto& k : keys)
    io.out << trnsim::fmt::pad(k.key, 8) << k.repository << ": " << k.document << "\n" << std::string(8, ' ') << "used for "
           << k.used_for << "\n";
  return 0;
}

int run_describe(const std::vector<std::string>& raw, trnsim::cli::Io& io) {
  trnsim::cli::Args args(raw, {}, {"json", "sources"});
  if (args.flag("sources")) {
    args.expect_positional({});
    return print_sources(args.flag("json"), io);
  }
  if (args.positional().empty())
    throw trnsim::InputError("SYSTEM", "missing; one of: " + names_list() + " (or a path to a .json file)");
  args.expect_positional({"SYSTEM"});
  trnsim::hw::System s = trnsim::hw::load_system(args.positional()[0]);
  if (args.flag("json"))
    io.out << trnsim::hw::describe_json(s).dump(2) << "\n";
  else
    io.out << trnsim::hw::describe_text(s);
  return 0;
}

}  // namespace

TRNSIM_COMMAND("describe", "show a chip, system or cluster: peaks, memory, fabric, sources",
               "Usage: trnsim describe SYSTEM [--json]\n"
               "       trnsim describe --sources [--json]\n"
               "  SYSTEM   a built-in name (trainium2, trainium3, trn2-48xlarge, trn2-ultraserver,\n"
               "           trn3-gen1-ultraserver, trn3-gen2-ultraserver, trn2-ultracluster,\n"
               "           trn3-gen1-ultracluster, trn3-gen2-ultracluster) or a path to a .json file.\n"
               "           NAME:N sets the number of UltraServers of a cluster (or clusters a system);\n"
               "           NAME+ALT selects a named alternative where sources disagree (see the output).\n"
               "  --sources  the source keys every data file cites (core/data/sources.json)\n"
               "  --json   machine-readable output\n"
               "Exit codes: 0 ok, 2 unknown system or bad file.\n",
               run_describe);
