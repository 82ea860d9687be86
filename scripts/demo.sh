#!/usr/bin/env bash
# Builds cusci and runs the demo pipelines on the bundled real data (README quick start).
# Outputs go to examples/out/. Extra arguments are passed to the demo (see `cusci_demo --help`).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
build=${CUSCI_BUILD_DIR:-build}
# The demo needs no test references: a new build folder is configured without the tests (and so
# without Python); an existing one keeps its choice.
tests=()
[[ -f "$build/CMakeCache.txt" ]] || tests=(-DCUSCI_BUILD_TESTS=OFF)
echo "demo: configuring $build (libraries and the demo)"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUSCI_BUILD_EXAMPLES=ON "${tests[@]}" >/dev/null
[[ -f "$build/examples/cusci_demo" ]] ||
  echo "demo: first build: compiling the cusci libraries and the demo ($(nproc) jobs; about 20 minutes on 2 cores, under 6 on 16)"
cmake --build "$build" -j "$(nproc)" --target cusci_demo
echo "demo: running $build/examples/cusci_demo (outputs in examples/out/)"
"$build/examples/cusci_demo" --out examples/out "$@"
