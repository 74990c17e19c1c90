"""Thin adapters to the standard RL interfaces: Gymnasium (single and vector) and PettingZoo."""
