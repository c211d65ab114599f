"""In Chromium at a phone's viewport: the host's options set on the host's phone show on
the other phone; and the turn's alerts (vibration, the WebAudio beep, the tab's title, the
Notification while the page is hidden, asked for once with a reason) fire on the turn and
not otherwise, the sound toggle kept across a reload. The browser's vibrate, AudioContext
and Notification are stubbed by an init script that counts what the page asks of them."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from phone_helpers import Phone, phone_context, wait_for_hand
from web_helpers import WebHost, wait_until, web_host

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHILD = Path(__file__).with_name("open_table_child.py")
# The host's two number fields that only some scorings use, and their labels.
OPTION_FIELDS = ("#opt-target", "#opt-tokens", "label[for=opt-target]", "label[for=opt-tokens]")

# What the page may ask of the browser for a turn, counted in window.__alerts.
ALERT_STUBS = """
(() => {
  const alerts = window.__alerts = { vibrate: [], contexts: 0, tones: 0, notes: [], asked: 0 };
  Object.defineProperty(Navigator.prototype, "vibrate", {
    configurable: true, value(pattern) { alerts.vibrate.push(pattern); return true; } });
  class FakeAudio {
    constructor() { alerts.contexts += 1; this.currentTime = 0; this.destination = {}; }
    createOscillator() {
      return { frequency: { value: 0 }, connect(node) { return node; },
               start() { alerts.tones += 1; }, stop() {} };
    }
    createGain() {
      return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} },
               connect(node) { return node; } };
    }
  }
  window.AudioContext = FakeAudio;
  window.webkitAudioContext = FakeAudio;
  let permission = "default";
  class FakeNotification {
    constructor(title, options) { alerts.notes.push({ title, ...(options || {}) }); }
    static get permission() { return permission; }
    static requestPermission() {
      alerts.asked += 1; permission = "granted"; return Promise.resolve(permission);
    }
  }
  window.Notification = FakeNotification;
  // A hidden page (a locked phone, another tab) as the test says.
  Object.defineProperty(Document.prototype, "hidden", {
    configurable: true, get() { return Boolean(window.__hidden); } });
})();
"""


@pytest.fixture
def open_table(tmp_path: Path) -> Iterator[str]:
    """A table with no secret (its first person seated hosts) and its door: the base URL."""
    child = subprocess.Popen([sys.executable, str(CHILD), str(tmp_path / "players"), "4", "1"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        port = json.loads(child.stdout.readline())["web_port"]
        yield f"http://127.0.0.1:{port}/"
    finally:
        assert child.stdin is not None
        child.stdin.close()
        child.wait(20)


def test_options_set_on_the_hosts_phone_show_on_the_other(browser: Any,
                                                         open_table: str) -> None:
    with phone_context(browser) as (first, outside), phone_context(browser) as (second, _):
        ana, bea = Phone(first.new_page()), Phone(second.new_page())
        ana.open(open_table, "ana", password=None)
        ana.page.wait_for_selector("#host-options", state="visible")
        # The table has its bot (open_table_child seats one): with only the host and a bot
        # Deal now deals; the bot removed, the host alone is told Deal now cannot.
        ana.page.wait_for_function(
            "() => document.getElementById('room-when').textContent"
            " === 'Deal now starts the game for everyone here (2).'")
        assert ana.page.get_attribute("#start", "aria-disabled") == "false"
        ana.page.locator("#bots button").first.tap()
        ana.page.wait_for_function(
            "() => document.getElementById('room-when').textContent.startsWith("
            "'Waiting for someone to play against')")
        assert ana.page.get_attribute("#start", "aria-disabled") == "true"
        bea.open(open_table, "bea", password=None)
        bea.page.wait_for_selector("#room-options", state="visible")
        ana.page.wait_for_function(
            "() => document.getElementById('room-when').textContent"
            " === 'Deal now starts the game for everyone here (2).'")
        assert ana.page.get_attribute("#start", "aria-disabled") == "false"
        assert bea.page.text_content("#room-when") == "Waiting for the host to deal."
        assert not bea.visible("#host-options")  # only the host's phone has them
        # The host deals and is never "waiting" for a ready (the terminal's room says host).
        seats = bea.page.inner_text("#room-seats").splitlines()
        assert seats[seats.index("ana") + 1] == "host", seats
        assert "No turn clock" in (bea.page.text_content("#room-options") or "")

        ana.page.fill("#opt-turn", "25")
        ana.page.press("#opt-turn", "Tab")  # done typing: the field's change goes out
        bea.page.wait_for_function(
            "() => document.getElementById('room-options').textContent"
            ".includes('25 seconds for each move')")
        # A single round (2022's) has neither a target nor tokens: neither field shows.
        assert ana.page.input_value("#opt-scoring") == "single"
        assert not any(ana.visible(field) for field in OPTION_FIELDS)
        ana.page.select_option("#opt-scoring", "points-lowest")
        bea.page.wait_for_function(
            "() => document.getElementById('room-options').textContent"
            ".includes('Scoring: points, lowest wins')")
        ana.page.wait_for_selector("#opt-target", state="visible")
        assert ana.visible("label[for=opt-target]") and not ana.visible("#opt-tokens")
        assert not ana.visible("label[for=opt-tokens]")
        ana.page.uncheck("#spectator-chat")
        bea.page.wait_for_function(
            "() => document.getElementById('room-options').textContent"
            ".includes('Spectators may not chat')")
        # The host's own controls follow the table too.
        assert ana.page.input_value("#opt-turn") == "25"
        assert ana.page.input_value("#opt-scoring") == "points-lowest"
        ana.page.select_option("#opt-scoring", "tokens")  # then only the tokens
        ana.page.wait_for_selector("#opt-tokens", state="visible")
        assert ana.visible("label[for=opt-tokens]") and not ana.visible("#opt-target")
        assert not ana.visible("label[for=opt-target]")
        # A rule switch, and the bot level of the bot added.
        switch = ana.page.locator("#opt-switches input[type=checkbox]").first
        was = switch.is_checked()
        switch.click()
        ana.page.wait_for_function(
            f"() => document.querySelector('#opt-switches input').checked === {json.dumps(not was)}")
        ana.page.select_option("#bot-level", "hard")
        ana.page.tap("#add-bot")
        bea.page.wait_for_function(
            "() => [...document.querySelectorAll('#room-seats .who')]"
            ".some((n) => n.textContent.startsWith('Hard bot'))")
        assert not ana.errors and not bea.errors
        assert not outside.urls


@pytest.fixture
def headless(tmp_path: Path) -> Iterator[WebHost]:
    with web_host(tmp_path, bot_delay=0.3) as table:
        yield table


def alerts(phone: Phone) -> dict[str, Any]:
    return dict(phone.page.evaluate("() => window.__alerts"))


def rings(phone: Phone) -> int:
    return sum(1 for frame in phone.frames if frame["t"] == "turn" and frame["ring"])


def wait_for_my_turn(phone: Phone, alerted: int) -> None:
    """Until the page has vibrated more than `alerted` times (its turn came)."""
    phone.page.wait_for_function(f"() => window.__alerts.vibrate.length > {alerted}",
                                 timeout=60_000)


def play_a_card(phone: Phone) -> None:
    """Tap a card the page offers (or the swap, the late draw) until the turn has gone."""
    for _ in range(200):
        if "your turn" not in phone.page.title():
            return
        phone.step()
        phone.page.wait_for_timeout(50)
    raise AssertionError("the turn did not pass")


def test_the_turns_alerts_fire_on_the_turn_only(browser: Any, headless: WebHost) -> None:
    with phone_context(browser) as (context, outside):
        context.add_init_script(ALERT_STUBS)
        ana = Phone(context.new_page())
        ana.open(headless.base, "ana")
        # Asked for once, with the reason in a banner.
        ana.page.wait_for_selector("#notify-ask", state="visible")
        assert "your turn" in (ana.page.text_content("#notify-ask") or "").lower()
        ana.page.tap("#notify-allow")
        assert not ana.visible("#notify-ask") and alerts(ana)["asked"] == 1
        wait_for_hand(ana)

        # The turn: a vibration, a beep, the title; no Notification while shown.
        wait_for_my_turn(ana, 0)
        assert ana.page.title() == "ONO 99: your turn!"
        seen = alerts(ana)
        assert seen["vibrate"] == [[120, 60, 120]] and seen["tones"] == 1
        assert seen["notes"] == []
        play_a_card(ana)
        # While the bot plays: nothing (the door's turn frames without a ring change only
        # the title).
        assert ana.page.title() != "ONO 99: your turn!"
        assert len(alerts(ana)["vibrate"]) == rings(ana) == 1

        # Hidden (a locked phone): the next turn also shows a Notification.
        ana.page.evaluate("() => { window.__hidden = true; }")
        wait_for_my_turn(ana, 1)
        seen = alerts(ana)
        assert [note["tag"] for note in seen["notes"]] == ["ono99-turn"]
        assert seen["notes"][0]["body"] == "Your turn: tap a card."
        ana.page.evaluate("() => { window.__hidden = false; }")
        play_a_card(ana)

        # Sound off: the next turn vibrates and sets the title, without a beep.
        ana.page.tap("#sound")
        assert ana.page.text_content("#sound") == "Sound off"
        tones = alerts(ana)["tones"]
        wait_for_my_turn(ana, 2)
        seen = alerts(ana)
        assert seen["tones"] == tones and len(seen["vibrate"]) == 3
        assert len(seen["notes"]) == 1  # shown: no Notification
        assert len(seen["vibrate"]) == rings(ana)  # one alert per ring, none without
        play_a_card(ana)

        # A reload keeps the sound off and does not ask for notifications again.
        ana.page.reload()
        ana.page.wait_for_selector("#hand button.card")
        assert ana.page.text_content("#sound") == "Sound off"
        assert not ana.visible("#notify-ask")
        assert ana.page.evaluate("() => localStorage.getItem('ono99.sound')") == "off"
        ana.page.tap("#sound")  # on again: a beep says so (the tap allows sound)
        assert ana.page.text_content("#sound") == "Sound on"
        assert alerts(ana)["tones"] == 1
        assert not ana.errors and not outside.urls


def test_a_notice_goes_after_its_time_and_when_the_match_is_dealt(browser: Any,
                                                                  open_table: str) -> None:
    """"The host changed the rules: look them over" stood on the other phone through the
    whole match it was about. It goes after its time (8 s, as the terminal's toast does),
    and at once when the screen changes under it. Bea's page clock is Playwright's, held
    still: its timers fire only as the test moves it on."""
    with phone_context(browser) as (first, _), phone_context(browser) as (second, _):
        ana, bea = Phone(first.new_page()), Phone(second.new_page())
        bea.page.clock.install()
        ana.open(open_table, "ana", password=None)
        ana.page.wait_for_selector("#host-options", state="visible")
        bea.open(open_table, "bea", password=None)
        bea.page.wait_for_selector("#room-options", state="visible")
        notice = "() => document.getElementById('notice').textContent"

        def changed() -> bool:  # polled from here: the page's own timers are held still
            return "changed the rules" in bea.page.evaluate(notice)

        def ready() -> None:
            bea.page.tap("#ready")  # the notice is for a ready mark the rules took back
            ana.page.wait_for_function("() => [...document.querySelectorAll('#room-seats li')]"
                                       ".some((n) => /bea.*ready/s.test(n.textContent))")

        # A datetime: a bare number would be read as seconds, and the page's clock would
        # jump decades ahead (its connection given up as silent).
        now = bea.page.evaluate("() => Date.now()") / 1000
        bea.page.clock.pause_at(datetime.fromtimestamp(now + 1))
        ready()
        ana.page.select_option("#opt-scoring", "points-lowest")
        wait_until(changed, 30, "the rules' notice")
        bea.page.clock.run_for(7_000)
        assert "changed the rules" in bea.page.evaluate(notice)
        bea.page.clock.run_for(1_500)
        assert bea.page.evaluate(notice) == ""

        ready()
        ana.page.select_option("#opt-scoring", "tokens")
        wait_until(changed, 30, "the rules' notice")
        ana.page.tap("#start")
        wait_for_hand(bea)
        assert bea.page.evaluate(notice) == ""
        assert not ana.errors and not bea.errors
