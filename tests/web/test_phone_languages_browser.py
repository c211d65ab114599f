"""The phone page in each language in Chromium: a phone whose browser speaks Urdu or Pashto
gets the page in its language and mirrored (`dir="rtl"`), one speaking Belarusian, Bengali
or Kannada gets its words left to right; the hand still comes, its group named in the
language."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from phone_helpers import Phone, wait_for_hand
from web_helpers import PASSWORD, WebHost, web_host

from ono99tui import i18n

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TABLE = json.loads((Path(i18n.__file__).parent / "web" / "static" / "phone" / "messages.json")
                   .read_text(encoding="utf-8"))
LOCALES = {"be": "be-BY", "bn": "bn-BD", "kn": "kn-IN", "ur": "ur-PK", "ps": "ps-AF"}


@pytest.fixture
def host(tmp_path: Path) -> Iterator[WebHost]:
    with web_host(tmp_path, seed=4) as table:
        yield table


@pytest.mark.parametrize("language", list(LOCALES))
def test_the_page_speaks_the_phone_language(browser: Any, host: WebHost, language: str) -> None:
    catalog = i18n.translator(language)
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True,
                                  is_mobile=True, locale=LOCALES[language])
    try:
        phone = Phone(context.new_page())
        phone.page.goto(host.base)
        if phone.page.is_visible("#password"):
            phone.page.fill("#password", PASSWORD)
            phone.page.click("button[type=submit]")
        phone.page.wait_for_selector("#name", state="visible")
        root = phone.page.evaluate("() => [document.documentElement.lang, document.documentElement.dir]")
        assert root == [language, "rtl" if language in ("ur", "ps") else "ltr"]
        button = phone.page.text_content("#join button[type=submit]") or ""
        assert button.strip() == catalog.gettext(TABLE["join.button"]) != TABLE["join.button"]
        phone.page.fill("#name", "tess")
        phone.page.tap("#join button[type=submit]")
        wait_for_hand(phone)
        hand_name = catalog.gettext("Your hand")
        assert phone.page.get_by_role("group", name=hand_name).count() == 1
        # The table's sentences (made by the door's seat for this phone) in the language too.
        log = phone.page.locator("[role=log]").first
        dealt = catalog.gettext("Round {round} is dealt; {name} starts.").split("{")[0]
        phone.page.wait_for_function(
            "([selector, text]) => document.querySelector(selector).textContent.includes(text)",
            arg=["[role=log]", dealt.strip() or dealt], timeout=20000)
        assert "is dealt" not in (log.text_content() or "")
        assert phone.errors == []
    finally:
        context.close()


# Each number card's face, the total and the last card as laid out: a face's direction, and
# where the minus of "-10" lands (the text's first character drawn leftmost or not).
LAID_OUT = """() => {
  const faces = [...document.querySelectorAll('#hand .label')].filter(
    (n) => /^-?[0-9]+$/.test(n.textContent)).map((n) => getComputedStyle(n).direction);
  const probe = document.createElement('span');
  probe.className = 'label';
  probe.textContent = '-10';
  const face = document.querySelector('#hand .label');
  face.after(probe);
  if (face.hasAttribute('dir')) probe.setAttribute('dir', face.getAttribute('dir'));
  const range = document.createRange();
  range.setStart(probe.firstChild, 0); range.setEnd(probe.firstChild, 1);
  const minus = range.getBoundingClientRect().left;
  range.setStart(probe.firstChild, 1); range.setEnd(probe.firstChild, 3);
  const digits = range.getBoundingClientRect().left;
  probe.remove();
  return {faces, total: getComputedStyle(document.getElementById('total-value')).direction,
          minusFirst: minus < digits,
          last: document.getElementById('total-last').textContent};
}"""


def test_numbers_read_left_to_right_on_a_right_to_left_page(browser: Any, host: WebHost) -> None:
    """In Urdu the page is mirrored, but a card's "-10" is not "10-", nor the total "-7"
    "7-": each number keeps its own direction."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True,
                                  is_mobile=True, locale="ur-PK")
    try:
        phone = Phone(context.new_page())
        phone.open(host.base, "tess")
        wait_for_hand(phone)
        assert phone.page.evaluate("() => document.documentElement.dir") == "rtl"
        laid = phone.page.evaluate(LAID_OUT)
        assert laid["faces"] and set(laid["faces"]) == {"ltr"}
        assert laid["total"] == "ltr"
        assert laid["minusFirst"]
        if laid["last"] and any(c.isdigit() for c in laid["last"]):
            assert "\u2068" in laid["last"] and "\u2069" in laid["last"]
        assert phone.errors == []
    finally:
        context.close()
