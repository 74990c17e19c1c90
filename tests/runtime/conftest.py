"""The runtime tests' counting encounters, registered at import so that tests parametrized over
``registry.names()`` (collected before any fixture runs) see them too."""

from osrs_rl.runtime import registry
from tests.runtime.counting import COUNTING1, COUNTING2

for _spec in (COUNTING1, COUNTING2):
    registry.register(_spec, replace=True)
