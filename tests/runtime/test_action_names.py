"""An action's options mean what their labels say, in the mask and in the rules (issue 46).

Each encounter labels its action heads' options (``ActionHead.labels``); the policy's distribution, replays and
the viewer show an option by its label. Before, the mask kernel wrote ``row[k + 1]`` by hand-counted position
and the mechanics compared actions with constants numbered apart from the labels, so two labels listed in
swapped order (or two heads) named each other's options and nothing failed. Now both derive the positions
from the declaration (``osrs_rl.runtime.action_layout``): reordering it moves where an option sits, never what
its label does.
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
from osrs_rl.runtime.action_layout import (
    check_numbered,
    head_bounds,
    head_index,
    option_index,
    option_position,
    option_start,
)
from osrs_rl.runtime.spec import ActionHead
from osrs_rl.runtime.vec_env import VecEnv
from tests.runtime.template_copy import replace_counted, swap_lines, template_copy


def legal(spec, mask_row) -> dict:
    """One agent's flat mask read through the spec's declaration: ``(head, label) -> legal``."""
    return {(h.name, label): bool(mask_row[where][k])
            for h, where in zip(spec.action_heads, spec.mask_slices().values(), strict=True)
            for k, label in enumerate(h.labels)}


def action(spec, **chosen) -> np.ndarray:
    """An action row choosing ``head=label`` by name (option 0 for the heads not named)."""
    return np.array([[h.labels.index(chosen[h.name]) if h.name in chosen else 0 for h in spec.action_heads]])


# ---- the template, its declaration reordered -----------------------------------------------------------------
def _template_reordered(site: Path):
    """A copy of the template package with two prayer options swapped ("protect_melee" and "off") and the
    attack and eat heads swapped, wherever the package declares them; returns its SPEC."""
    def edit(text):
        text, options = replace_counted(text, '("keep", "protect_melee", "off")', '("keep", "off", "protect_melee")')
        text, heads = swap_lines(text, 'ActionHead("attack"', 'ActionHead("eat"')
        return text, options + heads

    return template_copy(site, "action_names_reordered", edit)


def test_the_templates_options_and_heads_reordered_still_mean_their_labels(tmp_path):
    spec = _template_reordered(tmp_path)
    assert [h.name for h in spec.action_heads] == ["eat", "prayer", "attack"]
    assert spec.action_heads[1].labels == ("keep", "off", "protect_melee")
    env = VecEnv(spec, num_envs=1, seed=5)
    env.reset()
    s = env.get_states()
    s["praying"], s["player_attack_timer"], s["food"], s["eat_timer"], s["player_hp"] = False, 0, 3, 0, 50
    env.set_states([0], s)
    got = legal(spec, env.action_mask()[0])
    assert got == {("eat", "no"): True, ("eat", "eat"): True, ("prayer", "keep"): True,
                   ("prayer", "off"): False, ("prayer", "protect_melee"): True,
                   ("attack", "wait"): True, ("attack", "attack"): True}
    # the rules do what the label says: the prayer goes on, a bite is eaten, the attack swings
    env.step(action(spec, prayer="protect_melee", eat="eat", attack="attack"))
    s = env.get_states()
    assert bool(s["praying"][0]) and int(s["food"][0]) == 2 and int(s["food_eaten"][0]) == 1
    assert int(s["player_attack_timer"][0]) > 0
    got = legal(spec, env.action_mask()[0])
    assert got["prayer", "off"] and not got["prayer", "protect_melee"]
    env.step(action(spec, prayer="off"))
    assert not bool(env.get_states()["praying"][0])


# ---- every built-in encounter: its kernels use the spec's declaration -------------------------------------------
def _one_per_view() -> list[str]:
    """Every built-in encounter once per view module (pvp_selfplay shares pvp's), read from the registry, so a new
    encounter is checked without being added here."""
    seen, out = set(), []
    for name in registry.builtin_names():
        module = registry.get_spec(name).mask.py_func.__module__
        if module not in seen:
            seen.add(module)
            out.append(name)
    return out


@pytest.mark.parametrize("name", _one_per_view())
def test_every_mask_derives_its_bounds_from_the_declared_heads(name):
    """The view's MASK_START/MASK_STOP (where its mask kernel writes each head) are the spec's mask_slices, and
    the state's HEAD (where the mechanics read each head) is the spec's order: one declaration."""
    spec = registry.get_spec(name)
    view = sys.modules[spec.mask.py_func.__module__]
    state = sys.modules[view.__name__.rsplit(".", 1)[0] + ".state"]
    assert state.HEADS is spec.action_heads
    assert {n: slice(int(view.MASK_START[n]), int(view.MASK_STOP[n])) for n in view.MASK_START.__members__} \
        == spec.mask_slices()
    assert [h.name for h in spec.action_heads] == list(state.HEAD.__members__)


def test_an_encounters_mask_read_by_label_follows_its_state():
    """The Inferno's overhead options by label: with Protect from Magic on, "magic" is not offered and "off" is."""
    from osrs_rl.core import prayers as P
    from osrs_rl.core.skills import PRAYER

    env = osrs_rl.make("inferno", num_envs=1, seed=2)
    env.reset()
    s = env.get_states()
    s["p"]["active_prayers"][0] = 1 << P.PROTECT_FROM_MAGIC
    s["p"]["levels"][0, PRAYER] = 40
    env.set_states([0], s)
    got = legal(env.spec, env.action_mask()[0])
    assert not got["overhead", "magic"] and got["overhead", "missiles"] and got["overhead", "off"]


# ---- the helpers ---------------------------------------------------------------------------------------------
HEADS = (ActionHead("move", 4, ("none", "walk_0", "walk_1", "walk_2")),
         ActionHead("gear", 3, ("keep", "set_a", "set_b")))
HEAD = head_index("HEAD", HEADS)
GEAR = option_index("GEAR", HEADS[HEAD.gear])
MASK_START, MASK_STOP = head_bounds(HEADS)
WALK_0 = option_start(HEADS[HEAD.move], ("walk_0", "walk_1", "walk_2"), 3)


@njit(cache=True)
def _write(row, worn, a):
    row[MASK_START.move] = True
    for o in range(3):
        row[MASK_START.move + WALK_0 + o] = o != 1
    gear = row[MASK_START.gear:MASK_STOP.gear]          # a head's slice, its options by number
    gear[GEAR.keep] = True
    gear[GEAR.set_a] = worn != 0
    gear[GEAR.set_b] = worn != 1
    return a[HEAD.gear] == GEAR.set_b


def test_kernels_write_options_by_member_and_by_family_offset():
    row = np.zeros(7, dtype=np.bool_)
    assert _write(row, 0, np.array([0, 2]))
    assert row.tolist() == [True, True, False, True, True, False, True]
    assert issubclass(GEAR, enum.IntEnum) and (int(HEAD.gear), int(GEAR.set_b), WALK_0) == (1, 2, 1)


def test_an_option_the_declaration_lacks_fails_to_compile():
    @njit
    def wears_set_c(row):
        row[MASK_START.gear + GEAR.set_c] = True

    with pytest.raises(TypingError, match="set_c"):
        wears_set_c(np.zeros(7, dtype=np.bool_))


@pytest.mark.parametrize("declare, message", [
    (lambda: option_index("X", ActionHead("attack", 2, ("ice barrage", "wait"))), "'ice barrage' is not a name"),
    (lambda: option_index("X", ActionHead("attack", 2)), "labels 0 of its 2 options"),
    (lambda: option_index("X", ActionHead("attack", 2, ("wait", "wait"))), "'wait' is named twice"),
    (lambda: head_index("X", (ActionHead("a", 2), ActionHead("a", 3))), "'a' is named twice"),
    (lambda: head_bounds((ActionHead("2a", 2),)), "'2a' is not a name"),
    (lambda: option_start(HEADS[0], ("walk_1", "walk_0")), "not consecutive: 'walk_0' lies at 1, not 3"),
    (lambda: option_start(HEADS[0], ("walk_0", "walk_1"), 3), "has 2 names, its loop writes 3"),
    (lambda: option_start(HEADS[0], ("run_0",)), "no option 'run_0'"),
    (lambda: check_numbered(HEADS[HEAD.gear], 1, {"set_a": 0, "set_b": 0}),
     r"option 1 \+ 0 \(the index of 'set_b'\) is 'set_a'"),
    (lambda: check_numbered(HEADS[HEAD.gear], 1, {"set_b": 2}), "is no option, not 'set_b'"),
])
def test_a_bad_declaration_is_refused_with_its_reason(declare, message):
    with pytest.raises(ValueError, match=message):
        declare()


def test_a_tool_finds_an_option_by_name():
    spec = registry.get_spec("template")
    assert option_position(spec, "attack", "attack") == 1 and option_position(spec, "eat", "eat") == 6
    for args, message in (((spec, "move", "n"), "no action head 'move'"),
                          ((spec, "eat", "drink"), "no option 'drink'")):
        with pytest.raises(KeyError, match=message):
            option_position(*args)
