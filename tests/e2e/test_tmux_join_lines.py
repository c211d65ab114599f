"""The line a host gives friends, and what `ono99 join` makes of what a friend pastes, in
real terminals (issue 22): the `ono99 join HOST:PORT` line is there whether or not the
table is advertised, and it joins."""

from __future__ import annotations

import sys

import pytest
from testkit.tmux import TmuxSession

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


def test_the_web_door_s_address_pasted_into_join_joins_the_table_behind_it(
        tmux: TmuxSession) -> None:
    pytest.importorskip("aiohttp")  # the web extra
    # `ono99 join http://192.168.1.20:8099/` used to say "write an IPv6 address as
    # [ADDRESS]:PORT".
    tmux.start([*ONO99, "host", "--bind", "127.0.0.1", "--port", "0", "--no-advertise",
                "--player", "hal", "--seats", "3", "--web-port", "0", "--web-open"])
    web = tmux.wait_for(r"Or in a browser: (http://127\.0\.0\.1:\d+/)").group(1)
    port = tmux.wait_for(r"Others join with: ono99 join 127\.0\.0\.1:(\d+)\s").group(1)
    joiner = tmux.new_window([*ONO99, "join", web, "--player", "zoe"])
    tmux.wait_for(r"zoe  \(you\)", pane=joiner, timeout=30)
    tmux.send_keys("q", pane=joiner)
    tmux.wait_for(r"\[exit 0\]", pane=joiner, timeout=30)
    # What it did, with the line to type next time, is left on the terminal.
    said = "".join(tmux.capture(joiner).splitlines())  # its lines as one: it wraps at 80
    assert (f"ono99 join: {web} is the web door of the table at 127.0.0.1:{port}: joining "
            f"it (next time: ono99 join 127.0.0.1:{port})") in said

