"""The scripted Fight Cave solver: legal under the mask, and its evaluation from wave 1 (no target rate: it must
clear waves; its Jad kill rate is printed) and on Jad's wave, with each kit."""

import numpy as np
import pytest

import osrs_rl
from osrs_rl.encounters.fight_caves import solver as SV
from osrs_rl.runtime.registry import get_spec


def evaluate(kit, start_wave, envs, ticks, seed=0):
    """Play ``envs`` runs with the solver until each has ended once (or ``ticks`` pass); their metrics."""
    env = osrs_rl.make("fight_caves", num_envs=envs, seed=seed, kit=kit, start_wave=start_wave)
    env.reset()
    a = np.zeros((envs, env.spec.num_heads), dtype=np.int64)
    offsets = np.concatenate(([0], np.cumsum(env.spec.head_sizes)[:-1]))
    ended = {}
    for _ in range(ticks):
        SV.solver_actions(env.states, env.config, a)
        chosen = env.action_mask()[np.arange(envs)[:, None], offsets[None, :] + a]
        assert chosen.all(), np.argwhere(~chosen)
        _, _, terminated, truncated, _ = env.step(a)
        for name, values in env.pop_metrics().items():
            if name not in ("phase", "phase_name"):
                ended.setdefault(name, []).extend(np.asarray(values).tolist())
        if len(ended.get("ticks", ())) >= envs:
            break
    return {k: np.array(v[:envs]) for k, v in ended.items()}


@pytest.mark.slow
@pytest.mark.parametrize("kit", ["peer", "realistic"])
def test_the_solver_clears_waves_from_wave_1(kit):
    m = evaluate(dict(peer=0, realistic=1)[kit], 1, 32, 12_000)
    print(f"\nsolver, kit {kit}, wave 1: {len(m['ticks'])} runs, final wave mean {m['final_wave'].mean():.1f} "
          f"median {np.median(m['final_wave']):.0f} max {m['final_wave'].max():.0f}, Jad killed "
          f"{m['jad_killed'].mean():.2f}, overhead met {m['correct_prayer_rate'].mean():.2f}")
    assert len(m["ticks"]) == 32 and m["timed_out"].sum() == 0
    assert np.median(m["waves_cleared"]) >= 15


def test_the_solver_kills_jad_from_his_wave_most_of_the_time():
    m = evaluate(0, 63, 32, 2_000)
    print(f"\nsolver, kit peer, wave 63: Jad killed {m['jad_killed'].mean():.2f} of {len(m['ticks'])}")
    assert len(m["ticks"]) == 32 and m["jad_killed"].mean() >= 0.5


def test_the_solver_is_declared_with_a_row_per_kit():
    policy = get_spec("fight_caves").scripted_policies[0]
    assert policy.name == "solver" and policy.actions is SV.solver_actions and policy.rows == "kit"
