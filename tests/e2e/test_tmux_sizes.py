"""Whole 2022 solo matches in a real terminal at the smallest planned size (40x12) and a
big one (200x60), played by reading the screen: the total with its label, the cards with
their keys, the turn marker; each key pressed waits for the screen to answer."""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from testkit.tmux import TmuxSession, TmuxTimeout, clean_env

pytestmark = pytest.mark.tmux

REPO = Path(__file__).resolve().parents[2]
ONO99 = [sys.executable, "-m", "ono99tui"]
# The seat list marks whose turn it is (▶); at 40 columns "(you)" may be cut off a seat
# line that also says "owes 2", so look for the player's name, or the prompt.
YOUR_TURN = re.compile(r"▶ tess|Your turn: play|Play 2! Play")
MATCH_OVER = re.compile(r"Match over")
BUST_BANNER = re.compile(r"Press any key to go on")


@pytest.fixture
def sized_tmux(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TmuxSession]:
    """A tmux server of the test's own at the size the test is parametrized with."""
    import shutil

    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (.ci/run installs it)")
    width, height = request.param
    session = TmuxSession(width=width, height=height, cwd=REPO,
                          env=clean_env(ONO99_CONFIG_DIR=str(tmp_path / "config")))
    try:
        yield session
    finally:
        session.kill()


def hand_keys(screen: str) -> list[str]:
    """Keys of the cards shown, unplayable ones (marked ⊘, beside the key or in the card's
    top border) left out. The hand is the last rows above the Footer."""
    hand = "\n".join(screen.splitlines()[-10:])
    keys = []
    for key in "1234":
        # "│1          #│" (a full card), "│1 # 6  │" (one line), "╭ 1⇄ ──╮" (the key and
        # symbol on the top border of a one-line card at 40 columns).
        shown = re.search(rf"[█│╏┃║╭┏╔─━╍═ ]{key}(?: ?⊘)?\s*[#▲▼⇄‖✖×]", hand)
        if shown and not re.search(rf"{key} ?⊘", hand):
            keys.append(key)
    return keys


def play_solo_to_the_end(tmux: TmuxSession, *, timeout: float = 240.0) -> int:
    """Play whenever the seat list says it is our turn, until the match is over; returns
    the number of key presses that moved the game on."""
    deadline = time.monotonic() + timeout
    moves = 0
    while True:
        screen = tmux.capture(0)
        if MATCH_OVER.search(screen):
            return moves
        if BUST_BANNER.search(screen):
            tmux.send_keys("space")
            tmux.wait_until_changed(screen, timeout=5)
        elif YOUR_TURN.search(screen):
            for key in [*hand_keys(screen), "s"]:
                tmux.send_keys(key)
                after = tmux.wait_until_changed(screen, timeout=5)
                if not YOUR_TURN.search(after) or after.count("╍") != screen.count("╍"):
                    moves += 1
                    break
        if time.monotonic() > deadline:
            raise TmuxTimeout(f"no match end within {timeout} s; screen:\n{tmux.capture(0)}")
        time.sleep(0.05)


@pytest.mark.parametrize("sized_tmux", [(40, 12)], indirect=True, ids=["40x12"])
def test_a_whole_2022_match_at_40x12(sized_tmux: TmuxSession) -> None:
    tmux = sized_tmux
    tmux.start([*ONO99, "solo", "--bots", "2", "--bot-delay", "0.05", "--seed", "7", "--name", "tess"])
    tmux.wait_for(r"tess", timeout=30)
    first = tmux.wait_for(r"Total -?\d+", timeout=30)  # the total with its label, on one line
    assert first
    screen = tmux.capture(0)
    assert "you may go up to 98" in screen, screen
    assert play_solo_to_the_end(tmux) >= 1
    tmux.send_keys("q")
    tmux.wait_for(r"\[exit 0\]", timeout=20)


@pytest.mark.parametrize("sized_tmux", [(200, 60)], indirect=True, ids=["200x60"])
def test_a_whole_2022_match_at_200x60(sized_tmux: TmuxSession) -> None:
    tmux = sized_tmux
    tmux.start([*ONO99, "solo", "--bots", "3", "--bot-delay", "0.05", "--seed", "7", "--name", "tess"])
    tmux.wait_for(r"tess", timeout=30)
    tmux.wait_for(r"\bTotal\b", timeout=30)
    screen = tmux.capture(0)
    # The total in the pixel font at its largest: rows of eight-cell-wide pixels.
    assert sum("████████" in line for line in screen.splitlines()) >= 10, screen
    seats = next(line for line in screen.splitlines() if "Seats" in line)
    assert seats.index("╮") >= 38  # the seat pane widened with the room
    assert play_solo_to_the_end(tmux) >= 1
    tmux.send_keys("q")
    tmux.wait_for(r"\[exit 0\]", timeout=20)
