"""What a trained agent is, as modules and files: its settings (``config.py``; each encounter's preset
lies in its own folder), its network (``models.py``), its masked action distribution
(``distributions.py``), its checkpoint file (``checkpoint.py``) and loading one to act (``policy.py``).

``osrs_rl.train`` (PPO, evaluation, the league) and ``osrs_rl.replay`` (human play against a trained
policy, the browser viewer) both build on this package; neither imports the other for it. Nothing here
knows an encounter by name: the encounter's spec is all it reads.
"""
