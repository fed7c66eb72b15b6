// trnsim link encode SCENARIO.json [--base URL] | trnsim link decode LINK: playground
// links that hold the whole scenario in the URL fragment (core/link/link.h), the same
// codec the page uses.
#include "cli.h"
#include "link/link.h"
#include "scenario/scenario.h"

namespace {

const char* kLinkUsage =
    "Usage: trnsim link encode SCENARIO.json [--base URL]\n"
    "       trnsim link decode LINK\n\n"
    "encode prints a playground link whose fragment holds the whole scenario (validated\n"
    "first); decode prints the scenario JSON back from a link, a \"#s=1...\" fragment, or\n"
    "\"-\" (read the link from stdin). The round trip is lossless.\n\n"
    "  --base URL    where the playground is served (default http://127.0.0.1:8080/)\n";

int run_link(const std::vector<std::string>& raw, trnsim::cli::Io& io) {
  trnsim::cli::Args args(raw, {"base"}, {});
  if (args.positional().empty()) throw trnsim::InputError("encode|decode", "missing argument");
  const std::string& action = args.positional()[0];
  if (action == "encode") {
    args.expect_positional({"encode", "SCENARIO.json"});
    const std::string& path = args.positional()[1];
    trnsim::Scenario s = trnsim::parse_scenario(trnsim::cli::read_file(path, io), path,
                                                   trnsim::scenario_files_in(trnsim::scenario_dir(path)));
    io.out << trnsim::make_link(trnsim::scenario_to_json(s), args.value_or("base", trnsim::kDefaultLinkBase)) << "\n";
    return 0;
  }
  if (action == "decode") {
    if (args.value("base")) throw trnsim::InputError("--base", "only applies to encode");
    args.expect_positional({"decode", "LINK"});
    std::string link = args.positional()[1];
    if (link == "-") link = trnsim::cli::read_file("-", io);
    while (!link.empty() && (link.back() == '\n' || link.back() == '\r' || link.back() == ' ')) link.pop_back();
    trnsim::Scenario s = trnsim::scenario_from_json(trnsim::decode_fragment(link));
    io.out << trnsim::scenario_to_string(s);
    return 0;
  }
  throw trnsim::InputError(action, "unknown action (use encode or decode)");
}

}  // namespace

TRNSIM_COMMAND("link", "encode a scenario as a playground link, or decode one", kLinkUsage, run_link);
