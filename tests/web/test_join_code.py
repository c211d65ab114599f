"""The web door's join code over real HTTP on loopback (aiohttp client, fake clock): the
join address logs a browser in with the password's cookie, a wrong or replaced code gets a
clear page, wrong codes are throttled as wrong passwords are (the same `GuessThrottle`),
an open door needs no code, and the printable page is for this machine only. The QR codes
are read back with zxing-cpp."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace

import aiohttp
import ifaddr
from testkit.qr_reading import decode_half_blocks
from web_helpers import PASSWORD

from netproto.limits import GuessPolicy
from ono99tui.web.config import WebDoorConfig
from ono99tui.web.join_code import JoinCode, is_local_peer, join_url, phone_address, qr_rows
from ono99tui.web.server import WebDoor


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@asynccontextmanager
async def running(config: WebDoorConfig, clock: FakeClock | None = None) -> AsyncIterator[WebDoor]:
    door = WebDoor(config, clock=clock or FakeClock())
    await door.start()
    try:
        yield door
    finally:
        await door.close()


@asynccontextmanager
async def browser_from(source: str = "127.0.0.1") -> AsyncIterator[aiohttp.ClientSession]:
    """A client with a cookie jar (for 127.0.0.1) whose connections come from `source`."""
    connector = aiohttp.TCPConnector(local_addr=(source, 0))
    async with aiohttp.ClientSession(connector=connector,
                                     cookie_jar=aiohttp.CookieJar(unsafe=True)) as client:
        yield client


async def visit(client: aiohttp.ClientSession, url: str) -> tuple[int, str]:
    async with client.get(url, allow_redirects=False) as response:
        return response.status, await response.text()


def test_the_drawn_qr_code_reads_back_as_the_join_address() -> None:
    url = join_url("127.0.0.1", 26001, JoinCode().code)
    rows = qr_rows(url)
    assert decode_half_blocks(rows) == url
    assert len(rows) <= 20 and len(rows[0]) <= 40  # fits a modal at 80×24
    # Drawn the other way round (dark blocks) it is not the same code: the light-on-dark
    # drawing is what makes it read.
    inverted = [row.translate(str.maketrans("█ ▀▄", " █▄▀")) for row in rows]
    assert decode_half_blocks(inverted) is None


def test_codes_are_random_url_safe_and_compared_exactly() -> None:
    first, second = JoinCode(), JoinCode()
    assert first.code != second.code and len(first.code) == 12
    assert first.code.replace("-", "").replace("_", "").isalnum()
    old = first.code
    assert first.matches(old) and not first.matches(old[:-1]) and not first.matches(None)
    first.replace()
    assert not first.matches(old) and first.matches(first.code)
    assert not first.matches("x" * 10_000)


def test_the_address_is_an_ip_literal_of_this_machine() -> None:
    lan = ifaddr.Adapter("eth0", "eth0", [ifaddr.IP("192.168.4.7", 24, "eth0")])
    loop = ifaddr.Adapter("lo", "lo", [ifaddr.IP("127.0.0.1", 8, "lo")])
    assert phone_address("0.0.0.0", [loop, lan]) == "192.168.4.7"
    assert phone_address("", [loop, lan]) == "192.168.4.7"
    assert phone_address("10.1.2.3", [loop, lan]) == "10.1.2.3"
    assert phone_address("myhost.local", [loop, lan]) == "192.168.4.7"  # never a name
    assert phone_address("0.0.0.0", [loop]) == "127.0.0.1"


def test_only_this_machine_counts_as_local() -> None:
    assert is_local_peer(("127.0.0.5", 4000), ("127.0.0.1", 80))
    assert is_local_peer(("::1", 4000, 0, 0), ("::1", 80, 0, 0))
    assert is_local_peer(("192.168.4.7", 4000), ("192.168.4.7", 80))  # its own LAN address
    assert not is_local_peer(("192.168.4.9", 4000), ("192.168.4.7", 80))
    assert not is_local_peer(None, ("192.168.4.7", 80))
    assert not is_local_peer(("nonsense", 1), ("192.168.4.7", 80))


async def test_the_join_address_logs_in_without_the_password(door_config: WebDoorConfig) -> None:
    async with running(door_config) as door, browser_from() as phone:
        url = door.join_url()
        assert url == f"http://127.0.0.1:{door.port}/j/{door.join.code}"  # type: ignore[union-attr]
        status, text = await visit(phone, f"http://127.0.0.1:{door.port}/")
        assert status == 200 and 'id="password"' in text  # not in yet
        async with phone.get(url) as response:  # follows the redirect to the phone page
            assert response.status == 200 and response.url.path == "/"
            assert 'id="password"' not in await response.text()
        cookie = next(iter(phone.cookie_jar))
        assert cookie.key == "ono99_login" and cookie["httponly"] and cookie["samesite"] == "Strict"
        base = f"http://127.0.0.1:{door.port}"
        async with phone.post(f"{base}/seat", json={"name": "ana"},
                              headers={"Origin": base}) as response:
            assert response.status == 200  # the login is the password's, good for a seat


async def test_a_wrong_or_replaced_code_gets_a_clear_page(door_config: WebDoorConfig) -> None:
    async with running(door_config) as door, browser_from() as phone:
        old = door.join_url()
        status, text = await visit(phone, f"http://127.0.0.1:{door.port}/j/not-the-code")
        assert status == 403 and "This join code is wrong or has been replaced." in text
        assert "Traceback" not in text and 'href="/"' in text
        new = door.replace_join_code()
        assert new != old
        status, text = await visit(phone, old)
        assert status == 403 and "has been replaced" in text
        assert not list(phone.cookie_jar)  # no login given
        status, _ = await visit(phone, new)
        assert status == 303 and list(phone.cookie_jar)
        # A login given before the code was replaced is kept.
        door.replace_join_code()
        status, text = await visit(phone, f"http://127.0.0.1:{door.port}/")
        assert status == 200 and 'id="password"' not in text


async def test_wrong_codes_are_throttled_as_wrong_passwords(door_config: WebDoorConfig) -> None:
    clock = FakeClock()
    policy = GuessPolicy(free_per_address=2, first_pause=1.0, max_pause=60.0,
                         fresh_per_second=0.0)
    async with running(replace(door_config, guesses=policy), clock) as door, \
            browser_from("127.0.0.2") as guesser:
        base = f"http://127.0.0.1:{door.port}"
        answers = [(await visit(guesser, f"{base}/j/guess{n}"))[0] for n in range(4)]
        assert answers == [403, 403, 429, 429]  # two free, then 1 s to wait
        status, text = await visit(guesser, door.join_url())
        assert status == 429 and "Too many wrong codes" in text  # not even looked at
        # The same back-off as passwords: the wrong codes count against the password too.
        async with guesser.post(f"{base}/login", data={"password": PASSWORD},
                                headers={"Origin": base}, allow_redirects=False) as response:
            assert response.status == 429
        clock.now += 1.0
        assert (await visit(guesser, door.join_url()))[0] == 303
        assert door.guesses.refused >= 3


async def test_an_open_door_needs_no_code(door_config: WebDoorConfig) -> None:
    config = replace(door_config, password=None, open_access=True)
    async with running(config) as door, browser_from() as phone:
        assert door.join is None
        assert door.join_url() == f"http://127.0.0.1:{door.port}/"
        status, _ = await visit(phone, f"http://127.0.0.1:{door.port}/j/anything")
        assert status == 303
        status, text = await visit(phone, f"http://127.0.0.1:{door.port}/qr")
        assert status == 200 and f"http://127.0.0.1:{door.port}/<" in text.replace("\n", "")


async def test_the_printable_page_shows_the_address_and_its_code(
        door_config: WebDoorConfig) -> None:
    async with running(door_config) as door, browser_from("127.0.0.3") as host:
        status, text = await visit(host, f"http://127.0.0.1:{door.port}/qr")
        assert status == 200
        assert door.join_url() in text and "<svg" in text
        door.phone_host = "192.168.4.7"  # what the host's runner names this machine by
        status, text = await visit(host, f"http://127.0.0.1:{door.port}/qr")
        assert f"http://192.168.4.7:{door.port}/j/" in text
