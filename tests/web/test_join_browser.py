"""Joining in one step, as a person would, with a real headless host and Chromium: the
"web-join" event's address is what the printable page's QR code reads back as; opening it
on a phone seats a player with no password typed; SIGUSR1 replaces the code, after which
the old address gets the clear page and the new one works."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from phone_helpers import Phone, phone_context, wait_for_hand
from testkit.qr_reading import decode_gray
from web_helpers import WebHost, wait_until, web_host

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Draws the page's SVG onto a white canvas and hands back its gray levels, as a camera
# would see the printed page (evaluated over the devtools protocol: the page's CSP allows
# no inline script).
RASTERIZE = """async (size) => {
  const svg = document.querySelector('.qr svg');
  const image = new Image();
  image.src = 'data:image/svg+xml;base64,' + btoa(new XMLSerializer().serializeToString(svg));
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = size; canvas.height = size;
  const context = canvas.getContext('2d');
  context.fillStyle = '#fff'; context.fillRect(0, 0, size, size);
  context.drawImage(image, 0, 0, size, size);
  const rgba = context.getImageData(0, 0, size, size).data;
  const gray = [];
  for (let i = 0; i < rgba.length; i += 4) gray.push(rgba[i]);
  return gray;
}"""


@pytest.fixture
def host(tmp_path: Path) -> Iterator[WebHost]:
    with web_host(tmp_path) as table:
        yield table


def next_join_event(host: WebHost) -> dict[str, Any]:
    host.events.pop("web-join", None)
    return host.wait_for_event("web-join")


def read_printed_code(browser: Any, qr_page: str) -> str | None:
    context = browser.new_context(viewport={"width": 800, "height": 1000})
    try:
        page = context.new_page()
        page.goto(qr_page)
        size = 400
        gray = page.evaluate(RASTERIZE, size)
        return decode_gray(bytes(gray), size, size)
    finally:
        context.close()


def test_a_phone_joins_by_the_qr_code_and_a_replaced_code_stops_working(
        browser: Any, host: WebHost) -> None:
    port = host.wait_for_event("web-door")["port"]
    joined = host.wait_for_event("web-join")
    url = joined["url"]
    assert url.startswith(f"http://127.0.0.1:{port}/j/") and joined["code"] is True
    assert joined["qr_page"] == f"http://127.0.0.1:{port}/qr"
    assert read_printed_code(browser, joined["qr_page"]) == url

    with phone_context(browser) as (context, outside):
        ana = Phone(context.new_page())
        ana.open(url, "ana", password=None)  # no password form on the way
        wait_for_hand(ana)  # seated and dealt: the bot makes the second seat
        assert not ana.errors and not outside.urls

    host.process.send_signal(signal.SIGUSR1)
    replaced = next_join_event(host)
    assert replaced["url"] != url and replaced["url"].startswith(f"http://127.0.0.1:{port}/j/")
    assert read_printed_code(browser, joined["qr_page"]) == replaced["url"]

    with phone_context(browser) as (context, _):
        page = context.new_page()
        page.goto(url)
        wait_until(lambda: page.is_visible("[role=alert]"), 30, "the refusal page")
        assert "has been replaced" in (page.text_content("[role=alert]") or "")
        page.click("text=Type the password instead")
        page.wait_for_selector("#password", state="visible")
        bea = Phone(context.new_page())
        bea.open(replaced["url"], "bea", password=None)
        wait_until(lambda: bea.page.is_visible("#name") is False, 30, "bea seated")
