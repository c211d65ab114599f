"""The web door's HTTP side with a real aiohttp client on loopback and a probe for the game:
who gets in, what the game is given, what the door refuses."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import aiohttp
import pytest
from web_helpers import PASSWORD, alive

from netproto.limits import GuessPolicy
from ono99tui.web.access import LOGIN_COOKIE
from ono99tui.web.config import MAX_COLUMNS, MAX_ROWS, WebDoorConfig
from ono99tui.web.server import WebDoor
from ono99tui.web.session import CLOSE_DOOR_CLOSED, CLOSE_DOOR_FULL, CLOSE_START_FAILED


@pytest.fixture
async def door(door_config: WebDoorConfig) -> AsyncIterator[WebDoor]:
    async with WebDoor(door_config) as started:
        yield started


def base(door: WebDoor) -> str:
    return f"http://127.0.0.1:{door.port}"


def origin(door: WebDoor) -> dict[str, str]:
    return {"Origin": base(door)}


async def logged_in(door: WebDoor) -> aiohttp.ClientSession:
    """A client with the door's login cookie (IP-address cookies need the unsafe jar)."""
    client = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    async with client.post(f"{base(door)}/login", data={"password": PASSWORD},
                           headers=origin(door), allow_redirects=False) as response:
        assert response.status == 303
    return client


async def new_seat(client: aiohttp.ClientSession, door: WebDoor, name: str = "ana") -> str:
    async with client.post(f"{base(door)}/seat", json={"name": name}, headers=origin(door)) as response:
        assert response.status == 200, await response.text()
        return str((await response.json())["seat"])


