"""`ono99 solo` whose journal cannot be kept says so to its player, in a real terminal, and
the match plays on: a data folder where none can be made (the journal cannot be created),
then a file-size limit that refuses the first record (a write fails mid-table, as on a full
disk). Found on a full disk: the match played in silence, and `ono99 replay` later had
nothing to replay."""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path

import pytest
from testkit.tmux import TmuxSession

pytestmark = pytest.mark.tmux

SOLO = [sys.executable, "-m", "ono99tui", "solo", "--bots", "1", "--bot-delay", "0",
        "--seed", "5", "--player", "tess"]


def test_a_journal_that_cannot_be_created_is_said_and_the_match_plays(
        tmux: TmuxSession, tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the data folder would be\n")
    tmux.env["ONO99_DATA_DIR"] = str(blocker)
    tmux.start(SOLO)
    tmux.wait_for(r"This match cannot be kept", timeout=60)
    tmux.wait_for(r"Your turn", timeout=30)  # the match goes on
    tmux.send_keys("q")


def test_a_journal_write_that_fails_mid_table_is_said(
        tmux: TmuxSession, tmp_path: Path) -> None:
    tmux.env["ONO99_DATA_DIR"] = str(tmp_path / "data")
    # 1 KiB of file at most: the file, its end mark and the match's first records are
    # written, then a move's record is refused (EFBIG; Python ignores SIGXFSZ), as a full
    # disk refuses it. The player plays on (any card key) until the app says so.
    tmux.start(["sh", "-c", "ulimit -f 2; exec " + shlex.join(SOLO)])
    deadline = time.monotonic() + 120
    key = 0
    while "Cannot write the table's" not in (screen := tmux.capture()):
        assert time.monotonic() < deadline, screen
        assert "Back to the table" not in screen, screen  # the match ended, unsaid
        tmux.send_keys(str(key % 4 + 1))
        key += 1
        tmux.wait_until_changed(screen, timeout=0.5)
    tmux.send_keys("q")
