"""A DPS-calculator view of what the simulator believes, computed by the engine's own kernels.

>>> r = player_vs_npc(gear={"weapon": "Abyssal whip"}, style="Lash", target="Zulrah (Serpentine)")
>>> r.max_hit, r.attack_roll
(25, 15768)

Every number comes from ``osrs_rl.core`` (the same Numba functions encounters call); the
``steps`` list is the kernels' own trace, one floored step per line.
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
from osrs_rl.core.combatant import new_combatant
from osrs_rl.core.damage import expected_npc_damage
from osrs_rl.core.formula import format_trace, new_trace
from osrs_rl.core.max_hit import npc_max_hit
from osrs_rl.core.skills import HITPOINTS, MAX_LEVEL, NUM_SKILLS, RANGED, SKILL_NAMES
from osrs_rl.data import tables

TICK_SECONDS = 0.6
MAX_BOOST = 30    # the largest potion boosts (overloads, smelling salts) stay below this at level 99


class CalcInputError(ValueError):
    """Bad calculator input; the message names the problem and the valid choices."""


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


# ---- input validation ------------------------------------------------------------------------
def _levels(levels: dict | None, boosts: dict | None) -> np.ndarray:
    out = np.full(NUM_SKILLS, MAX_LEVEL, dtype=np.int32)
    for src, name in ((levels, "levels"), (boosts, "boosts")):
        for skill, value in (src or {}).items():
            key = str(skill).lower()
            if key not in SKILL_NAMES:
                raise CalcInputError(f"Unknown skill {skill!r} in {name}; valid skills: {', '.join(SKILL_NAMES)}")
            if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
                raise CalcInputError(f"{name}[{skill!r}] must be an integer, got {value!r}")
            k = SKILL_NAMES.index(key)
            if name == "levels":
                low = 10 if k == HITPOINTS else 1
                if not low <= value <= MAX_LEVEL:
                    raise CalcInputError(f"levels[{skill!r}] = {value} is impossible: it must be {low}..{MAX_LEVEL}")
                out[k] = value
            else:
                if value > MAX_BOOST:
                    raise CalcInputError(f"boosts[{skill!r}] = {value} is impossible: no boost exceeds +{MAX_BOOST}")
                out[k] += value
                if out[k] < 0:
                    raise CalcInputError(f"boosts[{skill!r}] = {value} takes the level below 0")
    return out


def _prayer_mask(prayers) -> int:
    if isinstance(prayers, str):
        prayers = [prayers]
    try:
        return P.prayer_mask(prayers or [])
    except ValueError as e:
        raise CalcInputError(str(e)) from None


def _worn(gear: dict | None) -> np.ndarray:
    items = tables.items()
    worn = np.full(E.NUM_SLOTS, -1, dtype=np.int64)
    for slot, name in (gear or {}).items():
        if slot not in E.SLOT_NAMES:
            raise CalcInputError(f"Unknown slot {slot!r}; valid slots: {', '.join(E.SLOT_NAMES)}")
        if name is None:
            continue
        try:
            i = items.find(name)
        except tables.UnknownNameError as e:
            raise CalcInputError(str(e)) from None
        item_slot = E.SLOT_NAMES[items.records[i]["slot"]]
        if item_slot != slot:
            raise CalcInputError(f"{items.name(i)!r} is worn in the {item_slot} slot, not {slot}")
        worn[E.SLOT_NAMES.index(slot)] = i
    weapon = worn[E.WEAPON]
    if weapon >= 0 and items.records[weapon]["two_handed"] and worn[E.SHIELD] >= 0:
        raise CalcInputError(
            f"{items.name(weapon)!r} is two-handed and cannot be worn with {items.name(worn[E.SHIELD])!r}")
    return worn


CAST_STANCES = ("Autocast", "Defensive Autocast", "Manual Cast")
MANUAL_CAST = {"name": "Spell", "type": "magic", "stance": "Manual Cast"}


def _style(worn: np.ndarray, style: str | None, spell: str | None) -> dict:
    """The chosen combat style of the worn weapon: by name ("Lash"), stance ("Rapid") or
    "Name (Stance)" ("Spell (Autocast)"); with a spell and no style, the first casting style."""
    items = tables.items()
    weapon = int(worn[E.WEAPON])
    options = items.styles(weapon)
    label = [f"{o['name']} ({o['stance']})" for o in options]
    if style is None:
        if spell is None:
            return options[0]
        casts = [o for o in options if o["stance"] in CAST_STANCES[:2]]
        return casts[0] if casts else MANUAL_CAST
    key = style.strip().lower()
    matches = [o for o, lab in zip(options, label, strict=True) if lab.lower() == key]
    if not matches:
        matches = [o for o in options if o["name"].lower() == key] or \
                  [o for o in options if o["stance"].lower() == key]
    distinct = {(o["name"], o["type"], o["stance"]) for o in matches}
    weapon_name = items.name(weapon) if weapon >= 0 else "Unarmed"
    valid = ", ".join(f"{o['name']} ({o['type']}, {o['stance']})" for o in options)
    if not matches:
        raise CalcInputError(f"Style {style!r} is not a style of {weapon_name}; valid styles: {valid}")
    if len(distinct) > 1:
        raise CalcInputError(f"Style {style!r} of {weapon_name} is ambiguous; name one of: "
                             + ", ".join(sorted({f"{n} ({st})" for n, _, st in distinct})))
    return matches[0]


def _check_cast(chosen: dict, spell: str | None, worn: np.ndarray) -> None:
    items = tables.items()
    weapon = int(worn[E.WEAPON])
    weapon_name = items.name(weapon) if weapon >= 0 else "Unarmed"
    if spell is not None and chosen["stance"] not in CAST_STANCES:
        raise CalcInputError(f"Style {chosen['name']!r} ({chosen['stance']}) of {weapon_name} does not cast "
                             f"spells; pick a casting style ({', '.join(CAST_STANCES)}) or no style")
    if spell is None and chosen["stance"] in CAST_STANCES:
        raise CalcInputError(f"Style {chosen['name']!r} ({chosen['stance']}) casts a spell: name one with spell=")


def _check_ammo(c: np.ndarray, worn: np.ndarray) -> None:
    rec = c[0]
    if rec["attack_type"] == S.RANGED and not rec["ammo_ok"]:
        items = tables.items()
        weapon = int(worn[E.WEAPON])
        kind = E.AMMO_KIND_NAMES[items.records[weapon]["fires"]]
        ammo = items.name(int(worn[E.AMMO])) if worn[E.AMMO] >= 0 else "nothing"
        raise CalcInputError(f"{items.name(weapon)} fires {kind}s up to its tier; the ammo slot holds {ammo}")


def build_combatant(levels=None, boosts=None, prayers=(), style=None, gear=None, spell=None):
    """A one-element COMBATANT_DTYPE array from calculator-style inputs (validated)."""
    worn = _worn(gear)
    chosen = _style(worn, style, spell)
    _check_cast(chosen, spell, worn)
    attack_type = S.ATTACK_TYPE_NAMES.index(chosen["type"])
    stance = S.STANCE_NAMES.index(chosen["stance"])
    spell_index, spell_max, bolt_spell = -1, 0, False
    if spell is not None:
        sp_table = tables.spells()
        try:
            spell_index = sp_table.find(spell)
        except tables.UnknownNameError as e:
            raise CalcInputError(str(e)) from None
        spell_max = int(sp_table.max_hits[spell_index])
        bolt_spell = bool(sp_table.bolt[spell_index])
    c = new_combatant(1)
    c["levels"][0] = _levels(levels, boosts)
    c["prayers"][0] = _prayer_mask(prayers)
    E.fill_combatant(c[0], tables.items().records, worn, attack_type, stance, spell_index, spell_max, bolt_spell)
    _check_ammo(c, worn)
    return c


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
