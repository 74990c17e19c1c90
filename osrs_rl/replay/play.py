"""Human play: one 1-env VecEnv driven by what a person clicks, recorded so that the session saves as
a replay (a demonstration, ``meta={"source": "human"}``) that ``verify_replay`` reproduces exactly.

    session = PlaySession("pvp", opponent="average", seed=3)
    intents = session.click_tile(9, 7)["intents"]       # {"move": 1}: the option that best reaches (9, 7)
    session.step({**intents, "overhead": "magic"})      # head -> option index or label; others are no-ops
    session.save("demos/first.orlr")

A click becomes options of the encounter's action heads through a *click mapper*
(``CLICK_MAPPERS[encounter]``, else :class:`SimulatedClicks`): the heads have no click-to-walk, so a
clicked tile maps to the move option whose destination lies nearest to it, found by stepping each
legal option once in a scratch copy of the env. That approximates OSRS click-to-walk: only the moves
the action space offers (PvP's are relative to the opponent: toward, away, diagonal, ...) can be
chosen. A clicked NPC or player maps to the attack option named after it (its scene id) when the head
has one, else to the attack head's first option; when that is not legal now, to the move that gets
nearest to it (the game would walk into reach and then attack; here the
attack is clicked again once in reach).

With a trained checkpoint as the opponent, a one-agent encounter with a two-agent twin
(``POLICY_OPPONENT_ENCOUNTER``: ``pvp`` -> ``pvp_selfplay``) is played as that twin, the policy acting
for agent 1 from its own observation and mask, and the replay holds both agents' actions.

A new session warms up (``PlaySession.warm_up``): one tick of the encounter in a scratch env, its scene
and digest, and the opponent policy once, so the kernels compile (or load from Numba's cache, seconds
on a first run) while the session is made, which ``osrs-rl play`` does before its server listens, and
not on the player's first tick. The session itself does not move.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from osrs_rl.replay.annotate import with_reward_components
from osrs_rl.replay.file import Replay, save_replay
from osrs_rl.replay.record import state_digest, state_record, tick_digest
from osrs_rl.runtime.recording import user_settings
from osrs_rl.runtime.registry import get_spec, make

POLICY_OPPONENT_ENCOUNTER = {"pvp": "pvp_selfplay"}
POLICY_OPPONENT_TIER = -2      # pvp's opponent_tier that lets the given actions drive player 1


class PlayError(ValueError):
    """A request the play session refuses; the message says why."""


def _scene_of(env, previous=None) -> dict:
    from osrs_rl.replay.scene import scene_of

    return scene_of(env, 0, 0, previous)


def head_labels(head) -> list[str]:
    return list(head.labels) if head.labels else [str(k) for k in range(head.size)]


def own_entity(scene: dict) -> dict | None:
    """The entity of the scene's first panel (the agent being played), or None."""
    panels = scene.get("panels") or []
    ids = {e["id"]: e for e in scene.get("entities", [])}
    return ids.get(panels[0]["agent"]) if panels else None


class PolicyOpponent:
    """A trained policy acting for agent 1 (sampled, seeded), with its recurrent state."""

    def __init__(self, policy, spec, seed: int):
        import torch

        self.torch, self.model = torch, policy.model
        self.device = next(self.model.parameters()).device
        self.heads = tuple(int(h) for h in spec.head_sizes)
        self.state = self.model.initial_state(1, self.device)
        self.first = True
        self.generator = torch.Generator(device=self.device)
        self.generator.manual_seed(int(seed))

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        from osrs_rl.agent.distributions import MaskedMultiCategorical

        torch = self.torch
        with torch.no_grad():
            o = torch.from_numpy(np.ascontiguousarray(obs)).to(self.device)
            first = torch.tensor([self.first], device=self.device)
            logits, _, self.state = self.model.step(o, self.state, first)
            self.first = False
            m = torch.from_numpy(np.ascontiguousarray(mask)).to(self.device)
            return MaskedMultiCategorical(logits, m, self.heads).sample(self.generator).cpu().numpy()[0]

    def warm_up(self, obs: np.ndarray, mask: np.ndarray) -> None:
        """One decision that changes nothing: a fresh recurrent state and a throwaway generator, so the
        session's draws stay those of its seed."""
        saved = self.state, self.first, self.generator
        try:
            self.state, self.first = self.model.initial_state(1, self.device), True
            self.generator = self.torch.Generator(device=self.device)
            self.act(obs, mask)
        finally:
            self.state, self.first, self.generator = saved


