#!/usr/bin/env bash
# End-to-end benchmarks of ctrlsched. Every figure is a ratio of two things measured side by side
# in this one run (the machines are shared and noisy): repetitions are interleaved and the median
# is taken. Prints Markdown tables; docs/benchmarks.md records a run and this command.
#
#   tests/bench/run_benchmarks.sh [build-dir] [repetitions]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
reps=${2:-5}
bin=$(cd "$build" && pwd)/bin
examples=(lost_update check_then_act order_violation abba_deadlock missed_signal atomicity_multi_var
          cpp_cache two_preemptions correct_locks correct_sync correct_cpp)
programs=(matmul list_walk hash_map)

targets=(ctrlsched ctrlsched_shim ctrlsched_hooks bench_handoff bench_hooks "${examples[@]}")
for p in "${programs[@]}"; do targets+=(bench_$p bench_${p}_inst bench_${p}_tsan); done
cmake --build "$build" --target "${targets[@]}" >/dev/null

ctrlsched=$bin/ctrlsched
# One run under ctrlsched with no strategy interference: PCT with a k larger than any run, so no
# change point is ever reached, and no step limit. The Google Benchmark programs time themselves,
# so they read the real clock (CTRLSCHED_REAL_CLOCK=1) instead of ctrlsched's virtual one.
export CTRLSCHED_REAL_CLOCK=1
controlled=("$ctrlsched" replay --seed 0 --strategy pct --pct-steps 1000000000000 --max-steps 1000000000000 --timeout 600 --)

