"""Tables for the kernels: the arena's maps and route tables, the wave table, the monster rows and the
player's loadout. ``fill_config`` is the spec's config hook.

A loadout (config ``loadout``, ``LOADOUTS``) is three gear sets the ``gear`` head switches between
(state.SET_*): the main ranged weapon, the toxic blowpipe (its special, Toxic Siphon, heals half the damage
it deals) and a magic set that autocasts Ice Barrage. Each set is built with the engine's combatant builder
(``osrs_rl.data.combatants``), so accuracy and max hits (the twisted bow's scaling on each monster's magic, the
sets' magic damage %, Augury's +4 %) come from core.accuracy and core.max_hit as in the calculator
(weirdgloop/osrs-dps-calc PlayerVsNPCCalc getPlayerMaxMagicHit: base + floor(base * magic damage % / 100)).

The item choice is a design decision of this project, not a sourced fact: loadout 0 is the max kit (twisted
bow, blowpipe, Kodai wand for barraging nibbler clumps: they spawn in one 3x3 block, a barrage's area), loadout 1 a
cheaper one (Armadyl crossbow, blowpipe, Ahrim's staff; Armadyl, Ahrim's and barrows gloves), as far as
items.json has the items (it has no ancient sceptre or ancient staff, so the cheaper barrage staff is Ahrim's,
which the combatant builder accepts for Ancient Magicks). Runes are unlimited (not counted).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np

from osrs_rl.core import click_move as CM
from osrs_rl.core import equipment as E
from osrs_rl.core import hit_delay as HD
from osrs_rl.core import prayers as P
from osrs_rl.core import specials as SP
from osrs_rl.core import styles as S
from osrs_rl.core.consumables import load_consumables
from osrs_rl.core.line_of_sight import sight_tables
from osrs_rl.core.pending_hits import STYLE_MAGIC, STYLE_MELEE, STYLE_RANGED, STYLE_TYPELESS
from osrs_rl.core.skills import SKILL_NAMES
from osrs_rl.data import tables
from osrs_rl.data.combatants import build_combatant, carried_items
from osrs_rl.runtime.attacks import STYLE_NAMES, Attack
from osrs_rl.runtime.config import ConfigError
from osrs_rl.runtime.inventory import Kit, potion_slots

from . import arena as A
from . import state as ST
from . import waves as W


class GearSet(NamedTuple):
    """One of a loadout's sets: what is worn, the weapon's stance (None for a spell), the spell, the offensive
    prayers used with it."""

    gear: dict
    stance: str | None
    spell: str | None
    prayers: tuple[str, ...]


# Hybrid kits: the sets share what they can, so the switches fit an inventory beside the potions (runtime.inventory:
# 28 slots, the worn set aside). Loadout 0 follows InfernoTrainer's max twisted-bow kit (InfernoLoadout.ts
# loadoutMaxTbow: Kodai wand and a shield worn with a Masori mask, Dizana's quiver, Ancestral robes, Pegasian boots,
# Zaryte vambraces and a ring of suffering (i); the bow, blowpipe, Masori body and chaps and the anguish carried;
# 8 brews, 10 restores, a bastion and a stamina). Its Justiciar tank pieces are left out (no tank set here), and
# the shield is Elidinis' ward (f) (items.json has no crystal shield). Loadout 1 is the same shape in cheaper gear
# (Armadyl crossbow; Ahrim's staff and robes).
_MAX_SHARED = {"head": "Masori mask (f)", "cape": "Dizana's quiver (Charged)", "ammo": "Dragon arrow (Unpoisoned)",
               "hands": "Zaryte vambraces", "feet": "Pegasian boots", "ring": "Ring of suffering (i)"}
_MAX_RANGED = {**_MAX_SHARED, "neck": "Necklace of anguish", "body": "Masori body (f)", "legs": "Masori chaps (f)"}
_MID_SHARED = {"head": "Armadyl helmet", "cape": "Ava's assembler (Normal)", "ammo": "Dragon bolts (Unpoisoned)",
               "hands": "Barrows gloves", "feet": "Pegasian boots", "ring": "Ring of suffering (i)"}
_MID_RANGED = {**_MID_SHARED, "neck": "Necklace of anguish", "body": "Armadyl chestplate", "legs": "Armadyl chainskirt"}
# The ammo slot keeps the bow set's ammo in the other sets (nobody switches it); the blowpipe's darts are listed in
# the ammo slot as the calculator models them (dps-calc: the loaded dart's ranged strength) and are loaded in the
# blowpipe, not carried (data.combatants.carried_items).
LOADOUTS = (
    {   # 0: max
        "bow": GearSet({**_MAX_RANGED, "weapon": "Twisted bow"}, "Rapid", None, ("Rigour",)),
        "blowpipe": GearSet({**_MAX_RANGED, "ammo": "Dragon dart (Unpoisoned)", "weapon": "Toxic blowpipe (Charged)"},
                            "Rapid", None, ("Rigour",)),
        "magic": GearSet({**_MAX_SHARED, "neck": "Occult necklace", "weapon": "Kodai wand",
                          "body": "Ancestral robe top", "legs": "Ancestral robe bottom",
                          "shield": "Elidinis' ward (f)"}, None, "Ice Barrage", ("Augury",)),
    },
    {   # 1: cheaper
        "bow": GearSet({**_MID_RANGED, "weapon": "Armadyl crossbow"}, "Rapid", None, ("Rigour",)),
        "blowpipe": GearSet({**_MID_RANGED, "ammo": "Amethyst dart (Unpoisoned)", "weapon": "Toxic blowpipe (Charged)"},
                            "Rapid", None, ("Rigour",)),
        "magic": GearSet({**_MID_SHARED, "neck": "Occult necklace", "weapon": "Ahrim's staff (Undamaged)",
                          "body": "Ahrim's robetop (Undamaged)", "legs": "Ahrim's robeskirt (Undamaged)"},
                         None, "Ice Barrage", ("Augury",)),
    },
)
SPELL_RANGE = 10      # combat spells reach 10 tiles [OSRS wiki "Attack range"; osrs-sdk BarrageSpell.attackRange 10]
MULTI_TARGETS = 9     # a barrage hits up to 9 monsters [spells.json notes; osrs-sdk BarrageSpell.maxConcurrentHits]

# Attack facts per kind that npcs.json does not hold as numbers. Range: RuneLite inferno plugin
# InfernoNPC.Type.range (bat 4, blob 15, bloblets 15, melee 1; ranger and mager "98", i.e. the whole arena),
# OSRS wiki / dps-calc speeds via npcs.json. Styles of the distance attack and whether the kind melees
# when adjacent: InfernoTrainer mobs/*.ts (attackStyleForNewAttack, canMeleeIfClose). Extra delay: Jal-Xil's
# projectile is 2 ticks slower than a bow's (InfernoTrainer JalXil.ts reduceDelay -2) [M].
# Every style listed here gets a max hit from npcs.json (the OSRS wiki infobox export; its attack_styles list
# agrees with these) or the standard NPC formula, and ``attacks`` (the spec's contract, runtime.attacks) refuses
# a config in which one of them is below 1: Jal-Ak's ranged style was once missing here and rolled 0 through
# Protect from Magic (npcs.json: Jal-Ak attack_styles Ranged, Magic, Crush, max hit 29; InfernoTrainer JalAk.ts
# has a ranged weapon beside the magic one).
_ARENA_RANGE = 60
_ATTACK = {   # kind: (range, distance styles (the first is the default one), melee when adjacent, extra delay)
    ST.K_NIBBLER: (1, (STYLE_MELEE,), 0, 0),
    ST.K_BAT: (4, (STYLE_RANGED,), 0, 0),
    ST.K_BLOB: (15, (STYLE_MAGIC, STYLE_RANGED), 1, 0),   # the style its scan picks (kinds), crush adjacent
    ST.K_BLOBLET_MAGIC: (15, (STYLE_MAGIC,), 0, 0),
    ST.K_BLOBLET_RANGED: (15, (STYLE_RANGED,), 0, 0),
    ST.K_BLOBLET_MELEE: (1, (STYLE_MELEE,), 0, 0),
    ST.K_MELEER: (1, (STYLE_MELEE,), 0, 0),
    ST.K_RANGER: (_ARENA_RANGE, (STYLE_RANGED,), 1, 2),
    ST.K_MAGER: (_ARENA_RANGE, (STYLE_MAGIC,), 1, 0),
    # the finale (finale.py): Jad magic or ranged (drawn per attack, both max 113) and stab
    # when adjacent (InfernoTrainer JalTokJad.ts attackRange 50, canMeleeIfClose "stab"); its healers crush at
    # range 1 once drawn (YtHurKot.ts); Zuk's attack is typeless (TzKalZuk.ts: ZukWeapon.isBlockable is false; its
    # max hit is the zuk_max_hit setting); the glyph never attacks; Zuk's healers throw sparks
    # (finale.zuk_healer_turn, 5..10: ``attacks``)
    ST.K_JAD: (_ARENA_RANGE, (STYLE_MAGIC, STYLE_RANGED), 1, 0),
    ST.K_JAD_HEALER: (1, (STYLE_MELEE,), 0, 0),
    ST.K_ZUK: (_ARENA_RANGE, (STYLE_TYPELESS,), 0, 0),
    ST.K_SHIELD: (0, (), 0, 0),
    ST.K_ZUK_HEALER: (_ARENA_RANGE, (STYLE_TYPELESS,), 0, 0),
}
# kinds whose attack on the player is not a kind_max roll: Zuk (zuk_max_hit), his healers' sparks (finale
# SPARK_DAMAGE); the glyph never attacks
_OWN_MAX = (ST.K_ZUK, ST.K_SHIELD, ST.K_ZUK_HEALER)


@cache
def arena_tables() -> tuple[np.ndarray, np.ndarray]:
    """(maps, route): the collision map for each set of standing pillars (and the Zuk wave's) and, on each, the
    game's route from every tile to every offset within state.ROUTE_RADIUS (core.click_move.route_tables, which
    checks that every route to a click within MOVE_RADIUS arrives within it; every walkable tile of the arena
    reaches every other)."""
    maps = A.all_flags()
    route = CM.route_tables(maps, ST.ROUTE_RADIUS)
    maps.setflags(write=False)
    route.setflags(write=False)
    return maps, route


@cache
def sight() -> np.ndarray:
    """core.line_of_sight.sight_tables of ``arena_tables``' maps: the answer of every ray on each (built once
    a process, about a second)."""
    table = sight_tables(arena_tables()[0])
    table.setflags(write=False)
    return table


def _fill_arena(cfg) -> None:
    maps, route = arena_tables()
    cfg["maps"] = maps
    cfg["route"] = route
    cfg["sight"] = sight()
    cfg["pillar_xy"] = A.PILLARS
    cfg["spawn_xy"] = A.SPAWNS
    cfg["nibbler_xy"] = A.NIBBLER_TILES
    cfg["start_xy"] = A.PLAYER_START


def _fill_monsters(cfg) -> None:
    from osrs_rl.core.formula import NO_TRACE
    from osrs_rl.core.max_hit import npc_max_hit

    npcs = tables.npcs()
    cfg["wave_counts"] = 0
    for wave in range(1, W.LAST_REGULAR_WAVE + 1):
        cfg["wave_counts"][wave] = W.counts(wave)
    for k, name in enumerate(ST.KIND_NPC):
        row = npcs.records[npcs.find(name)]
        cfg["kind_row"][k] = row
        cfg["kind_size"][k] = row["size"]
        cfg["kind_speed"][k] = row["attack_speed"]
        reach, styles, melee, extra = _ATTACK[k]
        cfg["kind_range"][k] = reach
        cfg["kind_style"][k] = styles[0] if styles else STYLE_MELEE
        cfg["kind_melee"][k] = melee
        cfg["kind_extra_delay"][k] = extra
        rec = cfg["kind_row"][k:k + 1]
        # listed max hits where npcs.json has them, else the standard NPC formula on its levels and bonuses
        # (core.max_hit.npc_max_hit): Jal-Xil's crush 19 and Jal-Zek's stab 52, as secondary sources list
        for st, attack_type in ((STYLE_MELEE, S.CRUSH), (STYLE_RANGED, S.RANGED), (STYLE_MAGIC, S.MAGIC)):
            uses = k not in _OWN_MAX and (st in styles or (st == STYLE_MELEE and melee))
            cfg["kind_max"][k, st] = int(npc_max_hit(NO_TRACE, rec[0], attack_type)) if uses else -1


def _projectile(rec) -> int:
    if rec["spell"] >= 0:
        return HD.PROJ_MAGIC
    return HD.PROJ_THROWN if int(rec["ammo_class"]) == S.AMMO_LIGHT else HD.PROJ_BOW


def _fill_set(cfg, k: int, gear: dict, style, spell, prayers, items, normal, special) -> None:
    rec = build_combatant(style=style, gear=gear, spell=spell)[0]
    effect = int(rec["weapon_effect"])
    cfg["set_combat"][k] = rec
    cfg["set_row"][k] = normal[effect]
    cfg["set_special"][k] = special[effect]          # cost 0 when the weapon has no special
    cfg["set_proj"][k] = _projectile(rec)
    worn = np.full(E.NUM_SLOTS, -1, dtype=np.int16)
    for slot, item in gear.items():
        worn[E.SLOT_NAMES.index(slot)] = items.find(item)
    cfg["set_worn"][k] = worn
    cfg["set_prayer_bonus"][k] = rec["bonuses"][S.B_PRAYER]
    cfg["set_offensive"][k] = P.prayer_mask(list(prayers))
    if spell is None:
        cfg["set_style"][k] = STYLE_RANGED
        cfg["set_range"][k] = int(items.records[items.find(gear["weapon"])]["attack_range"])
        cfg["set_freeze"][k] = 0
        cfg["set_targets"][k] = 1
    else:
        row = tables.spells().raw[tables.spells().find(spell)]
        cfg["set_style"][k] = STYLE_MAGIC
        cfg["set_range"][k] = SPELL_RANGE
        cfg["set_freeze"][k] = int(row["freeze_ticks"])       # Ice Barrage 32 [spells.json: OSRS wiki "Freeze"]
        cfg["set_targets"][k] = MULTI_TARGETS if row["multi_target"] else 1


def _fill_player(cfg) -> None:
    items = tables.items()
    normal, special = SP.build_normal_table(), SP.build_special_table()
    cfg["levels"] = [99] * len(SKILL_NAMES)
    for k, name in enumerate(ST.SET_NAMES):
        g = LOADOUTS[int(cfg["loadout"])][name]
        _fill_set(cfg, k, g.gear, g.stance, g.spell, g.prayers, items, normal, special)
    cfg["offensive"] = np.bitwise_or.reduce(cfg["set_offensive"])
    cons = load_consumables()
    cfg["consumables"][:] = cons.table
    for k, item in enumerate(ST.SUPPLY_ITEMS):
        cfg["supply_consumable"][k] = cons.id(item)
    cfg["bolt_ctx"] = 0


def kit(cfg) -> Kit:
    """What the config's player carries (the spec's ``kit``, runtime.inventory): the loadout's three sets and the
    supply settings as potions; a rune pouch for the barrage's runes (OSRS wiki "Ice Barrage": water, blood and
    death runes; "Rune pouch": one slot holds them, the Kodai wand gives the water runes)."""
    sets = LOADOUTS[int(cfg["loadout"])]
    supplies = tuple((name, potion_slots(int(cfg[ST.SUPPLY_SETTINGS[name]]))) for name in ST.SUPPLY_NAMES)
    runes = (("rune pouch", 1),) if any(g.spell for g in sets.values()) else ()
    ammo = sets["bow"].gear.get("ammo")
    return Kit(f"loadout {int(cfg['loadout'])}", tuple(carried_items(g.gear, ammo) for g in sets.values()),
               supplies + runes)


def kernel_styles(k: int) -> tuple[str, ...]:
    """The styles (runtime.attacks.STYLE_NAMES) the kernels can roll for kind ``k``: its distance styles and
    melee when it melees adjacent players (``_ATTACK``)."""
    _, styles, melee, _ = _ATTACK[k]
    out = [STYLE_NAMES[st] for st in styles]
    if melee and "melee" not in out:
        out.append("melee")
    return tuple(out)


def attacks(cfg) -> list[Attack]:
    """Every (kind, style) that can hurt the player (the spec's ``attacks``, runtime.attacks): the styles each kind
    attacks with by the wiki infobox (npcs.json attack_styles, data.tables.npc_attack_styles) and those the kernels
    roll for it (``kernel_styles``), with the max hit the kernels roll: ``kind_max``, Zuk's ``zuk_max_hit``, the
    sparks' SPARK_DAMAGE."""
    from .finale import SPARK_DAMAGE

    rows = []
    for k, npc in enumerate(ST.KIND_NPC):
        # the infobox's styles and every style the kernels can roll for the kind: a kernel style the infobox
        # lacks is checked too, and an infobox style the kernels never fill has kind_max -1 and is refused
        listed = tables.npc_attack_styles(npc)
        for style in listed + tuple(s for s in kernel_styles(k) if s not in listed):
            if k == ST.K_ZUK:
                most = int(cfg["zuk_max_hit"])
            elif k == ST.K_ZUK_HEALER:
                most = SPARK_DAMAGE[1]
            elif style == "typeless":
                most = -1                        # no kind_max column: a typeless style elsewhere is unmodelled
            else:
                most = int(cfg["kind_max"][k, STYLE_NAMES.index(style)])
            rows.append(Attack(ST.KIND_NAMES[k], style, most, f"npcs.json {npc!r}"))
    return rows


def fill_config(cfg) -> None:
    """The spec's config hook: check the settings that depend on each other, fill every derived field."""
    if int(cfg["last_wave"]) < int(cfg["start_wave"]):
        raise ConfigError(f"Config 'last_wave' = {int(cfg['last_wave'])} of encounter 'inferno' is before "
                          f"'start_wave' = {int(cfg['start_wave'])}")
    weights = np.array([cfg[f"band_weight_{k + 1}"] for k in range(ST.NUM_BANDS)], dtype=np.float64)
    cfg["band_cumulative"] = np.cumsum(weights) / weights.sum() if weights.sum() > 0 else 0.0
    usable = [k for k, (lo, _) in enumerate(ST.BANDS) if lo <= int(cfg["last_wave"])]
    if weights.sum() > 0 and weights[usable].sum() <= 0:
        raise ConfigError(f"Config band weights of encounter 'inferno' give no band that starts by last_wave = "
                          f"{int(cfg['last_wave'])}")
    _fill_arena(cfg)
    _fill_monsters(cfg)
    _fill_player(cfg)
