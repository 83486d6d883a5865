// An in-process explored test built against the installed package: links ctrlsched::inprocess
// (which itself needs the installed libctrlsched_hooks.so) and must start from any install
// prefix without LD_LIBRARY_PATH. The locked counter passes; the racy one must be found.
#define CATCH_CONFIG_MAIN
#include "ctrlsched/catch2.hpp"

#include <mutex>

TEST_CASE("locked counter keeps both increments", "[locked]") {
  CTRLSCHED_REQUIRE_EXPLORE({.seeds = 200}, [] {
    ctrlsched::mutex lock;
    int counter = 0;
    auto add_one = [&] {
      std::lock_guard<ctrlsched::mutex> guard(lock);
      counter += 1;
    };
    ctrlsched::thread first(add_one);
    ctrlsched::thread second(add_one);
    first.join();
    second.join();
    REQUIRE(counter == 2);
  });
}

TEST_CASE("racy counter loses an increment", "[racy]") {
  CTRLSCHED_REQUIRE_EXPLORE({.seeds = 200}, [] {
    ctrlsched::shared<int> counter(0);
    auto add_one = [&] {
      const int seen = counter;
      counter = seen + 1;
    };
    ctrlsched::thread first(add_one);
    ctrlsched::thread second(add_one);
    first.join();
    second.join();
    REQUIRE(counter.unsafe_ref() == 2);
  });
}
