"""The table's lobby message, sent once per change.

Whatever changes what the lobby shows (a seat taken or freed, someone ready, the options,
the phase, the standings) only marks it changed (`LobbyBroadcast.mark`); the core sends it
(`flush`) once, before the next views leave (netproto's connection moves a seat into a
match on the lobby, so the lobby must come first) and at the end of the input. So an input
that changes the lobby several times sends it once, as it stands at that point.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from netproto.wire.messages import Lobby, TablePhase
from ono99tui.host.seats import Seat


class LobbyBroadcast:
    """Whether the lobby changed since it was last sent."""

    __slots__ = ("dirty",)

    def __init__(self) -> None:
        self.dirty = False

    def mark(self) -> None:
        """The lobby shows something new: send it at the next flush."""
        self.dirty = True

    def take(self) -> bool:
        """Whether a lobby is due now (and it is then no longer due)."""
        dirty = self.dirty
        self.dirty = False
        return dirty


def lobby_messages(*, phase: TablePhase, seats: Sequence[Seat], host: Seat | None,
                   spectators: Sequence[int], capacity: int, options: Mapping[str, Any],
                   results: Mapping[str, Any], matches_won: Mapping[str, int],
                   matches_played: Mapping[str, int],
                   ratings: Sequence[int | None] = ()) -> list[tuple[int, Lobby]]:
    """Each connected seat's and spectator's lobby, by peer id: the same table, each told
    which seat is its own (`you`). `results` are shown once the match is finished; the
    standings (`matches_won`) in every phase once a match is over, so late joiners see them
    too. `ratings`: each seat's shown rating (None, or none given: not rated)."""
    infos = tuple(seat.info(index, ratings[index] if index < len(ratings) else None)
                  for index, seat in enumerate(seats))
    host_seat = seats.index(host) if host in seats else None
    shown: dict[str, Any] = dict(results) if phase == TablePhase.FINISHED else {}
    if matches_won:
        shown = shown | {
            "matches_won": [matches_won.get(seat.name, 0) for seat in seats],
            "matches_played": [matches_played.get(seat.name, 0) for seat in seats]}
    watching = len(spectators)
    options = dict(options)

    def lobby(you: int | None) -> Lobby:
        return Lobby(phase=phase, seats=infos, host_seat=host_seat, you=you,
                     capacity=capacity, spectators=watching, options=options, results=shown)

    messages = [(seat.peer, lobby(index)) for index, seat in enumerate(seats)
                if seat.peer is not None]
    messages.extend((peer, lobby(None)) for peer in spectators)
    return messages
