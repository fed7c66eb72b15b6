// `trnsim collective`: an nccl-tests-style table of one collective on a system, timed by
// the analytic or the event-driven backend (core/collective).
#include <cstdio>
#include <ostream>

#include "cli.h"
#include "hw/system.h"
#include "collective/collective.h"

namespace {

using trnsim::InputError;

// "64K", "1M", "2G", "1048576", "16MiB" -> bytes (K/M/G/T are powers of 1024, as in nccl-tests).
double parse_size(const std::string& text, const std::string& field) {
  std::size_t i = 0;
  while (i < text.size() && ((text[i] >= '0' && text[i] <= '9') || text[i] == '.')) ++i;
  if (i == 0) throw InputError(field, "expected a size such as 1024, 64K, 16M or 1G, got '" + text + "'");
  double v = 0;
  try {
    v = std::stod(text.substr(0, i));
  } catch (...) {
    throw InputError(field, "expected a size such as 1024, 64K, 16M or 1G, got '" + text + "'");
  }
  std::string suffix = text.substr(i);
  double mult = 1;
  if (!suffix.empty()) {
    char c = suffix[0];
    std::string rest = suffix.substr(1);
    if (c == 'K' || c == 'k') mult = 1024.0;
    else if (c == 'M' || c == 'm') mult = 1048576.0;
    else if (c == 'G' || c == 'g') mult = 1073741824.0;
    else if (c == 'T' || c == 't') mult = 1099511627776.0;
    else if (c == 'B' && rest.empty()) rest = "", mult = 1;
    else throw InputError(field, "unknown size suffix '" + suffix + "' (use K, M, G or T)");
    if (!(rest.empty() || rest == "B" || rest == "iB"))
      throw InputError(field, "unknown size suffix '" + suffix + "' (use K, M, G or T)");
  }
  v *= mult;
  if (!(v > 0)) throw InputError(field, "must be positive, got '" + text + "'");
  if (v > 1e18) throw InputError(field, "too large: '" + text + "'");
  return v;
}

long parse_count(const std::string& text, const std::string& field) {
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos)
    throw InputError(field, "expected a whole number, got '" + text + "'");
  return std::stol(text);
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

int run_collective(const std::vector<std::string>& raw, trnsim::cli::Io& io) {
  trnsim::cli::Args args(raw, {"system", "op", "bytes", "algo", "protocol", "backend", "ranks", "stride", "ranks-per-chip"}, {"json"});
  args.expect_positional({});
  auto need = [&](const char* name) {
    auto v = args.value(name);
    if (!v) throw InputError(std::string("--") + name, "missing (required)");
    return *v;
  };
  trnsim::hw::System system = trnsim::hw::load_system(need("system"));
  trnsim::collective::Request req;
  req.op = need("op");
  req.algo = args.value_or("algo", "auto");
  req.backend = args.value_or("backend", "analytic");
  req.protocol = args.value_or("protocol", "auto");
  if (auto r = args.value("ranks")) {
    req.ranks = static_cast<int>(parse_count(*r, "--ranks"));
    if (req.ranks < 1) throw InputError("--ranks", "must be at least 1");
  }
  if (auto s = args.value("stride")) {
    req.stride = static_cast<int>(parse_count(*s, "--stride"));
    if (req.stride < 1) throw InputError("--stride", "must be at least 1");
  }
  if (auto c = args.value("ranks-per-chip")) {
    req.ranks_per_chip = static_cast<int>(parse_count(*c, "--ranks-per-chip"));
    if (req.ranks_per_chip < 1) throw InputError("--ranks-per-chip", "must be at least 1");
  }
  std::string bytes = need("bytes");
  double lo = 0, hi = 0;
  auto colon = bytes.find(':');
  if (colon == std::string::npos) {
    lo = hi = parse_size(bytes, "--bytes");
  } else {
    lo = parse_size(bytes.substr(0, colon), "--bytes");
    hi = parse_size(bytes.substr(colon + 1), "--bytes");
    if (hi < lo) throw InputError("--bytes", "the range's maximum is below its minimum");
  }
  std::vector<std::pair<double, trnsim::collective::Result>> rows;
  for (double b = lo; b <= hi * (1 + 1e-12); b *= 2) {
    req.bytes = b;
    rows.emplace_back(b, trnsim::collective::run(system, req));
    if (rows.size() > 64) break;
  }
  long ranks = trnsim::collective::request_ranks(system, req);
  if (args.flag("json")) {
    trnsim::json j;
    j["system"] = system.name;
    j["op"] = req.op;
    j["ranks"] = ranks;
    j["stride"] = req.stride;
    j["ranks_per_chip"] = req.ranks_per_chip;
    j["backend"] = req.backend;
    j["algo"] = req.algo;
    trnsim::json res = trnsim::json::array();
    for (const auto& [b, r] : rows)
      res.push_back({{"bytes", b},
                     {"time_s", r.time_s},
                     {"algbw_bytes_per_s", r.algbw_bytes_per_s},
                     {"busbw_bytes_per_s", r.busbw_bytes_per_s},
                     {"algorithm", r.algorithm},
                     {"protocol", r.protocol},
                     {"steps", r.steps},
                     {"overhead_s", r.overhead_s},
                     {"latency_s", r.latency_s},
                     {"dma_s", r.dma_s},
                     {"link_s", r.link_s}});
    j["results"] = res;
    io.out << j.dump(2) << "\n";
    return 0;
  }
  io.out << "# trnsim collective: " << req.op << " on " << system.name << ", " << ranks << " ranks"
         << (req.stride > 1 ? " at stride " + std::to_string(req.stride) : std::string())
         << (req.ranks_per_chip > 1 ? ", " + std::to_string(req.ranks_per_chip) + " per chip (logical NeuronCores)" : std::string())
         << ", backend " << req.backend
         << ", algo " << req.algo << (system.fabric_spec.protocols.empty() ? std::string() : ", protocol " + req.protocol)
         << "\n";
  io.out << "# busbw = algbw x " << (req.op == "all-reduce" ? "2(n-1)/n" : (req.op == "permute" || req.op == "broadcast") ? "1" : "(n-1)/n")
         << " (nccl-tests convention)\n#\n";
  io.out << "#          size        time       algbw       busbw  algorithm\n";
  io.out << "#           (B)        (us)      (GB/s)      (GB/s)\n";
  for (const auto& [b, r] : rows) {
    io.out << fmt("%15.0f", b) << fmt(" %11.2f", r.time_s * 1e6) << fmt(" %11.2f", r.algbw_bytes_per_s / 1e9)
           << fmt(" %11.2f", r.busbw_bytes_per_s / 1e9) << "  " << r.algorithm
           << (r.protocol.empty() ? std::string() : " (" + r.protocol + ")") << "\n";
  }
  return 0;
}

}  // namespace

