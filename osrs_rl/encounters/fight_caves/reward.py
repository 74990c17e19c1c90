"""The Fight Cave's reward, by term into ``reward_terms`` (the runtime sums them into the reward, and over the run
into ``reward_sums``). Sparse by default: +``cleared_reward`` (1) when TzTok-Jad dies, ``death_reward`` (-1) on
death, ``timeout_reward`` (0) at ``max_ticks``; the shaping terms are 0 unless their ``coef_*`` is set. Apart from
the rules, so that a reward experiment edits this file alone. No scaffolding: the observation is what a player
sees.
"""

from numba import njit

from osrs_rl.core.skills import HITPOINTS, PRAYER
from osrs_rl.runtime.shaping import HITPOINTS_SCALE, potential_term

from . import state as ST

PRAYER_SCALE = 99.0          # the kit's prayer level: full points' potential is 1


@njit(cache=True)
def add_terms(s, cfg, dealt, taken, cleared, prayer_score, unmet, hp0, pp0, terminated):
    """The tick's terms: the outcome, waves cleared (``coef_wave``), damage dealt (per hitpoint / 100) and taken
    (per hitpoint / 99), the prayer term (``coef_prayer``: +1 for each of the tick's monster attacks met by the right
    overhead, -1 for each not, summed in ``prayer_score``; ``-coef_prayer_missed`` for each of the ``unmet``) and the
    potential-based hitpoints and prayer points terms (``coef_hitpoints``, ``coef_prayer_points``; ``hp0`` and
    ``pp0`` the hitpoints and prayer points before the tick)."""
    terms = s.reward_terms[0]
    outcome = 0.0
    if s.outcome == ST.OUTCOME_CLEARED:
        outcome = cfg.cleared_reward
    elif s.outcome == ST.OUTCOME_DEATH:
        outcome = cfg.death_reward
    elif s.outcome == ST.OUTCOME_TIMEOUT:
        outcome = cfg.timeout_reward
    terms[ST.REWARD.outcome] = outcome
    terms[ST.REWARD.wave] = cfg.coef_wave * cleared
    terms[ST.REWARD.damage_dealt] = cfg.coef_damage_dealt * dealt / 100.0
    terms[ST.REWARD.damage_taken] = -cfg.coef_damage_taken * taken / 99.0
    terms[ST.REWARD.prayer] = cfg.coef_prayer * prayer_score - cfg.coef_prayer_missed * unmet
    # potential hp / 99, 0 once the run has ended: discounted by hitpoints_gamma a run's sum is -first hp / 99
    hp1 = 0.0 if terminated else float(max(s.p.levels[HITPOINTS], 0))
    terms[ST.REWARD.hitpoints] = potential_term(cfg.coef_hitpoints, cfg.hitpoints_gamma, hp0, hp1, HITPOINTS_SCALE)
    pp1 = 0.0 if terminated else float(max(s.p.levels[PRAYER], 0))      # the same potential on prayer points
    terms[ST.REWARD.prayer_points] = potential_term(cfg.coef_prayer_points, cfg.hitpoints_gamma, pp0, pp1,
                                                    PRAYER_SCALE)
