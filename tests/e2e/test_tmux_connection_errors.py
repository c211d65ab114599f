"""`ono99 join HOST:PORT` in a real terminal at things that are not a table, and at a table
whose host goes away (issue 12): what the player reads, and the way back to the lobby."""

from __future__ import annotations

import os
import signal
import socket
import sys

import pytest
from tmux_session import TmuxSession

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


def test_the_host_stops_while_a_joiner_plays(tmux: TmuxSession) -> None:
    tmux.start([*ONO99, "host", "--headless", "--bind", "127.0.0.1", "--port", "0",
                "--seats", "2", "--bots", "1", "--no-advertise", "--bot-delay", "0"])
    port = tmux.wait_for(r'"port": (\d+)', timeout=30).group(1)
    joiner = tmux.new_window([*ONO99, "join", f"127.0.0.1:{port}", "--name", "zoe"])
    tmux.wait_for(r"zoe \(you\)", pane=joiner, timeout=30)  # dealt: at the table
    os.kill(tmux.program_pid(0), signal.SIGTERM)
    tmux.wait_for(r"The host closed the table\.", pane=joiner, timeout=30)
    tmux.wait_for(r"Back to the lobby \(l\)", pane=joiner, timeout=10)
    tmux.send_keys("l", pane=joiner)
    tmux.wait_for(r"The host closed the table\. Pick another table, or type an address\.",
                  pane=joiner, timeout=15)
    tmux.wait_for(r"Tables on your network", pane=joiner, timeout=5)
