#!/usr/bin/env bash
# Seeds per second of several ctrlsched builds side by side (e.g. before and after a change),
# interleaved so that the machine's load falls on all of them alike, against a native shell loop
# of the same test binary; and each build's fixed cost per command (a one-seed run). Prints
# Markdown with the load average. docs/benchmarks.md records runs and this command.
#
#   tests/bench/compare_seed_throughput.sh SEEDS REPS TEST_BINARY NAME=CTRLSCHED [NAME=CTRLSCHED ...]
#
# CTRLSCHED is a ctrlsched executable; it finds its shim in <its dir>/../lib as usual, so a copy
# of a build's bin/ctrlsched and lib/libctrlsched_shim.so in one directory is a build to compare.
# The test binary is normally tests/bench/programs/two_threads_20_steps.c as built by
# run_seed_throughput.sh (build/bin/bench_two_threads_20_steps): 3 threads, passes every seed.
set -euo pipefail
seeds=$1 reps=$2 test_bin=$3
shift 3
names=() bins=()
for spec in "$@"; do names+=("${spec%%=*}"); bins+=("${spec#*=}"); done
cpus=$(nproc)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now_ns() { date +%s%N; }
median() { sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
timed() { local out=$1 s; shift; s=$(now_ns); "$@" >/dev/null 2>&1 || true; awk -v a="$(now_ns)" -v b="$s" 'BEGIN {printf "%.4f\n", (a - b) / 1e9}' >>"$tmp/$out"; }
native_loop() { for _ in $(seq "$seeds"); do "$test_bin"; done; }
one_seed_commands() { for _ in $(seq 20); do "$1" --seeds 1 -j 1 --no-save --quiet "$test_bin"; done; }

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for r in $(seq "$reps"); do
  timed native native_loop
  for i in "${!bins[@]}"; do
    timed "j1_$i" "${bins[$i]}" --seeds "$seeds" --no-save --quiet -j 1 "$test_bin"
    timed "jN_$i" "${bins[$i]}" --seeds "$seeds" --no-save --quiet -j "$cpus" "$test_bin"
    timed "one_$i" one_seed_commands "${bins[$i]}"
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

rate() { awk -v n="$seeds" -v t="$(median <"$tmp/$1")" 'BEGIN {printf "%.0f", n / t}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
native=$(rate native)
echo "## $seeds seeds of $(basename "$test_bin"), median of $reps, $cpus CPUs"
echo
echo "Load average (1, 5, 15 min) before: $load_before; after: $load_after."
echo
echo "| build | -j 1 seeds/s | vs native loop ($native/s) | -j $cpus seeds/s | -j $cpus / -j 1 | one-seed command, ms |"
echo "|---|---|---|---|---|---|"
for i in "${!bins[@]}"; do
  j1=$(rate "j1_$i") jn=$(rate "jN_$i")
  one=$(awk -v t="$(median <"$tmp/one_$i")" 'BEGIN {printf "%.2f", 1000 * t / 20}')
  echo "| ${names[$i]} | $j1 | $(ratio "$j1" "$native") | $jn | $(ratio "$jn" "$j1") | $one |"
done
