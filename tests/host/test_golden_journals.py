"""Golden journal files stay readable: for every format version there is one finished match
per rules preset, written by a real table (`journals/make_golden.py`), and each one still
reads, replays and exports exactly as it did when it was written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ono99tui.cli import main
from ono99tui.game import MATCH_OVER, PRESET_NAMES
from ono99tui.host.journal.file import JOURNAL_VERSION, MAGIC
from ono99tui.host.journal.history import read_matches, replay_match

JOURNALS = Path(__file__).parent / "journals"
VERSIONS = range(1, JOURNAL_VERSION + 1)


def golden(version: int, preset: str) -> Path:
    return JOURNALS / f"v{version}" / f"{preset}.journal"


@pytest.mark.parametrize("version", VERSIONS)
def test_every_version_has_a_golden_file_per_preset(version: int) -> None:
    for preset in PRESET_NAMES:
        data = golden(version, preset).read_bytes()
        assert data[: len(MAGIC)] == MAGIC and data[len(MAGIC)] == version


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_golden_journal_replays_to_its_recorded_end(version: int, preset: str) -> None:
    [match] = read_matches(golden(version, preset))
    assert match.finished and match.rules.name == preset
    assert sorted(match.names) == ["ana", "bob", "cy"]
    final = replay_match(match)[-1].state
    assert final.phase == MATCH_OVER and final.winners == match.winners


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_golden_journal_exports_as_it_did_when_written(
    version: int, preset: str, capsys: pytest.CaptureFixture[str],
) -> None:
    path = golden(version, preset)
    assert main(["replay", "--json", str(path)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    lines[0]["file"] = path.name
    expected = [json.loads(line)
                for line in path.with_suffix(".jsonl").read_text().splitlines()]
    assert lines == expected
