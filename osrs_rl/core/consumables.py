"""Eating and drinking: table-driven food and potions, their delays, and the karambwan combo.

Index (what happens when a player eats or drinks, in order):
  1. gate      the consumable's own timer must be clear (food_timer, potion_timer, karambwan_timer)
  2. timers    food sets food_timer; a potion sets potion_timer and food_timer; a karambwan sets all
               three. Hence the only same-tick combo is food -> potion -> karambwan [H: OldSchoolSDK/
               InfernoTrainer src/sdk/Eating.ts "forces the behavior of food -> potion -> karambwan";
               Naton1/osrs-pvp-reinforcement-learning simulation-rsps Food.java, PotionConsumable.java]
  3. attack    food adds its attack delay (3; karambwan 2) to the uncapped attack timer and keeps
               the sum only when it is positive [M: Naton1 simulation-rsps Food.java; InfernoTrainer
               Eating.ts adds 3 unconditionally, for karambwan too]. Potions do not delay attacks [M].
  4. effect    heal (food) or the potion's effects, each one floored integer step:
               boost    level = min(cur + b, base + b) if cur < base + b, b = c + floor(base*p/100)
                        (boost from the base level, never stacking above base + b) [H: rsmod
                        api/player/stat statBoost; Naton1 PotionConsumable.onBasicEffect]
               drain    level = max(0, cur - (c + floor(cur*p/100)))  (Saradomin brew) [M: OSRS wiki]
               restore  level = min(base, cur + c + floor(base*p/100)) when below base [H: OSRS wiki
                        "Super restore"; Naton1 PotionConsumable.onRestoreEffect]
               food heals up to the base level; Anglerfish overheals to base + heal [H: OSRS wiki
               "Anglerfish"; rsmod FoodHealing.kt]
  5. status    cures, immunity ticks, run energy and stamina ticks (anti-venom+, stamina potion)

Numbers, item ids, sources and confidence per item live in ``osrs_rl/data/consumables.json``; this
module turns them into an int32 table (``load_consumables``) that the kernels read.

Approximations: the potion delay of 3 ticks comes from RSPS/SDK code, not a game source [M]; the
karambwan attack delay (2, not 3) follows one RSPS source [M]; Saradomin brew drains from current
levels as the wiki states [M]; holy wrench / prayer cape prayer bonuses and the Bastion potion's
formula (ranging + super defence) are not verified [L]. Doses are not tracked here (inventory is
the encounter's business).
"""

import json
from dataclasses import dataclass
from difflib import get_close_matches
from pathlib import Path

import numpy as np
from numba import njit

from osrs_rl.core.player import RUN_ENERGY_MAX
from osrs_rl.core.skills import HITPOINTS, NUM_SKILLS, SKILL_NAMES
from osrs_rl.core.status import cure_poison, cure_venom

DATA_PATH = Path(__file__).resolve().parent.parent / "data" / "consumables.json"

# ---- kinds ----------------------------------------------------------------------------------
KIND_FOOD = 1     # gated by food_timer
KIND_COMBO = 2    # cooked karambwan: gated by karambwan_timer, blocks food and potions too
KIND_POTION = 3   # gated by potion_timer, blocks food too
KIND_BY_NAME = {"food": KIND_FOOD, "combo": KIND_COMBO, "potion": KIND_POTION}

# ---- potion effect ops ----------------------------------------------------------------------
OP_NONE = 0
OP_BOOST = 1
OP_DRAIN = 2
OP_RESTORE = 3
OP_BY_NAME = {"boost": OP_BOOST, "drain": OP_DRAIN, "restore": OP_RESTORE}

CURE_POISON = 1
CURE_VENOM = 2
CURE_BY_NAME = {"poison": CURE_POISON, "venom": CURE_VENOM}

MAX_BRACKETS = 5
MAX_EFFECTS = 4

# ---- table columns (int32) ------------------------------------------------------------------
COL_KIND = 0
COL_DELAY = 1            # ticks the gating timer is set to
COL_ATTACK_DELAY = 2     # ticks added to the attack timer (food only)
COL_OVERHEAL = 3         # 1: heal may exceed base hitpoints by up to the heal (Anglerfish)
COL_HEAL_CONST = 4       # heal = const + floor(base*pct/100) + floor(base/div) + bracket add
COL_HEAL_PCT = 5
COL_HEAL_DIV = 6
COL_NUM_BRACKETS = 7
COL_BRACKET_LEVEL = 8                          # MAX_BRACKETS minimum base levels, ascending
COL_BRACKET_ADD = COL_BRACKET_LEVEL + MAX_BRACKETS
COL_EFFECTS = COL_BRACKET_ADD + MAX_BRACKETS    # MAX_EFFECTS x (op, skill mask, const, pct)
EFFECT_WIDTH = 4
COL_CURES = COL_EFFECTS + MAX_EFFECTS * EFFECT_WIDTH
COL_POISON_IMMUNITY = COL_CURES + 1
COL_VENOM_IMMUNITY = COL_CURES + 2
COL_RUN_ENERGY = COL_CURES + 3
COL_STAMINA_TICKS = COL_CURES + 4
NUM_COLS = COL_CURES + 5

