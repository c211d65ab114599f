"""What the connection worker posts to the app (`TableItem`), made from engine values: for
tests that feed an app a table's frames without a network. Each builds the netproto message
a table would send (its game payloads in wire form, as `ono99tui.game.codec` writes them),
so the app's session decodes it exactly as it decodes a real table's."""

from __future__ import annotations

import time
from collections.abc import Sequence

from netproto.wire.messages import Chat, Lobby, TurnClock, View
from ono99tui.client.catch_up import History
from ono99tui.game import Event, PlayerView
from ono99tui.game.codec import event_to_wire, view_to_wire
from ono99tui.ui.requests import TableItem


def view_updated(seq: int, view: PlayerView, events: Sequence[Event] = (),
                 clock_deadline: tuple[int, float] | None = None, *,
                 history: History | None = None, bad_history: str | None = None,
                 now: float | None = None) -> TableItem:
    """The view `seq` with the events that led to it; `clock_deadline`: (seat, the moment
    the turn clock runs out, on the app's clock, which reads `now`: by default
    `time.monotonic()`); `history`: the match before them;
    `bad_history`: instead, a history the app cannot read (an event of kind `bad_history`)."""
    clock = None
    if clock_deadline is not None:
        seat, deadline = clock_deadline
        left = max(deadline - (time.monotonic() if now is None else now), 0.0)
        clock = TurnClock(seat=seat, seconds=max(left, 1.0), left=left)
    wire_history = None if history is None else tuple(event_to_wire(e) for e in history.events)
    if bad_history is not None:
        wire_history = ({"kind": bad_history},)
    return TableItem(View(
        seq=seq, view=view_to_wire(view), events=tuple(event_to_wire(e) for e in events),
        clock=clock, history=wire_history,
        history_abridged=0 if history is None else history.abridged))


def lobby_updated(lobby: Lobby) -> TableItem:
    """The table's lobby."""
    return TableItem(lobby)


def chat_received(chat: Chat) -> TableItem:
    """A line of talk, as the table relays it."""
    return TableItem(chat)
