"""The finale, waves 67-69: JalTok-Jad on wave 67, three of them on wave 68, their Yt-HurKot healers; the Zuk
wave: TzKal-Zuk, the Ancestral Glyph, his ranger-mager sets, his Jad and his Jal-MejJak healers with their lava
sparks; how a wave-69 start is set up from the curriculum settings, and the fight's phase (``phase_of``).
Sources above the constants below and beside each rule (README.md section "The finale").
"""

import numpy as np
from numba import njit

from osrs_rl.core import click_move as CM
from osrs_rl.core import jad as JAD
from osrs_rl.core import player_input as PI
from osrs_rl.core import rng as R
from osrs_rl.core import styles as S
from osrs_rl.core.accuracy import npc_attack_roll, player_defence_roll, roll_accuracy
from osrs_rl.core.collision import BLOCKED
from osrs_rl.core.damage import roll_npc_damage
from osrs_rl.core.events import ENTITY_NONE, EV_ATTACK, EV_DEATH, EV_HIT, EVF_BLOCKED, EVF_KILLED, record_event
from osrs_rl.core.formula import NO_TRACE
from osrs_rl.core.hit_events import queue_tracked_hit
from osrs_rl.core.pending_hits import FLAG_ACCURATE, STYLE_MELEE, STYLE_TYPELESS
from osrs_rl.core.skills import HITPOINTS

from . import arena as A
from . import monsters as MON
from . import pillars as PIL
from . import spawns as SPN
from . import state as ST
from . import waves as W

# Sources [M unless tagged]: OldSchoolSDK/InfernoTrainer @ fdc5cb2 ("IT") InfernoRegion.ts (the wave setups),
# mobs/JalTokJad.ts, mobs/YtHurKot.ts, mobs/TzKalZuk.ts, ZukShield.ts, mobs/JalMejJak.ts,
# InfernoHealerSpark.ts; the RuneLite inferno plugin (runelite/runelite plugins/inferno) agrees on the set
# timer [H].
JAD_68_SPEED = 9               # the triple Jads attack every 9 ticks (IT wave 68 attackSpeed 9; 8 elsewhere)
JAD_HEALERS = (5, 3, 3)        # healers a Jad calls below half hitpoints on waves 67, 68, 69 (IT)
JAD_HEAL_MAX = 19              # a Yt-HurKot heals its Jad 0..19 a hit (IT HealWeapon floor(rand * 20); the
                               # wiki's 15-24 as an unpublished compilation quotes it [L])
HEALER_TRIES = 64              # random tiles tried for a healer before it takes its Jad's tile
ZUK_SLOT, SHIELD_SLOT = 1, 0   # the glyph moves before Zuk attacks (IT adds the shield first)
ZUK_STUN = 8                   # IT TzKalZuk.setStats stunned 8
ZUK_FIRST_ATTACK = 14          # IT attackDelay 14: his first attack 14 ticks after the wave starts
ZUK_SPEED, ZUK_ENRAGED_SPEED = 10, 7   # [H: RuneLite InfernoNPC (10, 7 in the final phase), IT attackSpeed]
ZUK_PROJECTILE = 4             # his hit lands 4 ticks after the attack (IT ZukWeapon setDelay 4)
SET_FIRST, SET_PERIOD = 72, 350        # [H: IT setTimer 72 then 350; RuneLite 3:30]
SET_PAUSE_HP, SET_RESUME_HP, SET_RESUME_EXTRA = 600, 480, 175   # [H: IT + RuneLite (RuneLite adds 105 s)]
HEALERS_HP = 240               # Zuk's four Jal-MejJak come below 240 and he enrages (IT; secondary agrees)
ZUK_JAD_STUN = 7               # IT spawnDelay 7
ZUK_HEALER_STUN = 3            # IT spawnDelay 2, then stunned 1
ZUK_HEAL_MAX = 24              # a Jal-MejJak heals Zuk 0..24 every 3 ticks (IT floor(rand * 25))
HEALER_DRAWN_WAIT = 2          # a Jal-MejJak drawn by the player waits 2 ticks (IT nulledTicks 2)
SPARKS_PER_THROW = 3
SPARK_DELAY = 2                # a spark lands 2 ticks after the throw (IT DelayedAction 2) on its 3x3
SPARK_DAMAGE = (5, 10)         # IT InfernoSparkWeapon 5 + floor(rand * 6): unprayable


