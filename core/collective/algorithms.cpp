// Collective algorithms -> schedules. Sizes follow nccl-tests: `bytes` is the per-rank
// buffer (all-reduce in/out, all-gather output, reduce-scatter input, all-to-all
// per-rank total, permute / broadcast message).
#include "collective/algorithms.h"

#include <algorithm>

#include "common/error.h"
#include "common/fields.h"

namespace trnsim::collective {

namespace {

constexpr double kMeshMax = 1048576.0;        // S13: Mesh below 1 MB
constexpr double kRdhMax = 56.0 * 1048576.0;  // S13: RDH 1-56 MB, KangaRing above

long floor_pow2(long x) {
  long p = 1;
  while (p * 2 <= x) p *= 2;
  return p;
}

// A subgroup shape: S members spaced ms ranks apart.
struct Shape {
  long S, ms;
};

Step step(Pattern p, long param, Shape sh, double bytes, long repeat, double reduce, const std::string& label) {
  Step s;
  s.pattern = p;
  s.param = param;
  s.group_size = sh.S;
  s.member_stride = sh.ms;
  s.bytes = bytes;
  s.repeat = repeat;
  s.reduce_bytes = reduce;
  s.label = label;
  return s;
}

using Steps = std::vector<Step>;

// ---- building blocks on one subgroup shape; B is the nccl-tests size for that op ----

void rs_ring(Steps& out, Shape sh, double B, bool both) {
  if (sh.S < 2) return;
  double chunk = B / sh.S / (both ? 2 : 1);
  out.push_back(step(both ? Pattern::shift_both : Pattern::shift, 1, sh, chunk, sh.S - 1, B / sh.S,
                     both ? "reduce-scatter kangaring" : "reduce-scatter ring"));
}
void ag_ring(Steps& out, Shape sh, double B, bool both) {
  if (sh.S < 2) return;
  double chunk = B / sh.S / (both ? 2 : 1);
  out.push_back(step(both ? Pattern::shift_both : Pattern::shift, 1, sh, chunk, sh.S - 1, 0,
                     both ? "all-gather kangaring" : "all-gather ring"));
}
void rs_mesh(Steps& out, Shape sh, double B) {
  if (sh.S < 2) return;
  out.push_back(step(Pattern::all_pairs, 0, sh, B / sh.S, 1, B * (sh.S - 1) / sh.S, "reduce-scatter mesh"));
}
void ag_mesh(Steps& out, Shape sh, double B) {
  if (sh.S < 2) return;
  out.push_back(step(Pattern::all_pairs, 0, sh, B / sh.S, 1, 0, "all-gather mesh"));
}
// Recursive halving among the first p = 2^k members (the others folded in before).
void rs_halving(Steps& out, Shape sh, long p, double B) {
  double part = B;
  for (long mask = p / 2; mask >= 1; mask /= 2) {
    part /= 2;
    Step s = step(Pattern::xor_, mask, sh, part, 1, part, "reduce-scatter rdh");
    s.active = p;
    out.push_back(s);
  }
}
void ag_doubling(Steps& out, Shape sh, long p, double B) {
  double part = B / p;
  for (long mask = 1; mask < p; mask *= 2) {
    Step s = step(Pattern::xor_, mask, sh, part, 1, 0, "all-gather rdh");
    s.active = p;
    out.push_back(s);
    part *= 2;
  }
}
void rs_rdh(Steps& out, Shape sh, double B) {
  if (sh.S < 2) return;
  long p = floor_pow2(sh.S);
  if (p < sh.S) out.push_back(step(Pattern::fold_in, p, sh, B, 1, B, "rdh fold-in"));
  rs_halving(out, sh, p, B);
  if (p < sh.S) out.push_back(step(Pattern::fold_out, p, sh, B / sh.S, 1, 0, "rdh fold-out"));
}
void ag_rdh(Steps& out, Shape sh, double B) {
  if (sh.S < 2) return;
  long p = floor_pow2(sh.S);
  if (p < sh.S) out.push_back(step(Pattern::fold_in, p, sh, B / sh.S, 1, 0, "rdh fold-in"));
  ag_doubling(out, sh, p, B);
  if (p < sh.S) out.push_back(step(Pattern::fold_out, p, sh, B, 1, 0, "rdh fold-out"));
}
void ar_rdh(Steps& out, Shape sh, double B) {
  if (sh.S < 2) return;
  long p = floor_pow2(sh.S);
  if (p < sh.S) out.push_back(step(Pattern::fold_in, p, sh, B, 1, B, "rdh fold-in"));
  rs_halving(out, sh, p, B);
  ag_doubling(out, sh, p, B);
  if (p < sh.S) out.push_back(step(Pattern::fold_out, p, sh, B, 1, 0, "rdh fold-out"));
}

// One flat algorithm of one op on one subgroup shape.
void flat(Steps& out, const std::string& op, const std::string& algo, Shape sh, double B) {
  if (sh.S < 2) return;
  bool both = algo == "kangaring";
  if (op == "all-reduce") {
    if (algo == "nvls") {
      // The switch reduces: every chip sends each byte into the switch once and receives the
      // reduced result once, B (S+1)/S through its port each way (reduce: all its data out,
      // its 1/S share in; multicast: its share out, every share in). As flows on the port
      // model: all pairs, each flow sized so a port carries exactly that.
      const double S = static_cast<double>(sh.S);
      out.push_back(step(Pattern::all_pairs, 0, sh, B * (S + 1) / (S * (S - 1)), 1, 0, "all-reduce in-switch (nvls)"));
    } else if (algo == "tree") {
      // NCCL's tree inside one domain is a chain: reduce down it, broadcast back, pipelined
      // in chunks (1 MiB, 1..256 chunks: an assumption as for the broadcast chain).
      const long c = std::max(1L, std::min(256L, static_cast<long>(B / 1048576.0)));
      out.push_back(step(Pattern::chain, 0, sh, B / c, sh.S - 2 + c, B / c, "all-reduce tree: reduce chain"));
      out.push_back(step(Pattern::chain, 0, sh, B / c, sh.S - 2 + c, 0, "all-reduce tree: broadcast chain"));
    } else if (algo == "ring" || both) rs_ring(out, sh, B, both), ag_ring(out, sh, B, both);
    else if (algo == "mesh") rs_mesh(out, sh, B), ag_mesh(out, sh, B);
    else ar_rdh(out, sh, B);
  } else if (op != "broadcast" && algo == "tree") {
    throw InputError("algo", "tree runs all-reduce and broadcast only (NCCL's tree), not " + op);
  } else if (algo == "nvls") {
    throw InputError("algo", "nvls (in-switch reduction) runs all-reduce only, not " + op);
  } else if (op == "reduce-scatter") {
    if (algo == "ring" || both) rs_ring(out, sh, B, both);
    else if (algo == "mesh") rs_mesh(out, sh, B);
    else rs_rdh(out, sh, B);
  } else if (op == "all-gather") {
    if (algo == "ring" || both) ag_ring(out, sh, B, both);
    else if (algo == "mesh") ag_mesh(out, sh, B);
    else ag_rdh(out, sh, B);
  } else if (op == "all-to-all") {
    if (algo == "mesh") {
      out.push_back(step(Pattern::all_pairs, 0, sh, B / sh.S, 1, 0, "all-to-all mesh"));
    } else if (algo == "ring" || both) {
      // Store-and-forward around the ring: step j forwards (S - j) B/S; on average B/2.
      out.push_back(step(both ? Pattern::shift_both : Pattern::shift, 1, sh, both ? B / 4 : B / 2, sh.S - 1, 0,
                         "all-to-all ring relay"));
    } else {  // rdh: Bruck-style exchange of half the buffer per step
      if (!pow2(sh.S)) throw InputError("algo", "rdh all-to-all needs a power-of-two group, got " + std::to_string(sh.S));
      for (long mask = sh.S / 2; mask >= 1; mask /= 2)
        out.push_back(step(Pattern::xor_, mask, sh, B / 2, 1, 0, "all-to-all rdh"));
    }
  } else if (op == "permute") {
    out.push_back(step(Pattern::shift, 1, sh, B, 1, 0, "permute"));
  } else if (op == "broadcast") {
    if (algo == "mesh") {
      out.push_back(step(Pattern::from_root, 0, sh, B, 1, 0, "broadcast mesh"));
    } else if (algo == "ring" || algo == "tree" || both) {
      // Pipelined chain; chunk count an assumption (1 MiB chunks, 1..256).
      long c = std::max(1L, std::min(256L, static_cast<long>(B / 1048576.0)));
      out.push_back(step(Pattern::chain, 0, sh, B / c, sh.S - 2 + c, 0, "broadcast pipelined chain"));
    } else {
      for (long k = 1; k < sh.S; k *= 2) out.push_back(step(Pattern::tree, k, sh, B, 1, 0, "broadcast binomial tree"));
    }
  }
}

std::string by_size(const std::string& op, double B, bool library_tuner = false) {
  if (op == "all-to-all") return "mesh";
  if (library_tuner) return op == "permute" ? "mesh" : "ring";
  if (op == "permute") return "mesh";
  if (op == "broadcast") return B < kMeshMax ? "mesh" : "ring";
  if (B < kMeshMax) return "mesh";
  if (B <= kRdhMax) return "rdh";
  return "kangaring";
}

// The block size for hierarchical: ranks per domain if the ranks span several domains,
// else ranks per server if they span several servers; 0 if neither applies.
long hierarchy_block(const Layout& l) {
  auto fits = [&](long b) { return b >= 2 && b < l.ranks && l.ranks % b == 0; };
  if (fits(l.ranks_per_domain)) return l.ranks_per_domain;
  if (l.ranks_per_domain == 0 || l.ranks_per_domain >= l.ranks) {
    if (fits(l.ranks_per_server)) return l.ranks_per_server;
  }
  return 0;
}

bool spans_domains(const Layout& l) { return l.ranks_per_domain > 0 && l.ranks_per_domain < l.ranks; }

}  // namespace

const std::vector<std::string>& op_names() {
  static const std::vector<std::string> v = {"all-reduce", "all-gather", "reduce-scatter", "all-to-all", "permute",
                                             "broadcast"};
  return v;
}

const std::vector<std::string>& algo_names() {
  static const std::vector<std::string> v = {"auto", "ring", "kangaring", "mesh", "rdh", "hierarchical", "tree", "nvls"};
  return v;
}

double busbw_factor(const std::string& op, long n) {
  if (n < 2) return 0;
  double f = static_cast<double>(n - 1) / static_cast<double>(n);
  if (op == "all-reduce") return 2 * f;
  if (op == "all-gather" || op == "reduce-scatter" || op == "all-to-all") return f;
  return 1;
}

std::string auto_algorithm(const std::string& op, double bytes, const Layout& layout) {
  if (op == "permute") return "mesh";
  long L = hierarchy_block(layout);
  if (spans_domains(layout) && L >= 2) return "hierarchical";
  if (layout.library_tuner && op == "all-reduce" && layout.in_switch) return "nvls";
  return by_size(op, bytes, layout.library_tuner);
}

namespace {

void check_names(const std::string& op, const std::string& algo) {
  if (std::find(op_names().begin(), op_names().end(), op) == op_names().end()) {
    std::string list;
    for (const auto& o : op_names()) list += (list.empty() ? "" : ", ") + o;
    std::string hint = closest_name(op, op_names());
    throw InputError("op", "unknown operation '" + op + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                               "; one of: " + list);
  }
  if (std::find(algo_names().begin(), algo_names().end(), algo) == algo_names().end()) {
    std::string list;
    for (const auto& o : algo_names()) list += (list.empty() ? "" : ", ") + o;
    std::string hint = closest_name(algo, algo_names());
    throw InputError("algo", "unknown algorithm '" + algo + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                                 "; one of: " + list + " (direct = mesh)");
  }
}

// One rank per chip (or every rank treated alike): flat algorithms and the hierarchy
// across scale-up domains / servers.
Schedule chip_schedule(const std::string& op, std::string algo, double B, const Layout& layout) {
  long n = layout.ranks;
  Schedule sc;
  if (algo == "auto") algo = auto_algorithm(op, B, layout);
  if (op == "permute" && algo != "hierarchical") algo = "mesh";  // one direct step whatever the name
  if (algo == "nvls" && !layout.in_switch)
    throw InputError("algo", "nvls needs a fabric that reduces in its switches (fabric.in_switch_reduction) and every rank "
                             "under one switch group; this group or system has neither");
  if (algo != "hierarchical") {
    sc.algorithm = op == "permute" ? "direct" : algo;
    flat(sc.steps, op, algo, Shape{n, 1}, B);
    return sc;
  }
  long L = hierarchy_block(layout);
  if (L < 2)
    throw InputError("algo", "hierarchical needs ranks spanning several UltraServers or servers in whole blocks; " +
                                 std::to_string(n) + " ranks do not");
  if (op == "permute") throw InputError("algo", "permute has no hierarchical form (it is one direct step)");
  long G = n / L;
  Shape intra{L, 1}, inter{G, L};
  const bool lib = layout.library_tuner;
  std::string a_in = by_size(op, B, lib), a_out = by_size(op, B / L, lib);
  if (op == "all-to-all") a_in = a_out = "mesh";
  if (op == "broadcast") a_out = by_size(op, B / L, lib);
  auto& st = sc.steps;
  if (op == "all-reduce") {
    flat(st, "reduce-scatter", a_in, intra, B);
    flat(st, "all-reduce", a_out, inter, B / L);
    flat(st, "all-gather", a_in, intra, B);
  } else if (op == "reduce-scatter") {
    flat(st, "reduce-scatter", a_in, intra, B);
    flat(st, "reduce-scatter", a_out, inter, B / L);
  } else if (op == "all-gather") {
    flat(st, "all-gather", a_out, inter, B / L);
    flat(st, "all-gather", a_in, intra, B);
  } else if (op == "all-to-all") {
    // Two phases: regroup inside the block, then exchange between blocks.
    st.push_back(step(Pattern::all_pairs, 0, intra, B / n * G, 1, 0, "all-to-all intra"));
    st.push_back(step(Pattern::all_pairs, 0, inter, B / n * L, 1, 0, "all-to-all inter"));
  } else if (op == "broadcast") {
    st.push_back(step(Pattern::from_root, 0, intra, B / L, 1, 0, "broadcast scatter intra"));
    flat(st, "broadcast", a_out, inter, B / L);
    flat(st, "all-gather", a_in == "mesh" ? "mesh" : "ring", intra, B);
  }
  sc.algorithm = "hierarchical(" + a_in + "+" + a_out + ")";
  return sc;
}

// KangaRing on whole chips (S13): ranks paired on their chip, the primaries of each cycle in
// a ring, two cycles in opposite directions each carrying half the data, every rank the
// primary of one. A primary's reduce-scatter step reads the received partial, its own and
// its secondary's chunk and writes one (3R1W); an all-gather step reads one chunk and
// writes it to the next primary and its secondary (1R2W, the duplicate write costs no read).
bool kanga_pairs(Steps& st, const std::string& op, long n, double B) {
  const long primaries = n / 2;
  const double chunk = B / static_cast<double>(n);  // (B / 2 per cycle) / primaries
  Shape all{n, 1};
  if (op == "all-reduce" || op == "reduce-scatter")
    st.push_back(step(Pattern::pair_ring, 2, all, chunk, primaries - 1, 2 * chunk, "reduce-scatter kangaring pairs"));
  if (op == "all-reduce" || op == "all-gather")
    st.push_back(step(Pattern::pair_ring, 2, all, chunk, primaries - 1, 0, "all-gather kangaring pairs"));
  return op == "all-reduce" || op == "reduce-scatter" || op == "all-gather";
}

// The chip-level schedule of a group of chips applied to every local index at once:
// member m of a chip-level subgroup is rank m * L (+ the local index).
void restride(Steps& st, long chips, long L) {
  for (Step& s : st) {
    if (s.group_size == 0) s.group_size = chips;
    s.member_stride *= L;
  }
}

// Several ranks per chip (logical NeuronCores): the intra-chip stage around the inter-chip
// algorithm, as S13 describes Mesh and RDH; KangaRing as rank pairs; Ring flat.
Schedule logical_core_schedule(const std::string& op, const std::string& algo, double B, const Layout& layout) {
  const long n = layout.ranks, L = layout.ranks_per_chip, chips = n / L;
  std::string a = algo == "auto" ? auto_algorithm(op, B, layout) : algo;
  if (op == "permute") a = "mesh";
  Schedule sc;
  const std::string per_chip = ", " + std::to_string(L) + " ranks/chip";
  if (a == "kangaring" && layout.whole_chips && L % 2 == 0 && n >= 4 && kanga_pairs(sc.steps, op, n, B)) {
    sc.algorithm = "kangaring" + per_chip;
    return sc;
  }
  if (a == "ring" || a == "kangaring" || chips == 1 || op == "permute") {
    Layout flat_layout = layout;
    flat_layout.ranks_per_chip = 1;
    Schedule f = chip_schedule(op, a == "kangaring" && chips == 1 ? "ring" : a, B, flat_layout);
    if (op == "permute") {  // each rank to the same local index of the next chip
      f.steps.clear();
      f.steps.push_back(step(Pattern::shift, L, Shape{n, 1}, B, 1, 0, "permute"));
    }
    f.algorithm += per_chip;
    return f;
  }
  Layout chip_layout;
  chip_layout.ranks = chips;
  chip_layout.ranks_per_domain = layout.ranks_per_domain / L;
  chip_layout.ranks_per_server = layout.ranks_per_server / L;
  Shape intra{L, 1};
  auto inter = [&](const std::string& inter_op, double bytes) {
    Schedule c = chip_schedule(inter_op, a, bytes, chip_layout);
    restride(c.steps, chips, L);
    sc.steps.insert(sc.steps.end(), c.steps.begin(), c.steps.end());
    sc.algorithm = c.algorithm + per_chip;
  };
  if (op == "all-reduce") {
    rs_mesh(sc.steps, intra, B);
    inter("all-reduce", B / L);
    ag_mesh(sc.steps, intra, B);
  } else if (op == "reduce-scatter") {
    rs_mesh(sc.steps, intra, B);
    inter("reduce-scatter", B / L);
  } else if (op == "all-gather") {
    inter("all-gather", B / L);
    ag_mesh(sc.steps, intra, B);
  } else if (op == "all-to-all") {
    // Regroup on the chip (each local peer gets the chunks for its index on every chip),
    // then exchange between chips among the ranks of one local index.
    sc.steps.push_back(step(Pattern::all_pairs, 0, intra, B / L, 1, 0, "all-to-all intra-chip"));
    inter("all-to-all", B);
  } else {  // broadcast: scatter on the root's chip, broadcast the shards, gather on every chip
    sc.steps.push_back(step(Pattern::from_root, 0, intra, B / L, 1, 0, "broadcast scatter intra-chip"));
    inter("broadcast", B / L);
    ag_mesh(sc.steps, intra, B);
  }
  return sc;
}

}  // namespace

Schedule build_schedule(const std::string& op, const std::string& algo_in, double B, const Layout& layout) {
  std::string algo = algo_in == "direct" ? "mesh" : algo_in;
  check_names(op, algo);
  if (!(B > 0)) throw InputError("bytes", "must be positive");
  if (layout.ranks_per_chip > 1) return logical_core_schedule(op, algo, B, layout);
  return chip_schedule(op, algo, B, layout);
}

double flows_in_group(const Step& s, long ranks) {
  double S = static_cast<double>(s.group_size > 0 ? s.group_size : ranks);
  switch (s.pattern) {
    case Pattern::shift: return S;
    case Pattern::shift_both: return 2 * S;
    case Pattern::xor_: return static_cast<double>(s.active > 0 ? s.active : s.group_size);
    case Pattern::all_pairs: return S * (S - 1);
    case Pattern::tree: return static_cast<double>(std::min(s.param, static_cast<long>(S) - s.param));
    case Pattern::from_root: return S - 1;
    case Pattern::chain: return S - 1;
    case Pattern::fold_in:
    case Pattern::fold_out: return S - static_cast<double>(s.param);
    case Pattern::pair_ring: return S > 2 * s.param - 1 ? S : 0;
  }
  return 0;
}

long max_flows_per_rank(const Step& s, long ranks) {
  long S = s.group_size > 0 ? s.group_size : ranks;
  switch (s.pattern) {
    case Pattern::all_pairs:
    case Pattern::from_root: return S - 1;
    case Pattern::shift_both: return 2;
    default: return 1;
  }
}

long subgroups(const Step& s, long ranks) {
  long S = s.group_size > 0 ? s.group_size : ranks;
  return ranks / S;
}

double flows_in_step(const Step& s, long ranks) { return flows_in_group(s, ranks) * static_cast<double>(subgroups(s, ranks)); }

}  // namespace trnsim::collective
