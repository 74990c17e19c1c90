"""The TzHaar Fight Cave (issue 47): 63 waves of TzHaar monsters ending with TzTok-Jad; ``SPEC`` is what its entry
point names. README.md gives the rules with their sources, the tick order, the approximations and the open
questions; ``arena`` and ``waves`` hold the map and the wave table, the monsters' facts are in
``osrs_rl/data/npcs.json`` (encounter ``fight_caves``).
"""

from .spec import SPEC

__all__ = ["SPEC"]
