"""`ono99 host --headless` and `ono99 bot` as real processes on loopback."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any

from host_table_helpers import FAST_CLIENT

from netproto.client import TableClient
from netproto.lan.discovery import TableBrowser, TableChange

ONO99 = [sys.executable, "-m", "ono99tui"]
FAST_HOST = ["host", "--headless", "--bind", "127.0.0.1", "--port", "0", "--bot-delay", "0",
             "--seed", "3"]


async def start_host(*options: str) -> tuple[asyncio.subprocess.Process, dict[str, Any]]:
    process = await asyncio.create_subprocess_exec(
        *ONO99, *FAST_HOST, *options, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL)
    assert process.stdout is not None
    line = await asyncio.wait_for(process.stdout.readline(), 15)
    listening = json.loads(line)
    assert listening["event"] == "listening"
    return process, listening


async def run_ono99(*arguments: str) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        *ONO99, *arguments, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    stdout, stderr = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode is not None
    return process.returncode, stdout.decode(), stderr.decode()


async def test_headless_host_and_bot_processes_play_a_full_match() -> None:
    host, listening = await start_host("--seats", "4", "--bots", "2", "--exit-after", "1",
                                       "--no-advertise", "--rules", "1980")
    address = f"127.0.0.1:{listening['port']}"
    results = await asyncio.gather(run_ono99("bot", address, "--name", "Ann"),
                                   run_ono99("bot", address, "--bot", "random", "--seed", "1"))
    for status, stdout, stderr in results:
        assert status == 0, stderr
        report = json.loads(stdout)
        assert report["matches"] == 1 and report["moves"] > 0
    assert host.stdout is not None
    rest = await asyncio.wait_for(host.stdout.read(), 15)
    assert await host.wait() == 0
    assert json.loads(rest.decode().splitlines()[-1]) == {"event": "stopped", "matches": 1}


async def test_headless_host_never_imports_textual() -> None:
    code = (
        "import sys\n"
        "from ono99tui.cli import main\n"
        f"status = main({FAST_HOST + ['--seats', '3', '--bots', '3', '--exit-after', '1', '--no-advertise']!r})\n"
        "assert status == 0, status\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] == 'textual')\n"
        "print('textual modules:', loaded)\n"
        "sys.exit(1 if loaded else 0)\n"
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", code, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL)
    stdout, _ = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 0, stdout.decode()
    assert "textual modules: []" in stdout.decode()


async def test_bot_says_when_the_port_is_not_a_table() -> None:
    async def answer_like_http(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(1024)
        writer.write(b"HTTP/1.0 400 Bad Request\r\n\r\n")
        await writer.drain()
        writer.close()

    web = await asyncio.start_server(answer_like_http, "127.0.0.1", 0)
    port = web.sockets[0].getsockname()[1]
    try:
        status, _, stderr = await run_ono99("bot", f"127.0.0.1:{port}")
    finally:
        web.close()
    assert status == 1 and stderr.strip() == (
        f"ono99 bot: 127.0.0.1:{port} does not speak the ono99 protocol (a web server answered)")


async def test_bot_exits_non_zero_on_errors() -> None:
    status, _, stderr = await run_ono99("bot", "127.0.0.1:1")
    assert status == 1 and stderr.strip() == "ono99 bot: nothing is listening at 127.0.0.1:1"
    host, listening = await start_host("--seats", "2", "--password", "sesame", "--no-advertise")
    try:
        status, _, stderr = await run_ono99("bot", f"127.0.0.1:{listening['port']}")
        assert status == 1 and "bad-password" in stderr
        status, _, stderr = await run_ono99("bot", "nowhere:port")
        assert status == 2 and "HOST:PORT" in stderr
    finally:
        host.terminate()
        assert await host.wait() == 0


async def test_headless_host_advertises_and_updates_its_seats() -> None:
    assert os.environ["ONO99_MDNS_INTERFACES"] == "127.0.0.1"
    host, listening = await start_host("--seats", "3", "--bots", "1", "--name", "Advertised")
    try:
        async with TableBrowser(["127.0.0.1"]) as browser:
            events = browser.events()

            async def next_for_us(change: TableChange | None = None) -> Any:
                async for event in events:
                    if (event.table.info.name == "Advertised"
                            and event.table.info.port == listening["port"]
                            and (change is None or event.change is change)):
                        return event.table.info
                raise AssertionError("browser closed")

            info = await asyncio.wait_for(next_for_us(), 10)
            # Seats people hold (the bot's is free to a newcomer).
            assert (info.seats_taken, info.seats_total, info.state.value) == (0, 3, "waiting")
            client = await TableClient.connect("127.0.0.1", listening["port"], name="Joe",
                                               settings=FAST_CLIENT)
            info = await asyncio.wait_for(next_for_us(TableChange.UPDATED), 10)
            assert info.seats_taken == 1 and info.host_player == "Joe"
            await client.close()
    finally:
        host.terminate()
        assert await host.wait() == 0
