"""`ono99 bot` at a server that is full: the server says `bye{server-full}` before the bot's
hello is even read. That used to end in a traceback (`LocalProtocolError … 'hello' in state
closed`, 5 launches in 30); it must be a one-line refusal every time."""

from __future__ import annotations

import asyncio
import sys

import pytest

from netproto.client import TableClient
from netproto.client_errors import HandshakeRefused
from netproto.server import ServerLimits
from ono99tui.host.server import TableServer
from ono99tui.host.table_config import TableConfig

FULL_AFTER_ONE = ServerLimits(max_connections=1)


async def test_a_client_at_a_full_server_is_refused_in_words_every_time() -> None:
    async with TableServer(TableConfig(capacity=2), limits=FULL_AFTER_ONE) as server:
        seated = await TableClient.connect("127.0.0.1", server.port, name="ann")
        try:
            for _ in range(30):  # the bye races the hello: try it many times
                with pytest.raises(HandshakeRefused) as refused:
                    await TableClient.connect("127.0.0.1", server.port, name="bob")
                assert refused.value.code == "server-full"
        finally:
            await seated.close()


async def test_ono99_bot_at_a_full_server_exits_1_with_one_line() -> None:
    async with TableServer(TableConfig(capacity=2), limits=FULL_AFTER_ONE) as server:
        seated = await TableClient.connect("127.0.0.1", server.port, name="ann")
        try:
            for _ in range(5):
                bot = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "ono99tui", "bot", f"127.0.0.1:{server.port}",
                    stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
                out, err = await asyncio.wait_for(bot.communicate(), 60)
                assert bot.returncode == 1, err
                assert out == b"" and b"Traceback" not in err
                assert err.decode().startswith("ono99 bot: ") and "server-full" in err.decode()
        finally:
            await seated.close()
