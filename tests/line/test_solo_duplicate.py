"""`ono99 solo --duplicate`: a solo set against bots, each deal once per seat rotation,
played through a real pty in line mode to the set's comparison."""

from __future__ import annotations

from pathlib import Path

import pytest
from plain_pty import PlainPlayer, line_env, ono99, play_until_over

pytestmark = pytest.mark.slow


def test_a_solo_duplicate_set_is_played_to_its_comparison(tmp_path: Path) -> None:
    player = PlainPlayer(ono99("solo", "--plain", "--duplicate", "--bots", "1", "--bot-delay",
                               "0", "--seed", "11", "--name", "tess"), line_env(tmp_path, "tess"))
    try:
        play_until_over([player])
        assert "Duplicate set, 1 of 2 deals" in " ".join(player.sentences())
        player.send("m")  # the rematch deals the set's next rotation
        player.expect("Duplicate set: deal 2 of 2.")
        player.expect("Match 2 begins.")
        play_until_over([player])
        told = " ".join(player.sentences())
        assert "Duplicate set over" in told
        assert "Seat 1's cards: best played by" in told
        assert "Seat 2's cards: best played by" in told
    finally:
        player.close()
