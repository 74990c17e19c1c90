"""Zulrah's reward of one tick split into its named terms, read from the records before and after the
tick (``EncounterSpec.reward_components``). The terms add up to what ``mechanics.step`` writes and are
the per-tick parts of the episode sums it keeps in ``reward_terms`` (the ``reward_*`` metrics).

Every term comes from a tally: the tick's damage dealt and taken are the changes of ``damage_dealt``
and of the ``damage_taken`` sources (every hitpoint the player loses is tallied by source), and the
prayer score of Zulrah's attack (+1 met by the matching overhead, -1 not) is the change of
``prayed_attacks`` less that of the unmet ``zulrah_attacks`` (at most one attack a tick).
"""

from osrs_rl.encounters.zulrah import state as ST

DEALT_SCALE, TAKEN_SCALE = 500.0, 99.0          # mechanics.step's scales
_OUTCOME_REWARD = {ST.OUTCOME_KILL: "kill_reward", ST.OUTCOME_DEATH: "death_reward",
                   ST.OUTCOME_TIMEOUT: "timeout_reward"}


def reward_components(previous, state, config, agent: int = 0) -> dict[str, float]:
    dealt = int(state["damage_dealt"]) - int(previous["damage_dealt"])
    taken = int(state["damage_taken"].sum()) - int(previous["damage_taken"].sum())
    attacks = int(state["zulrah_attacks"]) - int(previous["zulrah_attacks"])
    met = int(state["prayed_attacks"]) - int(previous["prayed_attacks"])
    end = _OUTCOME_REWARD.get(int(state["outcome"]))
    return {
        "outcome": float(config[end]) if end else 0.0,
        "damage_dealt": float(config["coef_damage_dealt"]) * dealt / DEALT_SCALE,
        "damage_taken": -float(config["coef_damage_taken"]) * taken / TAKEN_SCALE,
        "prayer": float(config["coef_prayer"]) * (met - (attacks - met)),
    }
