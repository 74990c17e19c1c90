"""Proof that a change of a state layout left the simulation alone: hash the golden-trace setups of
zulrah (tests/encounters/test_zulrah.py golden_hash) and pvp_selfplay (tests/encounters/test_pvp_honesty.py
_trace_hash) over observations, rewards, terminations, truncations and the state restricted to a given
list of field names (the old dtype's), and print one hash per setup.

    # on the old tree: write its field names and hashes
    PYTHONPATH=/old python scripts/trace_old_fields.py --write-fields /tmp/fields.json
    # on the new tree: the same hashes over the old fields (a renamed field mapped to its new name)
    PYTHONPATH=/new python scripts/trace_old_fields.py --fields /tmp/fields.json \
        --rename zulrah:reward_terms=reward_sums
"""

from __future__ import annotations

import argparse
import hashlib
import json

import numpy as np
from numpy.lib import recfunctions

import osrs_rl
from osrs_rl.runtime.checks import random_legal_actions
from osrs_rl.runtime.registry import get_spec

SETUPS = {
    # name: (encounter, num_envs, env seed, action seed, ticks)
    "zulrah": ("zulrah", 4, 2024, 7, 400),
    "pvp_selfplay": ("pvp_selfplay", 8, 2026, 2026, 600),
}


def trace_hash(setup: str, names: list[str], rename: dict[str, str]) -> str:
    encounter, n, seed, action_seed, ticks = SETUPS[setup]
    env = osrs_rl.make(encounter, num_envs=n, seed=seed)
    env.reset()
    rng = np.random.default_rng(action_seed)
    fields = [rename.get(k, k) for k in names]
    h = hashlib.sha256()
    for _ in range(ticks):
        obs, rew, term, trunc, _ = env.step(random_legal_actions(env, rng))
        for arr in (obs, rew, term, trunc):
            h.update(np.ascontiguousarray(arr).tobytes())
        h.update(recfunctions.repack_fields(env.states[fields]).tobytes())
    return h.hexdigest()[:16]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--write-fields", help="write this tree's state field names per setup to this JSON file")
    ap.add_argument("--fields", help="hash over the field names in this JSON file (default: this tree's)")
    ap.add_argument("--rename", action="append", default=[], help="setup:old=new, a field renamed since")
    args = ap.parse_args()
    own = {k: list(get_spec(v[0]).state_dtype.names) for k, v in SETUPS.items()}
    if args.write_fields:
        with open(args.write_fields, "w", encoding="utf-8") as f:
            json.dump(own, f)
    names = own
    if args.fields:
        with open(args.fields, encoding="utf-8") as f:
            names = json.load(f)
    renames: dict[str, dict[str, str]] = {k: {} for k in SETUPS}
    for item in args.rename:
        setup, pair = item.split(":", 1)
        old, new = pair.split("=", 1)
        renames[setup][old] = new
    for setup in SETUPS:
        print(f"{setup}: {trace_hash(setup, names[setup], renames[setup])}")


if __name__ == "__main__":
    main()
