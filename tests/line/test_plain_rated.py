"""`rated on|off` in line mode through a real pty at a real headless table that rates: the
state told, switched off and on with a sentence in the room's news, a word that is neither
refused, and during a match a clear refusal; `?` lists the command."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from plain_pty import HeadlessTable, PlainPlayer, line_env, ono99, play_until_over

pytestmark = pytest.mark.slow


def said(player: PlainPlayer, sentence: str) -> None:
    """Wait for `sentence`, however line mode wrapped it (at a space, the next line
    indented)."""
    player.expect(r"\s+".join(re.escape(word) for word in sentence.split()))


def test_a_line_mode_player_switches_their_rating(tmp_path: Path) -> None:
    table = HeadlessTable(tmp_path, "--seats", "3", "--bots", "1", "--start-when", "3",
                          "--bot-delay", "0", "--seed", "8", "--turn-time", "off",
                          "--exit-after", "1", "--name", "Rated")
    port = table.wait_for_event("listening")["port"]
    players: list[PlainPlayer] = []
    try:
        ana = PlainPlayer(ono99("join", "--plain", f"127.0.0.1:{port}", "--player", "ana"),
                          line_env(tmp_path, "ana"))
        players.append(ana)
        said(ana, "Type y when you are ready.")
        ana.send("?")
        said(ana, "a on, a off, rated on")
        ana.send("a")
        said(ana, "Your play is rated here: type a off to play unrated.")
        ana.send("rated maybe")
        said(ana, "rated takes on or off, not 'maybe'.")
        ana.send("a off")
        said(ana, "Your play is not rated from the next match on: your rating stays as it is.")
        ana.send("w")
        ana.expect(r"Seat \d, ana \(you\):[^>]*not\s+rated\.")
        ana.send("a off")
        said(ana, "Your play is not rated here already.")
        ana.send("rated on")
        said(ana, "Your play is rated again from the next match on.")
        ana.send("a off")
        said(ana, "Your play is not rated from the next match on")
        # Bob sits down and the table deals: now the switch waits for the match's end.
        bob = PlainPlayer(ono99("join", "--plain", f"127.0.0.1:{port}", "--player", "bob"),
                          line_env(tmp_path, "bob"))
        players.append(bob)
        ana.expect(r"Round 1: ")
        ana.send("a on")
        said(ana, "Not during a match: whether you are rated can change only between matches.")
        play_until_over(players, timeout=300)
    finally:
        for player in players:
            player.close()
        table.stop()
    # ana played unrated: the table's ratings file has bob and the bot's level, not her.
    kept = json.loads((table.data / "ratings.json").read_text(encoding="utf-8"))
    assert set(kept["players"]) == {"bob"} and set(kept["bots"]) == {"normal"}
