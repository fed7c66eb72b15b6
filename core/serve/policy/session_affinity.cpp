// The session-affinity router: every call of an agentic session goes to one replica (the
// session's id modulo the replicas), where its context is in the prefix cache; calls outside
// sessions go round robin.
#include "serve/policy/router.h"

namespace trnsim::serve {

namespace {

class SessionAffinityRouter : public Router {
 public:
  int route(const RoutedCall& call, const std::vector<ReplicaLoad>& replicas) override {
    const int n = static_cast<int>(replicas.size());
    if (call.session) return static_cast<int>(call.chain % n);
    return static_cast<int>(next_++ % static_cast<std::uint64_t>(n));
  }
  bool reads_loads() const override { return false; }

 private:
  std::uint64_t next_ = 0;  // calls outside sessions routed so far
};

std::unique_ptr<Router> make_session_affinity_router() { return std::make_unique<SessionAffinityRouter>(); }

}  // namespace

TRNSIM_ROUTER(30, session_affinity, make_session_affinity_router);

}  // namespace trnsim::serve
