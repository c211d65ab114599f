"""SVG snapshots of the way back to the waiting room between matches: the host's match-over
dialog (who is ready for the rematch, and the "Waiting room (o)" button), and the room as it
opens again after a match, for the host at 80x24 and for a player at 61x19 (the standings
under the seats, the host's row saying "host", a long name giving way to "(you)", the
scoring's whole name). Views come from the engine with fixed seeds; update with
`pytest --snapshot-update` on this file."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from table_helpers import LocalMatch, RecordingApp, lobby_for, open_local, wait_until
from textual.pilot import Pilot

from netproto.wire.messages import Lobby, SeatInfo, Welcome
from ono99tui.game import MATCH_OVER, preset
from ono99tui.game.codec import rules_to_wire
from ono99tui.ui.requests import TableItem
from ono99tui.ui.screens.results import MatchEndScreen
from ono99tui.ui.screens.waiting_room import WaitingRoomScreen

BOB = "Bartholomew Fitzgerald"


def seats(*, ready: bool) -> tuple[SeatInfo, ...]:
    return (SeatInfo(0, "ana", "human", False, True), SeatInfo(1, BOB, "human", ready, True),
            SeatInfo(2, "Normal bot", "bot", True, True))


def welcomed(seat: int) -> TableItem:
    return TableItem(Welcome(proto=1, role="player", seat=seat, token="t", host=seat == 0,
                            table={"name": "Kitchen", "room": True, "chat": True}))


async def match_played(pilot: Pilot[Any], you: int) -> None:
    """A short 2022 match (one round) to its end, seen from seat `you` of ana's table."""
    app = pilot.app
    app.post_message(welcomed(you))
    match = LocalMatch(preset("2022"), 3, seed=3, me=you)
    lobby = replace(lobby_for(3, you=you, bots=(2,)), seats=seats(ready=False))
    await open_local(app, pilot, match, lobby)
    match.run_until(lambda state: state.phase == MATCH_OVER)
    await match.show(app, pilot)
    await wait_until(pilot, lambda: isinstance(app.screen, MatchEndScreen))


def finished(you: int, *, ready: bool) -> TableItem:
    return TableItem(Lobby(
        phase="finished", seats=seats(ready=ready), host_seat=0, you=you, capacity=4,
        options={"preset": "2022", "rules": rules_to_wire(preset("2022"))},
        results={"matches_won": [1, 0, 0], "matches_played": [1, 1, 1]}))


def reopened(you: int) -> TableItem:
    rules = preset("1980").replace(scoring="points-lowest", target=150)
    return TableItem(Lobby(
        phase="waiting", seats=seats(ready=False), host_seat=0, you=you, capacity=4,
        options={"preset": "1980", "rules": rules_to_wire(rules), "turn_seconds": None,
                 "spectator_chat": True, "hints": False},
        results={"matches_won": [1, 0, 0], "matches_played": [1, 1, 1]}))


def test_the_host_s_match_over_dialog_names_who_is_ready(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await match_played(pilot, 0)
        pilot.app.post_message(finished(0, ready=False))
        await wait_until(pilot, lambda: "Not yet" in str(
            pilot.app.screen.query_one("#rematch-status").content))
        pilot.app.clear_notifications()

    assert snap_compare(RecordingApp(), terminal_size=(80, 24), run_before=run_before)


def test_the_room_opened_again_for_the_host_80x24(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await match_played(pilot, 0)
        pilot.app.post_message(finished(0, ready=True))
        pilot.app.post_message(reopened(0))
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, WaitingRoomScreen)
                         and "won here" in str(pilot.app.screen.query_one("#standings").content))
        await pilot.pause()
        pilot.app.clear_notifications()

    assert snap_compare(RecordingApp(), terminal_size=(80, 24), run_before=run_before)


def test_the_room_opened_again_for_a_player_61x19(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await match_played(pilot, 1)
        pilot.app.post_message(finished(1, ready=True))
        pilot.app.post_message(reopened(1))
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, WaitingRoomScreen)
                         and "won here" in str(pilot.app.screen.query_one("#standings").content))
        await pilot.pause()
        pilot.app.clear_notifications()

    assert snap_compare(RecordingApp(), terminal_size=(61, 19), run_before=run_before)


async def test_the_room_s_notice_leaves_the_rules_in_sight() -> None:
    # Played at 80x24: "The host opened the waiting room: ... Press r when you are
    # ready" lay over the top of the rules panel, the very rules it asks to look at.
    from textual.widgets._toast import Toast

    app = RecordingApp()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await match_played(pilot, 1)
        app.post_message(finished(1, ready=True))
        app.post_message(reopened(1))
        await wait_until(pilot, lambda: isinstance(app.screen, WaitingRoomScreen)
                         and bool(app.screen.query(Toast)))
        await pilot.pause(0.2)
        screen = app.screen
        rules = screen.query_one("#rules-panel").region
        seats = screen.query_one("#seats").region
        toasts = [toast.region for toast in screen.query(Toast)]
        assert len(toasts) == 1  # the room says it once (not "Rules changed" too)
        for region in toasts:
            assert not region.overlaps(rules) and not region.overlaps(seats), (region, rules)
