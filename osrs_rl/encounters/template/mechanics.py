"""REQUIRED. Template encounter: a player fights one melee NPC. Small on purpose: read it in five minutes.

Tick order (one call of ``step`` = one 0.6 s tick), NPCs before the player as in the game:
  1. the player's prayer switch and eating take effect (food: one bite per 3 ticks, and it delays
     the next attack by 3 ticks: OSRS wiki "Food");
  2. the NPC attacks if its timer is 0: accuracy roll, damage 0..max; Protect from Melee blocks it
     entirely (PvE protection, core.damage.through_protection);
  3. the player, if alive, attacks if asked and its timer is 0: core.accuracy.roll_accuracy and
     core.damage.roll_damage (accurate 0s become 1);
  4. timers count down, so an attack on tick t with speed 4 allows the next on tick t + 4 and the
     mask shows it after tick t + 3;
  5. deaths end the episode (terminated); reaching ``max_ticks`` truncates it.
Melee hits land on the tick of the attack (hit delay 0, core.hit_delay), so no pending-hit queue is
needed here. Simplifications (a template, not a real fight): no prayer drain, no movement.
Reward: damage dealt / NPC max hp - damage taken / player max hp, plus ``win_reward`` on a kill
(minus it on death); ``step`` adds each term into the state's ``reward_terms`` (state.REWARD_TERMS;
the runtime zeroes them before the step and sums them into the reward after it) and records what the
tick did in its event buffer (core.events): each attack, the hit it landed (blocked by the prayer or
not) and a death.
"""

from numba import njit

from osrs_rl.core import rng as R
from osrs_rl.core.accuracy import roll_accuracy
from osrs_rl.core.damage import roll_damage, roll_npc_damage, through_protection
from osrs_rl.core.events import (
    ENTITY_NONE,
    EV_ATTACK,
    EV_DEATH,
    EV_HIT,
    EVF_ACCURATE,
    EVF_BLOCKED,
    EVF_KILLED,
    clear_events,
    record_event,
)
from osrs_rl.core.formula import NO_TRACE
from osrs_rl.core.pending_hits import STYLE_MELEE

from .state import ATTACK, EAT, ENT_NPC, ENT_PLAYER, HEAD, PRAYER, REWARD

EAT_ATTACK_DELAY = 3
EAT_DELAY = 3                         # ticks between bites (OSRS wiki "Food")

@njit(cache=True)
def reset(s, cfg, seed):
    """The runtime hands reset a zeroed record (EncounterSpec.carried_fields): set what starts non-zero."""
    R.seed_rng(s.rng, seed, 0)
    s.player_hp = cfg.player_max_hp
    s.food = cfg.start_food
    s.npc_hp = cfg.npc_max_hp
    # the NPC's first attack comes at a random point of its cycle
    s.npc_attack_timer = R.below(s.rng, cfg.npc_attack_speed)


@njit(cache=True)
def _player_inputs(s, cfg, prayer, eat):
    if prayer == PRAYER.protect_melee:
        s.praying = True
    elif prayer == PRAYER.off:
        s.praying = False
    if eat == EAT.eat and s.food > 0 and s.eat_timer == 0:
        s.food -= 1
        s.eat_timer = EAT_DELAY
        s.food_eaten += 1
        s.player_hp = min(cfg.player_max_hp, s.player_hp + cfg.food_heal)
        s.player_attack_timer += EAT_ATTACK_DELAY


@njit(cache=True)
def _npc_attack(s, cfg):
    if s.npc_attack_timer > 0:
        return 0
    s.npc_attack_timer = cfg.npc_attack_speed
    record_event(s, EV_ATTACK, ENT_NPC, ENT_PLAYER, STYLE_MELEE, 0, 0, 0, 0)
    damage = 0
    flags = 0
    if roll_accuracy(s.rng, cfg.npc_attack_roll, cfg.player_defence_roll):
        damage = roll_npc_damage(s.rng, cfg.npc_max_hit)
        flags = EVF_ACCURATE
    if s.praying:
        flags |= EVF_BLOCKED
    damage = min(s.player_hp, through_protection(NO_TRACE, damage, s.praying, False, True))
    s.player_hp -= damage
    s.damage_taken += damage
    record_event(s, EV_HIT, ENT_NPC, ENT_PLAYER, STYLE_MELEE, damage, flags, 0, 0)
    return damage


@njit(cache=True)
def _player_attack(s, cfg, attack):
    if attack != ATTACK.attack or s.player_attack_timer > 0 or s.player_hp <= 0:
        return 0
    s.player_attack_timer = cfg.player_attack_speed
    record_event(s, EV_ATTACK, ENT_PLAYER, ENT_NPC, STYLE_MELEE, 0, 0, 0, 0)
    damage = 0
    flags = 0
    if roll_accuracy(s.rng, cfg.player_attack_roll, cfg.npc_defence_roll):
        damage = roll_damage(s.rng, 0, cfg.player_max_hit)
        flags = EVF_ACCURATE
    damage = min(s.npc_hp, damage)
    s.npc_hp -= damage
    s.damage_dealt += damage
    record_event(s, EV_HIT, ENT_PLAYER, ENT_NPC, STYLE_MELEE, damage, flags, 0, 0)
    return damage


@njit(cache=True)
def step(s, cfg, actions):
    a = actions[0]
    s.tick += 1
    clear_events(s)                   # what the tick did starts empty (the runtime zeroes its reward terms)
    # 1. prayer and food
    _player_inputs(s, cfg, a[HEAD.prayer], a[HEAD.eat])
    # 2. the NPC, then 3. the player
    taken = _npc_attack(s, cfg)
    dealt = _player_attack(s, cfg, a[HEAD.attack])
    # 4. timers
    if s.player_attack_timer > 0:
        s.player_attack_timer -= 1
    if s.npc_attack_timer > 0:
        s.npc_attack_timer -= 1
    if s.eat_timer > 0:
        s.eat_timer -= 1
    # 5. outcome; each reward term goes into the state (the runtime adds them up into the reward)
    s.reward_terms[0, REWARD.damage_dealt] += dealt / cfg.npc_max_hp
    s.reward_terms[0, REWARD.damage_taken] -= taken / cfg.player_max_hp
    terminated = False
    if s.npc_hp <= 0:
        s.reward_terms[0, REWARD.outcome] += cfg.win_reward
        record_event(s, EV_DEATH, ENT_NPC, ENTITY_NONE, -1, 0, EVF_KILLED, 0, 0)
        terminated = True
    elif s.player_hp <= 0:
        s.reward_terms[0, REWARD.outcome] -= cfg.win_reward
        record_event(s, EV_DEATH, ENT_PLAYER, ENTITY_NONE, -1, 0, EVF_KILLED, 0, 0)
        terminated = True
    return terminated, (not terminated) and s.tick >= cfg.max_ticks
