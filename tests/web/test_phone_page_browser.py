"""The phone page's layout and accessibility, in a real browser: axe-core finds no serious
or critical violation on any screen of a match (the name form, the table, a card that
cannot be played, the rules, the match's end); nothing scrolls sideways at 320 px, with a
50-character table name, a 24-character player name (the longest a table takes) and a
right-to-left name; the hand, the total and the log have the semantics screen readers rely
on; names and chat are text, never markup."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from phone_helpers import Phone, phone_context, play_until, wait_for_hand
from web_helpers import PASSWORD, WebHost, web_host

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LONG_TABLE = "The Saturday night table at the end of the hallway"  # 50 characters
LONG_NAME = "W" * 24
RTL_NAME = "سارة المهندسة"


@pytest.fixture
def host(tmp_path: Path) -> Iterator[WebHost]:
    assert len(LONG_TABLE) == 50
    with web_host(tmp_path, "--name", LONG_TABLE, seats=3, seed=4) as table:
        yield table


def violations(phone: Phone, screen: str) -> list[str]:
    return [f"{screen}: {v['id']} ({v['impact']}): {v['help']}" for v in phone.axe()]


def test_every_screen_passes_axe_and_fits_320_px(browser: Any, host: WebHost) -> None:
    found: list[str] = []
    with phone_context(browser, width=320, height=640) as (first, outside), \
            phone_context(browser, width=320, height=640) as (second, _):
        ana, bea = Phone(first.new_page()), Phone(second.new_page())
        ana.page.goto(host.base)
        ana.page.fill("#password", PASSWORD)
        ana.page.click("button[type=submit]")
        ana.page.wait_for_selector("#name", state="visible")
        found += violations(ana, "name form")
        ana.page.fill("#name", LONG_NAME)
        ana.page.tap("#join button[type=submit]")
        bea.open(host.base, RTL_NAME)
        wait_for_hand(ana)
        wait_for_hand(bea)
        for phone in (ana, bea):
            assert phone.no_horizontal_scroll(), phone.page.evaluate(
                "() => [document.documentElement.scrollWidth, innerWidth]")
            found += violations(phone, "table")
        # The semantics: one group "Your hand" of buttons, a total named "Total …", one log.
        hand = ana.page.get_by_role("group", name="Your hand")
        assert hand.get_by_role("button").count() == 4
        assert ana.page.get_by_role("group", name="Total").count() == 1
        assert ana.page.locator("[role=log][aria-live]").count() == 1
        names = hand.get_by_role("button").evaluate_all(
            "nodes => nodes.map(n => n.getAttribute('aria-label'))")
        assert all(":" in name for name in names), names
        # A card that cannot be played says why when tapped.
        idle = ana if not ana.visible('#hand button.card[aria-disabled="false"]') else bea
        idle.page.tap("#hand button.card >> nth=0", force=True)  # aria-disabled: still tappable
        assert idle.page.text_content("#why")
        found += violations(idle, "a card refused")
        ana.page.tap("#rules-open")
        found += violations(ana, "rules")
        ana.page.tap("#rules-close")
        # Names and chat are text: a line of markup shows as itself.
        ana.page.fill("#say", "<b>bold</b><img src=x onerror=alert(1)>")
        ana.page.tap("#chat button[type=submit]")
        bea.page.wait_for_function(
            "() => [...document.querySelectorAll('#log .line')].some(n => n.textContent.includes('<b>bold</b>'))")
        assert bea.page.locator("#log b, #log img").count() == 0
        assert RTL_NAME in bea.page.inner_text("#seats")
        play_until([ana, bea], lambda: ana.match_over() and bea.match_over())
        for phone in (ana, bea):
            assert phone.no_horizontal_scroll()
            found += violations(phone, "match over")
        for phone in (ana, bea):
            phone.page.set_viewport_size({"width": 844, "height": 390})  # landscape
            assert phone.no_horizontal_scroll()
            found += violations(phone, "landscape")
    assert found == []
    assert outside.urls == []