# ---- waves 67 and 68: the Jads and their healers -----------------------------------------------------
@njit(cache=True)
def attack_speed_of(s, cfg, m):
    """Ticks between a monster's attacks: its kind's, but the triple Jads' 9 and an enraged Zuk's 7."""
    if m.kind == ST.K_JAD and s.wave == W.TRIPLE_JAD_WAVE:
        return np.int64(JAD_68_SPEED)
    if m.kind == ST.K_ZUK:
        return np.int64(ZUK_ENRAGED_SPEED if s.enraged else ZUK_SPEED)
    return np.int64(cfg.kind_speed[m.kind])


@njit(cache=True)
def _spawn(s, cfg, kind, x, y, target, stun, parent=-1):
    """``kind`` at (x, y) in a spare slot (``spare_slot``), stunned ``stun`` ticks (its spawn delay); the slot
    or -1 when none is left (APPROXIMATION of the slot capacity: with 16 alive the monster is not spawned)."""
    slot = SPN.spare_slot(s)
    if slot >= 0:
        SPN.place(s, cfg, slot, kind, x, y, target)
        s.monsters[slot].stun = stun
        s.monsters[slot].parent = parent
    return slot


@njit(cache=True)
def shield_alive(s):
    g = s.monsters[SHIELD_SLOT]
    return s.wave >= W.ZUK_WAVE and g.kind == ST.K_SHIELD and g.state == ST.SLOT_ALIVE


@njit(cache=True)
def jad_attack(s, cfg, k):
    """A Jad starts an attack: a stab when the player is adjacent (half the time, at once), else ranged or
    magic 50/50, shown now by its animation (``scan``: the style, ``windup``) and released core.jad.TELL_TICKS
    later by ``jad_release``, where the overhead then decides (core.jad rule 1; an unpublished compilation
    states the same: "the overhead must be up when the projectile is released"). Returns a melee's prayer
    score."""
    m = s.monsters[k]
    style = MON.distance_or_melee(s, cfg, m)
    if style == STYLE_MELEE:
        return MON.monster_attack(s, cfg, k, STYLE_MELEE)
    JAD.show_attack(m, style, attack_speed_of(s, cfg, m))
    m.activity = ST.ACT_ATTACK
    return 0


@njit(cache=True)
def jad_release(s, cfg, k, style):
    """The ``style`` attack a Jad showed core.jad.TELL_TICKS ago leaves (core.jad.released_style), at the
    player (the overhead now decides) or at the glyph. Returns the prayer score."""
    m = s.monsters[k]
    if m.state != ST.SLOT_ALIVE or style < 0:
        return 0
    if m.target == ST.TARGET_SHIELD:
        if shield_alive(s):
            _glyph_takes(s, cfg, k, style)
        return 0
    return MON.monster_attack(s, cfg, k, style, True)


@njit(cache=True)
def jad_hurt(s, cfg, k):
    """A Jad below half its hitpoints calls its healers, once (IT JalTokJad.damageTaken: 5 on wave 67, 3 on
    68 and 69), each on the first tile near it no other monster holds: IT tries the Jad's own south-west tile,
    then random offsets (waves 67-68: x -5..5, y -4..10; Zuk's wave: x 0..5, 5..8 north of its south-west tile:
    IT's offsets with y turned north); here a tile must also be on the floor (APPROXIMATION: IT does not
    check)."""
    m = s.monsters[k]
    if not JAD.healers_due(m, cfg.kind_row[m.kind].hitpoints):
        return
    n = JAD_HEALERS[min(max(s.wave - W.JAD_WAVE, 0), 2)]
    flags = PIL.arena_map(s, cfg)
    for _ in range(n):
        x, y = np.int64(m.x), np.int64(m.y)
        for t in range(HEALER_TRIES):
            if t > 0:
                if s.wave >= W.ZUK_WAVE:
                    x = m.x + R.below(s.rng, 6)
                    y = m.y + 5 + R.below(s.rng, 4)
                else:
                    x = m.x + R.below(s.rng, 11) - 5
                    y = m.y - 4 + R.below(s.rng, 15)
            if 0 <= x < A.GRID_W and 0 <= y < A.GRID_H and not (flags[x, y] & BLOCKED) and \
                    MON.free_of_monsters(s, cfg, k, x, y, 1):
                break
            x, y = np.int64(m.x), np.int64(m.y)
        _spawn(s, cfg, ST.K_JAD_HEALER, x, y, ST.TARGET_SLOT + k, 1, k)