class Game:
    """The probe behind one websocket: what it reported, read from its output."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self.text = ""

    async def wait_for(self, pattern: str, timeout: float = 15.0) -> re.Match[str]:
        async def read() -> re.Match[str]:
            while not (match := re.search(pattern, self.text)):
                message = await self.socket.receive()
                if message.type != aiohttp.WSMsgType.BINARY:
                    raise AssertionError(f"no {pattern!r} before {message.type}; got {self.text!r}")
                self.text += message.data.decode()
            return match

        return await asyncio.wait_for(read(), timeout)

    async def started(self) -> dict[str, Any]:
        return dict(json.loads((await self.wait_for(r"START (.*)\r\n")).group(1)))

    async def closed(self, timeout: float = 15.0) -> tuple[int | None, str]:
        async def read() -> tuple[int | None, str]:
            while True:
                message = await self.socket.receive()
                if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                    return self.socket.close_code, str(message.extra or "")

        return await asyncio.wait_for(read(), timeout)


async def test_the_login_cookie_is_http_only_and_same_site_strict(door: WebDoor) -> None:
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as client:
        async with client.get(base(door) + "/") as response:
            assert 'type="password"' in await response.text()
        async with client.post(f"{base(door)}/login", data={"password": PASSWORD},
                               headers=origin(door), allow_redirects=False) as response:
            assert response.status == 303
            cookie = response.headers["Set-Cookie"]
        assert cookie.startswith(f"{LOGIN_COOKIE}=")
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
        async with client.get(base(door) + "/terminal") as response:
            page = await response.text()
        assert 'id="terminal"' in page and "/static/js/textual.js" in page
        async with client.get(base(door) + "/") as response:
            phone = await response.text()  # the door's address opens the phone page
        assert 'id="hand"' in phone and "/static/phone/phone.js" in phone
        assert "http" not in page.split("<body>")[0].replace('href="/', "")  # no outside link


async def test_a_wrong_password_gets_the_login_page_again_and_no_cookie(door: WebDoor) -> None:
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as client:
        async with client.post(f"{base(door)}/login", data={"password": "not it"},
                               headers=origin(door), allow_redirects=False) as response:
            assert response.status == 403
            assert "Wrong password." in await response.text()
            assert "Set-Cookie" not in response.headers
        async with client.post(f"{base(door)}/seat", json={"name": "ana"}, headers=origin(door)) as response:
            assert response.status == 401


async def test_a_guess_right_after_a_wrong_password_is_turned_away_unread(
        door_config: WebDoorConfig) -> None:
    # Far longer than the test: the second try is inside the pause.
    config = replace(door_config, guesses=GuessPolicy(free_per_address=0, first_pause=600.0,
                                                          max_pause=600.0))
    async with WebDoor(config) as door, aiohttp.ClientSession(
            cookie_jar=aiohttp.CookieJar(unsafe=True)) as client:
        async with client.post(f"{base(door)}/login", data={"password": "not it"},
                               headers=origin(door), allow_redirects=False) as response:
            assert response.status == 403
        async with client.post(f"{base(door)}/login", data={"password": PASSWORD},
                               headers=origin(door), allow_redirects=False) as response:
            assert response.status == 429 and "Set-Cookie" not in response.headers
            assert "Too many tries: wait 600 s" in await response.text()


async def test_a_login_from_another_site_is_refused(door: WebDoor) -> None:
    async with aiohttp.ClientSession() as client, client.post(
        f"{base(door)}/login", data={"password": PASSWORD},
        headers={"Origin": "http://evil.example"}, allow_redirects=False,
    ) as response:
        assert response.status == 403 and "Set-Cookie" not in response.headers


async def test_websockets_need_this_origin_a_login_and_a_seat_else_403_at_the_handshake(door: WebDoor) -> None:
    client = await logged_in(door)
    async with client:
        seat = await new_seat(client, door)
        url = f"{base(door)}/ws/{seat}"
        for headers in ({"Origin": "http://evil.example"}, {"Origin": f"http://127.0.0.1:{door.port + 1}"},
                        {"Origin": "null"}, {}):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await client.ws_connect(url, headers=headers)
            assert refused.value.status == 403, headers
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await client.ws_connect(f"{base(door)}/ws/{'x' * 43}", headers=origin(door))
        assert refused.value.status == 403
        assert door.sessions == {}
    async with aiohttp.ClientSession() as stranger:  # the right seat, but no login
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await stranger.ws_connect(url, headers=origin(door))
        assert refused.value.status == 403


async def test_the_game_runs_as_an_argument_list_in_a_fixed_environment_with_its_own_folder(
    door: WebDoor, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ONO99_WEB_PASSWORD", "secret of the host")
    monkeypatch.setenv("LC_ALL", "C")
    client = await logged_in(door)
    async with client:
        seats = [await new_seat(client, door, "-rf; ana"), await new_seat(client, door, "bea")]
        started = []
        for seat in seats:
            socket = await client.ws_connect(f"{base(door)}/ws/{seat}", headers=origin(door))
            started.append(await Game(socket).started())
            await socket.close()
    first, second = started
    assert first["argv"] == ["-rf; ana"]  # one argument, never through a shell
    env = first["env"]
    assert env["LANG"] == "C.UTF-8" and env["TERM"] == "xterm-256color"
    assert env["TEXTUAL_DRIVER"] and "ONO99_WEB_PASSWORD" not in env and "LC_ALL" not in env
    assert env["ONO99_CONFIG_DIR"] != second["env"]["ONO99_CONFIG_DIR"]
    assert env["ONO99_CONFIG_DIR"].startswith(str(door.config.players_dir))


async def test_an_oversize_terminal_is_capped_at_the_start_and_on_resize(door: WebDoor) -> None:
    client = await logged_in(door)
    async with client:
        seat = await new_seat(client, door)
        socket = await client.ws_connect(f"{base(door)}/ws/{seat}?width=3000&height=1500",
                                         headers=origin(door))
        game = Game(socket)
        env = (await game.started())["env"]
        assert (int(env["COLUMNS"]), int(env["ROWS"])) == (MAX_COLUMNS, MAX_ROWS)
        await socket.send_str(json.dumps(["resize", {"width": 100000, "height": -5}]))
        meta = json.loads((await game.wait_for(r'META (\{"type": "resize".*)\r\n')).group(1))
        assert (meta["width"], meta["height"]) == (MAX_COLUMNS, 1)
        await socket.send_str(json.dumps(["stdin", "j"]))
        await game.wait_for('KEYS "j"')
        await socket.close()


async def test_closing_the_tab_hangs_up_on_the_game(door: WebDoor) -> None:
    client = await logged_in(door)
    async with client:
        seat = await new_seat(client, door)
        socket = await client.ws_connect(f"{base(door)}/ws/{seat}", headers=origin(door))
        pid = (await Game(socket).started())["pid"]
        assert alive(pid)
        await socket.close()
    await asyncio.wait_for(_until(lambda: not alive(pid) and not door.sessions), 15)


async def test_a_game_that_fails_to_start_closes_the_socket_with_its_reason(door_config: WebDoorConfig) -> None:
    def failing(player: str) -> list[str]:
        return ["/bin/sh", "-c", "echo 'cannot reach the table' >&2; exit 3"]

    async with WebDoor(replace(door_config, command=failing)) as door:
        client = await logged_in(door)
        async with client:
            seat = await new_seat(client, door)
            socket = await client.ws_connect(f"{base(door)}/ws/{seat}", headers=origin(door))
            code, reason = await Game(socket).closed()
    assert code == CLOSE_START_FAILED and reason == "cannot reach the table"


async def test_the_session_cap_turns_away_one_tab_too_many(door_config: WebDoorConfig) -> None:
    async with WebDoor(replace(door_config, max_sessions=1)) as door:
        client = await logged_in(door)
        async with client:
            first = await client.ws_connect(f"{base(door)}/ws/{await new_seat(client, door)}", headers=origin(door))
            await Game(first).started()
            second = await client.ws_connect(f"{base(door)}/ws/{await new_seat(client, door)}", headers=origin(door))
            code, reason = await Game(second).closed()
            assert code == CLOSE_DOOR_FULL and "at most 1" in reason
            await first.close()


async def test_an_idle_tab_is_closed(door_config: WebDoorConfig) -> None:
    async with WebDoor(replace(door_config, idle_timeout=0.5)) as door:
        client = await logged_in(door)
        async with client:
            socket = await client.ws_connect(f"{base(door)}/ws/{await new_seat(client, door)}", headers=origin(door))
            game = Game(socket)
            pid = (await game.started())["pid"]
            code, reason = await game.closed()
    assert code == 4008 and "no input" in reason
    assert not alive(pid)


async def test_closing_the_door_ends_every_game(door_config: WebDoorConfig) -> None:
    door = WebDoor(door_config)
    await door.start()
    client = await logged_in(door)
    async with client:
        socket = await client.ws_connect(f"{base(door)}/ws/{await new_seat(client, door)}", headers=origin(door))
        game = Game(socket)
        pid = (await game.started())["pid"]
        closing = asyncio.ensure_future(door.close())
        code, _ = await game.closed()
        await closing
    assert code == CLOSE_DOOR_CLOSED and not alive(pid)


async def test_a_kept_seat_is_found_again_and_a_bad_name_is_refused(door: WebDoor) -> None:
    client = await logged_in(door)
    async with client:
        seat = await new_seat(client, door, "  Zoë  ")
        async with client.post(f"{base(door)}/seat", json={"seat": seat}, headers=origin(door)) as response:
            assert await response.json() == {"seat": seat, "name": "Zoë"}
        async with client.post(f"{base(door)}/seat", json={"seat": "nope"}, headers=origin(door)) as response:
            assert response.status == 404
        async with client.post(f"{base(door)}/seat", json={"name": "x" * 40}, headers=origin(door)) as response:
            assert response.status == 400 and "24" in (await response.json())["error"]
        async with client.post(f"{base(door)}/seat", data=b"[", headers=origin(door)) as response:
            assert response.status == 400


async def test_static_files_come_from_a_fixed_list_without_listings(door: WebDoor) -> None:
    async with aiohttp.ClientSession() as client:
        for path in ("/static/js/textual.js", "/static/door.js", "/static/css/xterm.css",
                     "/static/fonts/RobotoMono-VariableFont_wght.ttf"):
            async with client.get(base(door) + path) as response:
                assert response.status == 200, path
        for path in ("/static/", "/static/js/", "/static/fonts", "/static/../server.py",
                     "/static/%2e%2e/server.py", "/static/images/background.png"):
            async with client.get(base(door) + path) as response:
                assert response.status == 404, path
                assert "Index of" not in await response.text()


async def _until(condition: Any) -> None:
    while not condition():
        await asyncio.sleep(0.05)


async def test_the_door_s_pages_and_each_tab_s_game_speak_the_browser_s_language(
        door: WebDoor) -> None:
    # The login page in the browser's language (Accept-Language), or the one `?lang=` asks
    # for, mirrored for Urdu; a wrong password said in it; each tab's game started in its
    # browser's language (LANGUAGE, which the game reads before LANG).
    from ono99tui.i18n import translator

    bengali, urdu = translator("bn").gettext, translator("ur").gettext
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as client:
        async with client.get(f"{base(door)}/", headers={"Accept-Language": "bn-BD,bn;q=0.9"}
                              ) as response:
            page = await response.text()
        assert '<html lang="bn" dir="ltr">' in page
        assert bengali("The table's web password") in page and "web password" not in page
        async with client.get(f"{base(door)}/?lang=ur") as response:
            page = await response.text()
        assert '<html lang="ur" dir="rtl">' in page and urdu("Come in") in page
        async with client.post(f"{base(door)}/login", data={"password": "not it"},
                               headers={**origin(door), "Accept-Language": "bn"},
                               allow_redirects=False) as response:
            assert response.status == 403
            assert bengali("Wrong password.") in await response.text()
    client = await logged_in(door)
    async with client:
        languages = []
        for accept in ("kn-IN,kn;q=0.9", "ps"):
            seat = await new_seat(client, door)
            socket = await client.ws_connect(f"{base(door)}/ws/{seat}",
                                             headers={**origin(door), "Accept-Language": accept})
            languages.append((await Game(socket).started())["env"]["LANGUAGE"])
            await socket.close()
        async with client.get(f"{base(door)}/terminal", headers={"Accept-Language": "kn"}
                              ) as response:
            page = await response.text()
    assert languages == ["kn", "ps"]
    # The terminal page's own words (door.js) come in the page, in its language.
    words = json.loads(page.split('<script id="door-words" type="application/json">')[1]
                       .split("</script>")[0])
    kannada = translator("kn").gettext
    assert words["Reconnect"] == kannada("Reconnect") != "Reconnect"
