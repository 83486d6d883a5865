// Google Benchmark: the cost of a baton handoff and of a scheduling point, measured by running
// this same binary natively and under ctrlsched (tests/bench/run_benchmarks.sh does both and
// prints ratios). Under ctrlsched every pthread/semaphore call below is a scheduling point.
//
//   RawFutexPingPong    two threads hand a token back and forth with raw futex system calls
//                       (inline `syscall`, so the shim cannot see them): the native baseline of
//                       one handoff. Run natively only.
//   SemPingPong         the same with two semaphores. Natively: a futex handoff per wait.
//                       Under ctrlsched: each sem_wait blocks and forces a baton handoff.
//   LockUnlockAlone     an uncontended mutex with no other thread: two scheduling points where
//                       only the current thread can run (the fast path).
//   LockUnlockDecided   the same while another runnable thread exists, so every point asks the
//                       strategy, which keeps the current thread (run with PCT and a k larger than
//                       the run, so no change point is reached).
#include <benchmark/benchmark.h>
#include <linux/futex.h>
#include <pthread.h>
#include <semaphore.h>
#include <sys/syscall.h>

#include <atomic>
#include <cstdint>

namespace {

// The same inline system call as shim/baton.cc, on purpose written here again: this baseline must
// not link (or go through) the shim it is compared with.
long raw_futex(std::atomic<std::uint32_t>* word, int op, std::uint32_t value) {
  long ret;
  register long r10 __asm__("r10") = 0;
  __asm__ volatile("syscall"
                   : "=a"(ret)
                   : "0"(SYS_futex), "D"(word), "S"(op), "d"(value), "r"(r10)
                   : "rcx", "r11", "memory");
  return ret;
}

// Token holder: 0 = main thread, 1 = partner; `stop` ends the partner.
struct FutexPair {
  std::atomic<std::uint32_t> turn{0};
  std::atomic<bool> stop{false};
};

void wait_turn(FutexPair& p, std::uint32_t mine) {
  for (std::uint32_t t; (t = p.turn.load(std::memory_order_acquire)) != mine;)
    raw_futex(&p.turn, FUTEX_WAIT_PRIVATE, t);
}

void give_turn(FutexPair& p, std::uint32_t to) {
  p.turn.store(to, std::memory_order_release);
  raw_futex(&p.turn, FUTEX_WAKE_PRIVATE, 1);
}

void* futex_partner(void* arg) {
  auto& p = *static_cast<FutexPair*>(arg);
  for (;;) {
    wait_turn(p, 1);
    if (p.stop.load()) return nullptr;
    give_turn(p, 0);
  }
}

void RawFutexPingPong(benchmark::State& state) {
  FutexPair pair;
  pthread_t partner;
  pthread_create(&partner, nullptr, futex_partner, &pair);
  for (auto _ : state) {
    give_turn(pair, 1);  // two handoffs per iteration
    wait_turn(pair, 0);
  }
  pair.stop.store(true);
  give_turn(pair, 1);
  pthread_join(partner, nullptr);
}

struct SemPair {
  sem_t to_partner, to_main;
  bool stop = false;
};

void* sem_partner(void* arg) {
  auto& p = *static_cast<SemPair*>(arg);
  for (;;) {
    sem_wait(&p.to_partner);
    if (p.stop) return nullptr;
    sem_post(&p.to_main);
  }
}

void SemPingPong(benchmark::State& state) {
  SemPair pair;
  sem_init(&pair.to_partner, 0, 0);
  sem_init(&pair.to_main, 0, 0);
  pthread_t partner;
  pthread_create(&partner, nullptr, sem_partner, &pair);
  for (auto _ : state) {
    sem_post(&pair.to_partner);
    sem_wait(&pair.to_main);
  }
  pair.stop = true;
  sem_post(&pair.to_partner);
  pthread_join(partner, nullptr);
}

pthread_mutex_t g_mutex = PTHREAD_MUTEX_INITIALIZER;

void LockUnlockAlone(benchmark::State& state) {
  for (auto _ : state) {
    pthread_mutex_lock(&g_mutex);
    pthread_mutex_unlock(&g_mutex);
  }
}

// A partner that stays runnable: it yields until told to stop. Under PCT a yield lowers its
// priority, so after its first yield the benchmark thread keeps the baton at every point.
std::atomic<bool> g_partner_stop{false};
void* yielding_partner(void*) {
  while (!g_partner_stop.load()) sched_yield();
  return nullptr;
}

void LockUnlockDecided(benchmark::State& state) {
  g_partner_stop = false;
  pthread_t partner;
  pthread_create(&partner, nullptr, yielding_partner, nullptr);
  for (auto _ : state) {
    pthread_mutex_lock(&g_mutex);
    pthread_mutex_unlock(&g_mutex);
  }
  g_partner_stop = true;
  pthread_join(partner, nullptr);
}

}  // namespace

BENCHMARK(RawFutexPingPong)->UseRealTime();
BENCHMARK(SemPingPong)->UseRealTime();
BENCHMARK(LockUnlockAlone);
BENCHMARK(LockUnlockDecided)->UseRealTime();
BENCHMARK_MAIN();
