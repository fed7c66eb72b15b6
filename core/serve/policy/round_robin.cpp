// The round-robin router: calls go to the replicas in turn, whatever their load (vLLM's
// data-parallel default, vidur's round_robin global scheduler).
#include "serve/policy/router.h"

namespace trnsim::serve {

namespace {

class RoundRobinRouter : public Router {
 public:
  int route(const RoutedCall&, const std::vector<ReplicaLoad>& replicas) override {
    return static_cast<int>(next_++ % static_cast<std::uint64_t>(replicas.size()));
  }
  bool reads_loads() const override { return false; }

 private:
  std::uint64_t next_ = 0;  // calls routed so far
};

std::unique_ptr<Router> make_round_robin_router() { return std::make_unique<RoundRobinRouter>(); }

}  // namespace

TRNSIM_ROUTER(10, round_robin, make_round_robin_router);

}  // namespace trnsim::serve
