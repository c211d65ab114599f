"""Three whole solo matches of 1980 with tokens in a real terminal, played by reading the
screen as a person would: the log must show the newest event after every move, however
long the evening, start each match on a fresh page, and the rematch must still be there
after Esc on the match-over dialog."""

from __future__ import annotations

import re
import time

import pytest
from test_tmux_play import MATCH_OVER, ONO99, ROUND_OVER, playable_keys
from testkit.tmux import TmuxSession, TmuxTimeout

pytestmark = [pytest.mark.tmux, pytest.mark.slow]

# "ana played 7 → 57" (or "->" in ASCII), once its wrapped rows are joined again.
PLAYED = re.compile(r"^(?P<who>.+?) played (?P<card>.+?) (?:→|->) (?P<total>-?\d+)$")
ROUND_DEALT = re.compile(r"^Round (?P<round>\d+): ")
# The seat list marks whose turn it is (▶); with tokens and marks the "(you)" after the
# name may be cut short, so look for the player's name.
NAME = "tess"
MY_TURN = re.compile(rf"▶ {NAME}\b")
# The round-end dialog's title, inside its thick border (the log says it too, unbordered).
ROUND_DIALOG = re.compile(r"[█#+]\s+Round (\d+) is over")
SEPARATOR = re.compile(r"^(?:──|--) Match (?P<match>\d+) (?:──|--)$")


def log_pane(screen: str) -> list[str]:
    """The log's rows as the terminal shows them, inside its border."""
    rows = screen.split("\n")
    for index, row in enumerate(rows):
        title = row.find("─ Log")
        if title < 0:
            title = row.find("- Log")
        if title > 0:
            top = index
            left = title - 1
            right = row.index("╮" if row[left] == "╭" else "+", title)
            break
    else:
        raise AssertionError(f"no log on screen:\n{screen}")
    pane = []
    for row in rows[top + 1:]:
        if row[left:left + 1] in ("╰", "+"):
            break
        pane.append(row[left + 1:right].rstrip())
    return pane


def log_lines(screen: str) -> list[str]:
    """The log's lines on screen, each wrapped line joined again (continuations are
    indented by two spaces)."""
    lines: list[str] = []
    for row in log_pane(screen):
        if not row:
            continue
        if row.startswith("  ") and lines:
            lines[-1] += " " + row.strip()
        else:
            lines.append(row)
    return lines


def title_facts(screen: str) -> tuple[int | None, str | None]:
    """(round, top card) as the table's title row says."""
    title = screen.split("\n")[0]
    round_no = re.search(r"Round (\d+)", title)
    top = re.search(r"Top card (.+?)\s*$", title)
    return (int(round_no.group(1)) if round_no else None, top.group(1) if top else None)


def check_the_log_shows_the_last_event(screen: str) -> None:
    """The log's last line on screen is the newest event the rest of the screen shows: the
    newest card played is the card on top of the pile, the newest deal is this round's."""
    lines = log_lines(screen)
    assert lines, f"the log is empty:\n{screen}"
    round_no, top = title_facts(screen)
    played = [m for m in map(PLAYED.match, lines) if m]
    dealt = [m for m in map(ROUND_DEALT.match, lines) if m]
    last = lines[-1]
    if PLAYED.match(last) and top is not None:
        assert PLAYED.match(last)["card"] == top, f"log says {last!r}, the pile shows {top}:\n{screen}"
    elif ROUND_DEALT.match(last):
        assert int(ROUND_DEALT.match(last)["round"]) == round_no, f"{last!r}:\n{screen}"
    elif played and top is not None:
        # A line that follows a play (an obligation passed, a reshuffle): the play before
        # it is the card on the pile.
        last_play = lines.index(played[-1].string)
        assert played[-1]["card"] == top, f"log says {played[-1].string!r}, the pile shows {top}:\n{screen}"
        if dealt:
            assert lines.index(dealt[-1].string) < last_play, screen
    if dealt and round_no is not None:
        assert int(dealt[-1]["round"]) == round_no, f"the log's round is not the title's:\n{screen}"


