"""REQUIRED. Template encounter declaration: everything the runtime, trainer and tools need to know.

The declarations marked optional below may be left out; docs/writing-an-encounter.md says what each serves."""

from pathlib import Path

from osrs_rl.runtime.attacks import Attack
from osrs_rl.runtime.bounds import Bound, event_bounds
from osrs_rl.runtime.inventory import Kit
from osrs_rl.runtime.spec import EncounterSpec, Outcome

from . import mechanics as M
from . import view as V
from .scene import scene
from .state import CONFIG_FIELDS, ENT_NPC, EVENT_CAPACITY, HEADS, REWARD_TERMS, STATE_DTYPE
from .truth import TRUTH


def attacks(cfg):
    """Every attack that can hurt the player, with the max hit the kernel rolls (checked when a config is built:
    runtime.attacks): the NPC's melee."""
    return [Attack("npc", "melee", int(cfg["npc_max_hit"]), "setting npc_max_hit")]


def kit(cfg):
    """What the player carries (refused past 28 inventory slots: runtime.inventory): a whip worn, the sharks."""
    return Kit("the player", (("Abyssal whip",),), (("Shark", int(cfg["start_food"])),))


SPEC = EncounterSpec(
    # ---- required ----------------------------------------------------------------------------------
    name="template",      # what osrs_rl.make, the command line and the entry point call it
    version=4,            # 4: the episode's reward sums in the state; 3: reward terms and an event buffer in the
                          # state; 2: eat timer added to the state
    state_dtype=STATE_DTYPE,
    config_fields=CONFIG_FIELDS,
    action_heads=HEADS,   # one discrete choice per head a tick: the mechanics read and the mask writes them by name
    obs_segments=V.OBS_SEGMENTS,  # the observation's blocks of named features: the observe kernel writes each by name
    metric_record=V.METRICS,  # the episode metrics: a record the metrics kernel writes by name (out.won)
    phase_names=("npc_above_half", "npc_below_half"),
    # the reward's named terms: step adds each into the state's reward_terms, the runtime sums them into the reward
    reward_terms=REWARD_TERMS,
    reset=M.reset,
    step=M.step,
    observe=V.observe,
    mask=V.mask,
    metrics=V.metrics,
    # how an episode ended (training logs, evaluation, replays, the viewer and the audit read it): "won"
    # is 1 when the NPC died; a fight that ends without it was lost (the player died), one cut at
    # max_ticks timed out; "ticks" is its length
    outcome=Outcome(success="won", length="ticks"),
    # the state fields the kernels (or the scene) index with, and their ranges (runtime.bounds); the
    # template has one flag, counts and timers, and the event buffer the scene reads (tests/runtime/
    # test_state_fuzz.py checks that)
    state_bounds=(Bound("praying", 0, 1, "a bool"), *event_bounds(EVENT_CAPACITY, ENT_NPC, ENT_NPC)),
    # ---- optional ----------------------------------------------------------------------------------
    description="A player with a whip fights one melee NPC: the encounter the guide walks through.",
    cell_key=V.cell_key,                  # Go-Explore archives' cell of a state
    progress=V.progress,                  # ... and how far a state has got (each cell keeps its best)
    scene=scene,                          # replay render, view, play
    truth=TRUTH,                          # osrs-rl audit
    attacks=attacks,                      # what can hurt the player, each max hit >= 1 (runtime.attacks)
    kit=kit,                              # what the player carries, at most 28 slots (runtime.inventory)
    preset=str(Path(__file__).with_name("preset.toml")),     # the training defaults (osrs-rl train)
    gpu_preset=str(Path(__file__).with_name("gpu.toml")),   # over it for one GPU (osrs-rl train --preset gpu)
)
