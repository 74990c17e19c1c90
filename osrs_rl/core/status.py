"""Status effects on a player: freeze, poison and venom, and the per-tick kernel that advances them.

Index (``tick_status``, once per tick after the hits of the tick have landed):
  1. freeze      freeze and freeze-immunity ticks count down
  2. immunities  antipoison / antivenom ticks count down
  3. poison      every 30 ticks (18 s) a poison hit of ``poison_damage``; the damage falls by 1 after
                 every 5 hits and the poison ends at 0 [H: OSRS wiki "Poison"]
     venom       every 30 ticks a venom hit starting at 6 and rising by 2 per hit to 20 [H: OSRS wiki
                 "Venom", damage table 6, 8, ..., 20, 20 at 18 s intervals]

Rules and sources:
  freeze     Ice Rush/Burst/Blitz/Barrage freeze 8/16/24/32 ticks (4.8/9.6/14.4/19.2 s); the target
             cannot be frozen again until 5 ticks after the freeze ends [H: OSRS wiki "Ice spells";
             Naton1/osrs-pvp-reinforcement-learning simulation-rsps CombatFactory.freeze registers
             FREEZE_IMMUNITY for ticks + 5]. A frozen player cannot move (``can_move``).
             Protect from Magic halving a freeze in PvP: taken from the wiki spell pages as remembered,
             not confirmed in the sources searched, and Naton1's RSPS does not model it [L]; the caller
             opts in with ``protect_from_magic_pvp``.
  poison     a new poison only replaces a weaker one and never a venom [L]; the first hit comes one
             interval after poisoning, as the wiki's venom table shows for venom (no hit at 0 s) [M].
  venom      an antipoison turns venom into poison of the same damage; anti-venom cures both [H: OSRS
             wiki "Venom"]. Immunity ticks refuse new poison / venom [M].

None of these rules is random (poison and venom damage are fixed in OSRS), so ``tick_status``
takes no RNG.
"""

from numba import njit

from osrs_rl.core.skills import HITPOINTS

# ---- freeze ---------------------------------------------------------------------------------
FREEZE_IMMUNITY_TICKS = 5
ICE_RUSH_FREEZE = 8
ICE_BURST_FREEZE = 16
ICE_BLITZ_FREEZE = 24
ICE_BARRAGE_FREEZE = 32

# ---- poison and venom -----------------------------------------------------------------------
POISON_INTERVAL = 30          # ticks between poison hits (18 s)
POISON_HITS_PER_STEP = 5      # hits before the poison damage falls by 1
VENOM_INTERVAL = 30
VENOM_START_DAMAGE = 6
VENOM_STEP = 2
VENOM_MAX_DAMAGE = 20


@njit(cache=True)
def apply_freeze(p, ticks, protect_from_magic_pvp):
    """Freeze ``p`` for ``ticks``; False when already frozen or still immune (nothing changes)."""
    if p.freeze_ticks > 0 or p.freeze_immunity_ticks > 0 or ticks <= 0:
        return False
    if protect_from_magic_pvp:
        ticks = ticks // 2
    p.freeze_ticks = ticks
    p.freeze_immunity_ticks = ticks + FREEZE_IMMUNITY_TICKS
    return True


@njit(cache=True)
def can_move(p):
    """A frozen player cannot take steps (attacking, eating and praying are unaffected)."""
    return p.freeze_ticks == 0


@njit(cache=True)
def apply_poison(p, damage):
    """Poison ``p`` with starting ``damage``; False when immune, envenomed or already poisoned as hard."""
    if damage <= 0 or p.poison_immunity_ticks > 0 or p.venom != 0 or p.poison_damage >= damage:
        return False
    p.poison_damage = damage
    p.poison_hits = 0
    p.poison_timer = POISON_INTERVAL
    return True


@njit(cache=True)
def apply_venom(p):
    """Envenom ``p`` (replacing any poison); False when immune or already envenomed."""
    if p.venom_immunity_ticks > 0 or p.venom != 0:
        return False
    p.venom = 1
    p.poison_damage = VENOM_START_DAMAGE
    p.poison_hits = 0
    p.poison_timer = VENOM_INTERVAL
    return True


@njit(cache=True)
def cure_poison(p, immunity_ticks):
    """Antipoison: ends poison, turns venom into poison of the same damage, grants poison immunity."""
    if p.venom != 0:
        p.venom = 0
        p.poison_hits = 0
    else:
        p.poison_damage = 0
        p.poison_hits = 0
    if immunity_ticks > p.poison_immunity_ticks:
        p.poison_immunity_ticks = immunity_ticks


@njit(cache=True)
def cure_venom(p, venom_immunity_ticks, poison_immunity_ticks):
    """Anti-venom: ends venom and poison and grants both immunities (a longer one already held stays)."""
    p.venom = 0
    p.poison_damage = 0
    p.poison_hits = 0
    if venom_immunity_ticks > p.venom_immunity_ticks:
        p.venom_immunity_ticks = venom_immunity_ticks
    if poison_immunity_ticks > p.poison_immunity_ticks:
        p.poison_immunity_ticks = poison_immunity_ticks


@njit(cache=True)
def _poison_hit(p):
    """One poison or venom hit; returns the damage dealt (never more than the hitpoints left)."""
    hp = p.levels[HITPOINTS]
    dealt = min(p.poison_damage, hp)
    p.levels[HITPOINTS] = hp - dealt
    if p.venom != 0:
        p.poison_damage = min(VENOM_MAX_DAMAGE, p.poison_damage + VENOM_STEP)
        p.poison_timer = VENOM_INTERVAL
    else:
        p.poison_hits += 1
        if p.poison_hits >= POISON_HITS_PER_STEP:
            p.poison_hits = 0
            p.poison_damage -= 1
        p.poison_timer = POISON_INTERVAL
    return dealt


@njit(cache=True)
def tick_status(p):
    """Advance freeze, immunities, poison and venom by one tick; return the damage taken this tick."""
    if p.freeze_ticks > 0:
        p.freeze_ticks -= 1
    if p.freeze_immunity_ticks > 0:
        p.freeze_immunity_ticks -= 1
    if p.poison_immunity_ticks > 0:
        p.poison_immunity_ticks -= 1
    if p.venom_immunity_ticks > 0:
        p.venom_immunity_ticks -= 1

    if p.poison_damage <= 0 or p.levels[HITPOINTS] <= 0:
        return 0
    p.poison_timer -= 1
    if p.poison_timer > 0:
        return 0
    return _poison_hit(p)
