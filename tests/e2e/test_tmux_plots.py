"""The plots in a real terminal: a solo 1980 match with a bot, played by reading the screen
to a round's end, where g opens the plot of that round's total (its title, the axis
labelled "play" and marked at the total that busts, the bust's x, the sentence under it),
Esc goes back to the round's dialog; and at the match's end g opens it again."""

from __future__ import annotations

import re
import time

import pytest
from test_tmux_play import MATCH_OVER, ONO99, ROUND_OVER, playable_keys
from testkit.tmux import TmuxSession, TmuxTimeout

pytestmark = [pytest.mark.tmux, pytest.mark.slow]

PLOT_TITLE = re.compile(r"Round (\d+): the total")
# The seat list marks whose turn it is (▶); with tokens and marks the "(you)" after the
# name may be cut short, so look for the player's name.
YOUR_TURN = re.compile(r"▶ tess\b")
SUMMARY = re.compile(r"In round (\d+) the total went from 0 to (-?\d+) in (\d+) plays?")


def play_until(tmux: TmuxSession, done: re.Pattern[str], timeout: float = 300.0) -> str:
    """Play the first playable card on each turn until the screen matches `done`."""
    deadline = time.monotonic() + timeout
    while True:
        screen = tmux.capture()
        if done.search(screen):
            return screen
        if YOUR_TURN.search(screen):
            keys = playable_keys(screen) or ["s", "1"]  # swap four ONO 99, or bust
            tmux.send_keys(keys[0])
            tmux.wait_until_changed(screen, timeout=5)
        if time.monotonic() > deadline:
            raise TmuxTimeout(f"not seen within {timeout} s: {done.pattern}\n{screen}")
        time.sleep(0.05)


def check_plot(screen: str) -> int:
    """The plot's parts on an 80x24 screen; returns the round it plots."""
    title = PLOT_TITLE.search(screen)
    summary = SUMMARY.search(screen)
    assert title and summary, screen
    assert title[1] == summary[1]
    rows = screen.rstrip("\n").split("\n")
    assert len(rows) <= 24 and all(len(row) <= 80 for row in rows)
    assert any(row.strip(" █#") == "play" for row in rows), screen  # the x axis' label
    assert re.search(r"(?m)99[┤├]", screen), screen  # the y axis at the total that busts
    plays = summary[3]
    assert re.search(rf"(?m)^\W*0 .* {plays} *\W*$", screen), screen  # 0 to the last play
    assert "busted at" in screen and "x" in screen
    return int(title[1])


@pytest.mark.timeout(600)
def test_g_plots_the_rounds_total_at_its_end_and_the_matchs(tmux: TmuxSession) -> None:
    tmux.start([*ONO99, "solo", "--rules", "1980", "--bots", "1", "--bot-delay", "0",
                "--seed", "5", "--name", "tess"])
    tmux.wait_for("tess", timeout=30)
    screen = play_until(tmux, re.compile(f"{ROUND_OVER.pattern}|{MATCH_OVER.pattern}"))
    assert ROUND_OVER.search(screen), "a 1980 match at this seed has more rounds than one"
    ended = re.search(r"Round (\d+) is over", screen)
    assert ended, screen
    tmux.send_keys("g")
    plot = tmux.wait_for(PLOT_TITLE.pattern, timeout=20)
    time.sleep(0.3)  # the plot's last rows are drawn
    assert check_plot(tmux.capture()) == int(ended[1]), plot
    tmux.send_keys("Escape")
    tmux.wait_for(ROUND_OVER.pattern, timeout=10)
    tmux.send_keys("Enter")
    deadline = time.monotonic() + 400
    while not MATCH_OVER.search(tmux.capture()):
        screen = play_until(tmux, re.compile(f"{ROUND_OVER.pattern}|{MATCH_OVER.pattern}"))
        if ROUND_OVER.search(screen) and not MATCH_OVER.search(screen):
            tmux.send_keys("Enter")
            tmux.wait_until_changed(screen, timeout=5)
        assert time.monotonic() < deadline
    tmux.send_keys("g")
    tmux.wait_for(PLOT_TITLE.pattern, timeout=20)
    time.sleep(0.3)
    check_plot(tmux.capture())
    tmux.send_keys("g")
    tmux.wait_for(MATCH_OVER.pattern, timeout=10)
    tmux.send_keys("q")
    tmux.wait_for(r"\[exit 0\]", timeout=20)
