#!/usr/bin/env bash
# Builds the `fuzz` preset (clang, libFuzzer, ASan + UBSan) and runs every fuzz target of
# tests/fuzz for SECONDS_PER_TARGET seconds (default 600), one after the other, each on one core.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     e.g. scripts/fuzz.sh 60 pgn openings
#
# Each target starts from its seed corpus (tests/fuzz/corpus/<target>, only read) and the inputs
# earlier runs kept (build/fuzz/fuzz-corpus/<target>, where new ones go). A crash, leak, timeout
# (10 s for one input) or out-of-memory (2 GB) ends that target's run and is saved in
# build/fuzz/crashes/<target>/; its log is build/fuzz/logs/<target>.log. Reproduce one with
#   build/fuzz/bin/fuzz_<target> build/fuzz/crashes/<target>/crash-...
# Extra libFuzzer flags come from FUZZ_FLAGS, e.g. FUZZ_FLAGS="-fork=2 -ignore_crashes=1" to go on
# after a crash. Prints per target the inputs executed and the crashes found; exits 1 when any
# target found one.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-600}
shift || true
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  echo "usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]" >&2
  exit 2
fi

scripts/install-deps.sh
nice cmake --preset fuzz >/dev/null
nice cmake --build --preset fuzz

build=build/fuzz
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for binary in "$build"/bin/fuzz_*; do
    case "$binary" in *_seeds) continue ;; esac
    targets+=("${binary##*/fuzz_}")
  done
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
mkdir -p "$build/logs"
summary=()
failed=0
for target in "${targets[@]}"; do
  binary="$build/bin/fuzz_$target"
  if [ ! -x "$binary" ]; then
    echo "fuzz.sh: no target $target (have: $(ls "$build"/bin | sed -n '/_seeds$/d; s/^fuzz_//p' | tr '\n' ' '))" >&2
    exit 2
  fi
  corpus="$build/fuzz-corpus/$target"
  crashes="$build/crashes/$target"
  log="$build/logs/$target.log"
  mkdir -p "$corpus" "$crashes"
  # a target whose seeds are made, not kept (fuzz_tb_file: valid table files) gets them first
  if [ -x "$build/bin/fuzz_${target}_seeds" ]; then "$build/bin/fuzz_${target}_seeds" "$corpus"; fi
  before=$(find "$crashes" -type f | wc -l)
  echo "== fuzz_$target for $seconds s (log $log)"
  status=0
  start=$SECONDS
  # shellcheck disable=SC2086  # FUZZ_FLAGS is a list of flags
  nice "$binary" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$crashes/" ${FUZZ_FLAGS:-} "$corpus" "tests/fuzz/corpus/$target" \
    >"$log" 2>&1 || status=$?
  elapsed=$((SECONDS - start))
  after=$(find "$crashes" -type f | wc -l)
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  if [ -z "$executions" ]; then  # fork mode prints "#N: cov: ..." lines instead
    executions=$(sed -n 's/^#\([0-9][0-9]*\):* .*/\1/p' "$log" | tail -1)
  fi
  found=$((after - before))
  line="$target: ${executions:-?} inputs executed in $elapsed s, $found crash(es) found"
  if [ "$found" -gt 0 ] || [ "$status" -ne 0 ]; then
    failed=1
    line+=" (exit $status; see $crashes/ and $log)"
    grep -E "^==[0-9]+==ERROR|^SUMMARY|fuzz check failed|runtime error" "$log" | head -5 || true
  fi
  echo "$line"
  summary+=("$line")
done

echo
echo "Fuzzing summary ($seconds s per target):"
printf '  %s\n' "${summary[@]}"
exit "$failed"
