"""Fight Cave declaration: everything the runtime, trainer and tools need to know."""

from pathlib import Path

from osrs_rl.runtime.bounds import Bound, event_bounds
from osrs_rl.runtime.spec import EncounterSpec, Outcome, ScriptedPolicy

from . import arena as A
from . import mechanics as M
from . import state as ST
from . import view as V
from . import waves as W
from .loadouts import attacks, fill_config, kit
from .scene import scene
from .solver import solver_actions
from .truth import TRUTH


def _last_item(recs, cfg):
    from osrs_rl.data.tables import items

    return len(items().index.names) - 1


def _footprint_x(recs, cfg):
    return A.GRID_W - cfg["kind_size"][recs["monsters"]["kind"]]


def _footprint_y(recs, cfg):
    return A.GRID_H - cfg["kind_size"][recs["monsters"]["kind"]]


# the valid range of every index-like state field (checked on every restore; runtime.bounds)
STATE_BOUNDS = (
    Bound("wave", 1, W.NUM_WAVES, "waves 1-63"),
    Bound("start_wave_drawn", 1, W.NUM_WAVES, "a wave 1-63"),
    Bound("rotation", 0, W.NUM_ROTATIONS - 1, "waves.SPAWN_CYCLE's offset"),
    Bound("p.x", 0, A.GRID_W - 1), Bound("p.y", 0, A.GRID_H - 1),
    Bound("p.equipment", -1, _last_item, "an items.json index, -1 for an empty slot"),
    Bound("monsters.state", ST.SLOT_FREE, ST.SLOT_ALIVE, "SLOT_*"),
    Bound("monsters.kind", 0, ST.NUM_KINDS - 1, "K_*"),
    Bound("monsters.x", 0, _footprint_x, "the whole footprint on the grid"),
    Bound("monsters.y", 0, _footprint_y, "the whole footprint on the grid"),
    Bound("monsters.target", ST.TARGET_PLAYER, ST.MONSTER_SLOTS - 1, "-1 the player, else a monster slot"),
    Bound("monsters.parent", -1, ST.MONSTER_SLOTS - 1, "-1 or a monster slot"),
    Bound("monsters.scan", -1, 2, "-1 or a pending-hit STYLE_* other than typeless"),
    Bound("monsters.windup", 0, 10, "ticks"),
    # a restored state carries at most the kit's doses (what fits 28 slots: runtime.inventory)
    Bound("supplies", 0, lambda recs, cfg: cfg["supply_start"], "doses left, at most the kit's"),
    Bound("dest_x", -1, A.GRID_W - 1, "a tile of the grid, -1: no destination"),
    Bound("dest_y", -1, A.GRID_H - 1, "a tile of the grid, -1: no destination"),
    Bound("dest_run", 0, 1),
    Bound("killer", -1, ST.NUM_KINDS - 1, "-1 or a K_* kind"),
    Bound("hits.state", 0, 2, "core.pending_hits.HIT_*"),
    Bound("hits.target", 0, ST.LAST_ENTITY, "0 the player, 1 + k monster slot k"),
    Bound("hits.attacker", 0, ST.NUM_KINDS - 1, "a K_* kind (the player's hits: 0)"),
    Bound("hits.style", 0, 3, "core.pending_hits.STYLE_*"),
    Bound("hit_source", 0, ST.LAST_ENTITY, "the entity that threw the hit (ENT_*)"),
    *event_bounds(ST.EVENT_CAPACITY, ST.LAST_ENTITY, ST.LAST_ENTITY),
)

# the solver's table: one row per kit, each from wave 1
SOLVER = ScriptedPolicy(
    name="solver", actions=solver_actions, rows="kit",
    doc="a scripted player: the overhead for the monster about to hit (Jad by his tell), the nearest reachable "
        "monster, brews and restores when low (solver.py)")

SPEC = EncounterSpec(
    name="fight_caves",
    version=4,               # 2: the hitpoints reward term (the state record grew); 3: the prayer points term;
                             # 4: the prayer heads hold (an option is the prayer wanted this tick), kept up
                             # by the 1-tick flick (core.prayer_drain)
    description="The TzHaar Fight Cave: 63 waves of TzHaar monsters, TzTok-Jad and his healers last",
    state_dtype=ST.STATE_DTYPE,
    config_fields=ST.CONFIG_FIELDS,
    action_heads=ST.HEADS,
    obs_segments=V.OBS_SEGMENTS,
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
    start_settings=("start_wave", *(f"band_weight_{k + 1}" for k in range(ST.NUM_BANDS))),
    config_hook=fill_config,
    attacks=attacks,
    kit=kit,
    reward_terms=ST.REWARD_TERMS,
    state_bounds=STATE_BOUNDS,
    outcome=Outcome(success="jad_killed", failure="died", timeout="timed_out", length="ticks",
                    progress="final_wave"),
    scene=scene,
    # random legal play from the late waves (the fullest: wave 58 holds 6, 59 splits to 7), then Jad's wave
    bench_configs=(("waves 47-62", {"band_weight_4": 1.0}), ("wave 63", {"start_wave": 63})),
    # wave 1 is one Tz-Kih walking in from across the cave (no hit in 40 ticks); wave 7 a Tok-Xil, which shoots
    # from 15 tiles
    demo_settings={"start_wave": 7},
    scripted_policies=(SOLVER,),
    truth=TRUTH,
    preset=str(Path(__file__).with_name("preset.toml")),
)