def play_solo_matches(tmux: TmuxSession, matches: int, *, timeout: float = 600.0) -> dict[str, int]:
    """Play `matches` whole matches, one key at a time, checking the log after every move.
    Between matches: Esc on the match-over dialog, then `r` at the table."""
    counts = {"matches": 0, "rounds": 0, "moves": 0}
    deadline = time.monotonic() + timeout
    while True:
        if time.monotonic() > deadline:
            raise TmuxTimeout(f"not done within {timeout} s ({counts}):\n{tmux.capture()}")
        screen = tmux.capture()
        if MATCH_OVER.search(screen):
            counts["matches"] += 1
            round_no, _ = title_facts(screen)
            assert round_no is not None, screen
            counts["rounds"] += round_no
            if counts["matches"] == matches:
                return counts
            tmux.send_keys("Escape")  # back to the table: the rematch must still be there
            # The table's footer, not the closing dialog's (which also offers "r Rematch").
            tmux.wait_for(r"(?m)^ ?r Rematch.*w Wins.*$", timeout=10)
            tmux.send_keys("r")
            new_match = counts["matches"] + 1
            # The new page under the log's title: the match-over dialog is gone (while it
            # closes, the separator can already show through it).
            tmux.wait_for(rf"(?s)[─-] Log.*(?:──|--) Match {new_match} (?:──|--)", timeout=30)
            # A fresh page: the new match's lines only, under its separator.
            first = log_pane(tmux.capture())[0]
            assert SEPARATOR.match(first) and int(SEPARATOR.match(first)["match"]) == new_match, \
                tmux.capture()
        elif ROUND_OVER.search(screen):
            dialog = ROUND_DIALOG.search(screen)
            tmux.send_keys("Enter")
            # Wait for this dialog to go (the next one may come at once): one Enter each.
            gone = time.monotonic() + 10
            while dialog is not None and dialog.group(0) in tmux.capture():
                assert time.monotonic() < gone, f"the round dialog stays:\n{tmux.capture()}"
                time.sleep(0.05)
        elif MY_TURN.search(screen):
            check_the_log_shows_the_last_event(screen)
            keys = playable_keys(screen) or ["1"]  # no card fits: any key, the bust is automatic
            tmux.send_keys(keys[0])
            counts["moves"] += 1
            tmux.wait_until_changed(screen, timeout=5)
        else:
            time.sleep(0.05)


# About 160 key presses, each waited on; 3-4 minutes on a quiet 2-core machine, far more
# on a busy one.
@pytest.mark.timeout(1500)
def test_three_1980_matches_with_rematches_keep_the_log_on_the_newest_event(tmux: TmuxSession) -> None:
    tmux.start([*ONO99, "solo", "--rules", "1980", "--bots", "2", "--bot-delay", "0",
                "--seed", "5", "--name", NAME])
    tmux.wait_for(NAME, timeout=30)
    counts = play_solo_matches(tmux, 3, timeout=1400)
    assert counts["rounds"] >= 15, counts
    # The previous match is a few pages up, just above this match's separator.
    tmux.send_keys("Escape")
    tmux.wait_for(r"(?m)^ ?r Rematch.*w Wins.*$", timeout=10)  # the table's footer
    for _ in range(60):
        pane = log_pane(tmux.capture())
        if "── Match 3 ──" in pane:
            break
        before = tmux.capture()
        tmux.send_keys("PageUp")
        tmux.wait_until_changed(before, timeout=5)
    else:
        raise AssertionError(f"no separator a few pages up:\n{tmux.capture()}")
    above = [row for row in pane[:pane.index("── Match 3 ──")] if row]
    assert above and "won" in above[-1], pane  # "Match over: ... won", wrapped or not
    tmux.send_keys("q")
    tmux.wait_for(r"\[exit 0\]", timeout=20)
