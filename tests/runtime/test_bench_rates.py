"""osrs_rl.runtime.bench.alternating_rates: the benchmark scripts' way of timing several arms on a shared
machine (in turns, so a drift in the machine's speed reaches every arm alike)."""

import time

from osrs_rl.runtime.bench import alternating_rates


def test_arms_run_in_turns_and_their_rates_are_work_per_second():
    order = []

    def arm(name, work, pause):
        def run():
            order.append(name)
            time.sleep(pause)
            return work
        return run

    rates = alternating_rates({"fast": arm("fast", 100, 0.01), "slow": arm("slow", 100, 0.04)}, rounds=3)
    assert order == ["fast", "slow"] * 3
    assert 0 < rates["slow"] < rates["fast"] <= 100 / 0.01
    assert rates["slow"] <= 100 / 0.04
