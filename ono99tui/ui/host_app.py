"""The host's own app: seated at its table with the host key, opening on the waiting room."""

from __future__ import annotations

from collections.abc import Sequence

from netproto.client import TableClient
from ono99tui.host.server import TableServer
from ono99tui.ui.app import Ono99App
from ono99tui.ui.screens.waiting_room import WaitingRoomScreen
from ono99tui.web.join_code import JoinLink


def host_app(
    server: TableServer, *, player: str, connect_to: str = "127.0.0.1", invite: str = "",
    notice: str = "", warnings: Sequence[str] = (), join: JoinLink | None = None,
    unrated: bool = False,
) -> Ono99App:
    """The host's own app: seated at `server` with its host key, opening on the waiting room;
    `notice` is said once it is up (a match taken up from the journal), and each of
    `warnings` (what the table's journal had to say); `join` (with a web door): the one-step
    join address, which `j` in the waiting room shows as a QR code."""
    config = server.table.config

    async def connect() -> TableClient:
        return await TableClient.connect(
            connect_to, server.port, name=player, password=config.password,
            host_key=config.host_key, unrated=unrated,
        )

    # `connect` asks for a seat: if the table made the host's app a spectator (a restarted
    # host took up a match its person was not in), taking a seat connects with it again.
    return Ono99App(connect, start_screen=lambda: WaitingRoomScreen(invite=invite, join=join),
                    hosting="host", seat_factory=connect, notice=notice, warnings=warnings)
