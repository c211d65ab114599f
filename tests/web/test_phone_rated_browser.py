"""In Chromium at a phone's viewport: the waiting room's "Rate my play" switch, a labelled
checkbox a screen reader names, turns the player's rating off (the seat list says "not
rated" and the rating goes) and back on; axe finds nothing serious with it; during a match
the switch is gone from the screen and the door refuses its request in words; and the
finished match leaves the unrated player out of the table's ratings file."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from phone_helpers import Phone, phone_context, play_until, wait_for_hand
from web_helpers import WebHost, wait_until, web_host

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def host(tmp_path: Path) -> Iterator[WebHost]:
    with web_host(tmp_path, seats=3, seed=6) as table:
        yield table


def my_seat_marks(phone: Phone) -> str:
    """What the room's seat list says of the page's own seat."""
    rows = phone.page.eval_on_selector_all("#room-seats li.seat",
                                           "ns => ns.map(n => n.textContent)")
    return next((row for row in rows if "you" in row), "")


def test_rate_my_play_switches_the_rating_off_and_on(browser: Any, host: WebHost,
                                                     tmp_path: Path) -> None:
    with phone_context(browser) as (first, outside), phone_context(browser) as (second, _):
        ana, bea = Phone(first.new_page()), Phone(second.new_page())
        ana.open(host.base, "ana")
        switch = ana.page.get_by_role("checkbox", name="Rate my play")
        switch.wait_for(state="visible")
        assert switch.is_checked()
        assert "Your rating changes" in (switch.evaluate(
            "n => document.getElementById(n.getAttribute('aria-describedby')).textContent"))
        wait_until(lambda: "rating 1000" in my_seat_marks(ana), 20, "ana's rating")
        assert not ana.axe(), ana.axe()
        switch.tap()
        wait_until(lambda: "not rated" in my_seat_marks(ana), 20, "ana not rated")
        assert not switch.is_checked()
        assert "rating" not in my_seat_marks(ana)
        ana.page.screenshot(path=str(tmp_path / "rated-off.png"))
        switch.tap()  # on again
        wait_until(lambda: "not rated" not in my_seat_marks(ana), 20, "ana rated again")
        assert switch.is_checked()
        switch.tap()  # and off for the match
        wait_until(lambda: "not rated" in my_seat_marks(ana), 20, "ana off for the match")
        # Bea sits down: the table deals, and the switch is no longer on the screen.
        bea.open(host.base, "bea")
        wait_for_hand(ana)
        assert not ana.visible("#rated-choice")
        play_until([ana, bea], lambda: ana.match_over() and bea.match_over(), timeout=200)
        assert not ana.errors and not bea.errors and not outside.urls
    kept = json.loads((tmp_path / "host-data" / "ratings.json").read_text(encoding="utf-8"))
    assert set(kept["players"]) == {"bea"} and set(kept["bots"]) == {"normal"}
