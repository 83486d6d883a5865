#!/usr/bin/env bash
# The in-process engine against process mode, side by side in one run (docs/benchmarks.md,
# "In-process engine"). Prints a Markdown table. Figures are CPU time (user + sys, all processes
# involved): the machines these run on are shared, and wall time there mostly measures the
# neighbours; wall-clock figures are printed too.
#
#   tests/bench/run_fiber_benchmarks.sh [build-dir] [repetitions]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
reps=${2:-3}
bin=$(cd "$build" && pwd)/bin
cmake --build "$build" --target ctrlsched ctrlsched_shim bench_fibers bench_two_threads_20_steps >/dev/null

seeds=1000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
# Column of one benchmark in Google Benchmark's CSV: name,iterations,real_time,cpu_time,...
column() { awk -F, -v name="\"$1\"" -v col="$2" '$1 == name {print $col}' "$3"; }

for r in $(seq "$reps"); do
  "$bin/bench_fibers" --benchmark_format=csv >"$tmp/fibers.$r.csv" 2>/dev/null
  /usr/bin/time -f "%e %U %S" -o "$tmp/process.$r.time" "$bin/ctrlsched" --seeds "$seeds" --strategy pct \
    --pct-steps 24 --jobs 1 -- "$bin/bench_two_threads_20_steps" >/dev/null 2>&1
done

# ms per 1000 schedules (CPU and wall) in-process; per-switch ns (CPU).
inproc_cpu=$(for r in $(seq "$reps"); do column "InProcessSchedules/1000" 4 "$tmp/fibers.$r.csv"; done | median)
inproc_wall=$(for r in $(seq "$reps"); do column "InProcessSchedules/1000" 3 "$tmp/fibers.$r.csv"; done | median)
engine_switch=$(for r in $(seq "$reps"); do column "EngineSwitch" 4 "$tmp/fibers.$r.csv"; done | median)
raw_switch=$(for r in $(seq "$reps"); do column "RawContextSwitch" 4 "$tmp/fibers.$r.csv"; done | median)
process_cpu=$(for r in $(seq "$reps"); do awk '{print ($2 + $3) * 1000}' "$tmp/process.$r.time"; done | median)
process_wall=$(for r in $(seq "$reps"); do awk '{print $1 * 1000}' "$tmp/process.$r.time"; done | median)

per_s() { awk -v ms="$1" -v n="$seeds" 'BEGIN {printf "%.0f", n / (ms / 1000)}'; }
echo "| measure ($seeds schedules of a 2-thread, ~20-step test) | CPU | wall |"
echo "|---|---|---|"
echo "| in-process (ctrlsched::explore), schedules/s | $(per_s "$inproc_cpu") | $(per_s "$inproc_wall") |"
echo "| process mode (\`ctrlsched --seeds $seeds --jobs 1\`), schedules/s | $(per_s "$process_cpu") | $(per_s "$process_wall") |"
echo "| ratio in-process / process | $(awk -v a="$process_cpu" -v b="$inproc_cpu" 'BEGIN {printf "%.0f×", a / b}') | $(awk -v a="$process_wall" -v b="$inproc_wall" 'BEGIN {printf "%.0f×", a / b}') |"
echo
# Benchmarks report ms per 10,000 rounds (20,000 switches).
echo "| switch (CPU time) | ns per switch |"
echo "|---|---|"
echo "| raw Boost.Context fiber switch | $(awk -v ms="$raw_switch" 'BEGIN {printf "%.1f", ms * 1e6 / 20000}') |"
echo "| engine switch (semaphore ping-pong: release + blocking acquire + switch) | $(awk -v ms="$engine_switch" 'BEGIN {printf "%.1f", ms * 1e6 / 20000}') |"
