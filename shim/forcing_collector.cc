// Forwards every event of the run to the forcing strategy (see forcing_collector.h). Events are
// emitted just after a point returned and before the access happens, with the baton held, so
// the strategy sees accesses in the order they are performed.
#include "forcing_collector.h"

#include "collectors.h"

namespace ctrlsched::shim {
namespace {

class ForcingCollector final : public Collector {
 public:
  void on_event(const TraceEvent& event) override { forcing_->observe(event); }
  ForcingStrategy* forcing_ = nullptr;
};

constinit ForcingCollector g_forcing_collector;

}  // namespace

void start_forcing_collector(ForcingStrategy* forcing) {
  g_forcing_collector.forcing_ = forcing;
  register_collector(&g_forcing_collector);
}

}  // namespace ctrlsched::shim
