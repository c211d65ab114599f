"""The phone page's websocket with a real aiohttp client and a real headless host: the
door's Origin, login and seat checks cover it (403 at the handshake), and a page's bad or
untimely request is answered with a typed error on that socket only, changing nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from web_helpers import PASSWORD, WebHost

from ono99tui.web.phone.state import apply_state_frame

pytestmark = pytest.mark.slow


@pytest.fixture
def host(tmp_path: Path) -> Iterator[WebHost]:
    table = WebHost("--seats", "2", "--bots", "1", "--bot-delay", "0.05", "--turn-time", "off",
                    env={"ONO99_CONFIG_DIR": str(tmp_path / "host-config"),
                         "ONO99_WEB_PASSWORD": PASSWORD})
    table.wait_for_event("web-door")
    try:
        yield table
    finally:
        table.stop()


async def logged_in(base: str) -> aiohttp.ClientSession:
    client = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    async with client.post(f"{base}/login", data={"password": PASSWORD},
                           headers={"Origin": base}, allow_redirects=False) as response:
        assert response.status == 303
    return client


async def frame(socket: aiohttp.ClientWebSocketResponse, kind: str) -> dict[str, Any]:
    """The next frame of `kind` (others skipped)."""
    while True:
        message = await socket.receive(timeout=20)
        assert message.type == aiohttp.WSMsgType.TEXT, message
        data = json.loads(message.data)
        if data["t"] == kind:
            return dict(data)


async def test_the_phone_socket_is_checked_and_answers_bad_requests(host: WebHost) -> None:
    base = host.base.rstrip("/")
    client = await logged_in(base)
    stranger = aiohttp.ClientSession()
    try:
        async with client.post(f"{base}/seat", json={"name": "ana"},
                               headers={"Origin": base}) as response:
            seat = (await response.json())["seat"]
        url = f"{base}/phone/ws/{seat}"
        for session, headers in ((client, {"Origin": "http://evil.example"}), (client, {}),
                                 (stranger, {"Origin": base})):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await session.ws_connect(url, headers=headers)
            assert refused.value.status == 403
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await client.ws_connect(f"{base}/phone/ws/{'x' * 43}", headers={"Origin": base})

        async with client.ws_connect(url, headers={"Origin": base}) as socket:
            page: dict[str, Any] = {}
            while not page.get("game"):  # until the deal: ana and the bot make the two seats
                apply_state_frame(page, await frame(socket, "state"))
            for bad, code in (("nonsense", "malformed"), ('{"t": "fly"}', "unknown"),
                              ('{"t": "play", "i": 9}', "malformed"),
                              ('{"t": "start"}', "not-host"),
                              ('{"t": "take_seat"}', "not-now"),
                              ('{"t": "hint"}', "not-now")):  # the host allows none
                await socket.send_str(bad)
                error = await frame(socket, "error")
                assert error["code"] == code, (bad, error)
            await socket.send_bytes(b"\x00")
            assert (await frame(socket, "error"))["code"] == "malformed"
            await socket.send_str('{"t": "ping"}')
            await frame(socket, "pong")
    finally:
        await client.close()
        await stranger.close()


async def test_a_hint_where_the_host_allows_them(tmp_path: Path) -> None:
    table = WebHost("--seats", "2", "--bots", "1", "--bot-delay", "0.05", "--turn-time", "off",
                    "--hints", env={"ONO99_CONFIG_DIR": str(tmp_path / "host-config"),
                                    "ONO99_WEB_PASSWORD": PASSWORD})
    base = table.base.rstrip("/")
    client = await logged_in(base)
    try:
        async with client.post(f"{base}/seat", json={"name": "ana"},
                               headers={"Origin": base}) as response:
            seat = (await response.json())["seat"]
        async with client.ws_connect(f"{base}/phone/ws/{seat}", headers={"Origin": base}) as socket:
            page: dict[str, Any] = {}
            while not (page.get("game") or {}).get("mine"):  # until ana's turn
                apply_state_frame(page, await frame(socket, "state"))
            game = page["game"]
            await socket.send_str('{"t": "hint"}')
            hint = await frame(socket, "hint")
            playable = [card["label"] for card in game["hand"] if card["ok"]]
            assert hint["suggested"] in playable
            assert {row[0] for row in hint["rows"]} <= set(playable)
    finally:
        await client.close()
        table.stop()
