#!/usr/bin/env bash
# Seeds per second with and without the fork server (docs/fork-server.md), against a native
# shell loop of the same binary, measured side by side and interleaved; then where one seed's
# time goes, and what the machine can do at all with all its CPUs (the ceiling for -j N). Prints
# Markdown with the load average; docs/benchmarks.md ("Seeds per second: the fork server")
# records runs and this command.
#
#   tests/bench/run_seed_throughput.sh [build-dir] [seeds] [repetitions]
#
# The test is tests/bench/programs/two_threads_20_steps.c: main and two workers (3 threads) that
# pass every seed, about 20 scheduling points per run: a typical small unit test.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
seeds=${2:-500}
reps=${3:-3}
bin=$(cd "$build" && pwd)/bin
cmake --build "$build" --target ctrlsched ctrlsched_shim bench_two_threads_20_steps >/dev/null
ctrlsched=$bin/ctrlsched
test_bin=$(find "$build" -type f -name bench_two_threads_20_steps -perm -u+x | head -1)
cpus=$(nproc)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now_ns() { date +%s%N; }
median() { sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
# seconds of one command, appended to file $1
timed() { local out=$1 s; shift; s=$(now_ns); "$@" >/dev/null 2>&1 || true; awk -v a="$(now_ns)" -v b="$s" 'BEGIN {printf "%.4f\n", (a - b) / 1e9}' >>"$tmp/$out"; }
native_loop() { for _ in $(seq "$seeds"); do "$test_bin"; done; }
seeds_run() { "$ctrlsched" --seeds "$seeds" --no-save --quiet "$@" "$test_bin"; }

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for r in $(seq "$reps"); do
  timed native native_loop
  timed fork1 seeds_run -j 1
  timed exec1 seeds_run -j 1 --no-fork-server
  timed forkN seeds_run -j "$cpus"
  timed execN seeds_run -j "$cpus" --no-fork-server
done
rate() { awk -v n="$seeds" -v t="$(median <"$tmp/$1")" 'BEGIN {printf "%.0f", n / t}'; }
native=$(rate native); fork1=$(rate fork1); exec1=$(rate exec1); forkN=$(rate forkN); execN=$(rate execN)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

load_after=$(cut -d' ' -f1-3 /proc/loadavg)

echo "## Seeds per second: $seeds seeds of a passing 3-thread test, median of $reps, $cpus CPUs"
echo
echo "Load average (1, 5, 15 min) before: $load_before; after: $load_after."
echo
echo "| how | seeds/s | vs native loop |"
echo "|---|---|---|"
echo "| native shell loop, one run at a time | $native | 1.00 |"
echo "| ctrlsched -j 1, fork server | $fork1 | $(ratio "$fork1" "$native") |"
echo "| ctrlsched -j 1, --no-fork-server (exec per seed) | $exec1 | $(ratio "$exec1" "$native") |"
echo "| ctrlsched -j $cpus, fork server | $forkN | $(ratio "$forkN" "$native") |"
echo "| ctrlsched -j $cpus, --no-fork-server | $execN | $(ratio "$execN" "$native") |"
echo
echo "Scaling: -j $cpus fork server / -j 1 fork server = $(ratio "$forkN" "$fork1") (target ≥ $(awk -v n="$cpus" 'BEGIN {printf "%.1f", 0.8 * n}'))."
echo "Fork server / exec per seed at -j 1: $(ratio "$fork1" "$exec1")."
echo

# Where one seed goes: the same measurement with programs that do less. /bin/true exits at once
# (dynamically linked, no threads): under the fork server its seed is the fixed cost of a run
# (request, fork, shim set-up, exit, reap, classification); with --no-fork-server it adds exec
# and dynamic loading. The 3-thread test's extra time is its own run under control.
for r in $(seq "$reps"); do
  timed true_fork "$ctrlsched" --seeds "$seeds" --no-save --quiet -j 1 /bin/true
  timed true_exec "$ctrlsched" --seeds "$seeds" --no-save --quiet -j 1 --no-fork-server /bin/true
  timed true_native bash -c "for _ in \$(seq $seeds); do /bin/true; done"
done
per_ms() { awk -v n="$seeds" -v t="$(median <"$tmp/$1")" 'BEGIN {printf "%.3f", 1000 * t / n}'; }
echo "## One seed, -j 1 (ms per seed, median of $reps)"
echo
echo "| part | ms |"
echo "|---|---|"
echo "| native run of /bin/true from a shell loop (fork + exec + loader) | $(per_ms true_native) |"
echo "| native run of the 3-thread test from a shell loop | $(per_ms native) |"
echo "| fork-server seed of /bin/true: request, fork, shim set-up, exit, reap, report | $(per_ms true_fork) |"
echo "| exec seed of /bin/true: the same plus exec and dynamic loading | $(per_ms true_exec) |"
echo "| fork-server seed of the 3-thread test | $(per_ms fork1) |"
echo "| exec seed of the 3-thread test | $(per_ms exec1) |"

# What the machine can do at all with $cpus processes at once: the same work done $cpus times one
# after the other, then $cpus at once. A CPU-bound job (sha256 of a file in the page cache) shows
# whether the cores are really there; the native loop of the test (fork, exec, dynamic loading,
# 3 threads, exit) shows whether process creation scales too. -j N cannot scale better than these.
head -c $((64 << 20)) /dev/zero >"$tmp/blob"
sha256sum "$tmp/blob" >/dev/null
cpu_job() { sha256sum "$tmp/blob" >/dev/null; }
serial() { for _ in $(seq "$cpus"); do "$@"; done; }
parallel() { for _ in $(seq "$cpus"); do "$@" & done; wait; }
for r in $(seq "$reps"); do
  timed cpu_serial serial cpu_job
  timed cpu_parallel parallel cpu_job
  timed loop_serial serial native_loop
  timed loop_parallel parallel native_loop
done
speedup() { awk -v s="$(median <"$tmp/$1")" -v p="$(median <"$tmp/$2")" 'BEGIN {printf "%.2f", s / p}'; }
echo
echo "## The machine's ceiling: $cpus jobs at once vs one after the other (median of $reps)"
echo
echo "| job | speed-up of $cpus at once |"
echo "|---|---|"
echo "| sha256 of 64 MiB (CPU only) | $(speedup cpu_serial cpu_parallel) |"
echo "| native loop of the 3-thread test, $seeds runs | $(speedup loop_serial loop_parallel) |"
echo
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
