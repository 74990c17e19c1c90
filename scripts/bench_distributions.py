"""The policy's action distribution: the general MaskedMultiCategorical beside the two fast paths
that training uses, timed in one run so the figures compare as ratios.

    python scripts/bench_distributions.py [ENCOUNTER] [--rollout-batch 256] [--update-batch 8192]

- rollout: sample one action per head and its log-probability for a batch of envs, as a rollout does
  every tick (``sample_with_log_prob``, a compiled loop on a CPU);
- update: log-probabilities and entropies of a minibatch, then their backward pass, as an update
  does (``log_prob_and_entropy``, the flat layout).
CPU time of this process (time.process_time) per call, one torch thread, best of 5 repeats.
"""

import argparse
import time

import torch

from osrs_rl.agent.distributions import MaskedMultiCategorical, log_prob_and_entropy, sample_with_log_prob
from osrs_rl.runtime.registry import get_spec


def per_call(fn, calls: int) -> float:
    fn()                                            # compile / warm up
    best = float("inf")
    for _ in range(5):
        t0 = time.process_time()
        for _ in range(calls):
            fn()
        best = min(best, (time.process_time() - t0) / calls)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("encounter", nargs="?", default="zulrah")
    ap.add_argument("--rollout-batch", type=int, default=256)
    ap.add_argument("--update-batch", type=int, default=8192)
    args = ap.parse_args()
    torch.set_num_threads(1)
    heads = tuple(int(h) for h in get_spec(args.encounter).head_sizes)
    g = torch.Generator().manual_seed(0)

    def case(n):
        logits = torch.randn(n, sum(heads), generator=g)
        return logits, torch.rand(n, sum(heads), generator=g) < 0.7

    logits, mask = case(args.rollout_batch)

    def rollout_general():
        d = MaskedMultiCategorical(logits, mask, heads)
        a = d.sample(g)
        return a, d.log_prob(a)

    big, big_mask = case(args.update_batch)
    big.requires_grad_()
    actions = MaskedMultiCategorical(big.detach(), big_mask, heads).sample(g)

    def update_general():
        d = MaskedMultiCategorical(big, big_mask, heads)
        (d.log_prob(actions).mean() + 0.01 * d.entropy().mean()).backward()

    def update_flat():
        lp, ent = log_prob_and_entropy(big, big_mask, actions, heads)
        (lp.mean() + 0.01 * ent.mean()).backward()

    print(f"{args.encounter}: heads {heads} ({sum(heads)} options, padded {max(heads)} x {len(heads)})")
    for what, general, fast, calls in (
            (f"rollout sample, batch {args.rollout_batch}", rollout_general,
             lambda: sample_with_log_prob(logits, mask, heads, g), 300),
            (f"update log_prob + entropy + backward, batch {args.update_batch}", update_general, update_flat, 10)):
        a, b = per_call(general, calls), per_call(fast, calls)
        print(f"  {what}: MaskedMultiCategorical {a * 1e3:.3f} ms, fast path {b * 1e3:.3f} ms ({a / b:.1f}x)")


if __name__ == "__main__":
    main()
