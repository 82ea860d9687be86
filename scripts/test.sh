#!/usr/bin/env bash
# Builds cusci and runs its test suite (the README's test command). Tests labelled `gpu` are skipped
# when no GPU is visible. The test references are computed at build time with SciPy 1.18.1 / NumPy 2.5
# (the Python in CUSCI_PYTHON, else python3 on PATH; configuration stops with the install command
# when it lacks them). Without a GPU, device code is compiled to unoptimised PTX only (see below). Benchmarks and examples are not built (scripts/demo.sh and scripts/gpu-check
# build them). Usage: scripts/test.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
export PATH=/usr/local/cuda/bin:$PATH
jobs=$(nproc)
t0=$(date +%s)
# Without a visible GPU no device code can run here (the gpu tests are skipped), so device code is compiled
# to unoptimised PTX only (sm_90 virtual, `-Xcicc -O0`): every kernel is still compiled and checked, without
# the SASS back end (about 40% of nvcc's time) and without the device optimiser (about two thirds of the
# rest). The host side of the .cu files (launch stubs and argument handling, which the host tests hardly
# run) is compiled at -O0 (a quarter less nvcc time than -O1), the libraries' .cpp files at -O1 (38%
# less g++ time than Release's -O3; the host tests run that code) with the headers most of them include
# precompiled once a library (CUSCI_PCH: their compiler time 323 s -> 171 s), and the test sources at -O0. Such a build is for the host tests: its
# kernels would run slowly on a GPU. CUSCI_CUDA_ARCHITECTURES
# overrides (and keeps the optimiser); with a GPU, CMake's default (native) and optimised device code.
arch=()
if [[ -n "${CUSCI_CUDA_ARCHITECTURES:-}" ]]; then
  arch=(-DCMAKE_CUDA_ARCHITECTURES="$CUSCI_CUDA_ARCHITECTURES")
elif ! nvidia-smi -L >/dev/null 2>&1 && [[ ! -f "$build/CMakeCache.txt" ]]; then
  arch=(-DCMAKE_CUDA_ARCHITECTURES=90-virtual "-DCMAKE_CUDA_FLAGS=-Xcicc -O0" "-DCMAKE_CUDA_FLAGS_RELEASE=-O0 -DNDEBUG"
        "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" -DCUSCI_TEST_OPT=-O0 -DCUSCI_PCH=ON)
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUSCI_BUILD_TESTS=ON \
  -DCUSCI_BUILD_BENCHMARKS=OFF -DCUSCI_BUILD_EXAMPLES=OFF "${arch[@]}"
cmake --build "$build" -j "$jobs"
t1=$(date +%s)
echo "build time: $((t1 - t0)) s ($jobs jobs)"
ctest --test-dir "$build" --output-on-failure -j "$jobs"
echo "test time: $(( $(date +%s) - t1 )) s"