@njit(cache=True)
def heal_turn(s, cfg, k):
    """A Yt-HurKot next to its Jad heals it 0..JAD_HEAL_MAX every 4 ticks until the player hits it (IT
    YtHurKot.ts: its "heal" weapon while its aggro is the Jad, range 1). APPROXIMATION: the heal lands now;
    IT sends it as a projectile landing 3 ticks later."""
    m = s.monsters[k]
    j = s.monsters[m.target - ST.TARGET_SLOT]
    m.attack_timer = attack_speed_of(s, cfg, m)
    m.activity = ST.ACT_ATTACK
    if j.state != ST.SLOT_ALIVE:
        return
    _heal(s, cfg, m.target - ST.TARGET_SLOT, R.inclusive(s.rng, JAD_HEAL_MAX))


@njit(cache=True)
def _heal(s, cfg, j, amount):
    o = s.monsters[j]
    s.healed += JAD.heal(o, amount, cfg.kind_row[o.kind].hitpoints)
    s.healing_ticks += 1


@njit(cache=True)
def drawn_by_player(s, cfg, k):
    """A hit of the player's landed on monster ``k``: a set or Jad on the glyph turns on the player (IT
    Mob.shouldChangeAggro; a Jad that has called its healers keeps its target: IT autoRetaliate false); a
    healer that heals stops and fights the player: a tag (IT YtHurKot, JalMejJak: aggro to the attacker; a
    Jal-MejJak then waits 2 ticks, nulledTicks)."""
    m = s.monsters[k]
    if m.target == ST.TARGET_SHIELD and not (m.kind == ST.K_JAD and m.procced):
        m.target = ST.TARGET_PLAYER
    elif m.target >= ST.TARGET_SLOT:
        m.target = ST.TARGET_PLAYER
        s.healers_tagged += 1
        if m.kind == ST.K_ZUK_HEALER:
            m.attack_timer = max(m.attack_timer, HEALER_DRAWN_WAIT)


@njit(cache=True)
def dies_with(s, k):
    """A Jad's healers die with it; everything dies with Zuk (IT YtHurKot.attackStep, TzKalZuk.damageTaken),
    not counted as the player's kills."""
    zuk = s.monsters[k].kind == ST.K_ZUK
    for j in range(ST.MONSTER_SLOTS):
        o = s.monsters[j]
        if j == k or o.state != ST.SLOT_ALIVE or not (zuk or o.parent == k):
            continue
        o.state = ST.SLOT_DEAD
        o.windup = 0
        record_event(s, EV_DEATH, ST.ENT_MONSTER + j, ENTITY_NONE, -1, 0, 0, o.x, o.y)
    if zuk:
        for i in range(ST.SPARK_CAPACITY):
            s.sparks[i].due_tick = 0


