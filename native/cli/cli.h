// The `trnsim` command line: a registry of subcommands, one per file (cmd_*.cpp),
// each registering itself with TRNSIM_COMMAND. Subcommands read their options with
// Args (unknown options are usage errors) and report bad input by throwing
// trnsim::InputError, which main() turns into a message on stderr and exit code 2.
// Exit codes: 0 success, 2 bad input or usage, 1 internal error.
#pragma once
#include <iosfwd>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/limits.h"

namespace trnsim::cli {

struct Io {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
};

using CommandFn = int (*)(const std::vector<std::string>& args, Io& io);

struct Command {
  std::string name;
  std::string summary;  // one line, for `trnsim --help`
  std::string usage;    // full help text, for `trnsim NAME --help`
  CommandFn run;
};

std::map<std::string, Command>& registry();

struct Registrar {
  explicit Registrar(Command c);
};

#define TRNSIM_CONCAT_INNER(a, b) a##b
#define TRNSIM_CONCAT(a, b) TRNSIM_CONCAT_INNER(a, b)
#define TRNSIM_COMMAND(name, summary, usage, fn) \
  static ::trnsim::cli::Registrar TRNSIM_CONCAT(trnsim_cmd_, __COUNTER__)({name, summary, usage, fn})

// Options of one subcommand. `value_options` take a value (--x V or --x=V),
// `flag_options` take none. Anything else starting with "--" is a usage error
// naming the option; "-" alone is a positional (stdin).
class Args {
 public:
  Args(const std::vector<std::string>& raw, const std::set<std::string>& value_options,
       const std::set<std::string>& flag_options);

  bool flag(const std::string& name) const { return flags_.count(name) > 0; }
  std::optional<std::string> value(const std::string& name) const;
  std::string value_or(const std::string& name, const std::string& def) const;
  const std::vector<std::string>& positional() const { return positional_; }
  // Requires exactly `count` positionals, naming them in the error.
  void expect_positional(const std::vector<std::string>& names) const;

 private:
  std::set<std::string> flags_;
  std::map<std::string, std::string> values_;
  std::vector<std::string> positional_;
};

// Reads a whole file ("-" is stdin); a missing or unreadable file, a directory or more than
// max_bytes (common/limits.h) is an InputError naming the path.
std::string read_file(const std::string& path, Io& io, std::size_t max_bytes = limits::kMaxJsonInputBytes);
// Writes a whole file; failure is an InputError naming the path.
void write_file(const std::string& path, const std::string& text);

}  // namespace trnsim::cli
