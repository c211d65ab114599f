"""The real game through the web door in a real browser: two tabs of one browser are two
players who play a whole match, a reload mid-match takes back the seat, a closed tab's
seat is held for the grace period and then played by a bot, and the two players chat.

The screen is read from xterm.js's buffer; keys go to the page as a person's would (no
click first: the terminal has the keyboard once its websocket is open).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import Tab, WebHost, browser_context, wait_until, web_host

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MATCH_OVER = re.compile(r"Match\s+over|The\s+match\s+is\s+over")
ROUND_OVER = re.compile(r"Round\s+\d+\s+is\s+over")
MUST_PLAY = re.compile(r"Your turn|\(1-4, arrows|You owe")
HAND_EDGE = re.compile(r"╰────────────╯|▄▄▄▄|┗╍╍╍")
# How long to wait for the screen to answer a keypress before pressing again.
ANSWER_WAIT = 1.5


def hand_labels(screen: str) -> str:
    """The words under the cards of the hand (the row above the hand's bottom edge), with
    every frame glyph taken out: the same hand reads the same whatever is focused and
    whichever panels end on that row."""
    lines = screen.splitlines()
    bottoms = [i for i, line in enumerate(lines) if HAND_EDGE.search(line)]
    assert bottoms, f"no hand on screen:\n{screen}"
    return " ".join(re.sub(r"[█│╏┃║╰╯╭╮─┗┛╍▄▀]", " ", lines[bottoms[-1] - 1]).split())


def candidate_keys(screen: str) -> list[str]:
    """Keys worth pressing on our turn: the cards not marked unplayable (⊘), else the
    swap (s), the late draw (d), then any card."""
    cards = [key for key in "1234" if re.search(rf"[│┃█╏]{key}\b", screen)]
    playable = [key for key in cards if not re.search(rf"{key} ⊘", screen)]
    return playable or ["s", "d", *cards]


class Player:
    """Answers one tab's screen as a person would: one key, then time to see the answer."""

    def __init__(self, tab: Tab) -> None:
        self.tab = tab
        self.pressed_on: str | None = None
        self.pressed_at = 0.0
        self.tries = 0
        self.moves = 0

    def step(self) -> str:
        """Look at the screen and press at most one key; the screen looked at."""
        text = self.tab.screen()
        if text == self.pressed_on and time.monotonic() - self.pressed_at < ANSWER_WAIT:
            return text
        if text != self.pressed_on:
            self.tries = 0
        key = None
        if ROUND_OVER.search(text) and not MATCH_OVER.search(text):
            key = "Enter"
        elif MUST_PLAY.search(text) and not MATCH_OVER.search(text):
            keys = candidate_keys(text) or ["1"]
            key = keys[self.tries % len(keys)]
            self.tries += 1
            self.moves += 1
        if key is not None:
            self.tab.press(key)
            self.pressed_on, self.pressed_at = text, time.monotonic()
        return text


def play(players: list[Player], done: Any, timeout: float = 150.0) -> None:
    """Let every player answer their screen until *done()*."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            screens = "\n\n".join(player.tab.screen() for player in players)
            raise AssertionError(f"not done within {timeout}s; screens:\n{screens}")
        for player in players:
            player.step()
        time.sleep(0.05)


def settled_hand(tab: Tab, quiet: float = 1.0) -> str:
    """The tab's hand once it has not changed for *quiet* seconds (a move's answer may
    take more than one frame to draw: the hand is read when it is finished)."""
    last = {"hand": hand_labels(tab.screen()), "since": time.monotonic()}

    def still() -> str:
        hand = hand_labels(tab.screen())
        if hand != last["hand"]:
            last.update(hand=hand, since=time.monotonic())
        return hand if time.monotonic() - float(last["since"]) >= quiet else ""

    return str(wait_until(still, 20, "a settled hand"))


def seat_line(screen: str, name: str) -> str:
    """The seats panel's line of *name* ("" when not shown)."""
    match = re.search(rf"^.*\b{name}\b.*\d+c.*$", screen, re.MULTILINE)
    return match.group(0) if match else ""


