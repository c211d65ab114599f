"""The line a host gives friends, and what `ono99 join` makes of what a friend pastes, in
real terminals (issue 22): the `ono99 join HOST:PORT` line is there whether or not the
table is advertised, and it joins."""

from __future__ import annotations

import sys

import pytest
from tmux_session import TmuxSession

pytestmark = pytest.mark.tmux

ONO99 = [sys.executable, "-m", "ono99tui"]


def test_an_unadvertised_host_on_a_port_it_chose_shows_the_line_that_joins_it(
        tmux: TmuxSession) -> None:
    # `--port 0 --no-advertise` used to show no "Others join with" line: the port the
    # table got appeared nowhere.
    tmux.start([*ONO99, "host", "--bind", "127.0.0.1", "--port", "0", "--no-advertise",
                "--player", "hal", "--seats", "3"])
    port = tmux.wait_for(r"Others join with: ono99 join 127\.0\.0\.1:(\d+)\s").group(1)
    assert "(or ono99 join" not in tmux.capture()  # the lobby does not list it: no mDNS
    joiner = tmux.new_window([*ONO99, "join", f"127.0.0.1:{port}", "--player", "zoe"])
    tmux.wait_for(r"zoe  \(you\)", pane=joiner, timeout=30)
    tmux.wait_for(r"zoe", timeout=15)  # and the host sees them sit down