@dataclass
class SimulatedClicks:
    """Clicks mapped by trying the options: see the module docstring. ``move_head`` and ``attack_head``
    name the heads used (absent heads make that kind of click do nothing)."""

    move_head: str = "move"
    attack_head: str = "attack"

    def tile(self, session: PlaySession, x: int, y: int) -> dict:
        if self.move_head not in session.head_names:
            return {"intents": {}, "note": f"{session.spec.name} has no movement"}
        option, dest = self._nearest_move(session, x, y)
        label = session.heads[session.head_names.index(self.move_head)]["labels"][option]
        note = f"move {label} (ends on {dest[0]}, {dest[1]})" if dest else "no move reaches nearer"
        return {"intents": {self.move_head: option}, "note": note}

    def entity(self, session: PlaySession, entity_id: str) -> dict:
        scene = session.scene()
        target = next((e for e in scene["entities"] if e["id"] == entity_id), None)
        if target is None:
            raise PlayError(f"no entity {entity_id!r} in the scene; entities: "
                            f"{', '.join(e['id'] for e in scene['entities'])}")
        me = own_entity(scene)
        if me is not None and me["id"] == entity_id:
            return {"intents": {}, "note": "that is you"}
        if self.attack_head in session.head_names:
            legal = session.legal_options(self.attack_head)
            labels = session.heads[session.head_names.index(self.attack_head)]["labels"]
            # an option named after the entity targets it (zulrah: "zulrah", "snakeling_3"); otherwise
            # the options are ways to attack the one opponent (pvp: weapon, ice barrage, ...)
            attacks = [labels.index(entity_id)] if entity_id in labels else range(1, len(legal))
            attacks = [k for k in attacks if legal[k]]
            if attacks:
                label = labels[attacks[0]]
                return {"intents": {self.attack_head: attacks[0]}, "note": f"attack {target['name']} ({label})"}
        if self.move_head in session.head_names:
            found = self.tile(session, target["x"], target["y"])
            found["note"] = f"cannot attack {target['name']} now; " + found["note"]
            return found
        return {"intents": {}, "note": f"cannot attack {target['name']} now"}

    def _nearest_move(self, session: PlaySession, x: int, y: int) -> tuple[int, tuple[int, int] | None]:
        """The legal move option whose destination is nearest (x, y): Chebyshev tiles, then straight-line
        distance, then the lower option (stay first)."""
        legal = session.legal_options(self.move_head)
        here = own_entity(session.scene())
        if here is None:
            return 0, None
        best, best_key, best_dest = 0, None, None
        for option in (k for k in range(len(legal)) if legal[k]):
            dest = (here["x"], here["y"]) if option == 0 else session.simulate_position({self.move_head: option})
            key = (max(abs(dest[0] - x), abs(dest[1] - y)), (dest[0] - x) ** 2 + (dest[1] - y) ** 2)
            if best_key is None or key < best_key:
                best, best_key, best_dest = option, key, dest
        return best, (best_dest if best else None)


CLICK_MAPPERS: dict[str, object] = {}
"""Encounter name -> a mapper with ``tile(session, x, y)`` and ``entity(session, id)`` returning
``{"intents": {head: option}, "note": str}``; encounters not listed use ``SimulatedClicks()``."""


