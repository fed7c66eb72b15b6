#include "ui/view/scenario_form.h"

#include <algorithm>
#include <map>
#include <mutex>

#include "hw/system.h"

namespace trnsim::ui {

const std::vector<FormSection>& form_sections() {
  static const std::vector<FormSection> sections = [] {
    std::vector<FormSection> out;
    for (const auto& f : scenario_fields()) {
      if (f.path == "version") continue;
      auto it = std::find_if(out.begin(), out.end(), [&](const FormSection& s) { return s.name == f.section; });
      if (it == out.end()) it = out.insert(out.end(), FormSection{f.section, {}});
      it->fields.push_back(&f);
    }
    // The top-level fields (no section) first.
    std::stable_partition(out.begin(), out.end(), [](const FormSection& s) { return s.name.empty(); });
    return out;
  }();
  return sections;
}

bool field_shown(const Field& f, const Scenario& s) {
  if (f.shown_when.empty()) return true;
  const auto eq = f.shown_when.find('=');
  if (eq == std::string::npos) return true;
  const json v = get_field(s, f.shown_when.substr(0, eq));
  const std::string want = f.shown_when.substr(eq + 1);
  return v.is_string() ? v.get<std::string>() == want : v.dump() == want;
}

json form_json(const Scenario& s) {
  json out = json::array();
  for (const auto& sec : form_sections())
    for (const Field* f : sec.fields)
      out.push_back({{"path", f->path}, {"section", sec.name}, {"label", f->label}, {"shown", field_shown(*f, s)}, {"shown_when", f->shown_when}});
  return out;
}

std::vector<std::string> scenario_differences(const Scenario& a, const Scenario& b) {
  std::vector<std::string> out;
  auto shown = [](const json& v) {
    std::string t = v.dump();
    return t.size() > 60 ? t.substr(0, 57) + "..." : t;
  };
  for (const auto& f : scenario_fields()) {
    const json x = f.get(a), y = f.get(b);
    if (x != y) out.push_back(f.path + ": " + shown(x) + " -> " + shown(y));
  }
  return out;
}

namespace {

std::string escaped(const std::string& unit) {
  std::string out;
  for (char c : unit) out += c == '%' ? std::string("%%") : std::string(1, c);
  return out;
}

}  // namespace

FieldControl field_control(const Field& f) {
  FieldControl c;
  c.scale = f.display_scale;
  c.unit = f.display_unit.empty() ? f.unit : f.display_unit;
  // An open end (an efficiency's 0) cannot be a control's end: the table says where it stops.
  c.lo = f.lo.control_end() * c.scale;
  c.hi = f.hi.control_end() * c.scale;
  c.log = f.log_scale;
  const std::string unit = c.unit.empty() ? "" : " " + escaped(c.unit);
  c.format = (f.type == FieldType::integer ? "%d" : "%.4g") + unit;
  return c;
}

const workload::Assumption* builtin_assumption(const Field& f, const workload::Result& r) {
  const std::string prefix = "workload.";
  const std::string name = f.path.rfind(prefix, 0) == 0 ? f.path.substr(prefix.size()) : f.path;
  for (const auto& a : r.assumptions)
    if (a.name == name) return &a;
  return nullptr;
}

// ---- the system picker -----------------------------------------------------------------

const char* group_title(SystemChoice::Group g) {
  switch (g) {
    case SystemChoice::system: return "Servers, UltraServers and racks (one scale-up domain)";
    case SystemChoice::cluster: return "Clusters (a scale-out network between domains)";
    case SystemChoice::chip: return "One chip";
  }
  return "";
}

namespace {

SystemChoice make_system_choice(const std::string& n) {
  SystemChoice c;
  c.name = c.display = n;
  try {
    const hw::System s = hw::load_system(n);
    c.display = s.display_name;
    c.fabric = s.fabric;
    c.chips = s.chips;
    c.chips_per_domain = s.chips_per_domain;
    c.domains = s.domains;
    c.group = s.fabric_spec.kind == "none" ? SystemChoice::chip
              : s.domains > 1              ? SystemChoice::cluster
                                           : SystemChoice::system;
    c.max_ultraservers = static_cast<int>(std::max<long long>(1, hw::kMaxChips / std::max(1, s.chips_per_domain)));
    c.alternatives = hw::alternative_names(s);
  } catch (const InputError&) {
    // listed under its name; choosing it shows the core's error
  }
  return c;
}

}  // namespace

const std::vector<SystemChoice>& system_choices() {
  static const std::vector<SystemChoice> choices = [] {
    std::vector<SystemChoice> out;
    for (const auto& n : hw::system_names()) out.push_back(make_system_choice(n));
    std::stable_sort(out.begin(), out.end(), [](const SystemChoice& a, const SystemChoice& b) { return a.group < b.group; });
    return out;
  }();
  return choices;
}

// One system's entry, made and kept on its own: the page's first frame shows only the chosen
// systems, and loading every built-in system for the whole list (a third of the first frame)
// waits until the picker opens.
const SystemChoice* find_system_choice(const std::string& base) {
  static std::mutex mutex;
  static std::map<std::string, SystemChoice> one;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = one.find(base); it != one.end()) return &it->second;
  const std::vector<std::string> names = hw::system_names();
  if (std::find(names.begin(), names.end(), base) == names.end()) return nullptr;
  return &one.emplace(base, make_system_choice(base)).first->second;
}

std::string with_ultraservers(const std::string& name, int n) {
  try {
    hw::SystemName sn = hw::parse_system_name(name);
    const SystemChoice* c = find_system_choice(sn.base);
    sn.ultraservers = c && c->group == SystemChoice::system && n == c->domains ? 0 : n;
    return hw::format_system_name(sn);
  } catch (const InputError&) {
    return name;
  }
}

std::string other_system(const std::string& system) {
  const std::string compare = find_field("compare_system").default_value.get<std::string>();
  return system == compare ? find_field("system").default_value.get<std::string>() : compare;
}

std::string with_alternative(const std::string& name, const std::string& alternative, bool on) {
  try {
    hw::SystemName sn = hw::parse_system_name(name);
    auto& alts = sn.alternatives;
    alts.erase(std::remove(alts.begin(), alts.end(), alternative), alts.end());
    if (on) alts.push_back(alternative);
    std::sort(alts.begin(), alts.end());
    return hw::format_system_name(sn);
  } catch (const InputError&) {
    return name;
  }
}

}  // namespace trnsim::ui