# ---- the Zuk wave: the glyph, Zuk, his sets, Jad and healers -----------------------------------------
@njit(cache=True)
def glyph_turn(s, cfg, k):
    """The Ancestral Glyph walks 1 tile a tick along its track; at either end (IT x 10 and 36) it turns and is
    on its end tile SHIELD_PAUSE ticks, its arrival's included: IT ZukShield.movementStep freezes it 5 on the step
    that arrives and reverses its direction, and osrs-sdk Mob.attackStep counts ``frozen`` down in that same tick,
    so it stands 4 more ticks and moves on the 5th."""
    m = s.monsters[k]
    if m.frozen > 0:
        m.frozen -= 1
        return
    m.x += s.shield_dir
    if m.x <= A.SHIELD_X[0] or m.x >= A.SHIELD_X[1]:
        m.frozen = A.SHIELD_PAUSE - 1
        s.shield_dir = -s.shield_dir


@njit(cache=True)
def sheltered(s, cfg):
    """The player stands where the glyph takes Zuk's attack: ``shelter_rule`` 0 (InfernoTrainer
    TzKalZuk.attack: x within the glyph's 5 columns, at most 3 rows south of it: IT y <= 16) or 1 (RuneLite
    inferno plugin: x from one west of its south-west tile to 3 east, 2 to 4 rows south of it)."""
    if not shield_alive(s):
        return False
    g = s.monsters[SHIELD_SLOT]
    x0, x1, y0, y1 = shelter_box(cfg, np.int64(g.x), np.int64(g.y))
    return x0 <= s.p.x <= x1 and y0 <= s.p.y <= y1


@njit(cache=True)
def shelter_box(cfg, gx, gy):
    """(x0, x1, y0, y1), inclusive: the tiles a glyph with south-west tile (gx, gy) shelters (``sheltered``):
    ``shelter_rule`` 0 its 5 columns, the 3 rows south of it; 1 one column further west, rows 2-4 south."""
    if cfg.shelter_rule == 1:
        return gx - 1, gx + 3, gy - 4, gy - 2
    return gx, gx + 4, gy - 3, gy - 1


@njit(cache=True)
def spark_near(s, x, y, within):
    """A lava spark lands on the 3x3 around (x, y) within ``within`` ticks (what the player sees in the air)."""
    for i in range(ST.SPARK_CAPACITY):
        sp = s.sparks[i]
        if sp.due_tick > 0 and sp.due_tick - s.tick <= within and abs(x - sp.x) <= 1 and abs(y - sp.y) <= 1:
            return True
    return False


@njit(cache=True)
def zuk_set_clock(s, cfg):
    """Zuk's set timer counts down each of his turns while it runs, stunned or not (a ranger-mager set at 0, then
    every SET_PERIOD) [M: InfernoTrainer TzKalZuk.attackIfPossible counts it; osrs-sdk Mob.attackStep calls
    attackIfPossible on every tick, the stun stops only the attack (Unit.canAttack): the first set at tick 72]."""
    if not s.set_paused:
        s.set_timer -= 1
        if s.set_timer <= 0:
            s.set_timer = SET_PERIOD
            spawn_set(s, cfg)


@njit(cache=True)
def zuk_turn(s, cfg, k):
    """TzKal-Zuk never moves; with his attack timer at 0 he attacks (``zuk_attack``); his set timer runs in
    ``zuk_set_clock``."""
    m = s.monsters[k]
    if m.attack_timer <= 0:
        zuk_attack(s, cfg, k)


@njit(cache=True)
def zuk_attack(s, cfg, k):
    """One typeless attack, landing ZUK_PROJECTILE ticks later: on the glyph (no damage: IT's magic base
    damage 0 on the shield) when the player stands sheltered now, else on the player, whatever the overhead
    (IT ZukWeapon.isBlockable false), with the standard NPC accuracy on his magic row and 0..zuk_max_hit."""
    m = s.monsters[k]
    m.attack_timer = attack_speed_of(s, cfg, m)
    m.activity = ST.ACT_ATTACK
    if sheltered(s, cfg):
        s.sheltered_attacks += 1
        record_event(s, EV_ATTACK, ST.ENT_MONSTER + k, ST.ENT_MONSTER + SHIELD_SLOT, STYLE_TYPELESS, 0,
                     EVF_BLOCKED, m.x, m.y)
        return
    p = s.p
    PI.refresh_combat(s.combat, p, cfg.set_combat[s.gear_set])
    damage = 0
    flags = 0
    if roll_accuracy(s.rng, npc_attack_roll(NO_TRACE, cfg.kind_row[m.kind], S.MAGIC),
                     player_defence_roll(NO_TRACE, s.combat[0], S.MAGIC)):
        flags = FLAG_ACCURATE
        damage = roll_npc_damage(s.rng, cfg.zuk_max_hit)
    queue_tracked_hit(s, ST.ENT_MONSTER + k, 0, s.tick + ZUK_PROJECTILE, damage, STYLE_TYPELESS, m.kind,
                      ST.HT_PLAYER, flags, 0, 0)
    record_event(s, EV_ATTACK, ST.ENT_MONSTER + k, ST.ENT_PLAYER, STYLE_TYPELESS, 0, 0, m.x, m.y)
    s.zuk_attacks += 1


