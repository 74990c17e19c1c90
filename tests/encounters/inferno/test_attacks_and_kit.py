"""What can hurt an Inferno player and what it carries, each pinned so a hole cannot come back: the blob's
ranged style hurts through Protect from Magic, every declared attack can hurt and every style the kernels roll
is declared (runtime.attacks), the audit's truth names each hit by kind and style, the kit fits 28 slots
(runtime.inventory), and every encounter declares both."""

import pytest

from osrs_rl.core.events import EV_HIT
from osrs_rl.core.pending_hits import STYLE_MAGIC, STYLE_RANGED
from osrs_rl.core.skills import PRAYER
from osrs_rl.encounters.inferno import loadouts as L
from osrs_rl.encounters.inferno import state as ST
from osrs_rl.runtime.config import ConfigError, build_config
from osrs_rl.runtime.registry import get_spec

from .helpers import act, commit, empty_arena, events, inferno, keeper, put

PROTECT_FROM_MAGIC = ST.OVERHEAD_MAGIC        # the overhead head's choice


def test_a_blob_hurts_a_player_praying_protect_from_magic():
    """The issue's probe: a player praying Protect from Magic takes the blob's ranged shots (max 29, npcs.json).
    Regression: kind_max[blob, ranged] was -1 and every one of them rolled 0."""
    env = inferno()
    empty_arena(env, player=(15, 15))
    keeper(env)
    put(env, 0, ST.K_BLOB, 5, 14)
    env.states[0]["p"]["levels"][PRAYER] = 99
    commit(env)
    assert int(env.config["kind_max"][0][ST.K_BLOB, STYLE_RANGED]) == 29
    dealt, styles = 0, set()
    for _ in range(300):
        env.states[0]["p"]["levels"][PRAYER] = 99      # prayer never runs out
        commit(env)
        env.step(act(overhead=PROTECT_FROM_MAGIC))
        for e in events(env, EV_HIT, ST.ENT_MONSTER):
            dealt += int(e["amount"])
            styles.add(int(e["style"]))
    assert styles == {STYLE_RANGED}                      # the scan reads Magic: every shot ranged
    assert dealt > 0


def test_every_declared_attack_can_hurt_and_the_blob_declares_both_styles():
    env = inferno()
    rows = {a.pair: a.max_hit for a in L.attacks(env.config[0])}
    assert rows["blob/ranged"] == rows["blob/magic"] == rows["blob/melee"] == 29
    assert rows["jad/ranged"] == rows["jad/magic"] == 113 and rows["zuk/typeless"] == 148
    assert min(rows.values()) >= 1


def test_a_config_whose_attack_cannot_hurt_is_refused(monkeypatch):
    """The contract, checked when the config is built: take the blob's ranged style out of the kind table (the
    old bug) and building refuses, naming it."""
    monkeypatch.setitem(L._ATTACK, ST.K_BLOB, (15, (STYLE_MAGIC,), 1, 0))
    with pytest.raises(ConfigError, match="blob's ranged attack has max hit -1"):
        build_config(get_spec("inferno"))


def test_every_style_the_kernels_roll_is_declared_even_one_the_infobox_lacks(monkeypatch):
    """The declared rows are the infobox's styles and the kernel table's (``_ATTACK``): with an infobox that lists
    nothing, every style the kernels can roll is still declared and checked."""
    cfg = inferno().config[0]
    listed = {a.pair for a in L.attacks(cfg)}
    monkeypatch.setattr(L.tables, "npc_attack_styles", lambda name: ())
    kernel = {a.pair: a.max_hit for a in L.attacks(cfg)}
    assert set(kernel) <= listed
    assert {"blob/magic", "blob/ranged", "blob/melee", "ranger/melee", "jad/melee", "zuk/typeless"} <= set(kernel)
    assert L.kernel_styles(ST.K_BLOB) == ("magic", "ranged", "melee") and L.kernel_styles(ST.K_SHIELD) == ()
    assert min(kernel.values()) >= 1


def test_the_default_kit_fits_and_one_more_potion_is_refused():
    spec = get_spec("inferno")
    for loadout in (0, 1):
        cfg = build_config(spec, {"loadout": loadout})[0]
        assert L.kit(cfg).slots() <= 28
    assert L.kit(build_config(spec)[0]).slots() == 27     # 6 switches, 8 + 10 + 1 + 1 potions, a rune pouch
    build_config(spec, {"restores": 44})                   # the 28th slot
    with pytest.raises(ConfigError, match=r"loadout 0 takes 29 inventory slots \(6 switch items, 8 brew, 12 restore"):
        build_config(spec, {"restores": 48})              # the old default: 48 restores and 32 brews
    with pytest.raises(ConfigError, match="29 inventory slots"):
        build_config(spec, {"brews": 33, "restores": 44})  # a partly drunk potion takes a slot


def test_a_kit_counts_the_most_switch_items_any_worn_set_leaves_carried():
    kit = L.kit(build_config(get_spec("inferno"))[0])
    assert kit.switch_items() == 6        # the bow set worn: Kodai, ward, occult, Ancestral top and bottom, blowpipe
    assert "Dragon dart (Unpoisoned)" not in set().union(*kit.sets)     # loaded in the blowpipe, not carried


def test_the_truth_names_each_hit_by_kind_and_style():
    """The audit's reader: a blob's shot lands as ("blob", "ranged") with its damage."""
    from osrs_rl.encounters.inferno.truth import tick

    env = inferno(seed=5)
    empty_arena(env, player=(15, 15))
    keeper(env)
    put(env, 0, ST.K_BLOB, 5, 14)
    got = []
    for _ in range(60):
        before = env.states[0].copy()
        env.step(act(overhead=PROTECT_FROM_MAGIC))
        got += tick(before, env.states[0], env.config[0])["hits"]
    assert got and {(h.source, h.style) for h in got} == {("blob", "ranged")}
    assert not any(h.blocked for h in got) and sum(h.amount for h in got) > 0


def test_every_encounter_declares_its_attacks_and_kits_and_they_hold():
    from osrs_rl.runtime.attacks import check_attacks
    from osrs_rl.runtime.inventory import check_kits
    from osrs_rl.runtime.registry import builtin_names

    for name in builtin_names():
        spec = get_spec(name)
        assert spec.attacks is not None and spec.kit is not None, name
        cfg = build_config(spec)[0]
        assert check_attacks(spec, cfg) and check_kits(spec, cfg), name
