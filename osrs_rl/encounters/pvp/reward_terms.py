"""The PvP reward of one tick split into its named terms, read from the records before and after the
tick (``EncounterSpec.reward_components``); they add up to what ``mechanics.reward_for`` gives."""

from osrs_rl.encounters.pvp import state as ST


def reward_components(previous, state, config, agent: int = 0) -> dict[str, float]:
    me, before = state["players"][agent], previous["players"][agent]
    dealt = int(me["damage_dealt"]) - int(before["damage_dealt"])
    taken = int(me["damage_taken"]) - int(before["damage_taken"])
    outcome = int(state["outcome"])
    if outcome == ST.OUTCOME_DRAW:
        end = float(config["draw_reward"])
    elif outcome == ST.OUTCOME_NONE:
        end = 0.0
    else:
        won = (outcome == ST.OUTCOME_WIN) == (agent == 0)
        end = float(config["win_reward"] if won else config["loss_reward"])
    return {"damage": float(config["damage_reward"]) * (dealt - taken) / 99.0, "outcome": end}