@njit(cache=True)
def spawn_set(s, cfg):
    """A Jal-Zek and a Jal-Xil at IT (20, 21) and (29, 21), acting 7 and 9 ticks later, on the glyph while
    it stands (IT TzKalZuk.attackIfPossible)."""
    target = ST.TARGET_SHIELD if shield_alive(s) else ST.TARGET_PLAYER
    _spawn(s, cfg, ST.K_MAGER, A.SET_MAGER[0], A.SET_MAGER[1], target, A.SET_DELAYS[0])
    _spawn(s, cfg, ST.K_RANGER, A.SET_RANGER[0], A.SET_RANGER[1], target, A.SET_DELAYS[1])
    s.sets_spawned += 1


@njit(cache=True)
def zuk_hurt(s, cfg, k):
    """Zuk's thresholds (IT TzKalZuk.damageTaken): below 600 the set timer pauses, once; while paused, a hit
    that leaves him below 480 resumes it with SET_RESUME_EXTRA more ticks and brings JalTok-Jad (on the glyph,
    3 healers); below 240 his four healers come and he enrages."""
    m = s.monsters[k]
    if not s.set_paused:
        if m.hp < SET_PAUSE_HP and not s.set_has_paused:
            s.set_paused = 1
            s.set_has_paused = 1
    elif m.hp < SET_RESUME_HP:
        s.set_paused = 0
        s.set_timer += SET_RESUME_EXTRA
        spawn_zuk_jad(s, cfg, ZUK_JAD_STUN)
    if m.hp < HEALERS_HP and not s.enraged:
        s.enraged = 1
        spawn_zuk_healers(s, cfg, ZUK_HEALER_STUN)


@njit(cache=True)
def spawn_zuk_jad(s, cfg, stun):
    s.zuk_jad = 1
    target = ST.TARGET_SHIELD if shield_alive(s) else ST.TARGET_PLAYER
    _spawn(s, cfg, ST.K_JAD, A.ZUK_JAD[0], A.ZUK_JAD[1], target, stun)


@njit(cache=True)
def spawn_zuk_healers(s, cfg, stun):
    for i in range(len(A.ZUK_HEALERS)):
        _spawn(s, cfg, ST.K_ZUK_HEALER, A.ZUK_HEALERS[i][0], A.ZUK_HEALERS[i][1], ST.TARGET_SLOT + ZUK_SLOT, stun,
               ZUK_SLOT)


@njit(cache=True)
def zuk_healer_turn(s, cfg, k):
    """A Jal-MejJak never moves: every 3 ticks it heals Zuk 0..ZUK_HEAL_MAX until the player hits it, then
    throws SPARKS_PER_THROW lava sparks (IT JalMejJak.ts: "heal" while its aggro is Zuk, else "aoe").
    APPROXIMATION: the heal lands now (IT: 3 ticks later)."""
    m = s.monsters[k]
    if m.attack_timer > 0:
        return
    m.attack_timer = attack_speed_of(s, cfg, m)
    m.activity = ST.ACT_ATTACK
    if m.target >= ST.TARGET_SLOT:
        if s.monsters[m.target - ST.TARGET_SLOT].state == ST.SLOT_ALIVE:
            _heal(s, cfg, m.target - ST.TARGET_SLOT, R.inclusive(s.rng, ZUK_HEAL_MAX))
        return
    throw_sparks(s, cfg, k)


