"""The phone page's websocket with a real aiohttp client and a real headless host: the
door's Origin, login and seat checks cover it (403 at the handshake), and a page's bad or
untimely request is answered with a typed error on that socket only, changing nothing."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from web_helpers import PASSWORD, WebHost, web_host

from ono99tui.web.phone.state import apply_state_frame

pytestmark = pytest.mark.slow


@pytest.fixture
def host(tmp_path: Path) -> Iterator[WebHost]:
    with web_host(tmp_path) as table:
        yield table


async def logged_in(base: str) -> aiohttp.ClientSession:
    client = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    async with client.post(f"{base}/login", data={"password": PASSWORD},
                           headers={"Origin": base}, allow_redirects=False) as response:
        assert response.status == 303
    return client


async def frame(socket: aiohttp.ClientWebSocketResponse, kind: str) -> dict[str, Any]:
    """The next frame of `kind` (others skipped), within 20 s (a receive's own timeout
    starts again at each of the door's heartbeat pings)."""
    async with asyncio.timeout(20):
        while True:
            message = await socket.receive()
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
    with web_host(tmp_path, "--hints") as table:
        base = table.base.rstrip("/")
        async with await logged_in(base) as client:
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


async def test_a_move_sends_the_fields_it_changed_and_a_new_socket_everything(
        host: WebHost) -> None:
    base = host.base.rstrip("/")
    client = await logged_in(base)
    try:
        async with client.post(f"{base}/seat", json={"name": "ana"},
                               headers={"Origin": base}) as response:
            seat = (await response.json())["seat"]
        url = f"{base}/phone/ws/{seat}"
        async with client.ws_connect(url, headers={"Origin": base}) as socket:
            page: dict[str, Any] = {}
            while not page.get("game"):
                apply_state_frame(page, await frame(socket, "state"))
            moves: list[dict[str, Any]] = []
            while len(moves) < 6:  # a few moves of ana's and the bot's: one round still
                game = page["game"]
                if game["mine"]:  # (again, while her move is on its way: refused, no state)
                    playable = [i for i, card in enumerate(game["hand"]) if card["ok"]]
                    await socket.send_str(json.dumps(
                        {"t": "play", "i": playable[0]} if playable
                        else {"t": "swap" if game["swap"] else "draw"}))
                state = await frame(socket, "state")
                apply_state_frame(page, state)
                moves.append(state)
            # Each move's frame holds what it changed, not the match again.
            assert all("game" not in state.get("p", {}) for state in moves)
            assert any(op[:2] == ["game", "total"] for state in moves
                       for op in state.get("d", ()))
            assert max(len(json.dumps(state)) for state in moves) < 1000
        # A new socket (a reload) is sent the whole state, the same as the page built.
        async with client.ws_connect(url, headers={"Origin": base}) as socket:
            whole = await frame(socket, "state")
            assert "d" not in whole and {"game", "room", "may"} <= set(whole["p"])
            assert set(whole["p"]["game"]) == set(page["game"])  # all of it, as made
    finally:
        await client.close()
