"""How many seats a spectator could take for the next match, from the table's lobby.

The table seats a newcomer only between matches. At a full table it first frees the seats
whose player has gone (a finished table only), then, if still full, a bot gives up its
seat (ono99tui/host/core.py `_make_room_for_a_person`): bots only fill seats people leave
empty. A seat counted here is only a "may": someone else may take it first, and an older
table may not free seats at all. Joining again asking for a seat (`Ono99App.take_seat`) is
what settles it.
"""

from __future__ import annotations

from netproto.wire.messages import Lobby, SeatKind, TablePhase
from ono99tui.i18n import _, ngettext


def seats_free(lobby: Lobby | None) -> int:
    """Seats a spectator may take for the next match (0 while a match is on)."""
    if lobby is None or lobby.phase == TablePhase.PLAYING:
        return 0
    empty = max(lobby.capacity - len(lobby.seats), 0)
    finished = lobby.phase == TablePhase.FINISHED
    # A bot's seat and, at a finished table, a seat whose player has gone.
    empty += sum(1 for seat in lobby.seats
                 if seat.kind == SeatKind.BOT or (finished and not seat.connected))
    return min(empty, lobby.capacity)


def free_seats_text(lobby: Lobby) -> str:
    """"1 seat is free", "2 seats are free", "all 4 seats are taken"."""
    free = seats_free(lobby)
    if free == 0:
        return _("all {count} seats are taken").format(count=lobby.capacity)
    return ngettext("{count} seat is free", "{count} seats are free", free).format(count=free)
