#!/usr/bin/env bash
# The bench and the main job on two checkouts of osrs-rl, alternated (old, new, old, new, ...) so that both
# see the same machine: compare them as ratios measured in one run. Each checkout runs from its own source
# tree (PYTHONPATH) with the Python given, and its own Numba cache. A warm-up round (compiles) is not counted.
# Usage: bash scripts/compare_checkouts.sh OLD_DIR NEW_DIR [OUT_DIR] [ROUNDS]
#   e.g. git worktree add /tmp/old 1b54d5e && bash scripts/compare_checkouts.sh /tmp/old . runs/compare 2
set -u
OLD=$(cd "$1" && pwd); NEW=$(cd "$2" && pwd); OUT=${3:-runs/compare}; ROUNDS=${4:-2}
PY=${PYTHON:-$(pwd)/.venv/bin/python}
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
in_tree() {  # old|new cmd...: run a command on that checkout's sources, with that checkout's Numba cache
  local which=$1 dir; dir=$([ "$1" = old ] && echo "$OLD" || echo "$NEW"); shift
  (cd "$dir" && PYTHONPATH="$dir" NUMBA_CACHE_DIR="$OUT/numba-$which" "$@")
}
echo "warm-up (compiles, not counted) $(date)"
for v in old new; do
  for e in zulrah inferno; do in_tree $v "$PY" -m osrs_rl.cli bench $e > "$OUT/warm-bench-$e-$v.txt" 2>&1; done
done
for r in $(seq 1 "$ROUNDS"); do
  for v in old new; do
    echo "round $r $v $(date) load $(cut -d' ' -f1-3 /proc/loadavg)"
    for e in zulrah inferno; do in_tree $v "$PY" -m osrs_rl.cli bench $e > "$OUT/bench-$e-$v-$r.txt" 2>&1; done
    in_tree $v "$PY" -m osrs_rl.cli train zulrah --run.total_steps 3500000 --run.eval_episodes 128 --run.seed 1 \
      --run.out_dir "$OUT/runs-$v-$r" > "$OUT/main-$v-$r.txt" 2>&1
    grep -E "^step [0-9,]+: done" "$OUT/main-$v-$r.txt" | cut -c1-120
  done
done
echo "done $(date); the tables: $OUT/bench-*.txt, the main job's logs: $OUT/main-*.txt"