@njit(cache=True)
def throw_sparks(s, cfg, k):
    """Three sparks on tiles of the rows south of Zuk (IT y 14..17) within 5 columns of the healer (IT
    AoeWeapon: x in [x - 5, x + 5)); the first on the player's tile when the player stands there. Each lands
    SPARK_DELAY ticks later on the 3x3 around its tile (IT InfernoHealerSpark)."""
    m = s.monsters[k]
    x0, x1 = np.int64(m.x) - A.SPARK_HALF, np.int64(m.x) + A.SPARK_HALF
    y0, y1 = np.int64(A.SPARK_ROWS[0]), np.int64(A.SPARK_ROWS[1])
    px, py = np.int64(s.p.x), np.int64(s.p.y)
    for j in range(SPARKS_PER_THROW):
        if j == 0 and x0 <= px < x1 and y0 <= py <= y1:
            x, y = px, py
        else:
            x = x0 + R.below(s.rng, x1 - x0)
            y = y0 + R.below(s.rng, y1 - y0 + 1)
        for i in range(ST.SPARK_CAPACITY):
            sp = s.sparks[i]
            if sp.due_tick == 0:
                sp.due_tick = s.tick + SPARK_DELAY
                sp.x = min(max(x, np.int64(0)), np.int64(A.GRID_W - 1))
                sp.y = y
                sp.damage = R.between(s.rng, SPARK_DAMAGE[0], SPARK_DAMAGE[1])
                sp.source = k
                break
    record_event(s, EV_ATTACK, ST.ENT_MONSTER + k, ENTITY_NONE, STYLE_TYPELESS, SPARKS_PER_THROW, 0, m.x, m.y)


@njit(cache=True)
def land_sparks(s):
    """Sparks due now hit the player if it stands on the 3x3 around their tile; returns the damage."""
    p = s.p
    taken = 0
    for i in range(ST.SPARK_CAPACITY):
        sp = s.sparks[i]
        if sp.due_tick == 0 or sp.due_tick > s.tick:
            continue
        sp.due_tick = 0
        if p.levels[HITPOINTS] <= 0 or abs(np.int64(p.x) - sp.x) > 1 or abs(np.int64(p.y) - sp.y) > 1:
            continue
        damage = min(np.int64(sp.damage), np.int64(p.levels[HITPOINTS]))
        p.levels[HITPOINTS] -= damage
        s.damage_taken[ST.K_ZUK_HEALER] += damage
        s.taken_style[STYLE_TYPELESS] += damage
        taken += damage
        record_event(s, EV_HIT, ST.ENT_MONSTER + sp.source, ST.ENT_PLAYER, STYLE_TYPELESS, damage, 0, p.x, p.y)
        if p.levels[HITPOINTS] <= 0:
            s.killer = ST.K_ZUK_HEALER
    return taken


@njit(cache=True)
def attack_glyph(s, cfg, k):
    """A set monster or Jad on the glyph attacks it (a Jad shows its style first: ``jad_attack``)."""
    m = s.monsters[k]
    if not shield_alive(s):
        m.target = ST.TARGET_PLAYER
        return
    if m.kind == ST.K_JAD:
        jad_attack(s, cfg, k)
        return
    _glyph_takes(s, cfg, k, np.int64(cfg.kind_style[m.kind]))
    m.attack_timer = attack_speed_of(s, cfg, m)
    m.activity = ST.ACT_ATTACK