now_ns() { date +%s%N; }
median() { sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

# Google Benchmark's real time (ns) of one benchmark from CSV output.
gbench_ns() {  # gbench_ns <benchmark name> <csv file>
  awk -F, -v name="\"$1\"" '$1 == name || $1 == name"/real_time" || $1 == "\""substr(name,2,length(name)-2)"/real_time\"" {print $3}' "$2" | head -1
}

# Median over the repetitions of one benchmark's time: median_ns <benchmark> <csv file prefix>.
median_ns() {
  for r in $(seq "$reps"); do gbench_ns "$1" "$tmp/$2.$r.csv"; done | median
}

echo "## Baton handoff and scheduling points (Google Benchmark, tests/bench/bench_handoff.cc)"
echo
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for r in $(seq "$reps"); do
  taskset -c 0 "$bin/bench_handoff" --benchmark_format=csv --benchmark_min_time=0.2 \
    --benchmark_filter='RawFutex|Lock' >"$tmp/native.$r.csv" 2>/dev/null
  "${controlled[@]}" "$bin/bench_handoff" --benchmark_format=csv --benchmark_min_time=0.2 \
    --benchmark_filter='Sem|Lock' >"$tmp/ctrl.$r.csv" 2>/dev/null
done
raw=$(median_ns RawFutexPingPong native)
sem=$(median_ns SemPingPong ctrl)
alone_native=$(median_ns LockUnlockAlone native)
alone=$(median_ns LockUnlockAlone ctrl)
decided=$(median_ns LockUnlockDecided ctrl)
echo "| measure | value | ratio |"
echo "|---|---|---|"
echo "| raw futex ping-pong, native, pinned: per round (2 handoffs) | ${raw} ns | 1.00 |"
echo "| semaphore ping-pong under ctrlsched: per round (2 baton handoffs) | ${sem} ns | $(ratio "$sem" "$raw") × raw futex |"
echo "| mutex lock+unlock, native | ${alone_native} ns | |"
echo "| mutex lock+unlock under ctrlsched, only this thread can run (2 points) | ${alone} ns | $(awk -v a="$alone" 'BEGIN{printf "%.1f", a/2}') ns per point |"
echo "| same with a second runnable thread, PCT keeps this one (2 points) | ${decided} ns | $(awk -v a="$decided" 'BEGIN{printf "%.1f", a/2}') ns per point |"
echo

echo "## A TSan-ABI hook that is not a decision point (tests/bench/bench_hooks.cc)"
echo
for r in $(seq "$reps"); do
  taskset -c 0 "$bin/bench_hooks" --benchmark_format=csv --benchmark_min_time=0.2 >"$tmp/hn.$r.csv" 2>/dev/null
  "${controlled[@]}" "$bin/bench_hooks" --benchmark_format=csv --benchmark_min_time=0.2 >"$tmp/ha.$r.csv" 2>/dev/null
  "$ctrlsched" replay --seed 0 --points sync --timeout 600 -- "$bin/bench_hooks" --benchmark_format=csv \
    --benchmark_min_time=0.2 >"$tmp/hs.$r.csv" 2>/dev/null
done
inert=$(median_ns HookSharedAddress hn)
sync_mode=$(median_ns HookSharedAddress hs)
filtered=$(median_ns HookThreadLocal ha)
fastpoint=$(median_ns HookSharedAddress ha)
echo "| hook call | ns per call |"
echo "|---|---|"
echo "| inert library (instrumented binary run natively) | $inert |"
echo "| shim, --points=sync (no point, no trace) | $sync_mode |"
echo "| shim, access points, thread-local address (filtered) | $filtered |"
echo "| shim, access points, shared address, only this thread can run (a step) | $fastpoint |"
echo

echo "## Instrumented programs: under ctrlsched vs native vs real ThreadSanitizer"
echo
echo "Single-threaded memory-heavy programs (tests/bench/programs/), median of $reps; times include process start."
echo
echo "| program | native | instrumented, native | instrumented under ctrlsched | real TSan | ctrlsched / native | TSan / native |"
echo "|---|---|---|---|---|---|---|"
time_ms() { local s; s=$(now_ns); "$@" >/dev/null 2>&1 || true; awk -v a="$(now_ns)" -v b="$s" 'BEGIN {printf "%.1f", (a - b) / 1e6}'; }
for p in "${programs[@]}"; do
  : >"$tmp/n" ; : >"$tmp/i" ; : >"$tmp/c" ; : >"$tmp/t"
  for r in $(seq "$reps"); do
    time_ms taskset -c 0 "$bin/bench_$p" >>"$tmp/n"; echo >>"$tmp/n"
    time_ms taskset -c 0 "$bin/bench_${p}_inst" >>"$tmp/i"; echo >>"$tmp/i"
    time_ms "${controlled[@]}" "$bin/bench_${p}_inst" >>"$tmp/c"; echo >>"$tmp/c"
    time_ms taskset -c 0 "$bin/bench_${p}_tsan" >>"$tmp/t"; echo >>"$tmp/t"
  done
  n=$(median <"$tmp/n"); i=$(median <"$tmp/i"); c=$(median <"$tmp/c"); t=$(median <"$tmp/t")
  echo "| $p | $n ms | $i ms | $c ms | $t ms | $(ratio "$c" "$n") | $(ratio "$t" "$n") |"
done
echo
: >"$tmp/w"; : >"$tmp/wi"
for r in $(seq "$reps"); do
  time_ms "${controlled[@]}" "$bin/bench_matmul_inst" worker >>"$tmp/w"; echo >>"$tmp/w"
  time_ms taskset -c 0 "$bin/bench_matmul_inst" worker >>"$tmp/wi"; echo >>"$tmp/wi"
done
echo "Two runnable threads (matmul worker: PCT keeps the worker, leased until a change point): $(median <"$tmp/w") ms under ctrlsched vs $(median <"$tmp/wi") ms instrumented natively."
echo

echo "## Seeds per second on the examples vs the same binary run natively in a loop"
echo
seeds=200
echo "| example | native runs/s (pinned) | ctrlsched seeds/s (-j 1) | ratio |"
echo "|---|---|---|---|"
for e in "${examples[@]}"; do
  s=$(now_ns)
  # (buggy examples sometimes crash natively too; a subshell keeps bash's crash notices quiet)
  (for _ in $(seq "$seeds"); do taskset -c 0 "$bin/$e" >/dev/null 2>&1 || true; done) 2>/dev/null
  native=$(awk -v a="$(now_ns)" -v b="$s" -v n="$seeds" 'BEGIN {printf "%.0f", n / ((a - b) / 1e9)}')
  s=$(now_ns)
  (cd "$tmp" && "$ctrlsched" --seeds "$seeds" -j 1 --quiet --no-save "$bin/$e" >/dev/null 2>&1 || true)
  under=$(awk -v a="$(now_ns)" -v b="$s" -v n="$seeds" 'BEGIN {printf "%.0f", n / ((a - b) / 1e9)}')
  echo "| $e | $native | $under | $(ratio "$under" "$native") |"
done
