// Routers: which of the dp replicas a released call goes to (the global scheduler of vidur,
// llm-d's endpoint picker). One file per router in this folder, each ending in
//   TRNSIM_ROUTER(order, id, factory);
// where `id` is the name serve.router takes and `order` its place among the choices. A router
// is made once per simulation and sees only the replicas' loads (core/serve/sim/views.h).
// With one replica the simulator does not ask.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "serve/registry.h"
#include "serve/sim/views.h"

namespace trnsim::serve {

class Router {
 public:
  virtual ~Router() = default;
  // The replica, an index of `replicas`, for `call` (at least two replicas).
  virtual int route(const RoutedCall& call, const std::vector<ReplicaLoad>& replicas) = 0;
  // Whether route() reads the loads; false: `replicas` only says how many there are (its
  // loads are left zero), which spares the simulator filling them for every call.
  virtual bool reads_loads() const { return true; }
};

using RouterFactory = std::unique_ptr<Router> (*)();
using Routers = Registry<RouterFactory>;

// The router registered as `name`; InputError naming serve.router when none is.
std::unique_ptr<Router> make_router(const std::string& name);
// Registered routers in their order (the choices of serve.router).
std::vector<std::string> router_names();

}  // namespace trnsim::serve

#define TRNSIM_ROUTER(order, id, factory) \
  TRNSIM_SERVE_REGISTER(router, id, ::trnsim::serve::Routers::add(order, #id, factory))
