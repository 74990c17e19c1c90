"""Inferno monsters and pillars, one rule per test: Jal-ImKot's dig, Jal-Zek's resurrection, pillar collapse
damage (sources: the README's rules table and kinds.py's constants)."""

from osrs_rl.core.events import EV_ATTACK, EV_DEATH, EV_HIT, EV_SPAWN
from osrs_rl.core.skills import HITPOINTS
from osrs_rl.encounters.inferno import arena as A
from osrs_rl.encounters.inferno import kinds as KIN
from osrs_rl.encounters.inferno import state as ST

from .helpers import act, commit, dead, empty_arena, events, inferno, keeper, put, run

MONSTER = ST.ENT_MONSTER


def flagged(ticks, kind, flag, source=None):
    return [int(e["tick"]) for evs in ticks for e in evs
            if int(e["kind"]) == kind and int(e["flags"]) & flag and (source is None or int(e["source"]) == source)]


# ---- Jal-ImKot's dig ---------------------------------------------------------------------------------
def test_meleer_digs_resurfaces_by_the_player_and_waits_before_attacking():
    """dig_rule 0 with the window pinned to 3 ticks: it digs on its 3rd tick without reach, is underground
    (not attackable, not seen) for 6 ticks, resurfaces with the player on its north-east corner, frozen 2
    ticks, its next attack 6 ticks later (InfernoTrainer JalImKot.ts)."""
    env = inferno(dig_min=3, dig_max=3)
    empty_arena(env, player=(15, 15))
    keeper(env)
    put(env, 0, ST.K_MELEER, 22, 2)
    ticks = run(env, 3)
    assert flagged(ticks, EV_DEATH, ST.EVF_DIG, MONSTER) == [3]
    m = env.states[0]["monsters"][0]
    assert int(m["dig_left"]) == KIN.DIG_TICKS and int(m["activity"]) == ST.ACT_DIG
    assert not env.action_mask()[0, ST.NUM_MOVES + 1]
    ticks = run(env, 6)
    assert flagged(ticks, EV_SPAWN, ST.EVF_DIG, MONSTER) == [9]
    m = env.states[0]["monsters"][0]
    assert (int(m["x"]), int(m["y"])) == (15 - 3, 15 - 3)
    assert int(m["frozen"]) == KIN.DIG_SURFACE_FREEZE and int(m["attack_timer"]) == KIN.DIG_ATTACK_WAIT
    assert int(env.states[0]["digs"]) == 1


def test_meleer_resurfaces_on_the_next_corner_when_a_pillar_is_in_the_way():
    """The player just north-east of the west pillar: the south-west placement would overlap the pillar,
    so it takes the next one, the player on its south-west corner."""
    env = inferno(dig_min=1, dig_max=1)
    px, py = A.PILLARS[0][0] + 3, A.PILLARS[0][1] + 2
    empty_arena(env, player=(px, py))
    keeper(env)
    put(env, 0, ST.K_MELEER, 22, 2)
    run(env, 7)
    m = env.states[0]["monsters"][0]
    assert (int(m["x"]), int(m["y"])) == (px, py)


def test_meleer_dig_window_is_38_to_50_ticks_by_default():
    """A meleer that cannot move (frozen) and never reaches the player digs between 38 and 50 ticks
    (InfernoTrainer: 10 % a tick from 38, certain at 50)."""
    seen = []
    env = inferno(seed=0)
    for seed in range(6):
        env.reset(seed=seed)
        empty_arena(env, player=(15, 28))
        keeper(env)
        put(env, 0, ST.K_MELEER, 22, 2, frozen=1000)
        ticks = run(env, 50)
        digs = flagged(ticks, EV_DEATH, ST.EVF_DIG, MONSTER)
        assert len(digs) == 1 and 38 <= digs[0] <= 50
        seen.append(digs[0])
    assert len(set(seen)) > 1


def test_wiki_dig_rule_digs_at_50_unless_hit_in_the_last_15_ticks():
    env = inferno(dig_rule=1)
    empty_arena(env, player=(15, 28))
    keeper(env)
    put(env, 0, ST.K_MELEER, 22, 2, frozen=1000)
    assert flagged(run(env, 50), EV_DEATH, ST.EVF_DIG, MONSTER) == [50]
    env.reset(seed=3)
    empty_arena(env, player=(15, 28))
    keeper(env)
    put(env, 0, ST.K_MELEER, 22, 2, frozen=1000, hurt_tick=40)
    ticks = run(env, 56)
    assert flagged(ticks, EV_DEATH, ST.EVF_DIG, MONSTER) == [56]