@njit(cache=True)
def _glyph_takes(s, cfg, k, style):
    """Monster ``k``'s attack hits the glyph for 0..max. APPROXIMATION: no accuracy roll; its defence is 0
    (IT ZukShield stats), so a roll would almost never miss. At 0 the glyph falls (``glyph_destroyed``)."""
    m = s.monsters[k]
    g = s.monsters[SHIELD_SLOT]
    damage = min(roll_npc_damage(s.rng, cfg.kind_max[m.kind, style]), np.int64(g.hp))
    record_event(s, EV_ATTACK, ST.ENT_MONSTER + k, ST.ENT_MONSTER + SHIELD_SLOT, style, 0, 0, m.x, m.y)
    g.hp -= damage
    record_event(s, EV_HIT, ST.ENT_MONSTER + k, ST.ENT_MONSTER + SHIELD_SLOT, style, damage, 0, g.x, g.y)
    if g.hp <= 0:
        g.state = ST.SLOT_DEAD
        record_event(s, EV_DEATH, ST.ENT_MONSTER + SHIELD_SLOT, ENTITY_NONE, -1, 0, EVF_KILLED, g.x, g.y)
        glyph_destroyed(s)


@njit(cache=True)
def glyph_destroyed(s):
    """With the glyph gone its attackers turn on the player. APPROXIMATION: at once (IT: 2 ticks later)."""
    for j in range(ST.MONSTER_SLOTS):
        o = s.monsters[j]
        if o.state == ST.SLOT_ALIVE and o.target == ST.TARGET_SHIELD:
            o.target = ST.TARGET_PLAYER


@njit(cache=True)
def spawn_finale(s, cfg):
    """Waves 67-69 (IT InfernoRegion.ts): the pillars still standing fall at the start of wave 67
    [L: attributed to the OSRS wiki by an unpublished compilation, the wiki page not read; IT keeps no pillars
    from 67; APPROXIMATION: no collapse damage]; wave 67 one Jad (attack every 8, stunned 1); wave 68 three
    Jads every 9 ticks, their first attacks delayed 1, 4 and 7 ticks in a shuffled order; wave 69 the glyph
    (its direction drawn 50/50 or set by glyph_start_dir, standing its first tick: freeze(1)) and TzKal-Zuk
    (stunned 8, first attack at 14, the set timer at 72)."""
    for p in range(A.NUM_PILLARS):
        if s.pillar_hp[p] > 0:
            s.pillar_hp[p] = 0
            x, y = A.PILLARS[p]
            record_event(s, EV_DEATH, ST.ENT_PILLAR + p, ENTITY_NONE, -1, 0, EVF_KILLED, x, y)
    if s.wave == W.JAD_WAVE:
        _spawn(s, cfg, ST.K_JAD, A.JAD_67[0], A.JAD_67[1], ST.TARGET_PLAYER, 1)
    elif s.wave == W.TRIPLE_JAD_WAVE:
        stuns = np.array(A.JAD_68_STUNS)
        R.shuffle(s.rng, stuns)
        for i in range(3):
            _spawn(s, cfg, ST.K_JAD, A.JADS_68[i][0], A.JADS_68[i][1], ST.TARGET_PLAYER, stuns[i])
    else:
        # the cutscene after wave 68 puts the player south of the glyph, whatever tile it cleared 68 on [M: the OSRS
        # wiki "TzKal-Zuk": a cutscene plays before the fight; InfernoTrainer InfernoRegion.ts places the player on
        # wave 69 at IT (25, 15)]; a walk it had clicked is forgotten [APPROXIMATION: no source says what becomes
        # of a click across the cutscene; a teleport ends a walk in the game, and walking on to the old tile
        # would carry the player out of the start]
        s.p.x, s.p.y = A.PLAYER_START_69
        CM.clear_destination(s)
        # the glyph aims at nothing: its target is itself, so nothing that reads "aims at the player" counts it
        SPN.place(s, cfg, SHIELD_SLOT, ST.K_SHIELD, A.SHIELD[0], A.SHIELD[1], ST.TARGET_SHIELD)
        g = s.monsters[SHIELD_SLOT]
        g.stun = 0
        g.frozen = 1
        if cfg.glyph_start_x >= 0:
            g.x = cfg.glyph_start_x
        if cfg.glyph_start_dir == 1:
            s.shield_dir = -1
        elif cfg.glyph_start_dir == 2:
            s.shield_dir = 1
        else:
            s.shield_dir = 1 if R.chance(s.rng, 1, 2) else -1
        SPN.place(s, cfg, ZUK_SLOT, ST.K_ZUK, A.ZUK[0], A.ZUK[1], ST.TARGET_PLAYER)
        z = s.monsters[ZUK_SLOT]
        s.zuk_start = z.hp
        z.stun = ZUK_STUN
        z.attack_timer = ZUK_FIRST_ATTACK
        s.set_timer = SET_FIRST
        s.set_paused = 0
        s.set_has_paused = 0
        s.zuk_jad = 0
        s.enraged = 0


