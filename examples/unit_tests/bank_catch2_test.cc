// A Catch2 test explored in-process: a bank transfer that checks the balance before taking the
// locks (check-then-act) can overdraw an account when two transfers interleave. The buggy test
// fails with a seed and a CTRLSCHED_REPLAY handle; the fixed one passes 10,000 seeds.
//
//   ./bank_catch2_test "[bug]"     fails, prints the replay command
//   ./bank_catch2_test "[fixed]"   passes
#define CATCH_CONFIG_MAIN
#include "ctrlsched/catch2.hpp"

#include <mutex>

namespace {

struct Account {
  explicit Account(int initial) : balance(initial) {}
  ctrlsched::mutex lock;
  ctrlsched::shared<int> balance;
};

// Bug: the check reads the balance without the lock, so another transfer can take the money
// between the check and the withdrawal.
bool transfer_check_then_act(Account& from, Account& to, int amount) {
  if (from.balance < amount) return false;
  {
    std::lock_guard<ctrlsched::mutex> guard(from.lock);
    from.balance -= amount;
  }
  std::lock_guard<ctrlsched::mutex> guard(to.lock);
  to.balance += amount;
  return true;
}

// Fixed: both accounts locked (std::scoped_lock orders them, no deadlock), then check and act.
bool transfer_atomically(Account& from, Account& to, int amount) {
  std::scoped_lock guard(from.lock, to.lock);
  if (from.balance < amount) return false;
  from.balance -= amount;
  to.balance += amount;
  return true;
}

template <class Transfer>
void two_transfers(Transfer transfer) {
  Account alice(100), bob(0);
  ctrlsched::thread first([&] { transfer(alice, bob, 80); });
  ctrlsched::thread second([&] { transfer(alice, bob, 80); });
  first.join();
  second.join();
  REQUIRE(alice.balance.unsafe_ref() >= 0);
  REQUIRE(alice.balance.unsafe_ref() + bob.balance.unsafe_ref() == 100);
}

}  // namespace

TEST_CASE("check-then-act transfer never overdraws", "[bug]") {
  CTRLSCHED_REQUIRE_EXPLORE({.seeds = 10000}, [] { two_transfers(transfer_check_then_act); });
}

TEST_CASE("locked transfer never overdraws", "[fixed]") {
  CTRLSCHED_REQUIRE_EXPLORE({.seeds = 10000}, [] { two_transfers(transfer_atomically); });
}
