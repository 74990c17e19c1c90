"""Replays: one episode as a file (encounter, config, initial snapshot, actions per tick, what was
recorded), re-simulated to prove it reproduces exactly. See ``README.md`` beside this file."""

from osrs_rl.replay.file import FORMAT_VERSION, Replay, ReplayError, load_replay, save_replay
from osrs_rl.replay.record import record_episode, record_policy_episode, state_digest, tick_digest
from osrs_rl.replay.verify import VerifyResult, verify_replay

__all__ = ["FORMAT_VERSION", "Replay", "ReplayError", "VerifyResult", "load_replay", "record_episode",
           "record_policy_episode", "save_replay", "state_digest", "tick_digest", "verify_replay"]
