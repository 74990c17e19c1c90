"""Reading an encounter's named reward terms (``EncounterSpec.reward_terms``) from its state records.

``step`` writes the terms of the tick it ran into the state's ``reward_terms`` field (float32
``[rows, terms]``, row ``a`` for agent ``a``) and the runtime sums each agent's row into its reward, so after a
step the record holds the reward split into its parts (the episode's sums in ``reward_sums``); nothing here
knows an encounter.
"""

from __future__ import annotations

import numpy as np

FIELD = "reward_terms"


def tick_terms(spec, record, agent: int = 0) -> dict[str, float]:
    """Agent ``agent``'s reward of the tick that produced ``record``, by term ({} when none are declared)."""
    if not spec.reward_terms:
        return {}
    row = record[FIELD][agent]
    return {name: float(row[k]) for k, name in enumerate(spec.reward_terms)}


def terms_of(spec, records: np.ndarray, agent: int = 0) -> np.ndarray:
    """The terms of ``agent`` in each of ``records`` (float32 ``[len(records), terms]``)."""
    if not spec.reward_terms:
        return np.zeros((len(records), 0), dtype=np.float32)
    return np.array(records[FIELD][:, agent], dtype=np.float32)
