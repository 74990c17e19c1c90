"""The template's reward of one tick split into its named terms, read from the records before and
after the tick (``EncounterSpec.reward_components``). The terms add up to the reward ``step`` wrote."""


def reward_components(previous, state, config, agent: int = 0) -> dict[str, float]:
    dealt = int(state["damage_dealt"]) - int(previous["damage_dealt"])
    taken = int(state["damage_taken"]) - int(previous["damage_taken"])
    win = float(config["win_reward"])
    outcome = win if state["npc_hp"] <= 0 else (-win if state["player_hp"] <= 0 else 0.0)
    return {"damage_dealt": dealt / int(config["npc_max_hp"]), "damage_taken": -taken / int(config["player_max_hp"]),
            "outcome": outcome}
