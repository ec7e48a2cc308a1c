#!/usr/bin/env bash
# Installs every Debian package rushhour needs (idempotent, as root or with sudo)
# and builds it in build/ (or $RUSHHOUR_BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake libbdd-dev libboost-program-options-dev libhdf5-dev
          hdf5-tools libgtest-dev python3 python3-h5py python3-numpy python3-matplotlib
          libopenmpi-dev openmpi-bin python3-jinja2 python3-selenium chromium chromium-driver)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  echo "setup: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

build_dir="${RUSHHOUR_BUILD_DIR:-build}"
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE="${RUSHHOUR_BUILD_TYPE:-Release}" >&2
cmake --build "$build_dir" -j "$(nproc)" >&2