@dataclass
class PlaySession:
    """One episode played by a person. ``opponent``: a scripted tier (name or index) for encounters with
    an opponents hook; ``checkpoint`` (a path) or ``policy`` (``load_policy``'s result): a trained policy
    as the opponent."""

    encounter: str
    config: dict = field(default_factory=dict)
    seed: int = 0
    opponent: str | int | None = None
    checkpoint: str | None = None
    policy: object = None

    def __post_init__(self):
        spec = get_spec(self.encounter)
        config = dict(self.config)
        self.meta = {"source": "human"}
        self.opponent_policy = None
        if self.checkpoint is not None or self.policy is not None:
            if self.opponent is not None:
                raise PlayError("give an opponent tier or a checkpoint, not both")
            spec = self._policy_encounter(spec)
            if self.policy is None:
                from osrs_rl.agent.policy import load_policy

                self.policy = load_policy(self.checkpoint)
            config["opponent_tier"] = POLICY_OPPONENT_TIER
            self.opponent_policy = PolicyOpponent(self.policy, spec, self.seed)
            self.meta["opponent"] = f"checkpoint {self.checkpoint}" if self.checkpoint else "policy"
        elif self.opponent is not None:
            if spec.opponents is None:
                raise PlayError(f"encounter {spec.name!r} has no opponent to choose")
            config["opponent_tier"] = spec.opponents.tier_index(self.opponent)
            self.meta["opponent"] = spec.opponents.tier_names[config["opponent_tier"]]
        self.spec = spec
        self.env = make(spec.name, num_envs=1, seed=self.seed, **config)
        self.config = user_settings(self.env)
        self.obs, self.info = self.env.reset()
        self.initial = self.env.snapshot(0)
        self.heads = [{"name": h.name, "labels": head_labels(h)} for h in spec.action_heads]
        self.head_names = [h.name for h in spec.action_heads]
        self.actions: list[np.ndarray] = []
        self.rewards: list[np.ndarray] = []
        self.hashes: list[int] = []
        self.terminated = self.truncated = False
        self.outcome: str | None = None    # once done: won, lost, killed, died, timed out (replay.outcome)
        self._scene = None
        self._previous = None          # the state record before the last tick: the scene's hitsplats
        self._scratch = None
        self.mapper = CLICK_MAPPERS.get(spec.name) or SimulatedClicks()
        self.warm_up()

    def _policy_encounter(self, spec):
        if spec.num_agents == 1:
            twin = POLICY_OPPONENT_ENCOUNTER.get(spec.name)
            if twin is None:
                raise PlayError(f"encounter {spec.name!r} has no second agent for a checkpoint to play")
            spec = get_spec(twin)
        if spec.num_agents != 2:
            raise PlayError(f"a checkpoint opponent needs a two-agent encounter; {spec.name!r} has "
                            f"{spec.num_agents} agents")
        return spec

    def warm_up(self) -> None:
        """Run once what the first tick runs, in the scratch env (see the module docstring): a no-op tick
        from the initial state, its scene (with hitsplats from the record before it) and digest, the
        opponent policy's decision; then this session's own first scene and masks."""
        scratch = self._scratch_env()
        scratch.restore(0, self.initial)
        previous = scratch.states[0:1].copy()[0]
        actions = np.zeros((1, self.spec.num_agents, self.spec.num_heads), dtype=np.int64)
        scratch.step(actions[:, 0] if scratch.single_agent else actions)
        tick_digest(state_record(scratch))
        _scene_of(scratch, previous)
        if self.opponent_policy is not None:
            self.opponent_policy.warm_up(self.obs[:, 1], self.info["action_mask"][:, 1])
        self.state()

    def _scratch_env(self):
        """A second 1-env VecEnv of the same settings, for trying options without moving the session."""
        if self._scratch is None:
            self._scratch = make(self.spec.name, num_envs=1, seed=self.seed, **self.config)
        return self._scratch

    # ---- what the page reads ---------------------------------------------------------------------------
    @property
    def tick(self) -> int:
        return len(self.actions)

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated

    def _agent_rows(self, arr: np.ndarray) -> np.ndarray:
        """Row 0 of a per-env array, split by agent: [agents, ...]."""
        return arr[0] if not self.env.single_agent else arr[0][None]

    def mask(self, agent: int = 0) -> np.ndarray:
        return self._agent_rows(self.env.action_mask())[agent]

    def legal_options(self, head: str) -> list[bool]:
        return self.mask()[self.spec.mask_slices()[head]].tolist()

    def legal(self) -> list[dict]:
        """Per head: its name, option labels and which options are allowed now."""
        return [{**h, "legal": self.legal_options(h["name"])} for h in self.heads]

    def scene(self) -> dict:
        if self._scene is None:
            self._scene = _scene_of(self.env, self._previous)
        return self._scene

    def state(self) -> dict:
        """Everything the page draws after a tick: only what the player could see in the game."""
        from osrs_rl.replay.scene import as_player_sees

        return {"encounter": self.spec.name, "tick": self.tick, "done": self.done, "outcome": self.outcome,
                "terminated": self.terminated,
                "truncated": self.truncated, "scene": as_player_sees(self.scene()), "heads": self.legal(),
                "reward": float(self.rewards[-1][0]) if self.rewards else 0.0,
                "return": float(sum(r[0] for r in self.rewards)), "meta": self.meta}

    # ---- clicks ----------------------------------------------------------------------------------------
    def click_tile(self, x: int, y: int) -> dict:
        return self.mapper.tile(self, int(x), int(y))

    def click_entity(self, entity_id: str) -> dict:
        return self.mapper.entity(self, str(entity_id))

    def simulate_position(self, intents: dict) -> tuple[int, int]:
        """Where the played entity stands after one tick of ``intents`` (other agents idle), tried in a
        scratch env so the session itself does not move."""
        self._scratch_env().restore(0, self.env.snapshot(0))
        actions = np.zeros((1, self.spec.num_agents, self.spec.num_heads), dtype=np.int64)
        actions[0, 0] = self.action_row(intents)
        self._scratch.step(actions[:, 0] if self._scratch.single_agent else actions)
        me = own_entity(_scene_of(self._scratch))
        return (me["x"], me["y"]) if me else (0, 0)

    # ---- ticks -----------------------------------------------------------------------------------------
    def action_row(self, intents: dict) -> np.ndarray:
        """Agent 0's action row from ``{head: option index or label}``; unknown heads, unknown or masked
        options raise PlayError (the mask is the game saying no)."""
        if not isinstance(intents, dict):
            raise PlayError(f"intents must be an object of head -> option, got {type(intents).__name__}")
        row = np.zeros(self.spec.num_heads, dtype=np.int64)
        mask = self.mask()
        slices = self.spec.mask_slices()
        for name, option in intents.items():
            if name not in self.head_names:
                raise PlayError(f"unknown action head {name!r}; heads: {', '.join(self.head_names)}")
            h = self.head_names.index(name)
            labels = self.heads[h]["labels"]
            if isinstance(option, str):
                if option not in labels:
                    raise PlayError(f"head {name!r} has no option {option!r}; options: {', '.join(labels)}")
                option = labels.index(option)
            if not isinstance(option, int) or isinstance(option, bool) or not 0 <= option < len(labels):
                raise PlayError(f"option {option!r} of head {name!r} is out of range 0..{len(labels) - 1}")
            if not mask[slices[name]][option]:
                raise PlayError(f"{name} {labels[option]!r} is not allowed now")
            row[h] = option
        return row

    def step(self, intents: dict | None = None) -> dict:
        """One tick: agent 0 does ``intents`` (nothing else), a checkpoint opponent acts for agent 1."""
        if self.done:
            raise PlayError(f"the episode ended at tick {self.tick} ({self.outcome}): save it or start a new session")
        row = self.action_row(intents or {})
        actions = np.zeros((1, self.spec.num_agents, self.spec.num_heads), dtype=np.int64)
        actions[0, 0] = row
        if self.opponent_policy is not None:
            actions[0, 1] = self.opponent_policy.act(self.obs[:, 1], self.info["action_mask"][:, 1])
        self._previous = self.env.states[0:1].copy()[0]
        self.obs, rew, term, trunc, self.info = self.env.step(actions[:, 0] if self.env.single_agent else actions)
        self.actions.append(actions[0].copy())
        self.rewards.append(np.array(rew[0], dtype=np.float32).reshape(self.spec.num_agents))
        self.hashes.append(tick_digest(state_record(self.env)))
        self.terminated, self.truncated = bool(term[0]), bool(trunc[0])
        if self.done:
            from osrs_rl.replay.outcome import outcome_from_metrics

            done = self.env.pop_metrics()
            metrics = {n: float(done[n][-1]) for n in self.env.spec.metric_names} if len(done["phase"]) else None
            self.outcome = outcome_from_metrics(self.env.spec, metrics, self.terminated, self.truncated)
        self._scene = None
        return self.state()

    # ---- saving ----------------------------------------------------------------------------------------
    def to_replay(self) -> Replay:
        if not self.actions:
            raise PlayError("nothing to save yet: play at least one tick")
        ticks, spec = len(self.actions), self.spec
        replay = Replay(spec.name, spec.version, dict(self.config), self.initial,
                        np.array(self.actions, dtype=np.int64).reshape(ticks, spec.num_agents, spec.num_heads),
                        np.array(self.rewards, dtype=np.float32).reshape(ticks, spec.num_agents),
                        self.terminated, self.truncated, state_digest(state_record(self.env)),
                        np.array(self.hashes, dtype=np.uint64), meta=dict(self.meta))
        replay.validate()
        return with_reward_components(replay)

    def save(self, path, overwrite: bool = False) -> Path:
        """Save the session as a replay at ``path`` and return where it went: a file already there is kept
        and the demonstration goes to the first free ``NAME-2.orlr``, ``NAME-3.orlr``, ... (the returned
        path, which the server sends the page, names it), unless ``overwrite``."""
        path = Path(path)
        replay = self.to_replay()
        return save_replay(path if overwrite else free_path(path), replay)


def free_path(path: Path) -> Path:
    """``path`` if nothing is there, else the first ``STEM-k SUFFIX`` (k = 2, 3, ...) that is free. A check,
    not a lock: two writers racing for one name in the same instant could still meet (a local tool's
    saves are one person's clicks)."""
    k = 2
    free = path
    while free.exists():
        free = path.with_name(f"{path.stem}-{k}{path.suffix}")
        k += 1
    return free
