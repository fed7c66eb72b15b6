// The least-loaded router: each call goes to the replica with the fewest requests waiting,
// running or on their way there (routed, still in their host-overhead window), the first
// such replica on a tie (vidur's lor global scheduler, counting requests, not tokens).
#include <cstdint>

#include "serve/policy/router.h"

namespace trnsim::serve {

namespace {

class LeastLoadedRouter : public Router {
 public:
  int route(const RoutedCall&, const std::vector<ReplicaLoad>& replicas) override {
    int best = 0;
    std::size_t load = SIZE_MAX;
    for (int i = 0; i < static_cast<int>(replicas.size()); ++i) {
      // Calls still in their host-overhead window count: they are on their way there.
      const ReplicaLoad& r = replicas[static_cast<std::size_t>(i)];
      const std::size_t l = r.waiting + r.running + r.routed;
      if (l < load) load = l, best = i;
    }
    return best;
  }
};

std::unique_ptr<Router> make_least_loaded_router() { return std::make_unique<LeastLoadedRouter>(); }

}  // namespace

TRNSIM_ROUTER(20, least_loaded, make_least_loaded_router);

}  // namespace trnsim::serve
