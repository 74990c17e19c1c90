"""PPO for every encounter: models, action distributions, advantage, losses, optimizers, logging,
checkpoints, evaluation and the self-play league. Nothing here knows an encounter by name: the
encounter's spec (heads, observation layout, metrics, phases) is all the trainer reads."""
