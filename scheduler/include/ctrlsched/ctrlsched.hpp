// ctrlsched in-process API: explore a test body's thread interleavings inside a unit test.
//
//   auto result = ctrlsched::explore({.seeds = 10000}, [] {
//     ctrlsched::mutex m; int balance = 0;
//     ctrlsched::thread a([&] { ... }), b([&] { ... });
//     a.join(); b.join();
//     CHECK_OR_THROW(balance == 2);
//   });
//
// See docs/unit-testing.md. Adapters: ctrlsched/catch2.hpp, ctrlsched/gtest.hpp.
#pragma once

#include "ctrlsched/inprocess/atomic.hpp"
#include "ctrlsched/inprocess/explore.hpp"
#include "ctrlsched/inprocess/sync.hpp"
#include "ctrlsched/inprocess/thread.hpp"
