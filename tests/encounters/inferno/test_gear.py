"""Inferno part 2: gear sets and switches, Ice Barrage on a clump, the blowpipe's Toxic Siphon, Augury, the
second loadout, and the masks of the new heads (README "Rules")."""

import numpy as np

from osrs_rl.core import equipment as E
from osrs_rl.core import prayers as P
from osrs_rl.core import styles as S
from osrs_rl.core.accuracy import hit_chance
from osrs_rl.core.attack import rolls_vs_npc
from osrs_rl.core.events import EV_ATTACK, EV_HIT, EVF_ACCURATE, EVF_SPECIAL
from osrs_rl.core.formula import NO_TRACE
from osrs_rl.core.skills import HITPOINTS, PRAYER
from osrs_rl.data import tables
from osrs_rl.encounters.inferno import state as ST
from osrs_rl.encounters.inferno import view as V
from tests.encounters.inferno.helpers import act, commit, empty_arena, inferno, put, run

STILL = 30_000      # a stun that outlasts the test: the monster neither moves nor attacks (nor thaws)


def _cfg(env, field):
    return env.config[field][0]


def _mask(env, head):
    name = ("move", "attack", "overhead", "offensive", "drink", "gear", "spec")[head]
    return np.ravel(env.head_masks()[name][0])


def _self(env, name):
    """A feature of the self segment (the observation's first)."""
    return float(np.ravel(env._obs[0])[V.SELF_NAMES.index(name)])


def _weapon(env):
    return tables.items().name(int(env.states[0]["p"]["equipment"][E.WEAPON]))


def _player_attacks(env, evs):
    return [e for e in evs if int(e["kind"]) == EV_ATTACK and int(e["source"]) == ST.ENT_PLAYER]


def test_a_switch_puts_on_the_set_and_the_attack_uses_its_speed_and_range():
    # twisted bow Rapid 5 ticks, range 10; toxic blowpipe Rapid 2 ticks, range 5 [items.json; OSRS wiki
    # "Attack speed" (Rapid 1 tick faster: 6/5 and 3/2) and "Attack range" (10 and 5)]; after the tick the
    # timer has counted down once
    env = inferno()
    empty_arena(env, player=(15, 10))
    put(env, 0, ST.K_MELEER, 15, 17, hp=30_000, stun=STILL)       # 7 tiles north of the player's tile
    env.step(act(attack=1))
    assert _weapon(env) == "Twisted bow" and int(env.states[0]["p"]["attack_timer"]) == 4
    env.step(act(gear=1 + ST.SET_MAGIC))                     # a switch keeps the timer running
    assert int(env.states[0]["p"]["attack_timer"]) == 3 and int(env.states[0]["gear_set"]) == ST.SET_MAGIC
    env.step(act(gear=1 + ST.SET_BOW))
    env.states[0]["p"]["attack_timer"] = 0
    commit(env)
    evs = run(env, 1, act(gear=1 + ST.SET_BLOWPIPE, attack=1))[0]      # 7 tiles: beyond the blowpipe's 5
    assert _weapon(env) == "Toxic blowpipe (Charged)" and int(env.states[0]["gear_set"]) == ST.SET_BLOWPIPE
    assert not _player_attacks(env, evs)
    assert _self(env, "wearing_blowpipe") == 1.0 and _self(env, "wearing_bow") == 0.0
    env.states[0]["monsters"][0]["y"] = 14                                # 4 tiles: in reach
    commit(env)
    evs = run(env, 1, act(attack=1))[0]
    assert len(_player_attacks(env, evs)) == 1 and int(env.states[0]["p"]["attack_timer"]) == 1
    # back to the bow and shoot in the same tick: the bow's timer again
    env.states[0]["p"]["attack_timer"] = 0
    commit(env)
    evs = run(env, 1, act(gear=1 + ST.SET_BOW, attack=1))[0]
    assert len(_player_attacks(env, evs)) == 1 and int(env.states[0]["p"]["attack_timer"]) == 4


