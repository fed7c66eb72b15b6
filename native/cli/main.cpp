// trnsim: entry point of the command line. Dispatches to the registered subcommands
// (see cli.h) and maps errors to exit codes: 2 for bad input or usage, 1 for bugs.
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli.h"

namespace {

const char* kOverview =
    "trnsim " TRNSIM_VERSION
    ": a model of AWS Trainium2 and Trainium3 systems (chips, HBM, fabrics, MX numerics,\n"
    "LLM workloads), the same core as the browser playground.\n\n"
    "Usage: trnsim COMMAND [ARGS...]\n"
    "       trnsim COMMAND --help    help for one command\n"
    "       trnsim --version\n\nCommands:\n";

void print_overview(std::ostream& out) {
  out << kOverview;
  for (const auto& [name, cmd] : trnsim::cli::registry()) {
    std::string pad(name.size() < 12 ? 12 - name.size() : 1, ' ');
    out << "  " << name << pad << cmd.summary << "\n";
  }
  out << "\nExit codes: 0 success, 2 bad input or usage, 1 internal error.\n";
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  trnsim::cli::Io io{std::cin, std::cout, std::cerr};
  if (args.empty()) {
    print_overview(std::cerr);
    return 2;
  }
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    print_overview(std::cout);
    return 0;
  }
  if (args[0] == "--version") {
    std::cout << "trnsim " << TRNSIM_VERSION << "\n";
    return 0;
  }
  auto& reg = trnsim::cli::registry();
  auto it = reg.find(args[0]);
  if (it == reg.end()) {
    std::cerr << "trnsim: error: unknown command '" << args[0] << "' (see trnsim --help)\n";
    return 2;
  }
  std::vector<std::string> rest(args.begin() + 1, args.end());
  for (const auto& a : rest) {
    if (a == "--help" || a == "-h") {
      std::cout << it->second.usage;
      return 0;
    }
  }
  try {
    int rc = it->second.run(rest, io);
    std::cout.flush();
    return rc;
  } catch (const trnsim::InputError& e) {
    std::cout.flush();
    std::cerr << "trnsim " << args[0] << ": error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cout.flush();
    std::cerr << "trnsim " << args[0] << ": internal error: " << e.what() << "\n";
    return 1;
  }
}
