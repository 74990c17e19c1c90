"""The TzHaar Fight Cave (issue 47): 63 waves of TzHaar monsters ending with TzTok-Jad.

Only the data layer exists so far: ``arena`` (the cave map in one local frame, traced from the game's collision
data; spawn areas and the player's start), ``waves`` (the 63-wave table, the spawn rotation and what ends a wave)
and the monsters' facts in ``osrs_rl/data/npcs.json`` (encounter ``fight_caves``). README.md gives the sources,
the choices made where they disagree and the open questions.

There is deliberately no ``SPEC`` here yet: the registry scans this package for an ``EncounterSpec``, and an
incomplete one must not be found.
"""
