"""A folder of results that are read back instead of computed again must hold the results of one setup.

``osrs-rl sweep ablate`` and scripts/reference_sweep.py find a finished run by its name alone, so a folder
records what produced its runs (``setup.json``) the first time, and a later call with another setup is
refused rather than handed runs of another experiment.
"""

from __future__ import annotations

import json
from pathlib import Path

from osrs_rl.io.atomic import atomic_write

SETUP_FILE = "setup.json"


def claim_setup(folder: Path, setup: dict) -> str | None:
    """Record ``setup`` in ``folder``/setup.json if the folder has none (creating the folder); None when the
    folder is now, or already was, this setup's; else the path of the other setup's record, for the caller's
    refusal. Values JSON cannot hold are recorded as their ``str``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / SETUP_FILE
    text = json.dumps(setup, indent=1, sort_keys=True, default=str) + "\n"
    if path.is_file():
        return None if path.read_text() == text else str(path)
    atomic_write(path, text.encode())
    return None
