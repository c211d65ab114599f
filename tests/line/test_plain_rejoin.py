"""A line-mode player whose connection is killed (the program killed with it, as when an SSH
session dies) joins again and has their seat back: the match so far is told again, the
hand comes at their turn, and they play the match to its end."""

from __future__ import annotations

import signal
from pathlib import Path

import pexpect
import pytest
from plain_pty import HeadlessTable, PlainPlayer, line_env, ono99, play_turns, play_until_over

from ono99tui.host.journal.history import read_matches

pytestmark = pytest.mark.slow


def test_a_killed_line_mode_player_joins_again_and_plays_on(tmp_path: Path) -> None:
    table = HeadlessTable(tmp_path, "--seats", "2", "--bots", "1", "--start-when", "2",
                          "--bot-delay", "0", "--seed", "21", "--grace", "120",
                          "--turn-time", "off", "--exit-after", "1", "--name", "Rejoin")
    port = table.wait_for_event("listening")["port"]
    join = ono99("join", "--plain", f"127.0.0.1:{port}", "--player", "ana")
    env = line_env(tmp_path, "ana")
    first = PlainPlayer(join, env)
    again: PlainPlayer | None = None
    try:
        play_turns(first, 2)  # two moves, then the connection dies mid-match
        first.prompt()  # the third turn's: after the table took the second move
        assert first.transcript.count("You played") == 2
        first.child.kill(signal.SIGKILL)
        first.child.expect(pexpect.EOF)

        again = PlainPlayer(join, env)
        again.expect(r"Round 1: .+ dealt, .+ starts?\.")  # the match so far, told again
        again.prompt()
        assert again.transcript.count("You played") >= 2
        again.send("w")
        again.expect(r"Seat \d, ana \(you\): \d cards")  # the same seat, not watching
        again.send("n")  # the hand again, for the prompt that follows
        play_until_over([again], timeout=300)
        assert "Match over:" in again.transcript
        # Told again once, then played on: more of ana's moves than the two before.
        assert again.transcript.count("You played") > 2
    finally:
        first.close()
        if again is not None:
            again.close()
        table.stop()
    matches = read_matches(table.journal())
    assert [match.status for match in matches] == ["finished"]
    names, kinds = matches[0].names, matches[0].kinds
    assert kinds[names.index("ana")] == "human"
