"""Table talk between real processes in real terminals: `ono99 host` and `ono99 join` in
tmux, a line typed in one showing in the other, before the deal and during the match,
at 80x24 and at an odd size."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from testkit.tmux import TmuxSession, clean_env

pytestmark = pytest.mark.tmux

ONO99 = [sys.executable, "-m", "ono99tui"]
REPO = Path(__file__).resolve().parents[2]


def host_and_guest(tmux: TmuxSession, tmp_path: Path) -> int:
    """`ono99 host` (ana) in pane 0 and `ono99 join` (gus) in a new window, both seated in
    the waiting room; returns the guest's pane."""
    tmux.start([*ONO99, "host", "--bind", "127.0.0.1", "--port", "0", "--name", "talk table",
                "--player", "ana", "--seats", "2", "--seed", "3",
                "--mdns-interface", "127.0.0.1"])
    port = tmux.wait_for(r"ono99 join 127\.0\.0\.1:(\d+)", timeout=30).group(1)
    tmux.wait_for(r"\(you\)\s+host", timeout=30)
    tmux.env["ONO99_CONFIG_DIR"] = str(tmp_path / "guest-config")
    guest = tmux.new_window([*ONO99, "join", f"127.0.0.1:{port}", "--name", "gus"])
    tmux.wait_for(r"gus\s+\(you\)", pane=guest, timeout=30)
    tmux.wait_for(r"gus", pane=0, timeout=30)
    return guest


def chat(tmux: TmuxSession, pane: int, text: str) -> None:
    """c, the line, Enter: as a person types it."""
    tmux.send_keys("c", pane=pane)
    tmux.wait_for(r"Say to the table", pane=pane, timeout=15)
    tmux.send_text(text, pane=pane)
    tmux.send_keys("Enter", pane=pane)


def talk_across(tmux: TmuxSession, guest: int) -> None:
    """Both ways, in the waiting room and at the table; the footer shows the chat key."""
    tmux.wait_for(r"c Chat", pane=guest, timeout=15)
    chat(tmux, guest, "hi ana [bold]not bold[/bold]")
    tmux.wait_for(re.escape("» gus: hi ana [bold]not bold[/bold]"), pane=0, timeout=15)
    chat(tmux, 0, "hello gus")
    tmux.wait_for(re.escape("» ana: hello gus"), pane=guest, timeout=15)

    tmux.send_keys("s", pane=0)  # deal
    tmux.wait_for(r"Draw pile", pane=guest, timeout=30)
    tmux.wait_for(r"Draw pile", pane=0, timeout=30)
    tmux.wait_for(r"c Chat", pane=0, timeout=15)
    tmux.send_keys("6", pane=0)  # the "Nice play!" emote
    tmux.wait_for(re.escape("» ana: Nice play!"), pane=guest, timeout=15)
    chat(tmux, guest, "thanks")
    tmux.wait_for(re.escape("» gus: thanks"), pane=0, timeout=15)
    # Play goes on: the table still shows the guest's hand and the prompt.
    assert "Draw pile" in tmux.capture(guest)


def test_two_players_chat_across_host_and_join(tmux: TmuxSession, tmp_path: Path) -> None:
    guest = host_and_guest(tmux, tmp_path)
    talk_across(tmux, guest)


@pytest.fixture
def odd_tmux(tmp_path: Path) -> Iterator[TmuxSession]:
    """A 97x31 terminal: neither the planned size nor a breakpoint."""
    session = TmuxSession(width=97, height=31, cwd=REPO,
                          env=clean_env(ONO99_CONFIG_DIR=str(tmp_path / "config")))
    try:
        yield session
    finally:
        session.kill()


def test_chat_at_an_odd_size(odd_tmux: TmuxSession, tmp_path: Path) -> None:
    guest = host_and_guest(odd_tmux, tmp_path)
    talk_across(odd_tmux, guest)
