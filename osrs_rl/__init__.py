"""osrs-rl: a reinforcement-learning workbench for tick-accurate Old School RuneScape encounters."""

__version__ = "0.1.0"


def make(name: str, num_envs: int = 1, seed: int = 0, threads: int = 1, **config):
    """A batched env of encounter ``name`` (see ``osrs_rl.runtime.vec_env.VecEnv``).

    >>> env = make("template", num_envs=2, seed=0)
    >>> obs, info = env.reset()
    >>> obs.shape
    (2, 7)
    """
    from osrs_rl.runtime.registry import make as _make

    return _make(name, num_envs=num_envs, seed=seed, threads=threads, **config)
