"""Bot levels and hints in a real terminal (tmux, 80×24): `ono99 solo --level hard` seats
hard bots that play, and `h` on the player's turn opens the hint panel and Esc closes it."""

from __future__ import annotations

import re
import sys

import pytest
from test_tmux_play import YOUR_TURN, playable_keys
from testkit.tmux import TmuxSession

pytestmark = pytest.mark.tmux

ONO99 = [sys.executable, "-m", "ono99tui"]


def test_solo_at_the_hard_level_with_a_hint(tmux: TmuxSession) -> None:
    tmux.start([*ONO99, "solo", "--level", "hard", "--bots", "2", "--bot-delay", "0.2",
                "--seed", "7", "--name", "tess"])
    tmux.wait_for(r"Hard bot 2", timeout=30)
    tmux.wait_for(YOUR_TURN.pattern, timeout=30)
    # Solo allows hints: the key is in the Footer.
    table = tmux.wait_for(r"h Hint", timeout=10).string
    tmux.send_keys("h")
    panel = tmux.wait_for(r"Hint \(Esc to close\)[\s\S]*Suggested: ", timeout=20).string
    # One row per playable card, named by the key that plays it; one of them marked.
    rows = re.findall(r"│ ([▶ ])  ([1-4s])  \S", panel)
    assert rows and {key for _, key in rows} <= set(playable_keys(table)) | {"s"}
    assert [mark for mark, _ in rows].count("▶") == 1 and "Next player busts" in panel
    tmux.send_keys("Escape")
    tmux.wait_until_gone(r"Hint \(Esc", timeout=10)  # the panel closes...
    screen = tmux.wait_for(r"h Hint", timeout=10).string  # ...and the table's keys are back
    assert "Hint (Esc" not in screen
    keys = playable_keys(screen) or ["s"]
    tmux.send_keys(keys[0])
    tmux.wait_for(r"Hard bot\s+(2 )?played", timeout=30)  # the hard bots play on
    tmux.send_keys("q")
    tmux.wait_for(r"Quit the game\?", timeout=10)
    tmux.send_keys("y")
    tmux.wait_for(r"\[exit 0\]", timeout=20)
