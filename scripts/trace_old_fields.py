"""Proof that a change of a state layout left the simulation alone: for each ``--setup`` (an encounter,
its env count, env seed, action seed and ticks: the setup of its golden-trace test), hash the
observations, rewards, terminations, truncations and the state restricted to a given list of field
names (the old dtype's) under random legal actions, and print one hash per setup.

    # on the old tree: write its field names, and the hashes
    PYTHONPATH=/old python scripts/trace_old_fields.py --setup zulrah:4:2024:7:400 --write-fields /tmp/f.json
    # on the new tree: the same hashes over the old fields (a renamed field mapped to its new name)
    PYTHONPATH=/new python scripts/trace_old_fields.py --setup zulrah:4:2024:7:400 --fields /tmp/f.json \
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


def parse_setup(text: str) -> tuple[str, int, int, int, int]:
    """``ENCOUNTER:ENVS:SEED:ACTION_SEED:TICKS`` as a tuple."""
    parts = text.split(":")
    if len(parts) != 5:
        raise argparse.ArgumentTypeError(f"expected ENCOUNTER:ENVS:SEED:ACTION_SEED:TICKS, got {text!r}")
    try:
        return (parts[0], *(int(p) for p in parts[1:]))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected integers after the encounter name, got {text!r}") from None


def trace_hash(setup: tuple, names: list[str], rename: dict[str, str]) -> str:
    encounter, n, seed, action_seed, ticks = setup
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
    ap.add_argument("--setup", action="append", type=parse_setup, required=True,
                    metavar="ENCOUNTER:ENVS:SEED:ACTION_SEED:TICKS", help="a trace to hash (repeatable)")
    ap.add_argument("--write-fields", help="write this tree's state field names per setup to this JSON file")
    ap.add_argument("--fields", help="hash over the field names in this JSON file (default: this tree's)")
    ap.add_argument("--rename", action="append", default=[], help="encounter:old=new, a field renamed since")
    args = ap.parse_args()
    setups = {s[0]: s for s in args.setup}
    own = {k: list(get_spec(k).state_dtype.names) for k in setups}
    if args.write_fields:
        with open(args.write_fields, "w", encoding="utf-8") as f:
            json.dump(own, f)
    names = own
    if args.fields:
        with open(args.fields, encoding="utf-8") as f:
            names = json.load(f)
    renames: dict[str, dict[str, str]] = {k: {} for k in setups}
    for item in args.rename:
        setup, pair = item.split(":", 1)
        old, new = pair.split("=", 1)
        renames[setup][old] = new
    for name, setup in setups.items():
        print(f"{name}: {trace_hash(setup, names[name], renames[name])}")


if __name__ == "__main__":
    main()
