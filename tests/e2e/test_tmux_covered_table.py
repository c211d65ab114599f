"""The table goes on showing around a dialog: real `ono99 join` apps in tmux.

Played: with the "Matches won" dialog open, a player's "away" mark did not show until the
dialog closed (Textual puts a covered screen's changes on the terminal only when the
screen on top repaints; a move showed because the dialog's footer changed with it).
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable
from typing import Any

import pytest
from testkit.tmux import TmuxSession

pytestmark = pytest.mark.tmux

ONO99 = [sys.executable, "-m", "ono99tui"]


def test_a_player_who_drops_shows_as_away_under_an_open_dialog(
    tmux: TmuxSession, host_process: Callable[..., Any],
) -> None:
    # No clock and a long grace period: nothing else changes on the table meanwhile.
    host = host_process("--seats", "2", "--bots", "0", "--turn-time", "off", "--grace", "300",
                        "--seed", "4")
    host.start()
    zoe = tmux.start([*ONO99, "join", f"127.0.0.1:{host.port}", "--name", "zoe"])
    bob = tmux.new_window([*ONO99, "join", f"127.0.0.1:{host.port}", "--name", "bob"])
    tmux.wait_for(r"zoe \(you\)", pane=zoe, timeout=30)
    tmux.wait_for(r"bob \(you\)", pane=bob, timeout=30)
    screen = tmux.wait_for(r"Rules 2022", pane=zoe, timeout=30).string
    assert "away" not in screen

    tmux.send_keys("w", pane=zoe)
    tmux.wait_for(r"Matches won at this table", pane=zoe, timeout=15)
    # Once no notice is left on screen (a notice coming or going repaints everything, so
    # the mark would show anyway) and nothing moves.
    tmux.wait_until_still(pane=zoe, unless="▌", timeout=60)
    os.kill(tmux.program_pid(bob), signal.SIGKILL)  # a closed lid: no goodbye
    screen = tmux.wait_for(r"bob\s.*away", pane=zoe, timeout=30).string
    assert "Matches won at this table" in screen  # still under the dialog
