"""The phone page with the real game, in a real browser held like a phone (390×844, touch,
three device pixels per CSS pixel): two phones and a bot play a whole match of each preset
by tapping only; a reload, a frozen (locked) page and twenty seconds offline each keep the
seat and catch up; a third phone takes a seat between matches; and every frame a phone is
sent holds its own hand and nothing of another seat's but what the table revealed.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from phone_helpers import Phone, phone_context, play_until, wait_for_hand
from web_helpers import PASSWORD, WebHost, wait_until, web_host

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def start_host(tmp_path: Path, *options: str) -> AbstractContextManager[WebHost]:
    """This file's table: three seats, one of them a bot."""
    return web_host(tmp_path, "--grace", "30", *options, seats=3, seed=5)


@pytest.fixture
def host(tmp_path: Path) -> Iterator[WebHost]:
    with start_host(tmp_path) as table:
        yield table


def assert_only_own_cards(phone: Phone) -> None:
    """The hidden-card scan over a page's frames, as the page puts them together: cards
    appear only as its own hand and as hands the table revealed (an eliminated seat's);
    and what the page shows at the end is what its frames made."""
    states = phone.states()
    for state in states:
        game = state.get("game")
        if not game:
            continue
        for seat in game["seats"]:
            assert seat["shown"] is None or seat["out"], seat
            assert set(seat) >= {"cards"} and "hand" not in seat
        assert len(game["hand"]) == next(s["cards"] for s in game["seats"] if s["you"]) or game["over"]
    for frame in phone.frames:  # a change inside the match puts no card in another seat
        for op in frame.get("d", ()) if frame.get("t") == "state" else ():
            assert "shown" not in op[:-1] or states[-1]["game"]["seats"][op[2]]["out"], op
    assert phone.total() == str(states[-1]["game"]["total"])
    assert phone.hand() == [card["tok"] for card in states[-1]["game"]["hand"]]


def turn_is(phone: Phone, name: str) -> bool:
    """Does `phone`'s page mark `name`'s seat as the one to play?"""
    marked = phone.page.eval_on_selector_all(
        "#seats .seat.-turn .who", "nodes => nodes.map(n => n.textContent)")
    return name in marked


# The names marked as the one to play, and how many lines the log holds, read at once.
TURN_AND_LOG = """() => [
    [...document.querySelectorAll('#seats .seat.-turn .who')].map(n => n.textContent),
    document.querySelectorAll('#log .line').length]"""


@contextmanager
def phones(browser: Any, url: str, *names: str) -> Iterator[tuple[list[Phone], list[Any]]]:
    """A phone each (a browser context each: its own cookies, storage and window, as two
    phones are), sat down at the door; their contexts; none makes a request off loopback."""
    with ExitStack() as stack:
        opened = [stack.enter_context(phone_context(browser)) for _ in names]
        group = [Phone(context.new_page()) for context, _ in opened]
        for phone, name in zip(group, names, strict=True):
            phone.open(url, name)
        yield group, [context for context, _ in opened]
        for _, outside in opened:
            assert outside.urls == []


@pytest.mark.parametrize("preset", ["2022", "1980", "1980-set99"])
def test_two_phones_and_a_bot_play_a_whole_match_by_tapping(browser: Any, tmp_path: Path,
                                                            preset: str) -> None:
    with start_host(tmp_path, "--rules", preset) as table, \
            phones(browser, table.base, "ana", "bea") as ([ana, bea], _):
        wait_for_hand(ana)
        wait_for_hand(bea)
        play_until([ana, bea], lambda: ana.match_over() and bea.match_over())
        assert ana.taps + bea.taps > 2
        for phone in (ana, bea):
            assert phone.page.text_content("#results-title") == "The match is over"
            assert "won" in phone.page.inner_text("#log") or "win" in phone.page.inner_text("#results")
            assert_only_own_cards(phone)
            assert phone.errors == []
            # The standings go first place first: the winner heads the numbered list.
            first = phone.page.eval_on_selector_all(
                "#results-rows li", "nodes => nodes.map(n => n.textContent)")[0]
            won = phone.page.text_content("#results-winners") or ""
            assert (" · you" in first) if won == "You win!" else won.startswith(
                first.split(" · ")[0]), (first, won)


def test_a_reload_mid_match_finds_the_same_hand(browser: Any, host: WebHost) -> None:
    with phones(browser, host.base, "ana", "bea") as ([ana, bea], _):
        wait_for_hand(ana)
        play_until([ana, bea], lambda: ana.taps >= 2 and not ana.visible(
            "#hand button.card[aria-disabled=false]"))
        before = ana.hand()
        ana.page.reload()
        # Only ana's own taps change her hand, and she taps nothing meanwhile.
        after = wait_for_hand(ana)
        assert after == before
        assert not ana.visible("#join")
        play_until([ana, bea], lambda: ana.match_over() and bea.match_over())


