"""An observation's values sit under their declared feature names (issue 46).

Each encounter names its observation's features (``ObsSegment.feature_names``) and the audit, replays and tools
read a value by those names. Before, the kernels wrote ``o[3] = ...`` by hand-counted position, so two names
listed in swapped order (or two segments) labelled each other's values and nothing failed. Now a view derives
the positions from the names (``osrs_rl.runtime.obs_layout``): reordering a declaration moves where a value
sits, never which name it carries.
"""

import enum
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

import osrs_rl
from osrs_rl.runtime import registry
from osrs_rl.runtime.obs_layout import family_start, feature_index, position, segment_bounds
from osrs_rl.runtime.spec import ObsSegment
from osrs_rl.runtime.vec_env import VecEnv
from tests.runtime.template_copy import replace_counted, swap_lines, template_copy


def by_name(spec, row) -> dict:
    """One agent's flat observation read through the spec's declaration: ``(segment, slot, feature) -> value``."""
    out = {}
    for seg, where in zip(spec.obs_segments, spec.obs_slices().values(), strict=True):
        block = row[where].reshape(seg.slots, seg.features)
        for slot in range(seg.slots):
            for k, feature in enumerate(seg.feature_names):
                out[seg.name, slot, feature] = float(block[slot, k])
    return out


def _check(spec, row, want: dict) -> None:
    got = by_name(spec, row)
    wrong = {key: (got[key], value) for key, value in want.items() if got[key] != pytest.approx(value, rel=1e-6)}
    assert not wrong, f"{spec.name}: (segment, slot, feature): (read, written) {wrong}"


# ---- the template, its declaration reordered -----------------------------------------------------------------
def _template_reordered(site: Path):
    """A copy of the template package with two player features swapped ("hp" and "food") and the two segments
    swapped, wherever the package declares them; returns its SPEC."""
    def edit(text):
        text, features = replace_counted(text, '"hp", "food",', '"food", "hp",')
        text, segments = swap_lines(text, 'ObsSegment("player"', 'ObsSegment("npc"')
        return text, features + segments

    return template_copy(site, "obs_names_reordered", edit)


def test_the_templates_features_and_segments_reordered_still_read_their_own_values(tmp_path):
    spec = _template_reordered(tmp_path)
    assert [s.name for s in spec.obs_segments] == ["npc", "player"]
    assert spec.obs_segments[1].feature_names[:2] == ("food", "hp")
    env = VecEnv(spec, num_envs=1, seed=5)
    env.reset()
    s = env.get_states()
    s["player_hp"], s["food"], s["player_attack_timer"], s["praying"], s["tick"] = 60, 7, 3, True, 100
    s["npc_hp"], s["npc_attack_timer"] = 45, 2
    env.set_states([0], s)
    _check(spec, env._obs[0, 0], {
        ("player", 0, "hp"): 60 / 99, ("player", 0, "food"): 7 / 28, ("player", 0, "attack_timer"): 3 / 4,
        ("player", 0, "praying"): 1.0, ("player", 0, "time"): 100 / 500,
        ("npc", 0, "hp"): 45 / 150, ("npc", 0, "attack_timer"): 2 / 4,
    })


# ---- every built-in encounter: features read by name hold the state they describe ------------------------------
def _template(env):
    s = env.get_states()
    s["player_hp"], s["food"], s["tick"], s["npc_hp"] = 61, 9, 40, 77
    env.set_states([0], s)
    return {("player", 0, "hp"): 61 / 99, ("player", 0, "food"): 9 / 28, ("player", 0, "time"): 40 / 500,
            ("npc", 0, "hp"): 77 / 150}


