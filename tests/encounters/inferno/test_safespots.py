"""Safespots the game has and the simulator must keep: a big monster chasing straight at the player snags on a
pillar and never reaches it (OSRS wiki "Safe spot": NPCs move directly toward their target and larger ones snag
on corners; the RuneLite inferno plugin's safespot overlay, InfernoNPC.canMoveToAttack, marks these tiles; osrs-sdk
Mob.getNextMovementStep stalls the same way). Found by scripts/inferno_safespots.py (docs/inferno-safespots.md).
A change to the chase that removes them, or lets the meleer stall for good, is a change to the game."""

from osrs_rl.core.events import EV_ATTACK, EV_DEATH
from osrs_rl.encounters.inferno import arena as A
from osrs_rl.encounters.inferno import state as ST
from osrs_rl.runtime.action_layout import option_position

from .helpers import act, commit, empty_arena, events, inferno, keeper, put

WEST, NORTH = 0, 1


def _only_pillar(env, k):
    env.states[0]["pillar_hp"][:] = [A.PILLAR_HP if i == k else 0 for i in range(3)]
    commit(env)


def _watch(env, ticks):
    """(monster attacks, digs, first attack tick or -1, ticks the attack mask offered slot 0) over ``ticks``."""
    attack_bit = option_position(env.spec, "attack", "slot_0")     # in the flat mask
    attacks = digs = shootable = 0
    first = -1
    for t in range(ticks):
        env.step(act())
        for e in events(env, source=ST.ENT_MONSTER):
            if int(e["kind"]) == EV_ATTACK:                    # the keeper is stunned: this is slot 0
                attacks += 1
                first = t if first < 0 else first
            if int(e["kind"]) == EV_DEATH and int(e["flags"]) & ST.EVF_DIG:
                digs += 1
        if env.action_mask()[0, attack_bit]:
            shootable += 1
    return attacks, digs, first, shootable


def test_a_bat_snags_on_the_north_pillar_for_good_while_the_player_shoots_it():
    """North pillar alone, the player on (17, 30): a bat from (28, 14) settles on (17, 21), 8 tiles off, and
    never attacks (bats do not dig), while the bow reaches it."""
    env = inferno()
    empty_arena(env, player=(17, 30))
    keeper(env)
    _only_pillar(env, NORTH)
    put(env, 0, ST.K_BAT, 28, 14)
    attacks, _, _, shootable = _watch(env, 60)
    m = env.states[0]["monsters"][0]
    assert (int(m["x"]), int(m["y"])) == (17, 21)
    assert attacks == 0
    assert shootable >= 40


def test_a_meleer_stalls_on_the_west_pillar_then_digs_out_and_hits():
    """West pillar alone, the player on (1, 18): a meleer from (26, 27) stalls on (4, 18), digs after 38-50
    ticks without reach (InfernoTrainer JalImKot.ts) and surfaces to hit: a temporary safespot, never a
    permanent one."""
    env = inferno()
    empty_arena(env, player=(1, 18))
    keeper(env)
    _only_pillar(env, WEST)
    put(env, 0, ST.K_MELEER, 26, 27)
    seen = []
    for _ in range(30):
        env.step(act())
        m = env.states[0]["monsters"][0]
        seen.append((int(m["x"]), int(m["y"])))
    assert seen[-5:] == [(4, 18)] * 5      # stalled, not wandering
    attacks, digs, first, _ = _watch(env, 50)
    assert digs == 1
    assert attacks >= 1 and first >= 8          # no hit until it has dug (30 + 8 ticks: the earliest dig is 38)
