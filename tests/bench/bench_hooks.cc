// Google Benchmark: the cost of a TSan-ABI hook that is not a decision point. The hooks are
// called directly (as instrumented code would), so this binary needs no instrumentation itself;
// it links the inert hook library, and under ctrlsched the shim's hooks replace it.
//
//   HookSharedAddress   __tsan_read4 on a global: with --points=sync and no trace, the shim's
//                       hook returns after its fast-path checks.
//   HookThreadLocal     __tsan_read4 on a stack address: filtered as thread-local.
#include <benchmark/benchmark.h>

extern "C" void __tsan_read4(void* address);

namespace {

int g_shared;

void HookSharedAddress(benchmark::State& state) {
  for (auto _ : state) {
    __tsan_read4(&g_shared);
    benchmark::ClobberMemory();
  }
}

void HookThreadLocal(benchmark::State& state) {
  int local = 0;
  benchmark::DoNotOptimize(local);
  for (auto _ : state) {
    __tsan_read4(&local);
    benchmark::ClobberMemory();
  }
}

}  // namespace

BENCHMARK(HookSharedAddress);
BENCHMARK(HookThreadLocal);
BENCHMARK_MAIN();
