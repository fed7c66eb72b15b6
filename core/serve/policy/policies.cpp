// Looking up the registered routers and batch policies (router.h, batch_policy.h).
#include "common/error.h"
#include "serve/policy/batch_policy.h"
#include "serve/policy/router.h"

namespace trnsim::serve {

namespace {

std::string listed(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace

std::unique_ptr<Router> make_router(const std::string& name) {
  if (const auto* e = Routers::find(name)) return e->make();
  throw InputError("serve.router", "unknown router '" + name + "' (one of: " + listed(router_names()) + ")");
}

std::vector<std::string> router_names() { return Routers::names(); }

std::unique_ptr<BatchPolicy> make_batch_policy(const std::string& name) {
  if (const auto* e = BatchPolicies::find(name)) return e->make();
  throw InputError("serve.scheduler",
                   "unknown batch policy '" + name + "' (one of: " + listed(batch_policy_names()) + ")");
}

std::vector<std::string> batch_policy_names() { return BatchPolicies::names(); }

}  // namespace trnsim::serve