def _magic_max(worn, prayer_pct_tenths=0):
    """dps-calc getPlayerMaxMagicHit: base + floor(base * magic damage (tenths of %) / 1000), from the items."""
    items = tables.items()
    dmg = sum(int(items.records[int(i)]["bonuses"][S.B_MAGIC_DMG]) for i in worn if i >= 0) + prayer_pct_tenths
    return 30 + 30 * dmg // 1000


def test_barrage_max_hits_follow_the_magic_damage_formula_for_both_loadouts():
    # Ice Barrage base 30 (spells.json); the max loadout's hybrid magic set (InfernoTrainer's max kit): Kodai 15 %,
    # Ancestral top and bottom 3 % each, occult 5 %, Elidinis' ward (f) 5 % = 31 % -> 39 (items.json magic_dmg)
    for loadout in (0, 1):
        env = inferno(loadout=loadout)
        worn = _cfg(env, "set_worn")[ST.SET_MAGIC]
        rec = _cfg(env, "set_combat")[ST.SET_MAGIC]
        row = _cfg(env, "set_row")[ST.SET_MAGIC]
        nib = _cfg(env, "kind_row")[ST.K_NIBBLER]
        assert rolls_vs_npc(NO_TRACE, rec, nib, row)[3] == _magic_max(worn)
    env = inferno()
    assert _magic_max(_cfg(env, "set_worn")[ST.SET_MAGIC]) == 39


def test_second_loadout_is_the_cheaper_kit_with_its_own_ranges_and_speeds():
    env = inferno(loadout=1)
    names = [tables.items().name(int(w[E.WEAPON])) for w in _cfg(env, "set_worn")]
    assert names == ["Armadyl crossbow", "Toxic blowpipe (Charged)", "Ahrim's staff (Undamaged)"]
    # Armadyl crossbow range 8, blowpipe 5, spells 10 [OSRS wiki "Attack range"; items.json attack_range]
    assert list(_cfg(env, "set_range")) == [8, 5, 10]
    from osrs_rl.core.equipment import attack_speed
    # crossbow Rapid 5, blowpipe Rapid 2, a spell 5 [OSRS wiki "Attack speed"]
    assert [attack_speed(c) for c in _cfg(env, "set_combat")] == [5, 2, 5]
    # weaker in every set against Jal-Zek (whose magic lets the twisted bow scale up)
    top = inferno(loadout=0)
    zek = _cfg(env, "kind_row")[ST.K_MAGER]
    for g in range(ST.NUM_SETS):
        cheap = rolls_vs_npc(NO_TRACE, _cfg(env, "set_combat")[g], zek, _cfg(env, "set_row")[g])
        best = rolls_vs_npc(NO_TRACE, _cfg(top, "set_combat")[g], zek, _cfg(top, "set_row")[g])
        assert cheap[0] < best[0] and cheap[3] < best[3], (g, cheap, best)


