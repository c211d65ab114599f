"""`ono99 replay --review [--player NAME]`: its arguments, and no review of a match that is
not finished (the review screen itself: tests/ui/test_review_screen.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_history import GOLDEN, golden_records, run, write


@pytest.mark.parametrize(("argv", "words"), [
    (("--player", "cy"), "--player goes with --review"),
    (("--review", "--json"), "not with --json or --list"),
    (("--review", "--list"), "not with --json or --list"),
])
def test_review_arguments_that_do_not_go_together(
        capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], words: str) -> None:
    status, out, err = run(capsys, "replay", *argv, str(GOLDEN))
    assert (status, out) == (2, "") and words in err


def test_no_review_of_an_unknown_player_or_of_a_match_still_being_played(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "replay", "--review", "--player", "dee", str(GOLDEN))
    assert (status, out) == (1, "")
    assert "no player named 'dee'; its players: " in err
    assert all(name in err for name in ("ana", "bob", "cy"))
    status, _out, err = run(capsys, "replay", "--review", str(GOLDEN))
    assert status == 1 and "say whose plays to review with --player NAME" in err
    match = golden_records()
    path = write(tmp_path / "t.journal", match[:6])  # dealt, a few moves, no end
    status, out, err = run(capsys, "replay", "--review", "--player", "cy", str(path))
    assert (status, out) == (1, "")
    assert f"match 1 of {path} is still being played" in err
