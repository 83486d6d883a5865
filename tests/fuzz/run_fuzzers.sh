#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, -fsanitize=fuzzer,address,undefined) in build-fuzz/ and
# runs each one in turn for SECONDS (default 600), niced, starting from its checked-in corpus.
#
#   tests/fuzz/run_fuzzers.sh [SECONDS] [TARGET...]     TARGET: schedule handle trace_file command_line
#
# New inputs go to build-fuzz/fuzz/<target>/corpus (the checked-in corpus is only read); a crash,
# leak or broken property leaves its input in build-fuzz/fuzz/<target>/ (crash-*, leak-*, ...)
# and the log in build-fuzz/fuzz/<target>.log. The last line per target sums it up:
#   fuzz <target>: <executions> executions in <seconds> s, <n> new corpus inputs, <findings>
# Exit status: 0 when no target found anything, 1 otherwise. docs/fuzzing.md records the figures.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-600}
shift || true
targets=("$@")
if ((${#targets[@]} == 0)); then targets=(schedule handle trace_file command_line); fi

if ! command -v clang++ >/dev/null; then
  echo "run_fuzzers: clang++ not found (libFuzzer needs clang)" >&2
  exit 2
fi
if [ ! -f build-fuzz/CMakeCache.txt ]; then
  cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
        -DCTRLSCHED_FUZZ=ON -DCTRLSCHED_BUILD_BENCHMARKS=OFF >/dev/null
fi
nice -n 19 cmake --build build-fuzz --target fuzzers >/dev/null

status=0
for t in "${targets[@]}"; do
  work=build-fuzz/fuzz/$t
  mkdir -p "$work/corpus"
  log=build-fuzz/fuzz/$t.log
  rc=0
  # -rss_limit_mb: every parser bounds what it allocates by the input's size; 1 GB is generous.
  nice -n 19 "build-fuzz/bin/fuzz_$t" -max_total_time="$seconds" -print_final_stats=1 \
      -rss_limit_mb=1024 -timeout=10 -artifact_prefix="$work/" \
      "$work/corpus" "tests/fuzz/corpus/$t" >"$log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  took=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
  added=$(find "$work/corpus" -type f | wc -l)
  findings=$(find "$work" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  if ((rc != 0)); then
    status=1
    echo "fuzz $t: stopped with status $rc after ${execs:-?} executions: $findings finding(s), see $log"
  else
    echo "fuzz $t: ${execs:-?} executions in ${took:-$seconds} s, $added new corpus inputs, no finding"
  fi
done
exit $status