def test_barrage_hits_the_3x3_around_the_target_each_rolled_alone_and_freezes():
    env = inferno(seed=5)
    empty_arena(env, player=(15, 10))
    # target: a Jal-Xil (size 3) with its south-west tile at (14, 18); the 3x3 is x 13..15, y 17..19
    put(env, 0, ST.K_RANGER, 14, 18, hp=30_000, stun=STILL)
    put(env, 1, ST.K_NIBBLER, 13, 17, hp=30_000, stun=STILL)          # in the 3x3
    put(env, 2, ST.K_NIBBLER, 12, 16, hp=30_000, stun=STILL)          # diagonal, one tile outside
    put(env, 3, ST.K_BAT, 11, 18, hp=30_000, stun=STILL)              # size 2: x 11..12, next to the 3x3, outside
    put(env, 4, ST.K_BAT, 12, 19, hp=30_000, stun=STILL)              # size 2: x 12..13 overlaps the 3x3
    env.step(act(gear=1 + ST.SET_MAGIC))
    accurate = np.zeros(5)
    landed = np.zeros(5)
    casts = 0
    split_flags = split_damage = 0          # casts whose hits differ in accuracy / damage between targets
    evs = run(env, 300, act(attack=1)) + run(env, 6)        # 60 casts, then the last one lands
    for tick in evs:
        casts += len(_player_attacks(env, tick))
        cast = {}
        for e in tick:
            if int(e["kind"]) == EV_HIT and int(e["source"]) == ST.ENT_PLAYER:
                k = int(e["target"]) - ST.ENT_MONSTER
                landed[k] += 1
                hit = bool(int(e["flags"]) & EVF_ACCURATE)
                accurate[k] += hit
                cast[k] = (hit, int(e["amount"]))
        split_flags += len({v[0] for v in cast.values()}) > 1
        split_damage += len({v[1] for v in cast.values()}) > 1
    assert casts == 60
    assert list(landed) == [60, 60, 0, 0, 60]
    # each monster rolls alone: one cast's hits disagree, and the rates follow each kind's chance (core.accuracy)
    assert split_flags > 0 and split_damage > 0
    rec = _cfg(env, "set_combat")[ST.SET_MAGIC].copy()
    rec["levels"] = env.states[0]["combat"][0]["levels"]
    rec["prayers"] = 0
    row = _cfg(env, "set_row")[ST.SET_MAGIC]
    for k, kind in ((0, ST.K_RANGER), (1, ST.K_NIBBLER), (4, ST.K_BAT)):
        att, dfn, _, _ = rolls_vs_npc(NO_TRACE, rec, _cfg(env, "kind_row")[kind], row)
        assert abs(accurate[k] / 60 - hit_chance(att, dfn)) < 0.2, (k, accurate[k], hit_chance(att, dfn))
    # an accurate barrage freezes for 32 ticks (stunned, they never count it down here); the others stay free
    frozen = env.states[0]["monsters"]["frozen"][:5]
    assert [int(f) for f in frozen] == [32 if accurate[k] else 0 for k in range(5)]
    assert int(env.states[0]["freezes"]) == int(accurate[[0, 1, 4]].sum())
    assert int(env.states[0]["barrage_hits"]) == 120


def test_a_frozen_monster_stays_put_but_still_attacks():
    env = inferno(seed=3)
    empty_arena(env, player=(15, 10))
    put(env, 0, ST.K_MELEER, 15, 20, hp=30_000, frozen=32)
    put(env, 1, ST.K_RANGER, 5, 25, hp=30_000, frozen=32)
    evs = run(env, 8)
    m = env.states[0]["monsters"]
    assert (int(m[0]["x"]), int(m[0]["y"])) == (15, 20) and int(m[0]["frozen"]) == 24
    assert any(int(e["kind"]) == EV_ATTACK and int(e["source"]) == ST.ENT_MONSTER + 1 for t in evs for e in t)


def test_toxic_siphon_spends_half_the_energy_and_heals_half_the_damage():
    env = inferno(seed=2)
    empty_arena(env, player=(15, 10), hp=40)
    put(env, 0, ST.K_MELEER, 15, 13, hp=30_000, stun=STILL)
    assert not _mask(env, ST.H_SPEC)[ST.SPEC_USE]           # the bow has no special
    env.step(act(gear=1 + ST.SET_BLOWPIPE))
    assert _mask(env, ST.H_SPEC)[ST.SPEC_USE]
    healed = 0
    for _ in range(20):
        s = env.states[0]
        s["p"]["spec_energy"], s["p"]["attack_timer"] = 100, 0
        s["p"]["levels"][HITPOINTS] = 40
        commit(env)
        hp0, heal0 = 40, int(s["spec_healed"])
        evs = run(env, 1, act(attack=1, spec=ST.SPEC_USE))[0]
        # 50 % [specials.json Toxic blowpipe] (+ 10 when the regeneration cycle ends this tick)
        assert int(env.states[0]["p"]["spec_energy"]) in (50, 60)
        assert [int(e["flags"]) & EVF_SPECIAL for e in _player_attacks(env, evs)] == [EVF_SPECIAL]
        evs = run(env, 3)
        hits = [e for t in evs for e in t if int(e["kind"]) == EV_HIT and int(e["source"]) == ST.ENT_PLAYER]
        assert len(hits) == 1 and int(hits[0]["flags"]) & EVF_SPECIAL
        damage = int(hits[0]["amount"])
        gain = int(env.states[0]["spec_healed"]) - heal0
        assert gain == damage // 2
        assert int(env.states[0]["p"]["levels"][HITPOINTS]) - hp0 in (gain, gain + 1)   # + a regen tick
        healed += gain
    assert healed > 0 and int(env.states[0]["specs_used"]) == 20
    env.states[0]["p"]["spec_energy"] = 40
    commit(env)
    assert not _mask(env, ST.H_SPEC)[ST.SPEC_USE]           # 40 % cannot pay for 50 %