@njit(cache=True)
def zuk_start(s, cfg):
    """A wave-69 start from the curriculum settings: Zuk at ``zuk_start_hp`` with what his thresholds above
    it bring (the set timer paused below 600, resumed with SET_RESUME_EXTRA and the Jad below 480, the
    healers and his rage below 240), ``zuk_start_sets`` sets alive, the set timer at ``set_timer_start``;
    with ``zuk_mid_pct`` that share of starts draws his hitpoints from ``zuk_mid_hp``..1199 instead."""
    z = s.monsters[ZUK_SLOT]
    if cfg.set_timer_start >= 0:
        s.set_timer = cfg.set_timer_start
    hp = np.int64(cfg.zuk_start_hp)
    if cfg.zuk_mid_pct > 0 and R.chance(s.rng, cfg.zuk_mid_pct, 100):
        hp = R.between(s.rng, cfg.zuk_mid_hp, cfg.kind_row[ST.K_ZUK].hitpoints - 1)
    if hp > 0:
        z.hp = min(hp, cfg.kind_row[ST.K_ZUK].hitpoints)
        z.low_hp = z.hp
        s.zuk_low = z.hp
    s.zuk_start = z.hp
    if z.hp < SET_PAUSE_HP:
        s.set_paused = 1
        s.set_has_paused = 1
    if z.hp < SET_RESUME_HP:
        s.set_paused = 0
        s.set_timer += SET_RESUME_EXTRA
        s.zuk_jad = 1
        if cfg.zuk_start_jad:
            spawn_zuk_jad(s, cfg, 1)
    if z.hp < HEALERS_HP:
        s.enraged = 1
        if cfg.zuk_start_healers:
            spawn_zuk_healers(s, cfg, 1)
    for _ in range(cfg.zuk_start_sets):
        spawn_set(s, cfg)


@njit(cache=True)
def zuk_healers_alive(s):
    n = 0
    for k in range(ST.MONSTER_SLOTS):
        if s.monsters[k].state == ST.SLOT_ALIVE and s.monsters[k].kind == ST.K_ZUK_HEALER:
            n += 1
    return n


@njit(cache=True)
def phase_of(s, cfg):
    """The fight's phase (state.PH_*): the band of waves 1-66, wave 67, wave 68, then on the Zuk wave the
    furthest milestone: before the first set, sets, Zuk's Jad, his healers, all healers dead, Zuk below
    ``low_hp_phase``. Milestones never go back, so the phase a run ends in is the deepest it reached."""
    w = s.wave
    if w < W.JAD_WAVE:
        b = 0
        for i in range(4):
            if w >= ST.BANDS[i][0]:
                b = i
        return np.int64(ST.PH_WAVES_1 + b)
    if w == W.JAD_WAVE:
        return np.int64(ST.PH_WAVE_67)
    if w == W.TRIPLE_JAD_WAVE:
        return np.int64(ST.PH_WAVE_68)
    if s.zuk_low < cfg.low_hp_phase:
        return np.int64(ST.PH_ZUK_LOW_HP)
    if s.enraged:
        return np.int64(ST.PH_ZUK_HEALERS if zuk_healers_alive(s) > 0 else ST.PH_ZUK_AFTER_HEALERS)
    if s.zuk_jad:
        return np.int64(ST.PH_ZUK_JAD)
    if s.sets_spawned > 0:
        return np.int64(ST.PH_ZUK_SETS)
    return np.int64(ST.PH_ZUK_BEFORE_SETS)
