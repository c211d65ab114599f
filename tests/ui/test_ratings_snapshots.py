"""SVG snapshots of ratings on screen: the match-over dialog with each player's new rating
and its change beside the evening's standings, and the waiting room's Rating column (the
host at 80x24, a player at 61x19, where the seats stack over the rules and a long name
gives way, beside Bartholomew's dash: he asked not to be rated; each with the "Rate my play"
box of their own). Views from the engine with fixed seeds (the match of
test_waiting_room_reopened_snapshots); update with `pytest --snapshot-update` on this file."""

from __future__ import annotations

from typing import Any

from table_helpers import RecordingApp, wait_until
from test_waiting_room_reopened_snapshots import BOB, match_played
from textual.pilot import Pilot

from netproto.wire.messages import Lobby, SeatInfo, Welcome
from ono99tui.game import preset
from ono99tui.game.codec import rules_to_wire
from ono99tui.ui.requests import TableItem
from ono99tui.ui.screens.waiting_room import WaitingRoomScreen

RATINGS = {"matches_won": [1, 0, 0], "matches_played": [1, 1, 1],
           "ratings": [{"rating": 1138, "change": 138}, None, {"rating": 1871, "change": -6}]}


def rated_seats() -> tuple[SeatInfo, ...]:
    # Bartholomew asked to be unrated: a dash beside his name, and no rating.
    return (SeatInfo(0, "ana", "human", False, True, rating=1138),
            SeatInfo(1, BOB, "human", True, True, unrated=True),
            SeatInfo(2, "Normal bot", "bot", True, True, rating=1871))


def lobby(phase: str, you: int) -> TableItem:
    return TableItem(Lobby(
        phase=phase, seats=rated_seats(), host_seat=0, you=you, capacity=4,
        options={"preset": "2022", "rules": rules_to_wire(preset("2022")),
                 "turn_seconds": None, "spectator_chat": True, "hints": False},
        results=RATINGS if phase == "finished" else {"matches_won": [1, 0, 0],
                                                     "matches_played": [1, 1, 1]}))


def test_the_match_over_dialog_shows_the_new_ratings(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await match_played(pilot, 0)
        pilot.app.post_message(lobby("finished", 0))
        await wait_until(pilot, lambda: "1138 (+138)" in str(
            pilot.app.screen.query_one("#standings").content))
        pilot.app.clear_notifications()

    assert snap_compare(RecordingApp(), terminal_size=(80, 24), run_before=run_before)


def _room(you: int) -> Any:
    async def run_before(pilot: Pilot[Any]) -> None:
        await match_played(pilot, you)
        # The same seat's welcome from a table that rates (its "Rate my play" box shows).
        pilot.app.post_message(TableItem(Welcome(
            proto=1, role="player", seat=you, token="t", host=you == 0,
            table={"name": "Kitchen", "room": True, "chat": True, "rates": True})))
        pilot.app.post_message(lobby("finished", you))
        pilot.app.post_message(lobby("waiting", you))
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, WaitingRoomScreen)
                         and "won here" in str(pilot.app.screen.query_one("#standings").content))
        await pilot.pause()
        pilot.app.clear_notifications()

    return run_before


def test_the_waiting_room_shows_ratings_for_the_host_80x24(snap_compare: Any) -> None:
    assert snap_compare(RecordingApp(), terminal_size=(80, 24), run_before=_room(0))


def test_the_waiting_room_shows_ratings_for_a_player_61x19(snap_compare: Any) -> None:
    assert snap_compare(RecordingApp(), terminal_size=(61, 19), run_before=_room(1))
