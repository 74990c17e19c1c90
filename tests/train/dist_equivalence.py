"""Run by tests/train/test_distributed.py under torchrun (2 ranks, gloo): one update of a 2-rank job
against one update of a single process holding both ranks' rollouts.

    torchrun --standalone --nproc-per-node 2 tests/train/dist_equivalence.py OUT_DIR RESULT.json

Each rank collects its own rollout of ``ENVS`` envs (rank 1 drops a few entries, so the ranks hold
different numbers of valid entries) and runs the trainer's distributed update (one
minibatch of all its segments, two epochs, no gradient clipping); every rank's rollout is then
gathered on rank 0, which gives it to a one-process Trainer of ``2 * ENVS`` envs built from the same
seed (so the same initial model) and runs the same update. Rank 0 writes RESULT.json: the largest
difference between the two in the gradients of the last step and in the parameters after the
update, their scales, and, as a control, the same differences for a one-process update on rank 0's
rollout alone (what a job that does not combine its ranks' gradients would compute).
"""

from __future__ import annotations

import json
import sys

import torch
import torch.distributed as dist

from osrs_rl.agent.config import load_config
from osrs_rl.train.distributed import Dist, from_environment
from osrs_rl.train.ppo import Trainer

ENVS = 8
SETTINGS = ["--log.console", "false", "--log.replays", "false", "--log.tensorboard", "false",
            "--run.eval_episodes", "0", "--ppo.horizon", "24", "--ppo.minibatches", "1", "--ppo.epochs", "2",
            "--ppo.max_grad_norm", "1e9", "--env.overlap", "false", "--env.config.max_ticks", "20",
            "--run.total_steps", "100000"]
STORE = ("obs", "reset", "mask", "action", "logprob", "value", "reward", "terminated", "truncated", "valid")


def _trainer(out: str, name: str, envs: int, where: Dist) -> Trainer:
    cfg = load_config("template", overrides=[*SETTINGS, "--env.num_envs", str(envs), "--run.out_dir", out,
                                             "--run.name", name])
    return Trainer(cfg, console=False, dist=where)


def _gather_columns(x: torch.Tensor, dim: int) -> torch.Tensor:
    """Every rank's ``x`` joined along ``dim`` (rank order); gloo gathers no bools, so as uint8."""
    kind = x.dtype
    y = x.to(torch.uint8) if kind == torch.bool else x
    parts = [torch.empty_like(y) for _ in range(dist.get_world_size())]
    dist.all_gather(parts, y.contiguous())
    return torch.cat(parts, dim=dim).to(kind)


def _update(t: Trainer) -> tuple[dict, list[torch.Tensor]]:
    stats = t.update(0.0)
    return stats, [p.grad.detach().clone() for p in t.model.parameters()]


def _diff(a: list[torch.Tensor], b: list[torch.Tensor]) -> float:
    return max(float((x - y).abs().max()) for x, y in zip(a, b, strict=True))


def main(out: str, result: str) -> None:
    where = from_environment()
    t = _trainer(out, "ranks", ENVS, where)
    t.model.eval()
    t.collector.collect(t.store)
    if where.rank == 1:
        # fewer valid entries on rank 1 than on rank 0: the ranks' minibatch means must be weighted by
        # their counts to make the mean over both (in a real run episodes end unevenly)
        t.store.valid[:6, :3] = False
    store = {k: _gather_columns(getattr(t.store, k), 1) for k in STORE}
    store["state0"] = _gather_columns(t.store.state0, 0)
    mine = {k: getattr(t.store, k).clone() for k in (*STORE, "state0")}
    stats, grads = _update(t)
    params = [p.detach().clone() for p in t.model.parameters()]
    t.collector.close()
    if where.is_main:
        report = {"grad_norm_ranks": stats["grad_norm"]}
        for label, data, envs in (("single", store, 2 * ENVS), ("rank0_alone", mine, ENVS)):
            s = _trainer(out, label, envs, Dist())
            for k, v in data.items():
                getattr(s.store, k).copy_(v)
            s_stats, s_grads = _update(s)
            s.collector.close()
            report[f"grad_diff_{label}"] = _diff(grads, s_grads)
            report[f"param_diff_{label}"] = _diff(params, [p.detach() for p in s.model.parameters()])
            report[f"grad_norm_{label}"] = s_stats["grad_norm"]
        report["grad_scale"] = max(float(g.abs().max()) for g in grads)
        with open(result, "w") as f:
            json.dump(report, f)
    t.group.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
