#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/*.fuzz.cc, clang, ASan + UBSan) in build-fuzz and
# runs each for a fixed number of executions (default 1000000), one target after another.
#   scripts/fuzz.sh [RUNS] [TARGET...]      e.g. scripts/fuzz.sh 100000 board_string
# Corpus: tests/fuzz/corpus/TARGET/ (seeds kept in git; new inputs libFuzzer finds go to
# build-fuzz/corpus/TARGET/, so the checked-in corpus stays small). Crashing inputs are
# written to build-fuzz/artifacts/; the script exits non-zero if any target finds one.
# Environment: RUSHHOUR_FUZZ_BUILD (build directory, default build-fuzz), CXX (default
# clang++), RUSHHOUR_FUZZ_JOBS (build parallelism, default 1), RUSHHOUR_FUZZ_MAX_LEN (4096),
# RUSHHOUR_FUZZ_TIMEOUT (seconds one input may take before it counts as a hang, default 20).
# Needs clang and its libFuzzer runtime (Debian: clang, libclang-rt-14-dev).
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${1:-1000000}"
shift || true
build="${RUSHHOUR_FUZZ_BUILD:-build-fuzz}"
cxx="${CXX:-clang++}"
command -v "$cxx" >/dev/null || { echo "fuzz.sh: $cxx not found (apt-get install clang libclang-rt-14-dev)" >&2; exit 1; }

targets=("$@")
if ((${#targets[@]} == 0)); then
  for source in tests/fuzz/*.fuzz.cc; do
    name="$(basename "$source" .fuzz.cc)"
    targets+=("$name")
  done
fi

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$cxx" \
      -DRUSHHOUR_FUZZ=ON -DRUSHHOUR_TESTS=OFF >&2
cmake --build "$build" -j "${RUSHHOUR_FUZZ_JOBS:-1}" --target "${targets[@]/#/fuzz_}" >&2

mkdir -p "$build/artifacts"
status=0
for name in "${targets[@]}"; do
  seeds="tests/fuzz/corpus/$name"
  work="$build/corpus/$name"
  mkdir -p "$work" "$seeds"
  echo "== fuzz_$name: $runs runs, seeds $seeds" >&2
  start=$(date +%s%N)
  if ! "$build/fuzz_$name" -runs="$runs" -max_len="${RUSHHOUR_FUZZ_MAX_LEN:-4096}" -seed=1 \
       -print_final_stats=1 -timeout="${RUSHHOUR_FUZZ_TIMEOUT:-20}" -artifact_prefix="$build/artifacts/$name-" \
       -dict="tests/fuzz/$name.dict" "$work" "$seeds"; then
    echo "fuzz.sh: fuzz_$name found a failing input (see $build/artifacts/)" >&2
    status=1
  fi
  end=$(date +%s%N)
  echo "== fuzz_$name: $(( (end - start) / 1000000 )) ms" >&2
done
exit $status
