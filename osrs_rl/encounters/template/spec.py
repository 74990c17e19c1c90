"""Template encounter declaration: everything the runtime, trainer and tools need to know."""

from pathlib import Path

from osrs_rl.encounters.template import mechanics as M
from osrs_rl.encounters.template.scene import scene
from osrs_rl.encounters.template.state import CONFIG_FIELDS, ENT_NPC, EVENT_CAPACITY, REWARD_TERMS, STATE_DTYPE
from osrs_rl.encounters.template.truth import TRUTH
from osrs_rl.runtime.bounds import Bound, event_bounds
from osrs_rl.runtime.spec import ActionHead, EncounterSpec, ObsSegment, Outcome

SPEC = EncounterSpec(
    name="template",
    version=3,            # 3: reward terms and an event buffer in the state; 2: eat timer added to the state
    description="A player with a whip fights one melee NPC: the encounter the guide walks through.",
    state_dtype=STATE_DTYPE,
    config_fields=CONFIG_FIELDS,
    action_heads=(
        ActionHead("attack", 2, ("wait", "attack")),
        ActionHead("prayer", 3, ("keep", "protect from melee on", "off")),
        ActionHead("eat", 2, ("no", "eat")),
    ),
    obs_segments=(
        ObsSegment("player", 5, 1, ("hp", "food", "attack_timer", "praying", "time")),
        ObsSegment("npc", 2, 1, ("hp", "attack_timer")),
    ),
    metric_names=("ticks", "damage_dealt", "damage_taken", "food_eaten", "won"),
    phase_names=("npc_above_half", "npc_below_half"),
    reset=M.reset,
    step=M.step,
    observe=M.observe,
    mask=M.mask,
    metrics=M.metrics,
    cell_key=M.cell_key,
    scene=scene,
    reward_terms=REWARD_TERMS,
    truth=TRUTH,
    preset=str(Path(__file__).with_name("preset.toml")),     # the training defaults (osrs-rl train)
    # the state fields the kernels (or the scene) index with, and their ranges (runtime.bounds); the
    # template has one flag, counts and timers, and the event buffer the scene reads (tests/runtime/
    # test_state_fuzz.py checks that)
    state_bounds=(Bound("praying", 0, 1, "a bool"), *event_bounds(EVENT_CAPACITY, ENT_NPC, ENT_NPC)),
    # how an episode ended: "won" is 1 when the NPC died; a fight that ends without it was lost (the
    # player died), one cut at max_ticks timed out; "ticks" is its length
    outcome=Outcome(success="won", length="ticks"),
)