@pytest.fixture
def host(tmp_path: Path) -> Iterator[WebHost]:
    """A two-seat table that deals once both seats are taken, with a password web door; no
    turn clock (nothing moves for a player who is reloading). The grace outlasts a reload's
    new game process on a loaded machine (at 4 s a stand-in once played for the reloading
    tab before it was back, and its hand had changed)."""
    with web_host(tmp_path, "--grace", "12", "--on-abandon", "bot", bots=None, bot_delay=0.2,
                  seed=3) as table:
        yield table


def test_two_tabs_play_a_whole_match_and_a_reload_takes_back_the_seat(browser: Any, host: WebHost) -> None:
    with browser_context(browser) as (context, outside):
        ana, bea = Tab(context.new_page()), Tab(context.new_page())
        ana.page.goto(host.url)
        ana.log_in()
        ana.sit_down("ana")
        bea.page.goto(host.url)  # the same browser: logged in already, but another player
        bea.sit_down("bea")
        ana.wait_for(r"ana \(you\)")
        bea.wait_for(r"bea \(you\)")
        ana.wait_for(HAND_EDGE.pattern)
        players = [Player(ana), Player(bea)]

        # A few moves in, ana's tab is reloaded: the same seat, the same hand.
        play(players, lambda: min(p.moves for p in players) >= 2 and not MUST_PLAY.search(ana.screen()))
        before = settled_hand(ana)
        ana.page.reload()
        ana.wait_for_first_byte()
        own_line = ana.wait_for(r".*ana \(you\).*").group(0)
        ana.wait_for(HAND_EDGE.pattern)
        resumed = ana.screen()
        assert "watching" not in own_line.lower() and "ana 2" not in resumed
        assert hand_labels(resumed) == before
        assert "⚙" not in seat_line(bea.screen(), "ana")

        players[0] = Player(ana)
        play(players, lambda: all(MATCH_OVER.search(p.tab.screen()) for p in players))
    assert outside.urls == []


def test_a_closed_tab_holds_the_seat_then_a_bot_plays_it(browser: Any, host: WebHost) -> None:
    with browser_context(browser) as (context, outside):
        ana, bea = Tab(context.new_page()), Tab(context.new_page())
        ana.page.goto(host.url)
        ana.log_in()
        ana.sit_down("ana")
        bea.page.goto(host.url)
        bea.sit_down("bea")
        bea.wait_for(r"bea \(you\)")
        ana.wait_for(HAND_EDGE.pattern)
        assert "away" not in seat_line(ana.screen(), "bea")

        bea.page.close()
        held = wait_until(lambda: "away" in seat_line(ana.screen(), "bea") and seat_line(ana.screen(), "bea"),
                          15, "bea's seat held")
        assert "⚙" not in held  # held for bea, not yet a bot's
        wait_until(lambda: "⚙" in seat_line(ana.screen(), "bea"), 20, "a bot in bea's seat")
    assert outside.urls == []


def test_a_line_said_in_one_tab_shows_in_the_other(browser: Any, host: WebHost) -> None:
    with browser_context(browser) as (context, outside):
        ana, bea = Tab(context.new_page()), Tab(context.new_page())
        ana.page.goto(host.url)
        ana.log_in()
        ana.sit_down("ana")
        bea.page.goto(host.url)
        bea.sit_down("bea")
        ana.wait_for(HAND_EDGE.pattern)  # both seated: the table dealt
        bea.wait_for(HAND_EDGE.pattern)

        ana.press("c")
        ana.wait_for(r"Say\s*to\s*the\s*table")
        ana.page.keyboard.type("hi_from_tab_one")
        ana.press("Enter")
        bea.wait_for(r"ana:\s*hi_from_tab_one")

        bea.press("9")  # an emote key: "Good game!"
        ana.wait_for(r"bea:\s*Good\s*game!")
    assert outside.urls == []
