"""Whether a host may deal now, from the table's lobby (pure: no I/O).

The table deals only to seats someone plays: a bot, or a person connected now (a seat whose
player has gone is freed at the deal: `host/table_actions.py` `_start`), and refuses with
fewer than two (`not-enough-players`). A waiting room must not tell its host "s starts the
game" while that is so, nor "everyone is ready" over seats still empty.
"""

from __future__ import annotations

from netproto.wire.messages import Lobby
from ono99tui.game import MIN_PLAYERS


def players_here(lobby: Lobby) -> int:
    """The seats a deal now would go to: the bots and the people connected."""
    return sum(1 for seat in lobby.seats if seat.connected)


def may_deal(lobby: Lobby) -> bool:
    """Are there enough players here for the table to deal?"""
    return players_here(lobby) >= MIN_PLAYERS


def seats_left_empty(lobby: Lobby) -> int:
    """The seats a deal now would leave empty: those nobody took, and those whose player
    has gone (freed at the deal)."""
    return max(lobby.capacity - players_here(lobby), 0)
