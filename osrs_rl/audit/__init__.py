"""The truth report: what a trained policy does, against what the encounter's reference allows.

``osrs-rl audit RUN`` plays a run's policy (or re-simulates replays) and writes a heat map of where it
stood and attacked from over the reference map, and tables of attack timing against the target's
attackable windows, damage taken by source, supplies and outcomes (``run.py``). An encounter takes part
by declaring ``EncounterSpec.truth`` (``osrs_rl.runtime.truth``, beside the spec it is part of, so
encounters import it without importing the audit); the modules are one concept each: ``collect``
(episodes, tallied per tick), ``report`` (the numbers), ``heatmap`` (the picture), ``tables`` (the
tables and ``report.md``), ``console`` (the terminal).
"""
