"""NH PvP declarations: ``pvp`` (one agent against a scripted tier) and ``pvp_selfplay`` (two agents)."""

import dataclasses
from functools import partial
from pathlib import Path

from osrs_rl.runtime.spec import EncounterSpec, Outcome

from . import mechanics as M
from . import state as ST
from . import view as V
from .ladder import LADDER_TOOL
from .loadouts import attacks, fill_config, kit
from .opponents import CONTROL
from .scene import scene
from .scripted import TIER_NAMES

SEGMENTS = V.OBS_SEGMENTS      # declared beside the kernel that writes each feature by name (privileged: a critic's)


# opponent_tier's values by name (--set opponent_tier=elite): the scripted tiers, a drawn tier, a policy
OPPONENT_CHOICES = ((-2, "policy"), (-1, "drawn"), *enumerate(TIER_NAMES))


def _config_fields(opponent_default: int, opponent_low: int) -> tuple:
    """The config fields with this spec's ``opponent_tier`` default, range and named values."""
    out = []
    for f in ST.CONFIG_FIELDS:
        if f.name == "opponent_tier":
            f = dataclasses.replace(f, default=opponent_default, low=opponent_low,
                                    choices=tuple((v, n) for v, n in OPPONENT_CHOICES if v >= opponent_low))
        out.append(f)
    return tuple(out)


_HERE = Path(__file__).parent        # the presets (training defaults) lie beside this spec
_COMMON = dict(
    version=7,            # 7: each player's reward_sums in the state, kept by the runtime;
                          # 6: core.player.prayer_was_on (a one-tick flick is free), kits fit 28 slots (5 was
                          # once this field under another layout, taken back: not reused);
                          # 4: reward terms and an event buffer in the state
    state_dtype=ST.STATE_DTYPE,
    action_heads=ST.HEADS,  # one choice per head a tick: the mechanics read and the mask writes them by name
    obs_segments=SEGMENTS, metric_record=V.METRICS, phase_names=V.PHASE_NAMES, reset=M.reset,
    metrics=V.metrics, config_hook=fill_config, opponents=CONTROL, reward_terms=ST.REWARD_TERMS,
    state_bounds=ST.STATE_BOUNDS,
    carried_fields=("next_opponent_kind", "next_opponent_index"),   # set_opponents' choice outlives a reset
    attacks=attacks,      # what the opponent can hurt with, each max hit >= 1 (runtime.attacks)
    kit=kit,              # every build's kits, refused past 28 slots (runtime.inventory)
    # player 0's view: it won, lost, or both fell in one tick (draw); a fight cut at max_ticks flags none
    outcome=Outcome(success="won", failure="lost", other="draw", length="ticks"),
)

SPEC = EncounterSpec(
    name="pvp", description="NH duel against a scripted opponent tier",
    step=M.step_vs_scripted, observe=V.observe_one, mask=V.mask_one, agents=("player",),
    config_fields=_config_fields(3, -1), scene=scene, tools=(LADDER_TOOL,), preset=str(_HERE / "preset.toml"),
    gpu_preset=str(_HERE / "gpu.toml"), **_COMMON)

SELFPLAY_SPEC = EncounterSpec(
    name="pvp_selfplay",
    description="NH duel between two policies (or a policy and a scripted tier per env: set_opponents)",
    step=M.step_selfplay, observe=V.observe_two, mask=V.mask_two, agents=("player_0", "player_1"),
    config_fields=_config_fields(-2, -2), scene=partial(scene, encounter="pvp_selfplay"),
    preset=str(_HERE / "selfplay.toml"), **_COMMON)