# ---- Jal-Zek's resurrection --------------------------------------------------------------------------
def test_mager_revives_a_dead_monster_at_half_hitpoints_then_waits_8_ticks():
    env = inferno(revive_pct=100)
    empty_arena(env, player=(15, 28))
    keeper(env)
    put(env, 0, ST.K_MAGER, 8, 16)
    dead(env, 1, ST.K_MELEER)
    ticks = run(env, 1)
    assert flagged(ticks, EV_SPAWN, ST.EVF_REVIVED) == [1]
    m = env.states[0]["monsters"]
    assert int(m["state"][1]) == ST.SLOT_ALIVE and int(m["revived"][1]) == 1
    assert int(m["hp"][1]) == 75 // 2                                  # npcs.json Jal-ImKot 75 hp
    # the scan's first tile (16, 20) would overlap the north pillar: the next, one tile south (it takes its
    # turn after the mager's, so it may have stepped since: the spawn event has the tile)
    spawn = [e for evs in ticks for e in evs if int(e["kind"]) == EV_SPAWN][0]
    assert int(spawn["source"]) == MONSTER + 1 and int(spawn["target"]) == MONSTER
    assert (int(spawn["x"]), int(spawn["y"])) == (16, 19)
    assert int(m["attack_timer"][0]) == KIN.REVIVE_DELAY and int(m["activity"][0]) == ST.ACT_REVIVE
    assert int(env.states[0]["resurrections"]) == 1
    attacks = [int(e["tick"]) for evs in run(env, 9) for e in evs
               if int(e["kind"]) == EV_ATTACK and int(e["source"]) == MONSTER]
    assert attacks == [9]                                              # tick 1 + 8


def test_mager_never_revives_nibblers_bloblets_or_a_monster_twice():
    env = inferno(revive_pct=100)
    empty_arena(env, player=(15, 28))
    keeper(env)
    put(env, 0, ST.K_MAGER, 8, 16)
    dead(env, 1, ST.K_NIBBLER)
    dead(env, 2, ST.K_BLOBLET_MELEE)
    dead(env, 3, ST.K_RANGER, revived=1)
    ticks = run(env, 1)
    assert flagged(ticks, EV_SPAWN, ST.EVF_REVIVED) == []
    assert [int(e["source"]) for e in events(env, EV_ATTACK)] == [MONSTER]  # it attacked instead


# ---- pillar collapse ------------------------------------------------------------------------------------
def _collapse(rule, player_hp=99):
    env = inferno(collapse_rule=rule)
    x, y = A.PILLARS[2]
    empty_arena(env, player=(x - 1, y + 1), hp=player_hp)
    keeper(env)
    put(env, 0, ST.K_NIBBLER, x + 3, y, target=2)
    put(env, 1, ST.K_MELEER, x + 1, y + 4 - 1, stun=100, hp=60)  # its south edge next to the pillar's north
    put(env, 2, ST.K_BAT, x + 6, y, stun=100)                     # two tiles off: untouched
    env.states[0]["pillar_hp"][2] = 1
    commit(env)
    for _ in range(24):
        env.step(act())
        if int(env.states[0]["pillar_hp"][2]) == 0:
            break
    assert int(env.states[0]["pillar_hp"][2]) == 0
    return env


def test_a_collapsing_pillar_deals_49_to_its_neighbours():
    env = _collapse(1)
    s = env.states[0]
    assert int(s["p"]["levels"][HITPOINTS]) == 99 - 49 and int(s["collapse_damage"]) == 49
    assert int(s["monsters"]["state"][0]) == ST.SLOT_DEAD             # the nibbler (15 hp) is crushed
    assert int(s["monsters"]["hp"][1]) == 60 - 49
    assert int(s["monsters"]["hp"][2]) == int(env.config["kind_row"][0][ST.K_BAT]["hitpoints"])
    hits = [e for e in events(env, EV_HIT) if int(e["source"]) == ST.ENT_PILLAR + 2]
    assert len(hits) == 3


def test_collapse_rules_half_hitpoints_and_none():
    s = _collapse(2, player_hp=80).states[0]
    assert int(s["p"]["levels"][HITPOINTS]) == 40 and int(s["monsters"]["hp"][1]) == 30
    s = _collapse(0).states[0]
    assert int(s["p"]["levels"][HITPOINTS]) == 99 and int(s["monsters"]["hp"][1]) == 60
