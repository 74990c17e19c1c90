"""Enchanted bolt effects (opal, pearl, diamond, ruby, dragonstone, onyx) for crossbows.

Facts: ``osrs_rl/data/bolts.json`` (weirdgloop/osrs-dps-calc ``src/lib/dists/bolts.ts`` and the
OSRS wiki bolt pages). The rules, in the order the kernel applies them:
  1. the accuracy roll has already happened;
  2. dragonstone and onyx need an accurate hit; opal, pearl, diamond and ruby can fire on a miss;
  3. the effect fires with its proc chance (x1.1 with the Kandarin hard diary; PvP rates differ);
     an accurate Zaryte crossbow special always fires it;
  4. opal/pearl/dragonstone add ``floor(ranged * num / den)`` to the rolled damage; diamond and onyx
     replace the hit with a roll in [0, floor(max * mult)]; ruby replaces it with
     ``min(cap, floor(target_hp * pct))`` and costs the attacker 10 % of its hitpoints;
     onyx heals the attacker 25 % of the damage.
  Wielding the Zaryte crossbow raises every effect (its passive, the ``zaryte_*`` fields).
Approximation: on a Zaryte special that *misses*, the bolt keeps its ordinary proc chance
(dps-calc models only the accurate case).

A *bolt context* (int64 array, :func:`bolt_context`) carries the loaded bolt's parameters and the
levels it reads, so kernels need no global table; encounters rebuild it when gear changes and
refresh the hitpoints fields with :func:`set_bolt_hp` before each attack.
"""

import json
from functools import cache
from pathlib import Path

import numpy as np
from numba import njit

from osrs_rl.core import rng as R
from osrs_rl.core.damage import mean_damage

# ---- bolt codes (ITEM_DTYPE.bolt) -------------------------------------------------------------
NONE, OPAL, PEARL, DIAMOND, RUBY, DRAGONSTONE, ONYX = range(7)
BOLT_NAMES = ("none", "Opal bolts (e)", "Pearl bolts (e)", "Diamond bolts (e)", "Ruby bolts (e)",
              "Dragonstone bolts (e)", "Onyx bolts (e)")

EFFECT_ADD = 1        # add floor(ranged * num / den)
EFFECT_REROLL = 2     # replace with uniform [0, floor(max * num / den)]
EFFECT_TARGET_HP = 3  # replace with min(cap, floor(target hp * num / den))

# ---- context layout ----------------------------------------------------------------------------
CTX_RANGED = 0
CTX_TARGET_HP = 1
CTX_ATTACKER_HP = 2
CTX_EFFECT = 3
CTX_CHANCE_NUM, CTX_CHANCE_DEN = 4, 5
CTX_NUM, CTX_DEN = 6, 7               # the effect's ratio (bonus ratio, multiplier or hp share)
CTX_CAP = 8
CTX_NEEDS_ACCURATE = 9
CTX_HEAL_NUM, CTX_HEAL_DEN = 10, 11
CTX_MIN_ATTACKER_HP = 12
CTX_SELF_DAMAGE = 13                  # output: hitpoints the attacker lost to the last ruby proc
CTX_HEAL = 14                         # output: hitpoints the attacker healed from the last onyx proc
CTX_LEN = 15


@cache
def bolt_facts() -> dict[str, dict]:
    path = Path(__file__).resolve().parent.parent / "data" / "bolts.json"
    with open(path, encoding="utf-8") as f:
        return {b["name"]: b for b in json.load(f)["bolts"]}


def bolt_context(bolt: int = NONE, *, ranged_level: int = 99, target_hp: int = 0, attacker_hp: int = 99,
                 kandarin_diary: bool = False, pvp: bool = False, zaryte: bool = False,
                 fiery_target: bool = False, dragon_target: bool = False, undead_target: bool = False) -> np.ndarray:
    """The context array for ``bolt`` (a code above) under these circumstances.

    Immunities (dps-calc ``dists/bolts.ts``): dragonstone does nothing against fiery targets and
    dragons, onyx nothing against the undead; pearl hits fiery targets harder (1/15, 1/13 with
    the Zaryte crossbow).
    """
    ctx = np.zeros(CTX_LEN, dtype=np.int64)
    ctx[CTX_RANGED], ctx[CTX_TARGET_HP], ctx[CTX_ATTACKER_HP] = ranged_level, target_hp, attacker_hp
    ctx[CTX_CHANCE_DEN] = ctx[CTX_DEN] = ctx[CTX_HEAL_DEN] = 1
    if bolt == NONE or (bolt == DRAGONSTONE and (fiery_target or dragon_target)) or (bolt == ONYX and undead_target):
        return ctx
    f = bolt_facts()[BOLT_NAMES[bolt]]
    key = "proc_chance" + ("_pvp" if pvp else "") + ("_kandarin" if kandarin_diary else "")
    ctx[CTX_CHANCE_NUM], ctx[CTX_CHANCE_DEN] = f[key]
    z = "zaryte_" if zaryte else ""
    if f.get("bonus_ratio"):
        ctx[CTX_EFFECT] = EFFECT_ADD
        ratio = f[z + "bonus_ratio"]
        if bolt == PEARL and fiery_target:
            ratio = [1, 13 if zaryte else f["ranged_level_divisor_fiery"]]
        ctx[CTX_NUM], ctx[CTX_DEN] = ratio
    elif f.get("multiplier"):
        ctx[CTX_EFFECT] = EFFECT_REROLL
        ctx[CTX_NUM], ctx[CTX_DEN] = f[z + "multiplier"] if zaryte else f["multiplier"]
    else:
        ctx[CTX_EFFECT] = EFFECT_TARGET_HP
        ctx[CTX_NUM], ctx[CTX_DEN] = f[z + "percent_of_target_hp"]
        ctx[CTX_CAP] = f[z + "cap"]
    ctx[CTX_NEEDS_ACCURATE] = bool(f["requires_accurate_hit"])
    if f.get("heal_fraction"):
        ctx[CTX_HEAL_NUM], ctx[CTX_HEAL_DEN] = f["heal_fraction"]
    ctx[CTX_MIN_ATTACKER_HP] = f.get("min_attacker_hp") or 0
    return ctx


