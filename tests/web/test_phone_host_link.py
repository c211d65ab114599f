"""The host's own phone: a headless host prints a `web-host` event with `/host/KEY` (its
operator key), and the browser that opens it is logged in and sits down with host rights —
it may deal and add bots, which another phone may not. A wrong key gets the refusal page
and counts as a wrong guess."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from web_helpers import PASSWORD, web_host

from ono99tui.web.phone.state import apply_state_frame

pytestmark = pytest.mark.slow


async def frame(socket: aiohttp.ClientWebSocketResponse, kind: str) -> dict[str, Any]:
    """The next frame of `kind` (others skipped), within 20 s."""
    async with asyncio.timeout(20):
        while True:
            message = await socket.receive()
            assert message.type == aiohttp.WSMsgType.TEXT, message
            data = json.loads(message.data)
            if data["t"] == kind:
                return dict(data)


async def sit_down(client: aiohttp.ClientSession, base: str,
                   name: str) -> aiohttp.ClientWebSocketResponse:
    async with client.post(f"{base}/seat", json={"name": name},
                           headers={"Origin": base}) as response:
        assert response.status == 200, await response.text()
        seat = (await response.json())["seat"]
    return await client.ws_connect(f"{base}/phone/ws/{seat}", headers={"Origin": base})


async def error(socket: aiohttp.ClientWebSocketResponse, page: dict[str, Any]) -> str:
    """The next error's code; the state frames met on the way are applied to `page`."""
    async with asyncio.timeout(20):
        while True:
            message = await socket.receive()
            data = json.loads(message.data)
            if data["t"] == "state":
                apply_state_frame(page, data)
            elif data["t"] == "error":
                return str(data["code"])


async def state_until(socket: aiohttp.ClientWebSocketResponse, page: dict[str, Any],
                      done: Any) -> dict[str, Any]:
    while not done(page):
        apply_state_frame(page, await frame(socket, "state"))
    return page


async def test_the_host_link_gives_a_phone_the_hosts_rights(tmp_path: Path) -> None:
    with web_host(tmp_path, seats=3, bots=None) as table:
        listening = table.wait_for_event("listening")
        link = table.wait_for_event("web-host")["url"]
        base = table.base.rstrip("/")
        path = "/" + link.split("/", 3)[3]  # the link names this machine by its LAN address
        assert path == f"/host/{listening['operator_key']}"
        host = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        guest = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        try:
            async with guest.get(f"{base}/host/not-the-key", allow_redirects=False) as wrong:
                assert wrong.status == 403
                assert "host link is wrong" in await wrong.text()
            async with host.get(base + path, allow_redirects=False) as right:
                assert right.status == 303 and right.headers["Location"] == "/"
            async with guest.post(f"{base}/login", data={"password": PASSWORD},
                                  headers={"Origin": base}, allow_redirects=False) as login:
                assert login.status == 303
            async with await sit_down(host, base, "hana") as hana, \
                    await sit_down(guest, base, "gus") as gus:
                hanas: dict[str, Any] = {}
                guss: dict[str, Any] = {}
                await state_until(hana, hanas, lambda page: page.get("host")
                                  and len((page.get("room") or {}).get("seats", [])) == 2)
                # The table rates (a new name shows 1000): each phone's room shows the ratings.
                assert [seat["rating"] for seat in hanas["room"]["seats"]] == [1000, 1000]
                await gus.send_str('{"t": "add_bot"}')
                assert await error(gus, guss) == "not-host"
                assert not guss["host"]
                await hana.send_str('{"t": "add_bot"}')  # the third seat: a bot
                await state_until(hana, hanas, lambda page: len(page["room"]["seats"]) == 3)
                await hana.send_str('{"t": "start"}')
                await state_until(gus, guss, lambda page: page.get("game"))
        finally:
            await host.close()
            await guest.close()
