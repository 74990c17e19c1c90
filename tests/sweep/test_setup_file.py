"""osrs_rl.io.setup_file: a folder of read-back results (an ablation's, a reference sweep's) holds one setup."""

from osrs_rl.io.setup_file import claim_setup


def test_the_first_setup_is_recorded_the_same_is_taken_another_is_named(tmp_path):
    folder = tmp_path / "runs"
    assert claim_setup(folder, {"level": 0.9, "budget": 4}) is None and (folder / "setup.json").is_file()
    assert claim_setup(folder, {"budget": 4, "level": 0.9}) is None          # key order is not a new setup
    assert claim_setup(folder, {"level": 0.95, "budget": 4}) == str(folder / "setup.json")
    assert '"level": 0.9' in (folder / "setup.json").read_text()             # the first record is kept
