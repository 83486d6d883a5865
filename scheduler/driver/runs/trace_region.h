// The shared-memory trace region of a `ctrlsched trace` run (see ctrlsched/trace_format.h): a
// memfd of kTraceRegionBytes (sparse: only the pages the shim writes cost memory) that the shim
// finds through CTRLSCHED_TRACE_FD, maps and fills with a TraceRegionHeader and the events.
//
// Created close-on-exec like the run record; the child clears the flag on its copy only
// (child_launch.cc), so no other process inherits it. The driver maps it read-only and reads it
// once the child is reaped.
#pragma once

#include <cstddef>

namespace ctrlsched::driver {

class TraceRegion {
 public:
  // Creates, sizes and maps the region; throws DriverError(Internal) on failure.
  TraceRegion();
  ~TraceRegion();
  TraceRegion(const TraceRegion&) = delete;
  TraceRegion& operator=(const TraceRegion&) = delete;

  int fd() const { return fd_; }
  // The whole mapping: a TraceRegionHeader, then the events (all zero until the shim writes).
  const void* data() const { return map_; }
  std::size_t size() const;

 private:
  int fd_ = -1;
  void* map_ = nullptr;
};

}  // namespace ctrlsched::driver
