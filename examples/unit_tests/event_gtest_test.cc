// A GoogleTest test explored in-process: a one-shot event whose setter does not take the lock
// loses the wakeup when it fires between the waiter's check and its wait; the waiter then waits
// forever and the run deadlocks. The fixed event passes 10,000 seeds.
//
//   ./event_gtest_test --gtest_filter='EventBug.*'     fails, prints the replay command
//   ./event_gtest_test --gtest_filter='EventFixed.*'   passes
#include "ctrlsched/gtest.hpp"

#include <mutex>

namespace {

class Event {
 public:
  // Bug: sets and notifies without the mutex, so the notification can fall between the waiter's
  // check and its wait.
  void set_unlocked() {
    ready_ = true;
    ready_cv_.notify_one();
  }
  void set_locked() {
    std::lock_guard<ctrlsched::mutex> guard(lock_);
    ready_ = true;
    ready_cv_.notify_one();
  }
  void wait() {
    std::unique_lock<ctrlsched::mutex> guard(lock_);
    while (!ready_) ready_cv_.wait(guard);
  }

 private:
  ctrlsched::mutex lock_;
  ctrlsched::condition_variable ready_cv_;
  ctrlsched::shared<bool> ready_{false};
};

template <class Set>
void one_waiter_one_setter(Set set) {
  Event event;
  int result = 0;
  ctrlsched::thread waiter([&] {
    event.wait();
    EXPECT_EQ(result, 42);
  });
  ctrlsched::thread setter([&] {
    result = 42;
    set(event);
  });
  setter.join();
  waiter.join();
}

}  // namespace

TEST(EventBug, WaiterWakesUp) {
  EXPECT_EXPLORE_PASSES({.seeds = 10000}, [] { one_waiter_one_setter([](Event& e) { e.set_unlocked(); }); });
}

TEST(EventFixed, WaiterWakesUp) {
  EXPECT_EXPLORE_PASSES({.seeds = 10000}, [] { one_waiter_one_setter([](Event& e) { e.set_locked(); }); });
}
