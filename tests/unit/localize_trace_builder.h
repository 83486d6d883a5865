// Builds traces by hand for the localize/ unit tests: one method per event kind, each returning
// the new event's index so a test can name the events it asserts about:
//
//   TraceBuilder b;
//   auto w = b.write(1, kX);
//   auto r = b.read(2, kX);
//   CHECK(HappensBefore(b.trace()).concurrent(w, r));
//
// Thread creation is explicit (create/start), as the shim emits it: a test that forgets start()
// gets no parent-to-child ordering, which is exactly what it would get from a real trace.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "ctrlsched/localize/trace.h"
#include "ctrlsched/run_record.h"
#include "ctrlsched/trace_format.h"

namespace ctrlsched::localize::testing {

class TraceBuilder {
 public:
  std::size_t event(EventKind kind, std::uint32_t thread, std::uint64_t address = 0,
                    std::uint64_t site = 0, std::uint8_t size = 0, std::uint16_t aux = 0,
                    std::uint64_t value = 0) {
    trace_.events.push_back(
        TraceEvent{static_cast<std::uint8_t>(kind), size, aux, thread, address, site, value});
    return trace_.events.size() - 1;
  }

  // `value`: the memory before the access (trace_format.h): what a read reads, what a write
  // overwrites.
  std::size_t read(std::uint32_t t, std::uint64_t a, std::uint64_t site = 0, std::uint8_t size = 4,
                   std::uint64_t value = 0) {
    return event(EventKind::Read, t, a, site, size, 0, value);
  }
  std::size_t write(std::uint32_t t, std::uint64_t a, std::uint64_t site = 0, std::uint8_t size = 4,
                    std::uint64_t value = 0) {
    return event(EventKind::Write, t, a, site, size, 0, value);
  }
  std::size_t atomic_load(std::uint32_t t, std::uint64_t a, std::uint64_t site = 0) {
    return event(EventKind::AtomicLoad, t, a, site, 4);
  }
  std::size_t atomic_store(std::uint32_t t, std::uint64_t a, std::uint64_t site = 0) {
    return event(EventKind::AtomicStore, t, a, site, 4);
  }
  std::size_t atomic_rmw(std::uint32_t t, std::uint64_t a, std::uint64_t site = 0) {
    return event(EventKind::AtomicRmw, t, a, site, 4);
  }
  std::size_t enter(std::uint32_t t, std::uint64_t call_site) {
    return event(EventKind::FuncEntry, t, 0, call_site);
  }
  std::size_t leave(std::uint32_t t) { return event(EventKind::FuncExit, t); }
  std::size_t create(std::uint32_t parent, std::uint32_t child, std::uint64_t site = 0) {
    return event(EventKind::ThreadCreate, parent, child, site);
  }
  std::size_t start(std::uint32_t t) { return event(EventKind::ThreadStart, t); }
  std::size_t exit(std::uint32_t t) { return event(EventKind::ThreadExit, t); }
  std::size_t join(std::uint32_t t, std::uint32_t joined, std::uint64_t site = 0) {
    return event(EventKind::ThreadJoin, t, joined, site);
  }
  std::size_t acquire(std::uint32_t t, std::uint64_t object, WaitKind kind, std::uint8_t round = 0,
                      std::uint64_t site = 0) {
    return event(EventKind::Acquire, t, object, site, round, static_cast<std::uint16_t>(kind));
  }
  std::size_t release(std::uint32_t t, std::uint64_t object, WaitKind kind, std::uint8_t round = 0,
                      std::uint64_t site = 0) {
    return event(EventKind::Release, t, object, site, round, static_cast<std::uint16_t>(kind));
  }
  std::size_t lock(std::uint32_t t, std::uint64_t mutex, std::uint64_t site = 0) {
    return acquire(t, mutex, WaitKind::Mutex, 0, site);
  }
  std::size_t unlock(std::uint32_t t, std::uint64_t mutex, std::uint64_t site = 0) {
    return release(t, mutex, WaitKind::Mutex, 0, site);
  }
  // A lock attempt that waits (the shim's Block on a mutex); its Acquire follows when granted.
  std::size_t blocked_lock(std::uint32_t t, std::uint64_t mutex, std::uint64_t site = 0) {
    return event(EventKind::Block, t, mutex, site, 0, static_cast<std::uint16_t>(WaitKind::Mutex));
  }
  std::size_t switch_to(std::uint32_t from, std::uint32_t to) {
    return event(EventKind::Switch, from, to);
  }

  // T0 creates and starts threads 1..n, in order (the usual preamble).
  void spawn(std::uint32_t n) {
    for (std::uint32_t t = 1; t <= n; ++t) create(0, t);
    for (std::uint32_t t = 1; t <= n; ++t) start(t);
  }

  Trace& trace() { return trace_; }

 private:
  Trace trace_;
};

}  // namespace ctrlsched::localize::testing
