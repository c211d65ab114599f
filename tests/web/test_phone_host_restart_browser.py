"""In Chromium at a phone's viewport: the host is killed mid-match and started again (its
journal takes the match up). Played by hand, the phone said "Connection lost:
reconnecting…" for good: its login lived in the door's memory, so the new door refused
its socket, and the page never asked why. Now the logins are kept in the players' folder
for the same password, and a page whose socket is refused asks the door whether it is
still logged in and its seat still known, and loads itself again if not (the password
page, then the same seat)."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from phone_helpers import Phone, phone_context, wait_for_hand
from testkit.headless import HeadlessHost
from testkit.ports import free_port
from web_helpers import PASSWORD, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.slow]


class RestartingHost:
    """A headless host on fixed ports with its own config and data folders, which can be
    killed and started again on the same ones (its journal resumes the match)."""

    def __init__(self, folder: Path) -> None:
        self.ports = (free_port(), free_port())
        self.folder = folder
        self.host: HeadlessHost | None = None

    def start(self, password: str) -> str:
        table, door = self.ports
        self.host = HeadlessHost(
            "--port", str(table), "--web-port", str(door), "--no-advertise", "--seats", "2",
            "--bots", "1", "--bot-delay", "0.3", "--turn-time", "off",
            env={"ONO99_CONFIG_DIR": str(self.folder / "config"),
                 "ONO99_DATA_DIR": str(self.folder / "data"), "ONO99_WEB_PASSWORD": password})
        self.host.wait_for_event("web-door")
        return f"http://127.0.0.1:{door}/"

    def kill(self) -> None:
        assert self.host is not None
        os.kill(self.host.process.pid, signal.SIGKILL)  # no goodbye: a host killed by mistake
        self.host.process.wait()

    def stop(self) -> None:
        if self.host is not None:
            self.host.stop()


@pytest.fixture
def restarting(tmp_path: Path) -> Iterator[RestartingHost]:
    host = RestartingHost(tmp_path)
    try:
        yield host
    finally:
        host.stop()


def test_the_phone_comes_back_with_its_host(browser: Any, restarting: RestartingHost) -> None:
    with phone_context(browser) as (context, outside):
        phone = Phone(context.new_page())
        base = restarting.start(PASSWORD)
        phone.open(base, "Pia")
        hand = wait_for_hand(phone, 60)
        restarting.kill()
        phone.page.wait_for_function(
            "() => document.getElementById('conn').textContent.length > 0")

        # The same password: the page comes back to its seat by itself.
        restarting.start(PASSWORD)
        wait_until(lambda: phone.visible("#hand") and not phone.page.text_content("#conn"),
                   60, "the page back at the table")
        assert phone.hand() == hand  # the match taken up (Pia has not played), the same seat
        assert "Pia" in (phone.page.text_content("#game") or "")
        assert not phone.visible("#join")  # never asked for a name again

        # A new password: the page asks for it, then takes the same seat up again.
        restarting.kill()
        restarting.start("a new one")
        phone.page.wait_for_selector("#password", state="visible", timeout=60_000)
        phone.page.fill("#password", "a new one")
        phone.page.click("button[type=submit]")
        wait_until(lambda: phone.visible("#hand") and not phone.page.text_content("#conn"),
                   60, "the page back at the table after the password")
        assert not phone.visible("#join")
        assert not phone.errors and not outside.urls
