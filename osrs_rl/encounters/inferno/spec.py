"""Inferno declaration: everything the runtime, trainer and tools need to know."""

from pathlib import Path

from osrs_rl.runtime.spec import EncounterSpec, Outcome, ScriptedPolicy

from . import mechanics as M
from . import state as ST
from . import view as V
from .loadouts import attacks, fill_config, kit
from .scene import scene
from .solver import solver_actions
from .truth import TRUTH

SEGMENTS = V.OBS_SEGMENTS      # declared beside the kernels that write each feature by name

# the solver's table: one row per curriculum band, each started on the band's first wave
SOLVER = ScriptedPolicy(
    name="solver", actions=solver_actions, rows="start_wave", row_values=tuple(lo for lo, _ in ST.BANDS),
    doc="a scripted player: prayer per incoming attack, pillar safespots, kill order, brews and restores (solver.py)")

SPEC = EncounterSpec(
    name="inferno",
    version=12,           # 12: reward_sums a row per agent ([1, terms]), kept by the runtime;
                          # 11: the truth (issue 41): the blob's ranged max and scanned shot, bloblets after the
                          # death animation, Zuk's set timer while stunned, the glyph's 5 ticks at an end, the
                          # cutscene to the Zuk tile, prayer_was_on (free flicks), hybrid kits of 28 slots;
                          # 10: the glyph reward term; 9: waves 67-69 (Jads, Zuk, the glyph, sets, healers,
                          # sparks), the finale's reward terms, penalty cap, timeout_terminal, phases by
                          # milestone; 8: the hitpoints reward term; 7: core.player.prayer_was_on taken back
                          # (audit F8 open); 6: click-to-move (stored destination, routed); 5: prayer_was_on;
                          # 4: gear sets, barrage, specials
    description="The Inferno, waves 1-69: pillars, shuffled spawns, six wave monsters, the Jads, TzKal-Zuk",
    state_dtype=ST.STATE_DTYPE,
    config_fields=ST.CONFIG_FIELDS,
    action_heads=ST.HEADS,   # declared beside the constants the mechanics read them by (state.py)
    obs_segments=SEGMENTS,
    metric_record=V.METRICS,
    category_metrics=V.CATEGORY_METRICS,
    phase_names=V.PHASE_NAMES,
    reset=M.reset,
    step=M.step,
    observe=V.observe,
    mask=V.mask,
    metrics=V.metrics,
    cell_key=V.cell_key,
    progress=V.progress,
    start_settings=("start_wave", "start_hp", "start_prayer", "zuk_start_hp", "zuk_start_sets", "zuk_mid_pct",
                    "zuk_mid_hp", "zuk_start_jad", "zuk_start_healers", "set_timer_start", "glyph_start_x",
                    "glyph_start_dir", *(f"band_weight_{k + 1}" for k in range(ST.NUM_BANDS))),
    config_hook=fill_config,
    attacks=attacks,                      # every (kind, style) that can hurt, its max hit checked (runtime.attacks)
    kit=kit,                              # the loadout and supplies, refused past 28 slots (runtime.inventory)
    reward_terms=ST.REWARD_TERMS,
    state_bounds=ST.STATE_BOUNDS,
    outcome=Outcome(success="cleared", failure="died", timeout="timed_out", length="ticks", progress="final_wave"),
    scene=scene,                          # replay render, view, play
    # random legal play started in waves 50-66 (the fullest waves, every kind at once), then each finale wave
    bench_configs=(("waves 50-66", {"band_weight_4": 1.0}),
                   ("wave 67", {"start_wave": 67, "last_wave": 67}),
                   ("wave 68", {"start_wave": 68, "last_wave": 68}),
                   ("wave 69", {"start_wave": 69, "last_wave": 69})),
    scripted_policies=(SOLVER,),
    truth=TRUTH,                          # osrs-rl audit
    preset=str(Path(__file__).with_name("preset.toml")),     # the training defaults (osrs-rl train)
    gpu_preset=str(Path(__file__).with_name("gpu.toml")),   # over it for one GPU (osrs-rl train --preset gpu)
)
