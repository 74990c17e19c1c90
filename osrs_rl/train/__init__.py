"""PPO for every encounter: rollout, advantage, losses, optimizers, logging, evaluation and the self-play
league, over the agent of ``osrs_rl.agent`` (settings, models, distributions, checkpoints). Nothing here
knows an encounter by name: the encounter's spec (heads, observation layout, metrics, phases) is all the
trainer reads."""
