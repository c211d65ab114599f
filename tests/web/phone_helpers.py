"""Helpers for the phone page's browser tests: a phone-sized browser context, a phone that
plays by tapping whatever the page offers, and what the page shows read off its DOM."""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from web_helpers import PASSWORD, OutsideRequests, wait_until

from ono99tui.web.phone.state import apply_state_frame

AXE = Path(__file__).with_name("vendor") / "axe-core" / "axe.min.js"
# What a player would tap now, as a selector (None: nothing is offered).
OFFERED = """() => {
  const shown = (node) => node && !node.closest("[hidden]");
  if (shown(document.getElementById("results-continue"))) return "#results-continue";
  const card = document.querySelector('#hand button.card[aria-disabled="false"]');
  if (shown(card)) return `#hand button.card[data-i="${card.dataset.i}"]`;
  for (const id of ["swap", "draw"]) if (shown(document.getElementById(id))) return `#${id}`;
  return null;
}"""
# A phone held upright: 390×844 CSS px at three device pixels per CSS pixel, touch.
PHONE = {"width": 390, "height": 844}


@contextmanager
def phone_context(browser: Any, width: int = PHONE["width"], height: int = PHONE["height"],
                  ) -> Iterator[tuple[Any, OutsideRequests]]:
    """A fresh phone-like browser context whose non-loopback requests are aborted and
    counted."""
    outside = OutsideRequests()
    context = browser.new_context(viewport={"width": width, "height": height},
                                  device_scale_factor=3, has_touch=True, is_mobile=True)
    context.route("**/*", outside.route)
    try:
        yield context, outside
    finally:
        context.close()


class Phone:
    """One phone page at the door: sit down, read what it shows, tap."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.frames: list[dict[str, Any]] = []  # every frame the door sent this page
        self.errors: list[str] = []
        self.sent: list[Any] = []  # every frame this page sent the door
        self.taps = 0
        page.on("websocket", self._watch)
        page.on("pageerror", lambda error: self.errors.append(str(error)))

    def _watch(self, websocket: Any) -> None:
        def received(payload: Any) -> None:
            if isinstance(payload, str):
                self.frames.append(json.loads(payload))
        websocket.on("framereceived", received)
        websocket.on("framesent", lambda payload: self.sent.append(payload))

    def open(self, url: str, name: str, *, password: str | None = PASSWORD) -> None:
        """Open the door's address, log in (when asked) and sit down as `name`."""
        self.page.goto(url)
        if password is not None and self.page.is_visible("#password"):
            self.page.fill("#password", password)
            self.page.click("button[type=submit]")
        self.page.wait_for_selector("#name", state="visible")
        self.page.fill("#name", name)
        self.page.tap("#join button[type=submit]")

    def states(self) -> list[dict[str, Any]]:
        """The page's state after each state frame it was sent, put together from the
        frames as the page script does (`apply_state_frame`: a frame holds the parts a
        page takes whole and the changes inside the parts it has)."""
        page: dict[str, Any] = {}
        states = []
        for frame in self.frames:
            if frame.get("t") == "state":
                apply_state_frame(page, copy.deepcopy(frame))
                states.append(copy.deepcopy(page))
        return states

    def hand(self) -> list[str]:
        """The cards in the hand, by token, as the page shows them."""
        return list(self.page.eval_on_selector_all(
            "#hand button.card", "nodes => nodes.map(n => n.dataset.tok)"))

    def total(self) -> str:
        return str(self.page.text_content("#total-value") or "")

    def log_lines(self) -> list[str]:
        return list(self.page.eval_on_selector_all("#log .line", "ns => ns.map(n => n.textContent)"))

    def visible(self, selector: str) -> bool:
        return bool(self.page.is_visible(selector))

    def match_over(self) -> bool:
        return self.visible("#rematch") or self.visible("#rematch-asked")

    def step(self) -> None:
        """Tap at most one thing the page offers now, as a player would: a round's
        "Continue", a card that can be played, the swap, the late draw."""
        target = self.page.evaluate(OFFERED)
        if target is None:
            return
        try:
            self.page.tap(target, timeout=2000)
        except PlaywrightTimeout:
            return  # redrawn meanwhile: look again
        if target.startswith("#hand") or target == "#swap":
            self.taps += 1

    def axe(self) -> list[dict[str, Any]]:
        """axe-core's serious and critical violations on the page as it is now."""
        if not self.page.evaluate("() => Boolean(window.axe)"):
            # Evaluated over the devtools protocol: the page's CSP allows no inline script.
            self.page.evaluate(AXE.read_text(encoding="utf-8"))
        result = self.page.evaluate("async () => (await axe.run(document)).violations")
        return [v for v in result if v.get("impact") in ("serious", "critical")]

    def no_horizontal_scroll(self) -> bool:
        return bool(self.page.evaluate(
            "() => document.documentElement.scrollWidth <= window.innerWidth"))


def play_until(phones: list[Phone], done: Callable[[], bool], timeout: float = 400.0,
               also: Callable[[], None] | None = None) -> None:
    """Let every phone tap what it is offered until `done()`."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            texts = "\n\n".join(phone.page.inner_text("main")[:1500] for phone in phones)
            raise AssertionError(f"not done within {timeout}s; pages:\n{texts}")
        for phone in phones:
            phone.step()
        if also is not None:
            also()
        time.sleep(0.05)


def wait_for_hand(phone: Phone, timeout: float = 30.0) -> list[str]:
    return list(wait_until(phone.hand, timeout, "a hand on the page"))