TRNSIM_COMMAND("collective", "time a collective (nccl-tests-style table) on a system's fabric",
               "Usage: trnsim collective --system S --op OP --bytes SIZE[:MAX] [--algo A] [--protocol P]\n"
               "                         [--backend analytic|event] [--ranks N] [--stride K] [--ranks-per-chip C]\n"
               "                         [--json]\n"
               "  --system   a system or cluster (see trnsim describe), e.g. trn3-gen2-ultraserver,\n"
               "             trn2-ultracluster:64\n"
               "  --op       all-reduce, all-gather, reduce-scatter, all-to-all, permute, broadcast\n"
               "  --bytes    per-rank buffer as nccl-tests counts it; K, M, G suffixes (powers of 1024);\n"
               "             SIZE:MAX doubles from SIZE to MAX\n"
               "  --algo     auto (default: Neuron's sweet spots by size; on a system with NCCL-style protocols\n"
               "             the fastest of ring, tree and nvls, as NCCL's tuner), ring, kangaring, mesh (direct),\n"
               "             rdh, hierarchical, tree, nvls (all-reduce reduced in the switches, NVLink SHARP)\n"
               "  --protocol auto (default: the fastest) or one of the system's collective protocols\n"
               "             (NVIDIA systems: ll, ll128, simple); see trnsim describe\n"
               "  --backend  analytic (default; alpha-beta with link sharing) or event (max-min fair flows)\n"
               "  --ranks    ranks in the group (default: every chip); rank i is chip i x stride\n"
               "  --stride   chip spacing of ranks (default 1)\n"
               "  --ranks-per-chip  logical NeuronCores per chip taking part (default 1: ranks are chips;\n"
               "             4 = Trn2/Trn3 at LNC=2, as nccom-test counts ranks); rank i is on chip\n"
               "             (i / C) x stride\n"
               "Columns: size (B), time (us), algbw = size / time, busbw (GB/s = 1e9 B/s), algorithm used\n"
               "(and protocol, where the system has several).\n"
               "Exit codes: 0 ok, 2 bad input (unknown op/algo, ranks > chips, bytes <= 0).\n",
               run_collective);
