#!/usr/bin/env bash
# Render time of the --html report for a run of about 100,000 steps, in headless Chromium
# (docs/benchmarks.md, "HTML report"). The page measures itself: when its script is done it
# writes performance.now() (milliseconds since navigation start: parsing the file, the JSON and
# drawing) into its status element, which --dump-dom prints. Not a test: nothing is asserted.
#   tests/bench/html_render.sh [BUILD_DIR] [REPETITIONS] [THREADS] [ITERATIONS]
set -euo pipefail
build=${1:-build}
repetitions=${2:-5}
threads=${3:-4}
iterations=${4:-7200}
chromium=${CTRLSCHED_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
[ -n "$chromium" ] || { echo "html_render.sh: chromium not found (apt-get install chromium)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One seed of the random strategy (a switch at about every other point: the most rows), which
# fails on purpose so that its run is traced and drawn.
"$build/bin/ctrlsched" --quiet --seeds 1 --strategy random --html "$work/run.html" \
  -- "$build/bin/long_interleaving" "$threads" "$iterations" >/dev/null || true
[ -s "$work/run.html" ] || { echo "html_render.sh: no report written" >&2; exit 1; }

ready=()
for ((i = 0; i < repetitions; ++i)); do
  dom=$("$chromium" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$work/profile" \
    --dump-dom "file://$work/run.html" 2>/dev/null)
  status=$(grep -o 'id="ctrlsched-status"[^>]*' <<<"$dom")
  steps=$(grep -o 'class="timeline" data-group="0"[^>]*' <<<"$dom" | sed -n 's/.*data-steps="\([0-9]*\)".*/\1/p')
  rows=$(sed -n 's/.*data-rows="\([0-9]*\)".*/\1/p' <<<"$status")
  ms=$(sed -n 's/.*data-ready-ms="\([0-9]*\)".*/\1/p' <<<"$status")
  script_ms=$(sed -n 's/.*data-script-ms="\([0-9]*\)".*/\1/p' <<<"$status")
  [ -n "$ms" ] || { echo "html_render.sh: the page did not finish: $status" >&2; exit 1; }
  echo "run $((i + 1)): ready ${ms} ms (script ${script_ms} ms), ${steps} steps, ${rows} rows drawn"
  ready+=("$ms")
done
median=$(printf '%s\n' "${ready[@]}" | sort -n | sed -n "$(((repetitions + 1) / 2))p")
echo "html report: $(stat -c %s "$work/run.html") bytes, ${steps} steps, ${threads} workers; median ready ${median} ms over ${repetitions} loads"
