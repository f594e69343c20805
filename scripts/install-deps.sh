#!/usr/bin/env bash
# Installs what the project needs on Debian 12, and nothing when it is all there already: it
# asks dpkg first and only calls apt-get for missing packages, so a second run takes a second.
set -euo pipefail

packages=(
  g++
  cmake
  ninja-build
  git
  libboost-program-options1.81-dev
  libboost-test1.81-dev
  libboost-filesystem1.81-dev
  libboost-json1.81-dev
  # quixo-gui's server (Boost.Beast and Asio are header-only parts of this package)
  libboost1.81-dev
  # the endgame tables' files (engine/tb): zstd-compressed blocks, found through pkg-config
  libzstd-dev
  pkg-config
  # quixo-gui's browser tests (tests/gui/browser): Debian's headless Chromium, driven by Selenium
  # through chromedriver, and a font so that screenshots show text
  chromium
  chromium-driver
  python3-selenium
  fonts-dejavu-core
  # the page's pure JavaScript checks (gui/web/tests, node's own test runner)
  nodejs
  # The sanitizer and fuzz presets (asan, tsan, fuzz; scripts/fuzz.sh): clang++, libFuzzer and the
  # sanitizer runtimes, and llvm-symbolizer for readable stack traces.
  clang
  libclang-rt-14-dev
  llvm
  # Tournaments across a cluster (scripts/slurm): sbatch/squeue/scancel, and for the Slurm path's
  # tests the daemons of the one-node cluster that scripts/slurm/local-cluster.sh starts
  # (slurmctld and slurmd, which authenticate through munged). slurm-wlm brings slurmctld, slurmd
  # and slurm-client; munge is one of their dependencies, named here because the script runs it.
  slurm-wlm
  munge
  # The engine in WebAssembly (the wasm preset, scripts/build-web.sh): Emscripten and the acorn
  # parser its JavaScript optimizer needs; curl and xz fetch and unpack Debian's zstd source,
  # which the build compiles to WebAssembly.
  emscripten
  node-acorn
  curl
  xz-utils
  # The Python package (python/, `import quixo`): pybind11 builds the extension module against
  # Debian's Python 3.11; numpy for boards as arrays, pytest for its tests, venv and pip for
  # `pip install --no-build-isolation .` into a virtual environment; mypy checks its type stubs.
  pybind11-dev
  python3-dev
  python3-numpy
  python3-pytest
  python3-venv
  python3-pip
  python3-setuptools
  python3-wheel
  python3-mypy
)

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true)
  [ "$status" = "installed" ] || missing+=("$package")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
  else
    echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
