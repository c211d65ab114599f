"""`ono99 host --headless --exit-after N` counts matches, not every change at a finished
table: players leaving after a match are not more matches, and `stopped` says how many."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from typing import Any


def play_one_match(port: int, name: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ono99tui", "bot", f"127.0.0.1:{port}", "--name", name,
         "--matches", "1"], capture_output=True, text=True, timeout=120)


def test_exit_after_counts_matches_not_players_leaving(host_process: Callable[..., Any]) -> None:
    host = host_process("--seats", "2", "--bots", "1", "--bot-delay", "0", "--exit-after", "2")
    host.start()
    first = play_one_match(host.port, "ann")  # plays, then leaves the finished table
    assert first.returncode == 0, first.stderr
    second = play_one_match(host.port, "bob")  # the host is still there for a second match
    assert second.returncode == 0, second.stderr
    assert host.wait_for_event("stopped")["matches"] == 2
