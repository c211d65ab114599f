"""What the results screen tells a player who asked for a rematch, at a table with a host
and at a headless table that deals by itself (no host seated)."""

from __future__ import annotations

from netproto.wire.messages import Lobby, TablePhase
from ono99tui.ui.screens.results import rematch_status


def finished(host_seat: int | None, start_when: int | None) -> Lobby:
    return Lobby(phase=TablePhase.FINISHED, seats=(), host_seat=host_seat, you=None,
                 capacity=4, spectators=0, options={"start_when": start_when}, results={})


def test_the_rematch_status_names_who_deals_it() -> None:
    assert rematch_status(True, finished(0, None)) == "Starting the rematch..."
    assert rematch_status(False, finished(0, 3)) == (
        "Ready: waiting for the host to start the rematch...")
    assert rematch_status(False, finished(None, 3)) == (
        "Ready: the rematch starts when 3 seats are taken and everyone is ready...")
    assert rematch_status(False, None) == "Ready: waiting for the host to start the rematch..."
