"""The app (`ono99 join 127.0.0.1:PORT`, mDNS on loopback) at a real headless host that is
SIGKILLed mid-match and started again with the same table name and journal on a different
port: the app finds the table again by its name, resumes its seat with its token and shows
its hand, with the match where it stood."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from testkit.waiting import pilot_wait_until as wait_until

from netproto.addresses import Address
from ono99tui.ui.app import Ono99App
from ono99tui.ui.screens.lobby import LobbyScreen
from ono99tui.ui.screens.table import TableScreen
from ono99tui.ui.widgets.cards import HandView
from ono99tui.user_settings import ResumeTokens, table_key

LOOPBACK = "127.0.0.1"


async def test_the_app_finds_its_table_on_another_port_and_shows_its_hand(
    host_process: Callable[..., Any], tmp_path: Path,
) -> None:
    name = f"Refind app {uuid.uuid4().hex[:10]}"
    # Two seats, one the table's own bot: the app's player completes the table, so the
    # match is dealt at once; the bot waits on the app's turns.
    table = ("--name", name, "--seats", "2", "--bots", "1", "--bot-delay", "0.05",
             "--seed", "6")
    env = {"ONO99_DATA_DIR": str(tmp_path / "data")}
    first = host_process(*table, env=env, advertise=True)
    await asyncio.to_thread(first.start)
    lobby = LobbyScreen([LOOPBACK], config_directory=tmp_path / "config", name="ana",
                        join_address=Address(LOOPBACK, first.port))
    app = Ono99App(start_screen=lobby, ascii_glyphs=False, sixteen_colours=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen)
                         and app.session.view is not None, timeout=30, what="the match dealt")
        assert app.client is not None and app.session.welcome is not None
        token, seat, seq_at_kill = app.client.token, app.session.welcome.seat, app.session.view_seq

        await asyncio.to_thread(first.kill)
        await wait_until(pilot, lambda: app.session.connection_state == "reconnecting", timeout=10,
                         what="the drop noticed")
        second = host_process(*table, env=env, advertise=True)
        assert second.port != first.port
        await asyncio.to_thread(second.start)
        await wait_until(pilot, lambda: app.session.connection_state == "connected"
                         and app.session.view_seq > seq_at_kill, timeout=30,
                         what="the seat resumed at the new port")

        client = app.client
        assert client is not None and app.session.welcome is not None
        assert (client.port, client.token, app.session.welcome.seat) == (second.port, token, seat)
        # A new app joining the table at its new address would get the seat back too.
        kept = ResumeTokens(tmp_path / "config").get(table_key(LOOPBACK, second.port, "ana"))
        assert kept == token
        assert isinstance(app.screen, TableScreen) and app.session.view is not None
        assert app.session.view.hand  # mid-match: the player holds cards
        await wait_until(pilot, lambda: len(app.screen.query_one(HandView).cards)
                         == len(app.session.view.hand) if app.session.view else False,
                         what="the hand drawn")
        app.exit()
