"""`ono99 join HOST:PORT` in a real terminal at things that are not a table, and at a table
whose host goes away (issue 12): what the player reads, and the way back to the lobby."""

from __future__ import annotations

import os
import signal
import socket
import sys
import time
from pathlib import Path

import pytest
from testkit.tmux import TmuxSession

pytestmark = pytest.mark.tmux

ONO99 = [sys.executable, "-m", "ono99tui"]


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_join_a_closed_port(tmux: TmuxSession) -> None:
    port = closed_port()
    tmux.start([*ONO99, "join", f"127.0.0.1:{port}", "--name", "zoe"])
    tmux.wait_for(rf"Could not join: nothing is listening at 127\.0\.0\.1:{port}", timeout=30)
    assert "Connect call failed" not in tmux.capture()


def test_join_a_web_servers_port(tmux: TmuxSession) -> None:
    tmux.start([sys.executable, "-m", "http.server", "0", "--bind", "127.0.0.1"])
    port = tmux.wait_for(r"port (\d+)", timeout=30).group(1)
    joiner = tmux.new_window([*ONO99, "join", f"127.0.0.1:{port}", "--name", "zoe"])
    # Said within the answer timeout (2 s) of the connection, not after 10 s.
    tmux.wait_for(rf"127\.0\.0\.1:{port} does not speak the ono99 protocol",
                  pane=joiner, timeout=30)
    assert "TimeoutError" not in tmux.capture(joiner)


def test_the_host_stops_while_a_joiner_waits_for_a_match(tmux: TmuxSession) -> None:
    # No match in play: a stopped host is a closed table, and the way back is the lobby.
    tmux.start([*ONO99, "host", "--headless", "--bind", "127.0.0.1", "--port", "0",
                "--seats", "3", "--bots", "1", "--no-advertise", "--bot-delay", "0"])
    port = tmux.wait_for(r'"port": (\d+)', timeout=30).group(1)
    joiner = tmux.new_window([*ONO99, "join", f"127.0.0.1:{port}", "--name", "zoe"])
    tmux.wait_for(r"Waiting room", pane=joiner, timeout=30)
    os.kill(tmux.program_pid(0), signal.SIGTERM)
    tmux.wait_for(r"The host closed the table\.", pane=joiner, timeout=30)
    tmux.wait_for(r"Back to the lobby \(l\)", pane=joiner, timeout=10)
    tmux.send_keys("l", pane=joiner)
    tmux.wait_for(r"The host closed the table\. Pick another table, or type an address\.",
                  pane=joiner, timeout=15)
    tmux.wait_for(r"Tables on your network", pane=joiner, timeout=5)


def test_a_host_stopped_mid_match_is_waited_for_and_the_joiner_plays_on(
        tmux: TmuxSession, tmp_path: Path) -> None:
    # SIGTERM mid-match (a system shutting down, `kill PID`) is not the host's choice: it
    # said "The host closed the table" and the joiner gave the seat up, though starting
    # the host again takes the match up from its journal. Now the joiner holds on.
    tmux.env["ONO99_DATA_DIR"] = str(tmp_path)  # this table's own journal
    port = closed_port()
    host = [*ONO99, "host", "--headless", "--bind", "127.0.0.1", "--port", str(port),
            "--seats", "2", "--bots", "1", "--no-advertise", "--bot-delay", "0"]
    tmux.start(host)
    tmux.wait_for(r'"event": "listening"', timeout=30)
    joiner = tmux.new_window([*ONO99, "join", f"127.0.0.1:{port}", "--name", "zoe"])
    tmux.wait_for(r"zoe \(you\)", pane=joiner, timeout=30)
    # Dealt: at the table (the waiting room shows "zoe (you)" too).
    tmux.wait_for(r"Draw pile", pane=joiner, timeout=30)
    os.kill(tmux.program_pid(0), signal.SIGTERM)
    tmux.wait_for(r"\[exit 0\]", pane=0, timeout=20)
    tmux.wait_for(r"reconnecting", pane=joiner, timeout=30)
    assert "The host closed the table" not in tmux.capture(joiner)
    again = tmux.new_window(host)
    tmux.wait_for(r'"event": "resumed"', pane=again, timeout=30)
    # Back in the seat: the banner goes (the "Reconnected" toast may be gone by the time
    # the screen is read), and the table still shows the match with zoe in it.
    deadline = time.monotonic() + 45
    while "reconnecting" in (screen := tmux.capture(joiner)):
        if time.monotonic() > deadline:
            raise AssertionError(f"still reconnecting after 45 s:\n{screen}")
        time.sleep(0.2)
    assert "zoe (you)" in screen and "closed" not in screen, screen
