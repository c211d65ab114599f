"""Back to the waiting room between matches, with real processes in real terminals:
`ono99 host` and `ono99 join` in tmux play a 2022 match to the end, the host opens the
waiting room from the match-over dialog, changes the preset to 1980 there, both say ready,
the host deals, they play the 1980 match to the end, and its rematch is 1980 again."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from test_tmux_play import play_to_the_end
from testkit.tmux import TmuxSession

pytestmark = pytest.mark.tmux

ONO99 = [sys.executable, "-m", "ono99tui"]


def test_the_host_reopens_the_room_changes_the_preset_and_a_joiner_plays_on(
    tmux: TmuxSession, tmp_path: Path,
) -> None:
    tmux.start([*ONO99, "host", "--bind", "127.0.0.1", "--port", "0", "--name", "room table",
                "--player", "ana", "--seats", "3", "--bots", "1", "--bot-delay", "0",
                "--seed", "3", "--mdns-interface", "127.0.0.1"])
    port = tmux.wait_for(r"ono99 join 127\.0\.0\.1:(\d+)", timeout=30).group(1)
    tmux.wait_for(r"\(you\)\s+host", timeout=30)
    tmux.env["ONO99_CONFIG_DIR"] = str(tmp_path / "guest-config")
    guest = tmux.new_window([*ONO99, "join", f"127.0.0.1:{port}", "--name", "gus"])
    tmux.wait_for(r"gus\s+\(you\)", pane=guest, timeout=30)
    tmux.send_keys("r", pane=guest)
    tmux.wait_for(r"everyone is ready", pane=0, timeout=30)
    tmux.send_keys("s", pane=0)
    tmux.wait_for(r"Rules 2022", pane=guest, timeout=30)
    play_to_the_end(tmux, [0, guest])

    # The host sees who is ready for the rematch, and goes back to the waiting room.
    tmux.wait_for(r"Not yet: gus", pane=0, timeout=15)
    tmux.wait_for(r"Waiting room \(o\)", pane=0, timeout=15)
    assert "Waiting room (o)" not in tmux.capture(guest)  # the host's alone
    tmux.send_keys("r", pane=guest)
    tmux.wait_for(r"Everyone is ready for the rematch", pane=0, timeout=15)
    tmux.send_keys("o", pane=0)
    tmux.wait_for(r"s starts the next match", pane=0, timeout=15)
    # gus's app went with it: his ready was for the old rules, he says it again.
    tmux.wait_for(r"Press r when you are ready\. The host starts the next match", pane=guest,
                  timeout=15)
    tmux.wait_for(r"Matches won here", pane=guest, timeout=15)

    # The preset, from the rules panel: o, Enter on its drop-down, the next entry (1980).
    tmux.send_keys("o", pane=0)
    tmux.wait_until_still(pane=0, still_for=0.5, timeout=15)  # the focus is on the preset
    tmux.send_keys("Enter", pane=0)
    tmux.wait_for(r"1980-set99", pane=0, timeout=15)  # the list is open
    tmux.send_keys("Down", pane=0)
    tmux.send_keys("Enter", pane=0)
    tmux.wait_for(r"preset 1980, tokens", pane=0, timeout=15)
    tmux.wait_for(r"preset 1980, tokens", pane=guest, timeout=15)
    tmux.send_keys("r", pane=guest)
    tmux.wait_for(r"everyone is ready", pane=0, timeout=15)
    tmux.send_keys("Escape", pane=0)  # back to the seats: `s` deals
    tmux.wait_until_still(pane=0, still_for=0.5, timeout=15)
    tmux.send_keys("s", pane=0)
    for pane in (0, guest):
        tmux.wait_for(r"Rules 1980 ", pane=pane, timeout=30)
        # The log turned a page: the 2022 match is kept above it.
        tmux.wait_for(r"Match 2", pane=pane, timeout=15)
    play_to_the_end(tmux, [0, guest], timeout=240)

    # The rematch of the changed match deals its rules again.
    tmux.send_keys("r", pane=guest)
    tmux.wait_for(r"Everyone is ready for the rematch", pane=0, timeout=15)
    tmux.send_keys("r", pane=0)
    for pane in (0, guest):
        tmux.wait_for(r"Match 3", pane=pane, timeout=30)
        assert re.search(r"Rules 1980 ", tmux.capture(pane)), tmux.capture(pane)
    tmux.send_keys("q", pane=guest)
    tmux.wait_for(r"Leave the match\?", pane=guest, timeout=15)
    tmux.send_keys("y", pane=guest)
    tmux.wait_for(r"\[exit 0\]", pane=guest, timeout=20)
    tmux.send_keys("q", pane=0)
    tmux.wait_for(r"Close the table\?|\[exit 0\]", pane=0, timeout=15)
    if "Close the table?" in tmux.capture(0):
        tmux.send_keys("y", pane=0)
    tmux.wait_for(r"\[exit 0\]", pane=0, timeout=20)