_ENTRY_KEYS = {
    "food": {"name", "item_id", "kind", "heal", "overheal", "attack_delay", "delay", "source",
             "confidence"},
    "potion": {"name", "item_id", "effects", "cures", "poison_immunity_ticks", "venom_immunity_ticks",
               "run_energy", "stamina_ticks", "delay", "source", "confidence"},
}


# ============================================================================================
# kernels
# ============================================================================================

@njit(cache=True)
def heal_amount(row, base_hp):
    """Hitpoints a food heals for a player with base hitpoints ``base_hp`` (one table row)."""
    heal = row[COL_HEAL_CONST] + base_hp * row[COL_HEAL_PCT] // 100
    if row[COL_HEAL_DIV] > 0:
        heal += base_hp // row[COL_HEAL_DIV]
    add = 0
    for b in range(row[COL_NUM_BRACKETS]):
        if base_hp >= row[COL_BRACKET_LEVEL + b]:
            add = row[COL_BRACKET_ADD + b]
    return heal + add


@njit(cache=True)
def _boost(levels, base_levels, skill, constant, pct):
    base = np.int64(base_levels[skill])
    cur = np.int64(levels[skill])
    boost = constant + base * pct // 100
    cap = base + boost
    if cur < cap:
        levels[skill] = min(cur + boost, cap)


