#!/usr/bin/env bash
# Sets up (packages + build) and runs the whole test suite with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
ctest --test-dir "${RUSHHOUR_BUILD_DIR:-build}" --output-on-failure -j "$(nproc)"
