// Fuzz target: the MX text and binary input of `trnsim mx quantize|dequantize|dot` (stdin),
// through the CLI's own command (native/cli/cmd_mx.cpp). The input's first line holds the
// command's arguments ("quantize --format e2m1 --input f32"), the rest is its stdin. Each
// input runs once per code path this machine has (--path scalar, avx2, ...): the outputs,
// or the error messages, must be identical (MX results are bit-exact on every path).
// fuzz-seeds: tests/fuzz/seeds/mx/*
// fuzz-cli: yes
#include <sstream>
#include <vector>

#include "../fuzz.h"
#include "cli.h"
#include "mx/mx.h"

using namespace trnsim;

namespace {

std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream s(line);
  std::string w;
  while (out.size() < 16 && s >> w) out.push_back(w);
  return out;
}

// stdout, or "error: <message>" for an InputError.
std::string run(const std::vector<std::string>& args, const std::string& stdin_text) {
  std::istringstream in(stdin_text);
  std::ostringstream out, err;
  cli::Io io{in, out, err};
  std::string result;
  std::string message;
  bool ok = fuzz::accepts("trnsim mx", [&] {
    try {
      cli::registry().at("mx").run(args, io);
    } catch (const InputError& e) {
      message = e.what();
      throw;
    }
  });
  return ok ? out.str() : "error: " + message;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input = fuzz::text(data, size);
  const std::size_t nl = input.find('\n');
  std::vector<std::string> args = words(input.substr(0, nl));
  const std::string stdin_text = nl == std::string::npos ? "" : input.substr(nl + 1);
  // Only the subcommands that read stdin (error and bench take no input, only run time).
  if (args.empty() || (args[0] != "quantize" && args[0] != "dequantize" && args[0] != "dot")) return 0;
  for (std::size_t i = 0; i < args.size(); ++i) {  // the target chooses the path itself
    if (args[i].rfind("--path", 0) == 0) {
      bool separate_value = args[i] == "--path" && i + 1 < args.size();
      args.erase(args.begin() + static_cast<long>(i), args.begin() + static_cast<long>(i + (separate_value ? 2 : 1)));
      --i;
    }
  }
  std::string first;
  std::string first_path;
  for (mx::Path p : mx::available_paths()) {
    std::vector<std::string> a = args;
    a.insert(a.begin() + 1, std::string("--path=") + mx::path_name(p));  // before any "--"
    std::string got = run(a, stdin_text);
    if (first_path.empty()) {
      first = got, first_path = mx::path_name(p);
    } else {
      fuzz::check(got == first, std::string("path ") + mx::path_name(p) + " differs from " + first_path + ":\n" +
                                    got.substr(0, 400) + "\nvs\n" + first.substr(0, 400));
    }
  }
  return 0;
}