def test_offensive_on_is_the_worn_sets_prayer_and_augury_drains_at_its_rate():
    env = inferno()
    empty_arena(env)
    env.step(act(offensive=ST.OFFENSIVE_ON))
    p = env.states[0]["p"]
    assert int(p["active_prayers"]) & (1 << P.RIGOUR) and not int(p["active_prayers"]) & (1 << P.AUGURY)
    assert not _mask(env, ST.H_OFFENSIVE)[ST.OFFENSIVE_ON]
    env.step(act(gear=1 + ST.SET_MAGIC))
    assert _mask(env, ST.H_OFFENSIVE)[ST.OFFENSIVE_ON]      # Augury is not on yet
    env.step(act(offensive=ST.OFFENSIVE_ON))
    p = env.states[0]["p"]
    assert int(p["active_prayers"]) & (1 << P.AUGURY) and not int(p["active_prayers"]) & (1 << P.RIGOUR)
    assert _self(env, "augury") == 1.0
    # drain: Augury 24 a tick against 60 + 2 x the magic set's prayer bonus [dps-calc getPrayerTicks, Prayer.ts]
    p["levels"][PRAYER], p["prayer_drain_counter"] = 99, 0
    commit(env)
    run(env, 100)
    bonus = int(_cfg(env, "set_combat")[ST.SET_MAGIC]["bonuses"][S.B_PRAYER])
    assert bonus != int(_cfg(env, "set_combat")[ST.SET_BOW]["bonuses"][S.B_PRAYER])
    assert 99 - int(env.states[0]["p"]["levels"][PRAYER]) == 100 * 24 // (60 + 2 * bonus)


def test_gear_mask_offers_every_set_but_the_worn_one():
    env = inferno()
    assert list(_mask(env, ST.H_GEAR)) == [True, False, True, True]
    env.step(act(gear=1 + ST.SET_MAGIC))
    assert list(_mask(env, ST.H_GEAR)) == [True, True, True, False]
    assert [_self(env, "wearing_" + n) for n in ST.SET_NAMES] == [0.0, 0.0, 1.0]


def test_the_cheaper_loadout_barrages_and_freezes_too():
    env = inferno(seed=4, loadout=1)
    empty_arena(env, player=(15, 10))
    for k, (x, y) in enumerate(((15, 18), (16, 19), (14, 17))):
        put(env, k, ST.K_NIBBLER, x, y, hp=30_000, stun=STILL)
    env.step(act(gear=1 + ST.SET_MAGIC))
    assert _weapon(env) == "Ahrim's staff (Undamaged)"
    evs = run(env, 1, act(attack=1)) + run(env, 6)        # 8 tiles: a spell's 1 + 9 // 3, + 1, lands 5 later
    hits = [e for t in evs for e in t if int(e["kind"]) == EV_HIT and int(e["source"]) == ST.ENT_PLAYER]
    assert sorted(int(e["target"]) - ST.ENT_MONSTER for e in hits) == [0, 1, 2]
    for e in hits:
        k = int(e["target"]) - ST.ENT_MONSTER
        assert int(env.states[0]["monsters"][k]["frozen"]) == (32 if int(e["flags"]) & EVF_ACCURATE else 0)
