"""A DPS-calculator view of what the simulator believes, computed by the engine's own kernels.

>>> r = player_vs_npc(gear={"weapon": "Abyssal whip"}, style="Lash", target="Zulrah (Serpentine)")
>>> r.max_hit, r.attack_roll
(25, 15768)

Every number comes from ``osrs_rl.core`` (the same Numba functions encounters call); the
``steps`` list is the kernels' own trace, one floored step per line. Inputs are turned into combat
records by ``osrs_rl.data.combatants.build_combatant``, the builder the encounters' loadouts use:
this module is a thin view over the engine, not a library the engine calls.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import numpy as np

from osrs_rl.core import attack as A
from osrs_rl.core import bolts as B
from osrs_rl.core import equipment as E
from osrs_rl.core import prayers as P
from osrs_rl.core import specials as SP
from osrs_rl.core import styles as S
from osrs_rl.core import weapons as W
from osrs_rl.core.accuracy import hit_chance, npc_attack_roll, player_defence_roll
from osrs_rl.core.damage import expected_npc_damage
from osrs_rl.core.formula import format_trace, new_trace
from osrs_rl.core.max_hit import npc_max_hit
from osrs_rl.core.skills import HITPOINTS, RANGED
from osrs_rl.data import tables
from osrs_rl.data.combatants import CombatantInputError, build_combatant

TICK_SECONDS = 0.6
# the calculator's name for bad input (the CLI and users catch it): the same class the combatant
# builder raises, so one ``except`` covers a bad item name and a bad target name alike
CalcInputError = CombatantInputError


@dataclass
class CalcResult:
    attack_roll: int
    defence_roll: int
    hit_chance: float
    min_hit: int
    max_hit: int
    attack_speed: int
    expected_damage: float
    hits: int = 1
    steps: list[str] = field(default_factory=list)

    @property
    def dps(self) -> float:
        return self.expected_damage / (self.attack_speed * TICK_SECONDS) if self.attack_speed else 0.0

    def rows(self) -> list[tuple[str, str]]:
        return [
            ("attack roll", str(self.attack_roll)),
            ("defence roll", str(self.defence_roll)),
            ("hit chance", f"{self.hit_chance:.4f}"),
            ("max hit", str(self.max_hit) if self.min_hit == 0 else f"{self.min_hit}-{self.max_hit}"),
            ("hits per attack", str(self.hits)),
            ("attack speed (ticks)", str(self.attack_speed)),
            ("expected damage per attack", f"{self.expected_damage:.3f}"),
            ("dps", f"{self.dps:.3f}"),
        ]


@cache
def special_table() -> np.ndarray:
    return SP.build_special_table()


@cache
def normal_table() -> np.ndarray:
    return SP.build_normal_table()


def _attack_row(c, special: bool) -> np.ndarray:
    """The special-attack row of the weapon, or its normal-attack row."""
    effect = int(c["weapon_effect"][0])
    if not special:
        return normal_table()[effect]
    row = special_table()[effect]
    if row[SP.SP_COST] == 0:
        raise CalcInputError("The equipped weapon has no special attack in the engine's table")
    return row


def _hits(sp: np.ndarray) -> int:
    return 4 if sp[SP.SP_KIND] == SP.KIND_CLAWS else int(sp[SP.SP_HITS])


def _bolt_context(c, target_hp: int, kandarin_diary: bool, pvp: bool, attributes=()) -> np.ndarray:
    rec = c[0]
    bolt = int(rec["bolt"]) if rec["attack_type"] == S.RANGED else B.NONE
    return B.bolt_context(bolt, ranged_level=int(rec["levels"][RANGED]), target_hp=target_hp,
                          attacker_hp=int(rec["levels"][HITPOINTS]), kandarin_diary=kandarin_diary, pvp=pvp,
                          zaryte=int(rec["weapon_effect"]) == W.ZARYTE_CROSSBOW,
                          fiery_target="fiery" in attributes, dragon_target="dragon" in attributes,
                          undead_target="undead" in attributes)


def _npc(target: str):
    npcs = tables.npcs()
    try:
        return npcs.records[npcs.find(target)]
    except tables.UnknownNameError as e:
        raise CalcInputError(str(e)) from None


# ---- public API ------------------------------------------------------------------------------
def player_vs_npc(levels=None, boosts=None, prayers=(), style=None, gear=None, spell=None,
                  special=False, target="Zulrah (Serpentine)", kandarin_diary=False) -> CalcResult:
    """What one attack of this player does to ``target`` (OSRS wiki NPC name with version)."""
    c = build_combatant(levels, boosts, prayers, style, gear, spell)
    npc = _npc(target)
    sp = _attack_row(c, special)
    trace = new_trace()
    att, dfn, mn, mx = A.rolls_vs_npc(trace, c[0], npc, sp)
    npcs = tables.npcs()
    attributes = npcs.raw[npcs.find(target)].get("attributes") or ()
    ctx = _bolt_context(c, int(npc["hitpoints"]), kandarin_diary, pvp=False, attributes=attributes)
    expected = A.expected_damage(att, dfn, mn, mx, sp, ctx, int(npc["hit_cap"]))
    p = 1.0 if sp[SP.SP_ALWAYS_HITS] else hit_chance(att, dfn)
    speed = int(E.attack_speed(c[0]))
    hits = _hits(sp)
    return CalcResult(int(att), int(dfn), float(p), int(mn), int(mx), speed, float(expected), hits,
                      format_trace(trace))


def player_vs_player(attacker: dict, defender: dict, special=False, kandarin_diary=False,
                     protected=False) -> CalcResult:
    """One attack of ``attacker`` on ``defender`` (each a dict of build_combatant arguments).

    ``protected``: the defender prays the matching protection prayer (PvP: 60 % of the damage).
    """
    c = build_combatant(**attacker)
    d = build_combatant(**defender)
    sp = _attack_row(c, special)
    trace = new_trace()
    att, dfn, mn, mx = A.rolls_vs_player(trace, c[0], d[0], sp)
    ctx = _bolt_context(c, int(d["levels"][0][HITPOINTS]), kandarin_diary, pvp=True)
    expected = A.expected_damage(att, dfn, mn, mx, sp, ctx, 0)
    if protected:
        expected *= 0.6   # approximate mean: floor(d * 0.6) averages slightly below 0.6 d
        mx = (mx * 6) // 10
        mn = (mn * 6) // 10
    p = 1.0 if sp[SP.SP_ALWAYS_HITS] else hit_chance(att, dfn)
    hits = _hits(sp)
    return CalcResult(int(att), int(dfn), float(p), int(mn), int(mx), int(E.attack_speed(c[0])),
                      float(expected), hits, format_trace(trace))


def npc_vs_player(npc: str, attack_type: str = "melee", levels=None, boosts=None, prayers=(), style=None,
                  gear=None) -> CalcResult:
    """One attack of ``npc`` on a player. ``attack_type``: stab, slash, crush, melee, ranged or magic.

    A protection prayer of the attack's style blocks ordinary NPC attacks completely; the
    result then shows a max hit of 0 (see the NPC table's ``protection`` notes for exceptions).
    """
    row = _npc(npc)
    kind = _npc_melee_type(npc) if attack_type == "melee" else attack_type
    if kind not in S.ATTACK_TYPE_NAMES:
        raise CalcInputError(f"Unknown attack type {attack_type!r}; valid: melee, "
                             + ", ".join(S.ATTACK_TYPE_NAMES))
    t = S.ATTACK_TYPE_NAMES.index(kind)
    d = build_combatant(levels, boosts, prayers, style, gear)
    trace = new_trace()
    att = npc_attack_roll(trace, row, t)
    dfn = player_defence_roll(trace, d[0], t)
    mx = npc_max_hit(trace, row, t)
    protect = {S.MAGIC: P.PROTECT_FROM_MAGIC, S.RANGED: P.PROTECT_FROM_MISSILES}.get(t, P.PROTECT_FROM_MELEE)
    if int(d["prayers"][0]) & (1 << protect) and _overhead_blocks(npc, t):
        mx = 0
    p = hit_chance(att, dfn)
    expected = expected_npc_damage(p, int(mx))
    return CalcResult(int(att), int(dfn), float(p), 0, int(mx), int(row["attack_speed"]), float(expected), 1,
                      format_trace(trace))


def _npc_melee_type(npc: str) -> str:
    """The melee attack type the NPC's data lists (stab, slash or crush); crush when it lists none."""
    table = tables.npcs()
    styles = [str(s).lower() for s in table.raw[table.find(npc)].get("attack_styles") or []]
    for s in styles:
        if s in ("stab", "slash", "crush"):
            return s
    return "crush"


def _overhead_blocks(npc: str, attack_type: int) -> bool:
    table = tables.npcs()
    entry = table.raw[table.find(npc)]
    style = "magic" if attack_type == S.MAGIC else ("ranged" if attack_type == S.RANGED else "melee")
    return (entry.get("protection") or {}).get(style, "blocks") == "blocks"
