#!/usr/bin/env bash
# Sets up (packages + build) and runs the test suite with ctest: the quick and full tiers
# (what CI runs), or with --quick the quick tier alone, or with --long every tier
# (tests/support/test_tier.hpp says which tier holds what).
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  "") tiers=(-LE long) ;;
  --quick) tiers=(-L quick) ;;
  --long) tiers=() ;;
  *) echo "usage: bash scripts/test.sh [--quick | --long]" >&2; exit 2 ;;
esac
bash scripts/setup.sh
ctest --test-dir "${RUSHHOUR_BUILD_DIR:-build}" --output-on-failure -j "$(nproc)" "${tiers[@]}"
