// The result metric table (metrics.h): the owners' metrics in one list.
#include "report/metrics.h"

#include <map>

#include "serve/metrics.h"
#include "workload/metrics.h"

namespace trnsim {

namespace {

std::vector<std::string> keys() {
  std::vector<std::string> k;
  for (const auto& m : metrics()) k.push_back(m.key);
  return k;
}

}  // namespace

const std::vector<Metric>& metrics() {
  static const std::vector<Metric> table = [] {
    std::vector<Metric> t;
    for (const auto& w : workload::metrics()) {
      Metric m;
      static_cast<MetricMeta&>(m) = w;
      m.of = w.of;
      t.push_back(std::move(m));
    }
    for (const auto& s : serve::metrics()) {
      Metric m;
      static_cast<MetricMeta&>(m) = s;
      m.of = [](const workload::Result&) -> std::optional<double> { return std::nullopt; };
      m.of_serve = s.of;
      t.push_back(std::move(m));
    }
    return t;
  }();
  return table;
}

std::vector<const Metric*> serve_metrics() {
  std::vector<const Metric*> out;
  for (const auto& m : metrics())
    if (m.of_serve) out.push_back(&m);
  return out;
}

const Metric* find_metric_or_null(const std::string& key) {
  static const std::map<std::string, const Metric*> index = [] {
    std::map<std::string, const Metric*> m;
    for (const auto& x : metrics()) m[x.key] = &x;
    return m;
  }();
  auto it = index.find(key);
  return it == index.end() ? nullptr : it->second;
}

const Metric& find_metric(const std::string& key, const std::string& field) {
  if (const Metric* m = find_metric_or_null(key)) return *m;
  std::string hint = closest_name(key, keys());
  throw InputError(field, "unknown metric '" + key + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
}

}  // namespace trnsim