@njit(cache=True)
def set_bolt_hp(ctx, target_hp, attacker_hp):
    ctx[CTX_TARGET_HP] = target_hp
    ctx[CTX_ATTACKER_HP] = attacker_hp


@njit(cache=True)
def _can_fire(ctx, accurate):
    if ctx[CTX_EFFECT] == 0:
        return False
    if ctx[CTX_NEEDS_ACCURATE] and not accurate:
        return False
    return ctx[CTX_ATTACKER_HP] >= ctx[CTX_MIN_ATTACKER_HP]


@njit(cache=True)
def _effect_damage(rng, ctx, rolled, mx):
    kind = ctx[CTX_EFFECT]
    if kind == EFFECT_ADD:
        return rolled + (ctx[CTX_RANGED] * ctx[CTX_NUM]) // ctx[CTX_DEN]
    if kind == EFFECT_REROLL:
        return R.inclusive(rng, (mx * ctx[CTX_NUM]) // ctx[CTX_DEN])
    return min(ctx[CTX_CAP], (ctx[CTX_TARGET_HP] * ctx[CTX_NUM]) // ctx[CTX_DEN])


@njit(cache=True)
def bolt_hit(rng, ctx, accurate, mn, mx, forced, chance_mult):
    """Final damage of one bolt, with its effect when it fires; writes self-damage and heal.

    As dps-calc orders it: roll accuracy and damage, apply the effect, then raise an accurate 0
    to 1 (a proc that ignores defence, or needs a hit, makes the hit accurate).
    """
    ctx[CTX_SELF_DAMAGE] = 0
    ctx[CTX_HEAL] = 0
    rolled = R.between(rng, mn, mx) if (accurate and mx > 0) else np.int64(0)
    fired = _can_fire(ctx, accurate) and (
        (forced and accurate) or R.chance(rng, ctx[CTX_CHANCE_NUM] * chance_mult, ctx[CTX_CHANCE_DEN]))
    damage = _effect_damage(rng, ctx, rolled, mx) if fired else rolled
    if (accurate or fired) and damage < 1 and mx > 0:
        damage = np.int64(1)
    if fired:
        if ctx[CTX_EFFECT] == EFFECT_TARGET_HP:
            ctx[CTX_SELF_DAMAGE] = ctx[CTX_ATTACKER_HP] // 10
        if ctx[CTX_HEAL_NUM] > 0:
            ctx[CTX_HEAL] = (damage * ctx[CTX_HEAL_NUM]) // ctx[CTX_HEAL_DEN]
    return damage


@njit(cache=True)
def expected_bolt_hit(p, ctx, mn, mx, forced, chance_mult, cap_kind):
    """Exact mean damage of one bolt given hit chance ``p`` (same rules as :func:`bolt_hit`)."""
    if mx <= 0:
        return 0.0
    acc_mean = mean_damage(mn, mx, 0, True, cap_kind)
    kind = ctx[CTX_EFFECT]
    if kind == 0 or ctx[CTX_ATTACKER_HP] < ctx[CTX_MIN_ATTACKER_HP]:
        return p * acc_mean
    q = min(1.0, ctx[CTX_CHANCE_NUM] * chance_mult / ctx[CTX_CHANCE_DEN])
    if kind == EFFECT_ADD:
        bonus = (ctx[CTX_RANGED] * ctx[CTX_NUM]) // ctx[CTX_DEN]
        proc_acc = mean_damage(mn, mx, bonus, True, cap_kind)
        proc_miss = mean_damage(0, 0, bonus, True, cap_kind)
    elif kind == EFFECT_REROLL:
        proc_acc = proc_miss = mean_damage(0, (mx * ctx[CTX_NUM]) // ctx[CTX_DEN], 0, True, cap_kind)
    else:
        v = min(ctx[CTX_CAP], (ctx[CTX_TARGET_HP] * ctx[CTX_NUM]) // ctx[CTX_DEN])
        proc_acc = proc_miss = mean_damage(v, v, 0, True, cap_kind)
    q_acc = 1.0 if forced else q
    on_hit = q_acc * proc_acc + (1.0 - q_acc) * acc_mean
    on_miss = 0.0 if ctx[CTX_NEEDS_ACCURATE] else q * proc_miss
    return p * on_hit + (1.0 - p) * on_miss