def test_a_frozen_page_catches_up_when_shown_again(browser: Any, host: WebHost) -> None:
    with phones(browser, host.base, "ana", "bea") as ([ana, bea], [context, _]):
        wait_for_hand(ana)
        wait_for_hand(bea)
        # Locked when it is not ana's turn, so that the others play while it is. bea's log
        # is counted in the same look as the turn mark: read after the freeze, a play that
        # came meanwhile would be counted as already seen.
        seen: list[int] = []

        def not_anas_turn() -> bool:
            marked, lines = bea.page.evaluate(TURN_AND_LOG)
            seen[:] = [lines]
            return "ana" not in marked and not ana.match_over()

        play_until([ana, bea], not_anas_turn)
        cdp = context.new_cdp_session(ana.page)
        cdp.send("Page.setWebLifecycleState", {"state": "frozen"})  # a locked phone
        lines = seen[0]
        # bea and the bot play on while ana's page sleeps, until ana's own turn comes.
        play_until([bea], lambda: turn_is(bea, "ana"))
        assert len(bea.log_lines()) > lines
        cdp.send("Page.setWebLifecycleState", {"state": "active"})
        wait_until(lambda: ana.total() == bea.total(), 20, "ana's page caught up")
        wait_until(lambda: ana.log_lines()[-1:] == bea.log_lines()[-1:], 20, "the same log")
        ana.page.wait_for_selector('#hand button.card[aria-disabled="false"], #swap', state="visible")
        play_until([ana, bea], lambda: ana.match_over() and bea.match_over())


def test_twenty_seconds_offline_then_back(browser: Any, host: WebHost) -> None:
    with phones(browser, host.base, "ana", "bea") as ([ana, bea], [ana_context, _]):
        wait_for_hand(ana)
        wait_for_hand(bea)
        ana_context.set_offline(True)
        wait_until(lambda: ana.page.text_content("#conn"), 30, "the page says it is offline")
        went = time.monotonic()
        # Twenty seconds away while the others play what they can (ana's turn waits).
        play_until([bea], lambda: time.monotonic() - went >= 20, timeout=60)
        hand = ana.states()[-1]["game"]["hand"]
        ana_context.set_offline(False)
        wait_until(lambda: not ana.page.text_content("#conn"), 30, "connected again")
        wait_until(lambda: ana.total() == bea.total(), 20, "caught up")
        # Only ana's own taps change her hand: the same cards, in the same order.
        assert ana.hand() == [card["tok"] for card in hand]
        play_until([ana, bea], lambda: ana.match_over() and bea.match_over())


def test_a_third_phone_takes_a_seat_between_matches(browser: Any, host: WebHost) -> None:
    with phones(browser, host.base, "ana", "bea") as ([ana, bea], _):
        wait_for_hand(ana)
        wait_for_hand(bea)
        with phones(browser, host.base, "cid") as ([cid], _):
            cid.page.wait_for_selector("#want-seat", state="visible")  # the match is on
            assert cid.hand() == []
            cid.page.tap("#want-seat")
            play_until([ana, bea], lambda: ana.match_over() and bea.match_over())
            # The bot gives up its seat for cid as the match ends.
            wait_until(lambda: not cid.visible("#watch"), 30, "cid seated")
            for phone in (ana, bea):
                phone.page.wait_for_selector("#rematch", state="visible")
                phone.page.tap("#rematch")
            # cid saw no match: the table's seats, hers among them, and "I'm ready".
            cid.page.wait_for_selector("#room-seats .seat", state="visible")
            assert "cid" in cid.page.inner_text("#room-seats")
            cid.page.tap("#ready")
            for phone in (ana, bea, cid):
                wait_for_hand(phone)
            # The rematch is dealt to three people: the bot's seat is cid's now.
            assert "cid" in cid.page.inner_text("#seats .seat.-you")
            assert "bot" not in cid.page.inner_text("#seats")


def test_the_table_view_follows_a_match(browser: Any, host: WebHost) -> None:
    with phones(browser, host.base, "ana", "bea") as ([ana, bea], _):
        with phone_context(browser, width=1280, height=720) as (screen, outside):
            tv = Phone(screen.new_page())
            tv.page.goto(host.base + "tv")
            tv.page.fill("#password", PASSWORD)
            tv.page.click("button[type=submit]")
            tv.page.wait_for_selector("#total-value", state="visible")
            assert tv.page.locator("#hand button").count() == 0  # a spectator: no hand
            play_until([ana, bea], lambda: tv.total() not in ("", "0") and ana.total() == tv.total())
            assert "ana" in tv.page.inner_text("#seats") and "bea" in tv.page.inner_text("#seats")
            play_until([ana, bea], lambda: ana.match_over() and bea.match_over())
            tv.page.wait_for_selector("#results", state="visible")
            assert tv.page.text_content("#results-title") == "The match is over"
            assert not tv.visible("#rematch")
            assert tv.axe() == []
        assert outside.urls == []
