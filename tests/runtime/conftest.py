import pytest

from osrs_rl.runtime import registry
from tests.runtime.counting import COUNTING1, COUNTING2


@pytest.fixture(scope="session", autouse=True)
def counting_encounters():
    """Register the counting encounters once for the runtime tests."""
    for spec in (COUNTING1, COUNTING2):
        registry.register(spec, replace=True)
    yield
