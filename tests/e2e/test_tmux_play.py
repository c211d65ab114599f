"""The real program in a real terminal: `ono99 solo`, and `ono99 host` + `ono99 join`, each
played to the end of a match with tmux `send-keys`, read back with `capture-pane`."""

from __future__ import annotations

import os
import re
import signal
import sys
import time
from pathlib import Path

import pytest
from testkit.tmux import TmuxSession, TmuxTimeout

pytestmark = pytest.mark.tmux

ONO99 = [sys.executable, "-m", "ono99tui"]
# The match-end screen (the log also says "Match over", so look for its buttons).
MATCH_OVER = re.compile(r"Rematch \(r\)")
ROUND_OVER = re.compile(r"Continue \(Enter\)")
# The seat list marks whose turn it is (▶) and which seat is yours, on one line.
YOUR_TURN = re.compile(r"▶[^│\n]*\(you\)")


def playable_keys(screen: str) -> list[str]:
    """The keys of the cards the hand shows as playable (an unplayable card is marked ⊘)."""
    return [
        str(position)
        for position in range(1, 5)
        if re.search(rf"[╏┃│█]{position} ", screen) and not re.search(rf"{position} ⊘", screen)
    ]


def play_to_the_end(tmux: TmuxSession, panes: list[int], *, timeout: float = 120.0) -> None:
    """Play a playable card whenever a pane says it is that player's turn, until every pane
    shows the match-end screen.

    One key at a time, then wait for the screen to change, as a person would: a second
    key pressed before the new view arrives is a move from an outdated view, which the
    table refuses (stale-seq) with an error toast over the screen being read.
    """
    deadline = time.monotonic() + timeout
    finished: set[int] = set()
    while len(finished) < len(panes):
        for pane in panes:
            if pane in finished:
                continue
            screen = tmux.capture(pane)
            if MATCH_OVER.search(screen):
                finished.add(pane)
            elif ROUND_OVER.search(screen):
                tmux.send_keys("Enter", pane=pane)
                tmux.wait_until_changed(screen, pane=pane, timeout=5)
            elif YOUR_TURN.search(screen):
                keys = playable_keys(screen) or ["s", "1"]  # swap four ONO 99, or bust
                tmux.send_keys(keys[0], pane=pane)
                tmux.wait_until_changed(screen, pane=pane, timeout=5)
        if time.monotonic() > deadline:
            screens = "\n\n".join(tmux.capture(pane) for pane in panes)
            raise TmuxTimeout(f"no match end within {timeout} s; screens:\n{screens}")
        time.sleep(0.05)


def quit_and_check_exit(tmux: TmuxSession, pane: int) -> None:
    tmux.send_keys("q", pane=pane)
    tmux.wait_for(r"\[exit 0\]", pane=pane, timeout=20)


def test_ctrl_l_draws_a_scribbled_screen_again(tmux: TmuxSession) -> None:
    """The app writes only the cells that change, so whatever another program writes on the
    terminal stays until the player asks for a redraw, as in any terminal program."""
    # Slow bots: nothing on the table changes by itself while the test looks at it.
    tmux.start([*ONO99, "solo", "--bots", "2", "--bot-delay", "60", "--seed", "7",
                "--name", "tess"])
    tmux.wait_for(r"tess", timeout=30)
    time.sleep(0.5)  # the first frames are all out
    table = tmux.capture(0)
    tmux.write_to_terminal("\x1b[2J\x1b[5;10HBroadcast message from root")
    tmux.wait_for(r"Broadcast message from root", timeout=10)
    assert "tess" not in tmux.capture(0)  # the table is gone from the terminal
    tmux.send_keys("C-l")
    tmux.wait_for(r"tess", timeout=10)
    time.sleep(0.3)
    assert tmux.capture(0) == table
    tmux.send_keys("q")  # mid-match: the app asks first
    tmux.wait_for(r"Quit the game\?")
    tmux.send_keys("y")
    tmux.wait_for(r"\[exit 0\]", timeout=20)


def test_solo_match_to_the_end(tmux: TmuxSession) -> None:
    tmux.start([*ONO99, "solo", "--bots", "2", "--bot-delay", "0", "--seed", "7",
                "--name", "tess"])
    tmux.wait_for(r"tess", timeout=30)
    play_to_the_end(tmux, [0])
    screen = tmux.capture(0)
    assert re.search(r"1\. ", screen), screen  # the standings are listed
    quit_and_check_exit(tmux, 0)


def test_host_and_join_in_two_terminals_to_the_end(tmux: TmuxSession, tmp_path: Path) -> None:
    tmux.start([*ONO99, "host", "--bind", "127.0.0.1", "--port", "0", "--name", "e2e table",
                "--seats", "3", "--bots", "1", "--bot-delay", "0", "--seed", "3",
                "--mdns-interface", "127.0.0.1"])
    port = tmux.wait_for(r"ono99 join 127\.0\.0\.1:(\d+)", timeout=30).group(1)
    tmux.wait_for(r"\(you\)\s+host", timeout=30)

    tmux.env["ONO99_CONFIG_DIR"] = str(tmp_path / "guest-config")
    guest = tmux.new_window([*ONO99, "join", f"127.0.0.1:{port}", "--name", "gus"])
    tmux.wait_for(r"gus\s+\(you\)", pane=guest, timeout=30)
    tmux.wait_for(r"gus", pane=0, timeout=30)  # the host sees the guest sit down
    tmux.send_keys("r", pane=guest)
    tmux.wait_for(r"everyone is ready", pane=0, timeout=30)
    tmux.send_keys("s", pane=0)

    play_to_the_end(tmux, [0, guest])
    for pane in (0, guest):
        assert "Match over:" in tmux.capture(pane)
    quit_and_check_exit(tmux, guest)
    quit_and_check_exit(tmux, 0)


def test_a_killed_host_withdraws_its_table(tmux: TmuxSession, tmp_path: Path) -> None:
    """SIGTERM to `ono99 host` closes the app the normal way: it exits 0 and its goodbye
    takes the table off a lobby that is watching (without one the lobby would keep
    showing it until the records expire)."""
    name = f"sigterm {tmp_path.name[-6:]}"
    tmux.start([*ONO99, "host", "--bind", "127.0.0.1", "--port", "0", "--name", name,
                "--mdns-interface", "127.0.0.1"])
    tmux.wait_for(r"\(you\)\s+host", timeout=30)
    lobby = tmux.new_window([*ONO99, "join", "--name", "lee", "--mdns-interface", "127.0.0.1"])
    tmux.wait_for(re.escape(name), pane=lobby, timeout=30)
    os.kill(tmux.program_pid(0), signal.SIGTERM)
    tmux.wait_for(r"\[exit 0\]", pane=0, timeout=20)
    deadline = time.monotonic() + 15
    while name in tmux.capture(lobby):
        if time.monotonic() > deadline:
            raise TmuxTimeout(f"the lobby still lists {name!r}:\n{tmux.capture(lobby)}")
        time.sleep(0.1)
