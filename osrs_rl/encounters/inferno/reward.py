"""The Inferno's reward, by term into ``reward_terms`` (the runtime sums them into the reward, and over the run
into ``reward_sums``): the outcome, the waves cleared, the shaping terms (state.REWARD_TERMS), the penalty cap.
``mechanics.step`` reads ``before`` ahead of the tick and calls ``add_terms`` after it. Apart from the rules, so
that a reward experiment edits this file alone.
"""

from numba import njit

from osrs_rl.core.skills import HITPOINTS
from osrs_rl.runtime.shaping import HITPOINTS_SCALE, potential_term

from . import arena as A
from . import finale as FIN
from . import state as ST


@njit(cache=True)
def _tallies(s):
    """(prayed, unprayed, kills, doses, pillar damage, Jad low-watermark damage, Zuk's low, healer tags) so
    far: the step's shaping terms are their changes."""
    kills = 0
    for k in range(ST.NUM_KINDS):
        kills += s.kills[k]
    doses = 0
    for k in range(ST.NUM_SUPPLIES):
        doses += s.supplies_used[k]
    return (s.prayed_attacks, s.monster_attacks - s.prayed_attacks, kills, doses, s.pillar_damage,
            s.jad_low_dealt, s.zuk_low, s.healers_tagged)


@njit(cache=True)
def _glyph_left(s):
    """The Ancestral Glyph's hitpoints while it stands (``shield_alive``), else 0 (the glyph shaping's potential)."""
    return float(max(s.monsters[FIN.SHIELD_SLOT].hp, 0)) if FIN.shield_alive(s) else 0.0


@njit(cache=True)
def _cap_penalties(s, cfg, terms):
    """Scale this tick's negative parts of the penalty terms (state.PENALTY_TERMS) so that a run never loses
    more than ``penalty_cap`` to them in all (0: no cap)."""
    if cfg.penalty_cap <= 0.0:
        return
    owed = 0.0
    for k in ST.PENALTY_TERMS:
        if terms[k] < 0.0:
            owed -= terms[k]
    if owed <= 0.0:
        return
    left = max(cfg.penalty_cap - s.penalty_paid, 0.0)
    scale = min(left / owed, 1.0)
    for k in ST.PENALTY_TERMS:
        if terms[k] < 0.0:
            terms[k] *= scale
    s.penalty_paid += owed * scale


@njit(cache=True)
def before(s):
    """What the tick's terms are changes of, read before the tick: the tallies (``_tallies``), the player's
    hitpoints and the glyph's (the potentials)."""
    prayed, missed, kills, doses, pillar, jad, zuk, tags = _tallies(s)
    return prayed, missed, kills, doses, pillar, jad, zuk, tags, s.p.levels[HITPOINTS], _glyph_left(s)


@njit(cache=True)
def add_terms(s, cfg, was, terminated, dealt, taken, cleared):
    """The tick's reward, by term into ``reward_terms`` (zeroed by the runtime before the step; the runtime
    adds them up into the reward and ``reward_sums``): the outcome, the waves cleared (``coef_wave``, 0.1 by
    default) and every shaping term (the other ``coef_*``, all 0 by default), the penalties capped by
    ``penalty_cap``. ``was`` is ``before`` read before the tick. Boss damage pays only on a new low of each
    Jad's and Zuk's hitpoints (what healers give back pays nothing twice); a healer tag only on the hit that
    draws a healing healer (once a healer)."""
    prayed0, missed0, kills0, doses0, pillar0, jad0, zuk0, tags0, hp0, glyph0 = was
    prayed1, missed1, kills1, doses1, pillar1, jad1, zuk1, tags1 = _tallies(s)
    r_outcome = 0.0
    if s.outcome == ST.OUTCOME_CLEARED:
        r_outcome = cfg.cleared_reward
    elif s.outcome == ST.OUTCOME_DEATH:
        r_outcome = cfg.death_reward
    elif s.outcome == ST.OUTCOME_TIMEOUT:
        r_outcome = cfg.timeout_reward
    terms = s.reward_terms[0]
    terms[ST.R_OUTCOME] = r_outcome
    terms[ST.R_WAVE] = cfg.coef_wave * cleared
    terms[ST.R_DEALT] = cfg.coef_damage_dealt * dealt / 100.0
    terms[ST.R_TAKEN] = -cfg.coef_damage_taken * taken / 99.0
    terms[ST.R_PRAYER] = cfg.coef_prayer * ((prayed1 - prayed0) - (missed1 - missed0))
    terms[ST.R_KILL] = cfg.coef_kill * (kills1 - kills0)
    terms[ST.R_SUPPLIES] = -cfg.coef_supplies * (doses1 - doses0)
    terms[ST.R_PILLAR] = -cfg.coef_pillar * (pillar1 - pillar0) / 255.0
    # potential-based (Ng, Harada and Russell 1999), the potential hp / 99 and 0 after a death or the clear:
    # discounted by hitpoints_gamma a run's sum is -first hp / 99 whatever it does, so it pays no loop, no
    # stall and no early death; what it changes is when a hit's cost is felt (the tick it lands)
    hp1 = 0.0 if terminated else float(max(s.p.levels[HITPOINTS], 0))
    terms[ST.R_HITPOINTS] = potential_term(cfg.coef_hitpoints, cfg.hitpoints_gamma, hp0, hp1, HITPOINTS_SCALE)
    glyph1 = 0.0 if terminated else _glyph_left(s)      # the same potential on the glyph's hitpoints
    terms[ST.R_GLYPH] = potential_term(cfg.coef_glyph, cfg.hitpoints_gamma, glyph0, glyph1, A.GLYPH_HP)
    terms[ST.R_ZUK] = cfg.coef_zuk_damage * (zuk0 - zuk1) / cfg.kind_row[ST.K_ZUK].hitpoints
    terms[ST.R_JAD] = cfg.coef_jad_damage * (jad1 - jad0) / cfg.kind_row[ST.K_JAD].hitpoints
    terms[ST.R_HEALER_TAG] = cfg.coef_healer_tag * (tags1 - tags0)
    _cap_penalties(s, cfg, terms)
