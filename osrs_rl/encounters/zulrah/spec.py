"""Zulrah declaration: everything the runtime, trainer and tools need to know."""

import dataclasses
from pathlib import Path

from osrs_rl.runtime.spec import EncounterSpec, Outcome, ScriptedPolicy

from . import mechanics as M
from . import state as ST
from . import view as V
from .loadouts import attacks, fill_config, kit
from .scene import scene
from .solver import solver_actions
from .truth import TRUTH

SEGMENTS = V.OBS_SEGMENTS      # declared beside the kernel that writes each feature by name

# gear_tier's values by name, for the command line (--set gear_tier=max) and the solver's table rows
GEAR_TIER_CHOICES = ((ST.TIER_WEIGHTED, "weighted"), (ST.TIER_UNIFORM, "drawn"),
                     *((k, n) for k, n in enumerate(ST.TIER_NAMES)))
CONFIG_FIELDS = tuple(dataclasses.replace(f, choices=GEAR_TIER_CHOICES) if f.name == "gear_tier" else f
                      for f in ST.CONFIG_FIELDS)

SOLVER = ScriptedPolicy(
    name="solver", actions=solver_actions, rows="gear_tier", row_values=ST.TIER_NAMES,
    doc="a scripted player that prays, moves, switches and eats as the guides say (solver.py)")

SPEC = EncounterSpec(
    name="zulrah",
    version=9,            # 9: reward_sums a row per agent ([1, terms]), kept by the runtime;
                          # 8: core.player.prayer_was_on (a one-tick flick is free), kits fit 28 slots (7 was
                          # once this field under another layout, taken back: not reused);
                          # 6: per-tick reward terms (the episode sums renamed reward_sums), an event buffer
                          # and each queued hit's thrower in the state;
                          # 5: the game's shrine map, line of sight, the dive inside the phase, the bridge,
                          # venom through prayer (issue 14); 4: special attacks, a spec set, a magic potion;
                          # 3: a snakeling under the player steps out; 2: action timers count down at tick end
    description="One player against Zulrah: four rotations, three forms, venom clouds and snakelings",
    state_dtype=ST.STATE_DTYPE,
    config_fields=CONFIG_FIELDS,
    action_heads=ST.HEADS,      # declared in state.py: the mechanics read and the mask writes each option by name
    obs_segments=SEGMENTS,
    metric_record=V.METRICS,
    phase_names=V.PHASE_NAMES,
    reset=M.reset,
    step=M.step,
    observe=V.observe,
    mask=V.mask,
    metrics=V.metrics,
    cell_key=V.cell_key,
    progress=V.progress,
    start_settings=("start_rotation", "start_phase", "start_hp", "gear_tier", "tier_weight_budget", "tier_weight_mid",
                    "tier_weight_max"),
    config_hook=fill_config,
    attacks=attacks,                      # every (source, style) that can hurt, its max hit checked (runtime.attacks)
    kit=kit,                              # each gear tier's kit, refused past 28 slots (runtime.inventory)
    scene=scene,
    reward_terms=ST.REWARD_TERMS,
    truth=TRUTH,
    preset=str(Path(__file__).with_name("preset.toml")),     # the training defaults (osrs-rl train)
    gpu_preset=str(Path(__file__).with_name("gpu.toml")),   # over it for one GPU (osrs-rl train --preset gpu)
    category_metrics=("rotation", "tier"),
    state_bounds=ST.STATE_BOUNDS,
    outcome=Outcome(success="killed", failure="died", timeout="timed_out", length="ticks"),
    scripted_policies=(SOLVER,),
)
