#!/usr/bin/env bash
# Builds cusci's libFuzzer targets (tests/fuzz: .npy, .npz, Matrix Market and SciPy's sparse .npz
# readers, with AddressSanitizer and UndefinedBehaviorSanitizer) with clang++ in their own build tree,
# makes the seed corpus (scripts/fuzz_seeds.py, NumPy only) and runs each target for a bounded time.
# Not part of CI. Needs clang++ with libFuzzer and lld (clang 14 works), the CUDA Toolkit (to link,
# no GPU needed), zlib, and a Python with NumPy for the seeds.
#
#   scripts/fuzz.sh                    # every target, FUZZ_SECONDS (default 60) each
#   FUZZ_SECONDS=600 scripts/fuzz.sh npz mmread
#
# Environment: FUZZ_BUILD (build tree, default build-fuzz), FUZZ_SECONDS, FUZZ_RUNS (a number of
# executions per target instead of a time: `FUZZ_RUNS=1000000 scripts/fuzz.sh`), FUZZ_JOBS (parallel fuzzing
# processes per target, default 1), FUZZ_PYTHON (default: $CUSCI_PYTHON or python3), CXX (clang++).
# Each target's corpus grows in $FUZZ_BUILD/corpus/<target>; a crashing input is written to
# $FUZZ_BUILD/findings/<target>/ and the script exits non-zero after the remaining targets ran.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD:-$root/build-fuzz}
seconds=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-1}
python=${FUZZ_PYTHON:-${CUSCI_PYTHON:-python3}}
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(npy npz mmread npz_sparse)

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="${CXX:-clang++}" \
  -DCUSCI_BUILD_FUZZERS=ON -DBUILD_SHARED_LIBS=OFF >/dev/null
cmake --build "$build" --target "${targets[@]/#/cusci_fuzz_}"

"$python" "$root/scripts/fuzz_seeds.py" "$build/seeds"
status=0
for t in "${targets[@]}"; do
  corpus=$build/corpus/$t findings=$build/findings/$t
  mkdir -p "$corpus" "$findings"
  if [ -n "${FUZZ_RUNS:-}" ]; then echo "== $t: $FUZZ_RUNS runs"; else echo "== $t: ${seconds}s"; fi
  # -rss_limit_mb / -malloc_limit_mb: a reader may allocate what a header asks for only when the
  # file's bytes back it (deflate: at most 1032x), so inputs of max_len bytes stay far below 2 GB.
  limit=(-max_total_time="$seconds")
  [ -n "${FUZZ_RUNS:-}" ] && limit=(-runs="$FUZZ_RUNS")
  parallel=()
  [ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs")  # workers log to fuzz-<n>.log in $build
  if ! (cd "$build" && "$build/tests/fuzz/cusci_fuzz_$t" "$corpus" "$build/seeds/$t" "${limit[@]}" \
      "${parallel[@]}" -max_len=65536 -rss_limit_mb=4096 -malloc_limit_mb=2048 -timeout=10 \
      -artifact_prefix="$findings/" -print_final_stats=1 2>"$build/fuzz-$t.log"); then
    status=1
    echo "   FAILED: see $build/fuzz-$t.log and $findings/"
  fi
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|ERROR:|SUMMARY" "$build/fuzz-$t.log" | sed 's/^/   /' || true
done
exit $status
