// Flow selection shared by the backends, and the backend registry.
#include "collective/backend.h"

#include <algorithm>

#include "common/error.h"
#include "common/fields.h"

namespace trnsim::collective {

std::unique_ptr<Backend> make_analytic_backend();
std::unique_ptr<Backend> make_event_backend();

const std::vector<std::string>& backend_names() {
  static const std::vector<std::string> v = {"analytic", "event"};
  return v;
}

std::unique_ptr<Backend> make_backend(const std::string& name) {
  if (name == "analytic") return make_analytic_backend();
  if (name == "event") return make_event_backend();
  std::string hint = closest_name(name, backend_names());
  throw InputError("backend", "unknown backend '" + name + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                                  "; one of: analytic, event");
}

const char* symmetry_name(Symmetry s) {
  switch (s) {
    case Symmetry::exact: return "exact";
    case Symmetry::per_domain: return "per-domain";
    case Symmetry::one_group: return "one-group";
    case Symmetry::translation: return "translation";
  }
  return "?";
}

Selection select_flows(const Step& step, const RankMap& map, bool allow_translation) {
  Selection sel;
  long n = map.ranks;
  long S = step.group_size > 0 ? step.group_size : n;
  long ms = step.member_stride;
  long groups = n / S;
  double per_group = flows_in_group(step, n);
  sel.group_end = groups;
  sel.flows = per_group * static_cast<double>(groups);
  long R = map.ranks_per_domain;
  bool regular = R > 0 && R < n && n % R == 0;
  if (!regular) return sel;
  if (R % (S * ms) == 0) {  // every subgroup inside one UltraServer: time UltraServer 0's
    sel.mode = Symmetry::per_domain;
    sel.group_end = R / S;
    sel.flows = per_group * static_cast<double>(sel.group_end);
    return sel;
  }
  if (ms % R == 0) {  // members in distinct UltraServers: subgroups meet only on shared chips
    // With several ranks per chip, the subgroups of one chip's ranks (local indices) use the
    // same chips and NICs: time those together.
    long L = map.ranks_per_chip;
    sel.mode = Symmetry::one_group;
    sel.group_end = (L > 1 && ms % L == 0) ? std::min(groups, L) : 1;
    sel.flows = per_group * static_cast<double>(sel.group_end);
    return sel;
  }
  bool periodic_pattern = step.pattern == Pattern::shift || step.pattern == Pattern::shift_both ||
                          step.pattern == Pattern::all_pairs ||
                          (step.pattern == Pattern::xor_ && pow2(R) && (step.active == 0 || step.active == n));
  if (allow_translation && groups == 1 && ms == 1 && periodic_pattern) {
    sel.mode = Symmetry::translation;
    sel.flows = step.pattern == Pattern::all_pairs ? static_cast<double>(R) * static_cast<double>(R)
                                                   : static_cast<double>(R) * (step.pattern == Pattern::shift_both ? 2 : 1);
  }
  return sel;
}

}  // namespace trnsim::collective