def _zulrah(env):
    from osrs_rl.core.skills import HITPOINTS, PRAYER
    from osrs_rl.encounters.zulrah import rotations as RT
    from osrs_rl.encounters.zulrah import state as ST

    s = env.get_states()
    s["p"]["levels"][0, HITPOINTS], s["p"]["levels"][0, PRAYER] = 57, 33
    s["supplies"][0, ST.SUP_FOOD] = max(int(s["supplies"][0, ST.SUP_FOOD]) - 2, 0)      # within the tier's kit
    s["tick"], s["z_hp"], s["set"] = 123, 321, ST.SET_RANGED
    env.set_states([0], s)
    s, cfg = env.get_states()[0], env.config[0]
    want = {("self", 0, "hp"): 57 / 99, ("self", 0, "prayer"): 33 / 99,
            ("self", 0, "food"): s["supplies"][ST.SUP_FOOD] / 28,
            ("self", 0, "time"): 123 / cfg["max_ticks"], ("zulrah", 0, "hp"): 321 / 500,
            ("scaffolding", 0, "enabled"): 1.0 if cfg["scaffolding"] else 0.0}
    want.update({("self", 0, "set_" + n): float(k == ST.SET_RANGED) for k, n in enumerate(ST.SET_NAMES)})
    want.update({("self", 0, "tier_" + n): float(k == s["tier"]) for k, n in enumerate(ST.TIER_NAMES)})
    want.update({("zulrah", 0, n): float(k == s["form"]) for k, n in enumerate(RT.FORM_NAMES)})
    want.update({("zulrah", 0, n): float(k == s["spot"]) for k, n in enumerate(RT.SPOT_NAMES)})
    return want


def _pvp(env):
    from osrs_rl.core.skills import HITPOINTS, PRAYER
    from osrs_rl.encounters.pvp import state as ST

    s = env.get_states()
    levels = s["players"]["p"]["levels"]
    levels[0, 0, HITPOINTS], levels[0, 0, PRAYER], levels[0, 1, HITPOINTS] = 71, 44, 38
    s["tick"], s["first"] = 17, 1
    env.set_states([0], s)
    s, cfg = env.get_states()[0], env.config[0]
    me, foe = s["players"]
    want = {("self", 0, "hitpoints"): 71 / 99, ("self", 0, "prayer"): 44 / 99,
            ("privileged", 0, "hitpoints"): 38 / 99, ("privileged", 0, "pid"): 0.0,
            ("relation", 0, "time"): 17 / cfg["max_ticks"]}
    want.update({("self", 0, "set_" + n): float(k == me["set"]) for k, n in enumerate(ST.SET_NAMES)})
    want.update({("self", 0, n): me["supplies"][k] / 20 for k, n in enumerate(ST.SUPPLY_NAMES)})
    want.update({("privileged", 0, n): foe["supplies"][k] / 20 for k, n in enumerate(ST.SUPPLY_NAMES)})
    return want


def _inferno(env):
    from osrs_rl.core.skills import PRAYER
    from osrs_rl.encounters.inferno import state as ST
    from osrs_rl.encounters.inferno import waves as W

    s = env.get_states()
    s["p"]["levels"][0, PRAYER], s["supplies"][0, ST.SUP_BREW], s["tick"] = 52, 11, 29
    env.set_states([0], s)
    s, cfg = env.get_states()[0], env.config[0]
    want = {("self", 0, "prayer"): 52 / 99, ("self", 0, "brews"): 11 / 32,
            ("self", 0, "time"): 29 / cfg["max_ticks"], ("wave", 0, "wave"): s["wave"] / W.NUM_WAVES}
    want.update({("self", 0, "wearing_" + n): float(k == s["gear_set"]) for k, n in enumerate(ST.SET_NAMES)})
    alive = [k for k in range(ST.MONSTER_SLOTS) if s["monsters"][k]["state"] == ST.SLOT_ALIVE]
    assert alive, "the wave starts with monsters"
    for k in alive:
        m = s["monsters"][k]
        want[("monsters", k, "alive")] = 1.0
        want[("monsters", k, "hp_frac")] = m["hp"] / max(cfg["kind_row"][m["kind"]]["hitpoints"], 1)
        want.update({("monsters", k, "is_" + n): float(j == m["kind"]) for j, n in enumerate(ST.KIND_NAMES)})
    return want


@pytest.mark.parametrize("name, setup", [("template", _template), ("zulrah", _zulrah), ("pvp", _pvp),
                                         ("inferno", _inferno)])
def test_every_encounter_writes_what_each_name_says(name, setup):
    env = osrs_rl.make(name, num_envs=1, seed=11)
    env.reset()
    want = setup(env)
    _check(env.spec, env._obs[0, 0], want)


@pytest.mark.parametrize("name", sorted({registry.get_spec(n).observe.py_func.__module__: n
                                         for n in registry.builtin_names()}.values()))
