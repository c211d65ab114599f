"""The phone page's language menu in Chromium: a phone whose browser speaks English sits
down, then picks Bengali from the menu and Urdu after it. Each time the page's own words
change at once, the door is told (its log is told again in the language, and what it says
next comes in it), Urdu mirrors the page (`dir="rtl"`), and the choice is kept on the phone
(localStorage): a reload comes back in Urdu, with the log in Urdu.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from phone_helpers import Phone, wait_for_hand
from web_helpers import WebHost, web_host

from ono99tui import i18n

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TABLE = json.loads((Path(i18n.__file__).parent / "web" / "static" / "phone" / "messages.json")
                   .read_text(encoding="utf-8"))
DEALT = "Round {round} is dealt; {name} starts."


@pytest.fixture
def host(tmp_path: Path) -> Iterator[WebHost]:
    with web_host(tmp_path, seed=4) as table:
        yield table


def said(language: str, message: str) -> str:
    return i18n.translator(language).gettext(message)


def wait_for_log(phone: Phone, text: str) -> None:
    phone.page.wait_for_function(
        "(text) => document.querySelector('[role=log]').textContent.includes(text)",
        arg=text, timeout=20000)


def page_words(phone: Phone) -> dict[str, Any]:
    return dict(phone.page.evaluate("""() => ({
        lang: document.documentElement.lang, dir: document.documentElement.dir,
        rules: document.getElementById("rules-open").textContent,
        log: document.getElementById("log-title").textContent,
        menu: document.getElementById("lang").value,
        label: document.getElementById("lang").getAttribute("aria-label"),
        kept: localStorage.getItem("ono99.lang"),
    })"""))


def test_the_menu_switches_the_page_and_the_door_and_is_kept(browser: Any,
                                                              host: WebHost) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True,
                                  is_mobile=True, locale="en-US")
    try:
        phone = Phone(context.new_page())
        phone.open(host.base, "tess")
        wait_for_hand(phone)
        english = page_words(phone)
        assert english["lang"] == "en" and english["dir"] == "ltr"
        assert english["rules"] == TABLE["rules.button"] and english["kept"] is None
        wait_for_log(phone, DEALT.split("{")[0])
        # The menu lists every language by its own name.
        names = phone.page.eval_on_selector_all("#lang option", "nodes => nodes.map(n => n.text)")
        assert names == list(i18n.LANGUAGES.values())

        for language, direction in (("bn", "ltr"), ("ur", "rtl")):
            phone.page.select_option("#lang", language)
            dealt = said(language, DEALT).split("{")[0].strip()
            assert dealt and dealt != DEALT.split("{")[0].strip()
            wait_for_log(phone, dealt)  # the door told its log again, in the language
            words = page_words(phone)
            assert words == {
                "lang": language, "dir": direction,
                "rules": said(language, TABLE["rules.button"]),
                "log": said(language, TABLE["log.title"]), "menu": language,
                "label": said(language, TABLE["lang.label"]), "kept": language}
            assert words["rules"] != TABLE["rules.button"]
            log = phone.page.text_content("[role=log]") or ""
            assert "is dealt" not in log
            if language == "ur":  # told again whole: no Bengali line is left either
                assert said("bn", DEALT).split("{")[0].strip() not in log
            assert {"t": "lang", "code": language} in [json.loads(frame) for frame in phone.sent
                                                       if isinstance(frame, str)]
        # The hand's cards are named in the language too (their group, by the door's words).
        assert phone.page.get_by_role("group", name=said("ur", "Your hand")).count() == 1

        # Kept on this phone: a reload comes back in Urdu, mirrored, its log in Urdu.
        phone.page.reload()
        wait_for_hand(phone)
        again = page_words(phone)
        assert (again["lang"], again["dir"], again["menu"]) == ("ur", "rtl", "ur")
        wait_for_log(phone, said("ur", DEALT).split("{")[0].strip())
        assert "is dealt" not in (phone.page.text_content("[role=log]") or "")
        assert phone.errors == []
    finally:
        context.close()