@njit(cache=True)
def _drain(levels, skill, constant, pct):
    cur = np.int64(levels[skill])
    levels[skill] = max(0, cur - (constant + cur * pct // 100))


@njit(cache=True)
def _restore(levels, base_levels, skill, constant, pct):
    base = np.int64(base_levels[skill])
    cur = np.int64(levels[skill])
    if cur < base:
        levels[skill] = min(base, cur + constant + base * pct // 100)


@njit(cache=True)
def _apply_effect(p, op, mask, constant, pct):
    for s in range(NUM_SKILLS):
        if (mask >> s) & 1 == 0:
            continue
        if op == OP_BOOST:
            _boost(p.levels, p.base_levels, s, constant, pct)
        elif op == OP_DRAIN:
            _drain(p.levels, s, constant, pct)
        elif op == OP_RESTORE:
            _restore(p.levels, p.base_levels, s, constant, pct)


@njit(cache=True)
def _delay_attack(p, delay):
    # The attack timer runs below zero while idle; eating adds to that uncapped value and only a
    # positive sum delays the next attack (Naton1 simulation-rsps Food.java) [M].
    delayed = np.int64(p.attack_timer) + delay
    if delayed > 0:
        p.attack_timer = delayed


@njit(cache=True)
def eat_food(p, food_id, table):
    """Eat food ``food_id`` (a row of ``table``); False when its timer blocks it (nothing changes).

    Food blocks food for 3 ticks; a karambwan only needs its own timer clear and then blocks food,
    potions and karambwans (combo eating: food -> potion -> karambwan in one tick).
    """
    if food_id < 0 or food_id >= table.shape[0]:
        raise IndexError("eat_food: food_id is not a row of the consumables table")
    row = table[food_id]
    kind = row[COL_KIND]
    delay = row[COL_DELAY]
    if kind == KIND_FOOD:
        if p.food_timer > 0:
            return False
        p.food_timer = delay
    elif kind == KIND_COMBO:
        if p.karambwan_timer > 0:
            return False
        p.karambwan_timer = delay
        p.food_timer = max(p.food_timer, delay)
        p.potion_timer = max(p.potion_timer, delay)
    else:
        raise ValueError("eat_food: consumable is a potion, use drink_potion")
    _delay_attack(p, row[COL_ATTACK_DELAY])

    base = np.int64(p.base_levels[HITPOINTS])
    hp = np.int64(p.levels[HITPOINTS])
    heal = heal_amount(row, base)
    cap = base + heal if row[COL_OVERHEAL] else base
    if hp < cap:
        p.levels[HITPOINTS] = min(hp + heal, cap)
    return True


@njit(cache=True)
def drink_potion(p, potion_id, table):
    """Drink one dose of ``potion_id``; False when the potion timer blocks it (nothing changes).

    A dose blocks potions and food for 3 ticks and does not delay attacks.
    """
    if potion_id < 0 or potion_id >= table.shape[0]:
        raise IndexError("drink_potion: potion_id is not a row of the consumables table")
    row = table[potion_id]
    if row[COL_KIND] != KIND_POTION:
        raise ValueError("drink_potion: consumable is a food, use eat_food")
    if p.potion_timer > 0:
        return False
    delay = row[COL_DELAY]
    p.potion_timer = delay
    p.food_timer = max(p.food_timer, delay)

    for k in range(MAX_EFFECTS):
        c = COL_EFFECTS + k * EFFECT_WIDTH
        if row[c] != OP_NONE:
            _apply_effect(p, row[c], row[c + 1], row[c + 2], row[c + 3])
    _apply_status(p, row)
    return True


@njit(cache=True)
def _apply_status(p, row):
    cures = row[COL_CURES]
    if cures & CURE_VENOM:
        cure_venom(p, row[COL_VENOM_IMMUNITY], row[COL_POISON_IMMUNITY])
    elif cures & CURE_POISON:
        cure_poison(p, row[COL_POISON_IMMUNITY])
    if row[COL_RUN_ENERGY] > 0:
        p.run_energy = min(RUN_ENERGY_MAX, np.int64(p.run_energy) + row[COL_RUN_ENERGY])
    # Another dose restarts the 2-minute stamina effect rather than extending it [L].
    if row[COL_STAMINA_TICKS] > p.stamina_ticks:
        p.stamina_ticks = row[COL_STAMINA_TICKS]


# ============================================================================================
# Python: load the JSON table
# ============================================================================================

@dataclass(frozen=True)
class ConsumableTable:
    """The numeric table the kernels read plus the names and sources of its rows."""

    table: np.ndarray            # int32 [n, NUM_COLS]
    names: tuple[str, ...]
    sources: tuple[str, ...]
    confidence: tuple[str, ...]

    def id(self, name: str) -> int:
        """Row index of the consumable called ``name`` (case-insensitive)."""
        key = name.strip().lower()
        for i, n in enumerate(self.names):
            if n.lower() == key:
                return i
        close = get_close_matches(name, self.names, n=4, cutoff=0.5)
        hint = f" Did you mean: {', '.join(close)}?" if close else ""
        raise KeyError(f"Unknown consumable {name!r}.{hint} Known: {', '.join(self.names)}")


def _skill_mask(entry: str, skills) -> int:
    mask = 0
    for s in skills:
        if s not in SKILL_NAMES:
            close = get_close_matches(str(s), SKILL_NAMES, n=3, cutoff=0.5)
            hint = f" Did you mean: {', '.join(close)}?" if close else ""
            raise ValueError(f"{entry}: unknown skill {s!r}.{hint} Skills: {', '.join(SKILL_NAMES)}")
        mask |= 1 << SKILL_NAMES.index(s)
    return mask


def _check_keys(entry: str, obj: dict, allowed: set) -> None:
    extra = sorted(set(obj) - allowed)
    if extra:
        raise ValueError(f"{entry}: unknown key(s) {', '.join(extra)}; allowed: {', '.join(sorted(allowed))}")


def _food_row(row: np.ndarray, food: dict, defaults: dict) -> None:
    entry = f"consumables.json food {food.get('name')!r}"
    _check_keys(entry, food, _ENTRY_KEYS["food"])
    kind = food.get("kind", "food")
    if kind not in ("food", "combo"):
        raise ValueError(f"{entry}: kind must be 'food' or 'combo', got {kind!r}")
    row[COL_KIND] = KIND_BY_NAME[kind]
    row[COL_DELAY] = food.get("delay", defaults["combo_delay" if kind == "combo" else "food_delay"])
    row[COL_ATTACK_DELAY] = food.get("attack_delay", defaults["food_attack_delay"])
    row[COL_OVERHEAL] = int(bool(food.get("overheal", False)))
    heal = food.get("heal")
    if not isinstance(heal, dict):
        raise ValueError(f"{entry}: needs a 'heal' object")
    _check_keys(entry + " heal", heal, {"constant", "percent", "divisor", "brackets"})
    row[COL_HEAL_CONST] = heal.get("constant", 0)
    row[COL_HEAL_PCT] = heal.get("percent", 0)
    row[COL_HEAL_DIV] = heal.get("divisor", 0)
    brackets = heal.get("brackets", [])
    if len(brackets) > MAX_BRACKETS:
        raise ValueError(f"{entry}: at most {MAX_BRACKETS} heal brackets, got {len(brackets)}")
    levels = [b[0] for b in brackets]
    if levels != sorted(levels):
        raise ValueError(f"{entry}: heal brackets must be sorted by level")
    row[COL_NUM_BRACKETS] = len(brackets)
    for b, (level, add) in enumerate(brackets):
        row[COL_BRACKET_LEVEL + b] = level
        row[COL_BRACKET_ADD + b] = add


def _potion_row(row: np.ndarray, potion: dict, defaults: dict) -> None:
    entry = f"consumables.json potion {potion.get('name')!r}"
    _check_keys(entry, potion, _ENTRY_KEYS["potion"])
    row[COL_KIND] = KIND_POTION
    row[COL_DELAY] = potion.get("delay", defaults["potion_delay"])
    effects = potion.get("effects", [])
    if len(effects) > MAX_EFFECTS:
        raise ValueError(f"{entry}: at most {MAX_EFFECTS} effects, got {len(effects)}")
    for k, eff in enumerate(effects):
        _check_keys(f"{entry} effect {k}", eff, {"op", "skills", "constant", "percent"})
        if eff.get("op") not in OP_BY_NAME:
            raise ValueError(f"{entry}: effect op must be one of {', '.join(OP_BY_NAME)}, got {eff.get('op')!r}")
        c = COL_EFFECTS + k * EFFECT_WIDTH
        row[c] = OP_BY_NAME[eff["op"]]
        row[c + 1] = _skill_mask(entry, eff.get("skills", []))
        row[c + 2] = eff.get("constant", 0)
        row[c + 3] = eff.get("percent", 0)
    for cure in potion.get("cures", []):
        if cure not in CURE_BY_NAME:
            raise ValueError(f"{entry}: cures must name {', '.join(CURE_BY_NAME)}, got {cure!r}")
        row[COL_CURES] |= CURE_BY_NAME[cure]
    row[COL_POISON_IMMUNITY] = potion.get("poison_immunity_ticks", 0)
    row[COL_VENOM_IMMUNITY] = potion.get("venom_immunity_ticks", 0)
    row[COL_RUN_ENERGY] = potion.get("run_energy", 0)
    row[COL_STAMINA_TICKS] = potion.get("stamina_ticks", 0)


def parse_consumables(doc: dict) -> ConsumableTable:
    """Build the kernel table from a parsed ``consumables.json`` document (foods first, then potions)."""
    if doc.get("schema_version") != 1:
        raise ValueError(f"consumables.json: unsupported schema_version {doc.get('schema_version')!r}")
    defaults = doc["defaults"]
    entries = [("food", f) for f in doc.get("foods", [])] + [("potion", p) for p in doc.get("potions", [])]
    table = np.zeros((len(entries), NUM_COLS), dtype=np.int32)
    names: list[str] = []
    for i, (section, item) in enumerate(entries):
        name = item.get("name")
        if not isinstance(name, str) or not name:
            raise ValueError(f"consumables.json {section} #{i}: missing 'name'")
        if name.lower() in (n.lower() for n in names):
            raise ValueError(f"consumables.json: duplicate name {name!r}")
        names.append(name)
        (_food_row if section == "food" else _potion_row)(table[i], item, defaults)
    table.setflags(write=False)
    return ConsumableTable(
        table=table,
        names=tuple(names),
        sources=tuple(item.get("source", "") for _, item in entries),
        confidence=tuple(item.get("confidence", "") for _, item in entries),
    )


def load_consumables(path: str | Path | None = None) -> ConsumableTable:
    """Read ``consumables.json`` (the packaged one by default) into a ``ConsumableTable``."""
    path = Path(path) if path is not None else DATA_PATH
    with open(path, encoding="utf-8") as fh:
        return parse_consumables(json.load(fh))


def check_table(table) -> None:
    """Raise ``TypeError`` unless ``table`` is the int32 [n, NUM_COLS] array the kernels expect."""
    if not isinstance(table, np.ndarray) or table.dtype != np.int32 or table.ndim != 2 \
            or table.shape[1] != NUM_COLS:
        got = f"{table.dtype} {table.shape}" if isinstance(table, np.ndarray) else type(table).__name__
        raise TypeError(f"consumables table must be int32 [n, {NUM_COLS}] (ConsumableTable.table), got {got}")
