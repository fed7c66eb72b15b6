// The Scenario panel's data (ui/view/scenario_form.h): every field of the core's table is
// in exactly one section with the table's range, scale and unit; shown_when follows the
// scenario; optional fields show the assumption the core used; system names are edited
// through the core's grammar.
#include <catch2/catch.hpp>

#include <set>

#include "hw/system.h"
#include "report/report.h"
#include "scenario/scenario.h"
#include "ui/view/scenario_form.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_ui_scenario_form {

using namespace trnsim;
using namespace trnsim::ui;

TEST_CASE("every field of the table is in one section, sections in the table's order") {
  std::set<std::string> seen;
  std::vector<std::string> order;
  for (const auto& sec : form_sections()) {
    order.push_back(sec.name);
    for (const Field* f : sec.fields) {
      CHECK(f->section == sec.name);
      CHECK(seen.insert(f->path).second);
    }
  }
  for (const auto& f : scenario_fields()) CHECK(seen.count(f.path) == (f.path == "version" ? 0u : 1u));
  CHECK(order.front().empty());  // the scenario's name first
  std::vector<std::string> first_seen;
  for (const auto& f : scenario_fields())
    if (!f.section.empty() && std::find(first_seen.begin(), first_seen.end(), f.section) == first_seen.end())
      first_seen.push_back(f.section);
  CHECK(std::vector<std::string>(order.begin() + 1, order.end()) == first_seen);
}

TEST_CASE("the form as data lists every field with its section and whether it is shown") {
  const json f = form_json(default_scenario());
  REQUIRE(f.size() == scenario_fields().size() - 1);  // without the format version
  for (const auto& x : f) {
    const Field& field = find_field(x["path"].get<std::string>());
    CHECK(x["section"] == field.section);
    CHECK(x["shown"] == field_shown(field, default_scenario()));
  }
}

TEST_CASE("shown_when follows the scenario's kind") {
  Scenario s = default_scenario();
  const Field& batch = find_field("workload.inference.batch");
  const Field& zero = find_field("workload.training.zero_stage");
  CHECK(field_shown(batch, s));
  CHECK_FALSE(field_shown(zero, s));
  set_field(s, "workload.kind", "training");
  CHECK_FALSE(field_shown(batch, s));
  CHECK(field_shown(zero, s));
  CHECK(field_shown(find_field("system"), s));
}

TEST_CASE("differences between two scenarios are listed field by field") {
  Scenario a = default_scenario(), b = a;
  CHECK(scenario_differences(a, b).empty());
  set_field(b, "workload.inference.batch", 64);
  set_field(b, "compare_system", "");
  const auto d = scenario_differences(a, b);
  REQUIRE(d.size() == 2);
  CHECK(d[0] == "compare_system: \"trn2-ultraserver\" -> \"\"");
  CHECK(d[1] == "workload.inference.batch: 16 -> 64");
}

TEST_CASE("a control's range, scale and unit are the table's") {
  const Field& batch = find_field("workload.inference.batch");
  FieldControl c = field_control(batch);
  CHECK(c.lo == batch.lo.value);
  CHECK(c.hi == batch.hi.value);  // the parser's range, not a UI's own
  CHECK(c.log);
  CHECK(c.format == "%d " + batch.unit);
  const Field& k = find_field("workload.efficiency.kernel_overhead_s");
  c = field_control(k);
  CHECK(c.scale == k.display_scale);
  CHECK(c.unit == k.display_unit);
  CHECK(c.hi == Approx(k.hi.value * k.display_scale));
  // An open end is not a control's end: the control stops where the table says, inside.
  const Field& e = find_field("workload.efficiency.compute");
  REQUIRE(e.lo.open);
  CHECK(field_control(e).lo == e.lo.stop);
  CHECK(e.lo.stop > e.lo.value);
  CHECK(c.format == "%.4g " + k.display_unit);
  CHECK(field_control(find_field("workload.efficiency.compute")).format == "%.4g");
}

TEST_CASE("an optional field left null shows the assumption the core used") {
  const Report rep = evaluate(default_scenario());
  REQUIRE(rep.primary.result);
  const auto& r = *rep.primary.result;
  const workload::Assumption* power = builtin_assumption(find_field("workload.economics.chip_power_watts"), r);
  REQUIRE(power);
  CHECK(power->value == r.chip_power_watts);
  CHECK(!power->source.empty());
  const workload::Assumption* price = builtin_assumption(find_field("workload.economics.price_per_chip_hour_usd"), r);
  REQUIRE(price);
  CHECK(price->value == r.price_per_chip_hour_usd);
  CHECK(builtin_assumption(find_field("workload.inference.batch"), r) == nullptr);
}

TEST_CASE("the system picker lists every built-in system; names are edited through the core's grammar") {
  const auto& choices = system_choices();
  CHECK(choices.size() == hw::system_names().size());
  for (std::size_t i = 1; i < choices.size(); ++i) CHECK(choices[i - 1].group <= choices[i].group);
  const SystemChoice* cluster = find_system_choice("trn2-ultracluster");
  REQUIRE(cluster);
  CHECK(cluster->group == SystemChoice::cluster);
  CHECK(cluster->domains > 1);
  CHECK(static_cast<long long>(cluster->max_ultraservers) * cluster->chips_per_domain <= hw::kMaxChips);
  CHECK(find_system_choice("trainium3")->group == SystemChoice::chip);

  CHECK(with_ultraservers("trn2-ultraserver", 1) == "trn2-ultraserver");
  CHECK(with_ultraservers("trn2-ultraserver", 4) == "trn2-ultraserver:4");
  CHECK(with_ultraservers("trn2-ultracluster:8", 64) == "trn2-ultracluster:64");
  CHECK(with_ultraservers("trn3-gen2-ultraserver+pcie-switch-view", 2) == "trn3-gen2-ultraserver:2+pcie-switch-view");
  const std::string both = with_alternative(with_alternative("trainium3", "nki-guide", true), "zz", true);
  CHECK(both == "trainium3+nki-guide+zz");
  CHECK(with_alternative(both, "zz", false) == "trainium3+nki-guide");
  CHECK(with_ultraservers("bad:name:x", 2) == "bad:name:x");  // the grammar refuses it: unchanged
  CHECK(hw::load_system(with_ultraservers("trn3-gen2-ultraserver", 3)).chips == 3 * 144);
}

}  // namespace unit_ui_scenario_form
