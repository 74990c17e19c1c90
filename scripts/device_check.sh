#!/usr/bin/env bash
# The device check of issue 44, in one command for a machine with a CUDA GPU and many cores:
#   bash scripts/device_check.sh OUT [osrs-rl device-check options, e.g. --quick]
# It runs `osrs-rl device-check OUT` with the Inferno from wave 1 as its long run: the tests that need CUDA, every
# encounter's env rates on all cores, each GPU preset's training throughput on the GPU and on the CPU, then 4 minutes
# of the Inferno's GPU preset evaluated over 128 runs (final wave, clears); the table goes to OUT/device_check.md and
# OUT/device_check.json. At most 9 minutes with the Numba cache warm; without CUDA the GPU steps are rows saying so.
# Python: $PYTHON, else this checkout's .venv (bash scripts/run.sh setup makes it; its torch must be a CUDA build).
set -euo pipefail
if [ $# -lt 1 ] || [[ $1 == -* ]]; then
  echo "usage: bash scripts/device_check.sh OUT [--quick] [osrs-rl device-check options]" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-$root/.venv/bin/python}
out=$1
shift
# OUT stays relative to where the script was called from; the package is this checkout's
PYTHONPATH="$root${PYTHONPATH:+:$PYTHONPATH}" exec "$PY" -m osrs_rl.cli device-check "$out" \
  --long inferno --long-set start_wave=1 "$@"
