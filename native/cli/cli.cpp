#include "cli.h"

#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "common/fields.h"
#include "common/input_file.h"

namespace trnsim::cli {

std::map<std::string, Command>& registry() {
  static std::map<std::string, Command> commands;
  return commands;
}

Registrar::Registrar(Command c) { registry()[c.name] = std::move(c); }

Args::Args(const std::vector<std::string>& raw, const std::set<std::string>& value_options,
           const std::set<std::string>& flag_options) {
  std::vector<std::string> known(value_options.begin(), value_options.end());
  known.insert(known.end(), flag_options.begin(), flag_options.end());
  bool only_positional = false;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const std::string& a = raw[i];
    if (only_positional || a.size() < 2 || a.compare(0, 2, "--") != 0) {
      positional_.push_back(a);
      continue;
    }
    if (a == "--") {
      only_positional = true;
      continue;
    }
    std::string name = a.substr(2), val;
    bool has_val = false;
    auto eq = name.find('=');
    if (eq != std::string::npos) {
      val = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_val = true;
    }
    if (value_options.count(name)) {
      if (!has_val) {
        if (i + 1 >= raw.size()) throw InputError("--" + name, "needs a value");
        val = raw[++i];
      }
      if (values_.count(name)) throw InputError("--" + name, "given more than once");
      values_[name] = val;
    } else if (flag_options.count(name)) {
      if (has_val) throw InputError("--" + name, "takes no value");
      flags_.insert(name);
    } else {
      std::string hint = closest_name(name, known);
      throw InputError("--" + name, "unknown option" + (hint.empty() ? "" : " (did you mean --" + hint + "?)"));
    }
  }
}

std::optional<std::string> Args::value(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::string Args::value_or(const std::string& name, const std::string& def) const {
  auto v = value(name);
  return v ? *v : def;
}

void Args::expect_positional(const std::vector<std::string>& names) const {
  if (positional_.size() < names.size())
    throw InputError(names[positional_.size()], "missing argument");
  if (positional_.size() > names.size())
    throw InputError(positional_[names.size()], "unexpected extra argument");
}

std::string read_file(const std::string& path, Io& io, std::size_t max_bytes) {
  if (path == "-") return read_input_stream(io.in, "stdin", max_bytes);
  return read_input_file(path, path, max_bytes);
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  if (!f) throw InputError(path, "cannot create file");
  f << text;
  f.close();
  if (!f) throw InputError(path, "cannot write file");
}

}  // namespace trnsim::cli
