"""REQUIRED. Template encounter state and settings: one record per env, one config record shared by all."""

import numpy as np

from osrs_rl.core.events import event_fields
from osrs_rl.core.rng import RNG_DTYPE
from osrs_rl.runtime.action_layout import head_index, option_index
from osrs_rl.runtime.name_index import name_index
from osrs_rl.runtime.spec import ActionHead, ConfigField

MAX_FOOD = 28          # a full inventory; scales the food observation
ENT_PLAYER, ENT_NPC = 0, 1             # entity ids of the event buffer (core.events)
EVENT_CAPACITY = 8     # a tick holds at most 2 attacks, 2 hits and 2 deaths
REWARD_TERMS = ("damage_dealt", "damage_taken", "outcome")
REWARD = name_index("REWARD", REWARD_TERMS)   # step writes each term by name: s.reward_terms[0, REWARD.outcome]

# the actions, one head per choice a tick (option 0 of each is the no-op), declared once: the mechanics read an
# agent's action row by these names (a[HEAD.eat] == EAT.eat) and the mask writes them (view.py), so an option's
# label is what the rules do with it wherever it sits
HEADS = (
    ActionHead("attack", 2, ("wait", "attack")),
    ActionHead("prayer", 3, ("keep", "protect_melee", "off")),
    ActionHead("eat", 2, ("no", "eat")),
)
HEAD = head_index("HEAD", HEADS)                      # HEAD.eat: the eat head's element of an action row
ATTACK = option_index("ATTACK", HEADS[HEAD.attack])   # ATTACK.attack: that option's number in its head
PRAYER = option_index("PRAYER", HEADS[HEAD.prayer])
EAT = option_index("EAT", HEADS[HEAD.eat])

STATE_DTYPE = np.dtype([
    # episode clock and the env's own random stream
    ("tick", np.int32),
    ("rng", *RNG_DTYPE),
    # the player
    ("player_hp", np.int32),
    ("food", np.int32),
    ("player_attack_timer", np.int32),   # ticks until the player may attack again
    ("eat_timer", np.int32),             # ticks until the player may eat again
    ("praying", np.bool_),               # Protect from Melee is on
    # the NPC
    ("npc_hp", np.int32),
    ("npc_attack_timer", np.int32),
    # episode tallies for metrics
    ("damage_dealt", np.int32),
    ("damage_taken", np.int32),
    ("food_eaten", np.int32),
    # the reward by term (REWARD_TERMS): the last tick's (step adds each in), the episode's sums (the runtime's)
    ("reward_terms", np.float32, (1, len(REWARD_TERMS))),
    ("reward_sums", np.float32, (1, len(REWARD_TERMS))),
    # what the last tick did: its events (hits, attacks, deaths)
    *event_fields(EVENT_CAPACITY),
])

# Defaults: a 99-all player with an abyssal whip (Lash) against an Abyssal demon, the numbers the
# calculator gives (osrs-rl calc --gear weapon="Abyssal whip" --style Lash --target "Abyssal demon (Standard)").
CONFIG_FIELDS = (
    ConfigField("player_max_hp", np.int32, 99, 10, 99, "the player's hitpoints level"),
    ConfigField("start_food", np.int32, 10, 0, MAX_FOOD, "sharks in the inventory"),
    ConfigField("food_heal", np.int32, 20, 1, 30, "hitpoints one food heals (shark: 20)"),
    ConfigField("player_attack_roll", np.int32, 15768, 0, 10**6),
    ConfigField("player_max_hit", np.int32, 25, 0, 200),
    ConfigField("player_attack_speed", np.int32, 4, 1, 10, "ticks between attacks"),
    ConfigField("player_defence_roll", np.int32, 6848, 0, 10**6),
    ConfigField("npc_max_hp", np.int32, 150, 1, 5000),
    ConfigField("npc_defence_roll", np.int32, 12096, 0, 10**6),
    ConfigField("npc_attack_roll", np.int32, 6784, 0, 10**6),
    ConfigField("npc_max_hit", np.int32, 8, 0, 200),
    ConfigField("npc_attack_speed", np.int32, 4, 1, 10),
    ConfigField("max_ticks", np.int32, 500, 10, 100_000, "episodes are truncated after this many ticks"),
    ConfigField("win_reward", np.float32, 1.0, -100.0, 100.0, "reward for killing the NPC (minus it for dying)"),
)
