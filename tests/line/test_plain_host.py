"""`ono99 host --plain`: the host's own seat in line mode runs the waiting room (a preset, a
bot, the deal), plays a whole match with a second person in `ono99 join --plain`, deals the
rematch, plays it, and closes the table (asked first, since someone else is at it)."""

from __future__ import annotations

import contextlib
import json
import re
import time
from pathlib import Path

import pexpect
import pytest
from plain_pty import PlainPlayer, line_env, logical_lines, ono99, play_until_over

pytestmark = pytest.mark.slow


def wait_for_line(player: PlainPlayer, start: str, timeout: float = 60) -> str:
    """The first sentence of the player's transcript that begins with `start`, waiting for
    it to be said (it may have been said before the prompt last waited for)."""
    deadline = time.monotonic() + timeout
    while True:
        found = [line for line in logical_lines(player.transcript) if line.startswith(start)]
        if found:
            return found[0]
        if time.monotonic() > deadline:
            raise AssertionError(f"never said {start!r}:\n{player.transcript[-2000:]}")
        with contextlib.suppress(pexpect.TIMEOUT):
            player.child.expect(r".+", timeout=1)


def test_the_host_in_line_mode_runs_the_room_the_match_and_the_rematch(tmp_path: Path) -> None:
    host = PlainPlayer(ono99("host", "--plain", "--bind", "127.0.0.1", "--port", "0",
                             "--no-advertise", "--seats", "3", "--name", "Plain host",
                             "--player", "hana", "--bot-delay", "0", "--seed", "41"),
                       line_env(tmp_path, "hana"))
    guest: PlainPlayer | None = None
    try:
        host.expect(r"Others join with: ono99\s+join\s+127\.0\.0\.1:(\d+)")
        port = int(re.search(r"127\.0\.0\.1:(\d+)", host.transcript).group(1))  # type: ignore[union-attr]
        assert host.prompt() in ("Joining", "Waiting room")
        host.send("o preset 1980-set99")
        host.expect(r"The rules are now preset 1980-set99")
        host.send("o scoring nonsense")
        host.expect(r"No scoring 'nonsense': ")  # refused here: nothing was sent
        host.send("b")
        host.expect(r"A bot, .+, sat down in seat 2\.")

        # jo asks not to be rated: no rating beside jo, and the table rates hana and its bot.
        guest = PlainPlayer(ono99("join", "--plain", f"127.0.0.1:{port}", "--player", "jo",
                                  "--unrated"),
                            line_env(tmp_path, "jo"))
        guest.expect(r"Seat 1, hana: host, rating 1000\.")
        guest.expect(r"Seat 3, jo \(you\): not ready, not rated\.")
        host.expect(r"A player, jo, sat down in seat 3\.")
        guest.send("g")
        guest.expect(r"Only the host can do that\.")
        guest.send("y")
        host.expect(r"jo is ready\.")
        host.send("g")
        for player in (host, guest):
            player.expect("Match 1 begins.")
        play_until_over([host, guest], timeout=300)
        said = wait_for_line(host, "Ratings now: ")
        assert re.fullmatch(r"Ratings now: hana \d+ \([+-]\d+\), Normal bot \d+ \([+-]\d+\)\.",
                            said), said
        ratings = json.loads((tmp_path / "hana-data" / "ratings.json").read_text("utf-8"))
        assert set(ratings["players"]) == {"hana"} and set(ratings["bots"]) == {"normal"}

        host.send("m")  # the host deals the rematch once the guest is ready
        guest.send("m")
        for player in (host, guest):
            player.expect("Match 2 begins.", timeout=60)
        play_until_over([host, guest], timeout=300)
        assert "Matches won here:" in host.transcript

        host.send("q")
        host.expect(r"Close the table\?")
        host.prompt()
        host.send("yes")
        host.child.expect(pexpect.EOF, timeout=30)
        guest.expect(r"The host closed the table\.", timeout=30)
        guest.child.expect(pexpect.EOF, timeout=30)
        for player in (host, guest):
            assert "\x1b" not in player.transcript
            assert max(len(line) for line in player.transcript.split("\r\n")) <= 40
    finally:
        host.close()
        if guest is not None:
            guest.close()
