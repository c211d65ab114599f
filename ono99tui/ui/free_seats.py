"""How many seats a spectator could take for the next match, from the table's lobby.

The table seats a newcomer only between matches, in an empty seat; at a finished table
that is full it first frees the seats whose player has gone (ono99tui/host/core.py
`_on_hello`), and every deal frees them too. A seat counted here is only a "may": someone
else may take it first, and an older table may not free seats at all. Joining again
asking for a seat (`Ono99App.take_seat`) is what settles it.
"""

from __future__ import annotations

from netproto.messages import Lobby, TablePhase


def seats_free(lobby: Lobby | None) -> int:
    """Seats a spectator may take for the next match (0 while a match is on)."""
    if lobby is None or lobby.phase == TablePhase.PLAYING:
        return 0
    empty = max(lobby.capacity - len(lobby.seats), 0)
    if lobby.phase == TablePhase.FINISHED:
        empty += sum(1 for seat in lobby.seats if not seat.connected)
    return min(empty, lobby.capacity)


def free_seats_text(lobby: Lobby) -> str:
    """"1 seat is free", "2 seats are free", "all 4 seats are taken"."""
    free = seats_free(lobby)
    if free == 0:
        return f"all {lobby.capacity} seats are taken"
    return "1 seat is free" if free == 1 else f"{free} seats are free"