def test_every_view_derives_its_bounds_from_the_declared_segments(name):
    """The view's START/STOP (where its kernels slice each segment) are the spec's obs_slices: the view and the
    spec hold one declaration."""
    spec = registry.get_spec(name)
    view = sys.modules[spec.observe.py_func.__module__]
    assert view.OBS_SEGMENTS is spec.obs_segments
    assert {n: slice(int(view.START[n]), int(view.STOP[n])) for n in view.START.__members__} == spec.obs_slices()


# ---- the helpers ---------------------------------------------------------------------------------------------
SEGS = (ObsSegment("me", 3, 1, ("hp", "set_a", "set_b")), ObsSegment("npcs", 2, 4, ("x", "y")))
ME = feature_index("ME", SEGS[0].feature_names)
NPC = feature_index("NPC", SEGS[1].feature_names)
START, STOP = segment_bounds(SEGS)
SET_0 = family_start(ME, ("set_a", "set_b"), 2)
NPC_FEATURES = len(NPC)          # a plain int: Numba takes no len() of an enum class


@njit(cache=True)
def _write(o, hp, chosen, xs):
    o[START.me + ME.hp] = hp
    for j in range(2):
        o[START.me + SET_0 + j] = 1.0 if j == chosen else 0.0
    npcs = o[START.npcs:STOP.npcs]              # a segment's slice, its slots' rows at offsets
    for k in range(xs.shape[0]):
        npcs[k * NPC_FEATURES + NPC.x] = xs[k]
        npcs[k * NPC_FEATURES + NPC.y] = -xs[k]


def test_kernels_write_by_member_and_by_family_offset():
    o = np.full(11, np.nan, dtype=np.float32)
    _write(o, 0.5, 1, np.arange(4, dtype=np.float32))
    assert o.tolist() == [0.5, 0.0, 1.0, 0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 3.0, -3.0]
    assert issubclass(ME, enum.IntEnum) and [int(m) for m in ME] == [0, 1, 2]
    assert (int(START.npcs), int(STOP.npcs)) == (3, 11)


def test_a_name_the_declaration_lacks_fails_to_compile():
    @njit
    def writes_mana(o):
        o[ME.mana] = 1.0

    with pytest.raises(TypingError, match="mana"):
        writes_mana(np.zeros(3, dtype=np.float32))


@pytest.mark.parametrize("declare, message", [
    (lambda: feature_index("X", ("hp", "hp")), "'hp' is named twice"),
    (lambda: feature_index("X", ("hp", "2nd")), "'2nd' is not a name"),
    (lambda: feature_index("X", ("value",)), "'value' is not a name"),
    (lambda: feature_index("X", ("_hidden",)), "'_hidden' is not a name"),
    (lambda: feature_index("X", ()), "names nothing"),
    (lambda: family_start(ME, ("set_b", "set_a")), "not consecutive: 'set_a' lies at 1, not 3"),
    (lambda: family_start(ME, ("hp", "set_b")), "not consecutive"),
    (lambda: family_start(ME, ("set_a", "set_b"), 3), "has 2 names, its loop writes 3"),
    (lambda: family_start(ME, ("set_c",)), "no feature 'set_c'"),
    (lambda: segment_bounds((ObsSegment("a", 1), ObsSegment("a", 2))), "'a' is named twice"),
])
def test_a_bad_declaration_is_refused_with_its_reason(declare, message):
    with pytest.raises(ValueError, match=message):
        declare()


def test_a_tool_finds_a_feature_by_name():
    spec = registry.get_spec("template")
    assert position(spec, "player", "hp") == 0 and position(spec, "npc", "attack_timer") == 6
    inferno = registry.get_spec("inferno")
    row = inferno.obs_slices()["monsters"].start + 2 * inferno.obs_segments[1].features
    assert position(inferno, "monsters", "dx", slot=2) == row + inferno.obs_segments[1].feature_names.index("dx")
    for args, message in (((spec, "boss", "hp"), "no observation segment 'boss'"),
                          ((spec, "npc", "food"), "no feature 'food'"), ((spec, "npc", "hp", 1), "1 slots")):
        with pytest.raises(KeyError, match=message):
            position(*args)
