"""Back to the waiting room between matches, at the keyboard, over loopback: the host's app
and a joined player's (and a spectator's) each a real Ono99App at one real table server.

After a match the host sees who is ready for the rematch, opens the waiting room (`o` on
the match-over dialog, at the table, or the command palette), changes the preset there
and deals; the players' apps go to the room too, see the new rules before they say
ready, and come back to the table (whose log keeps the match before) for the next deal.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lobby_helpers import running_table, wait_for_condition
from test_match_over_loopback import joined_app, play_until_the_end
from testkit.waiting import pilot_wait_until as wait_until
from textual._context import active_app
from textual.pilot import Pilot
from textual.widgets import Select, Static

from ono99tui.game.state import MATCH_OVER
from ono99tui.ui.app import Ono99App
from ono99tui.ui.host_app import host_app
from ono99tui.ui.screens.help import HelpScreen
from ono99tui.ui.screens.results import MatchEndScreen
from ono99tui.ui.screens.table import TableScreen
from ono99tui.ui.screens.waiting_room import WaitingRoomScreen
from ono99tui.ui.widgets.cards import HandView
from ono99tui.ui.widgets.log import EventLog

HOST_KEY = "host-key-of-the-room-test"


def text_of(app: Ono99App, selector: str) -> str:
    """The text of `selector` on the screen on top ("" while that screen is still being
    built: a wait may ask between the push and the compose)."""
    found = app.screen.query(selector)
    return str(found.first(Static).render()) if found else ""


def offers(app: Ono99App, action: str) -> bool | None:
    """Whether the screen on top of `app` offers `action` now. Asked in that app's own
    context: several apps share this test's loop, and a screen finds its app through it."""
    token = active_app.set(app)
    try:
        return app.screen.check_action(action, ())
    finally:
        active_app.reset(token)


def in_room(app: Ono99App) -> bool:
    return isinstance(app.screen, WaitingRoomScreen)


def at_table(app: Ono99App) -> bool:
    """At the table, its hand drawn: a card key pressed before that is lost."""
    screen = app.screen
    hands = screen.query(HandView) if isinstance(screen, TableScreen) else None
    if not hands:
        return False
    hand = hands.first(HandView)
    # The hand's row of cards is composed a moment after the hand is mounted: until then
    # it is not drawn yet (asking for its cards would raise).
    return bool(hand.query("#hand-cards")) and bool(hand.cards)


async def deal_first_match(host: Ono99App, bob: Ono99App) -> None:
    await wait_for_condition(lambda: host.session.lobby is not None and len(host.session.lobby.seats) == 3,
                             what="three seats")
    # bob's key reaches the table only from his waiting room, once it shows the table.
    await wait_for_condition(lambda: isinstance(bob.screen, WaitingRoomScreen)
                             and bob.session.lobby is not None
                             and len(bob.session.lobby.seats) == 3, what="bob's waiting room")
    bob.simulate_key("r")
    await wait_for_condition(lambda: host.session.lobby.seats[1].ready, what="bob ready")
    host.simulate_key("s")
    await wait_for_condition(lambda: at_table(host) and at_table(bob), what="the deal")


async def match_over(players: list[tuple[Ono99App, Pilot[Any]]]) -> None:
    await play_until_the_end(players)
    for app, _ in players:
        await wait_for_condition(lambda app=app: isinstance(app.screen, MatchEndScreen)
                                 and app.session.lobby is not None and app.session.lobby.phase == "finished",
                                 what="the match-over dialog")


async def test_the_host_reopens_the_room_changes_the_preset_and_deals(tmp_path: Path) -> None:
    async with running_table(name="den", capacity=3, host_key=HOST_KEY, seed=55) as server:
        host = host_app(server, player="ana")
        bob = joined_app(server.port, "bob", tmp_path / "bob")
        async with host.run_test(size=(80, 24)) as host_pilot, \
                bob.run_test(size=(80, 24)) as bob_pilot:
            players = [(host, host_pilot), (bob, bob_pilot)]
            await wait_for_condition(lambda: host.session.lobby is not None, what="the host's seat")
            server.table.add_bot("greedy")
            await deal_first_match(host, bob)
            await match_over(players)

            # The host sees who is ready for the rematch, as it changes.
            await wait_for_condition(lambda: "Not yet: bob" in text_of(host, "#rematch-status"),
                                     what="bob not ready yet")
            assert "Ready for the rematch: nobody yet" in text_of(host, "#rematch-status")
            bob.simulate_key("r")
            await wait_for_condition(
                lambda: "Everyone is ready" in text_of(host, "#rematch-status"),
                what="the host told bob is ready")
            # Only the host may open the room: bob's dialog has no such key.
            assert offers(bob, "open_room") is False
            assert offers(host, "open_room") is True

            host.simulate_key("o")
            await wait_for_condition(lambda: in_room(host) and in_room(bob), what="the room")
            assert server.table.phase == "waiting"
            # The table stays under the room, its log with it.
            assert any(isinstance(screen, TableScreen) for screen in bob.screen_stack)
            assert not any(isinstance(screen, MatchEndScreen) for screen in bob.screen_stack)
            # Bob's ready was for the old rules; he is told, and says it again later.
            assert bob.session.lobby.seats[1].ready is False
            await wait_until(bob_pilot, lambda: any("opened the waiting room" in note.message
                                                    for note in bob._notifications),
                             what="bob told why")
            assert "won here" in text_of(bob, "#standings")
            assert offers(bob, "leave") is True  # back to the lobby from here

            room = host.screen
            assert isinstance(room, WaitingRoomScreen)
            room.query_one("#opt-preset", Select).value = "1980"
            await wait_for_condition(lambda: bob.session.options.rules is not None
                                     and bob.session.options.rules.name == "1980", what="bob sees 1980")
            await wait_until(bob_pilot, lambda: "preset 1980" in text_of(bob, "#rules-summary"),
                             what="the room shows it")
            # The rules page in the room is the next match's.
            bob.action_rules()
            await wait_until(bob_pilot, lambda: isinstance(bob.screen, HelpScreen)
                             and bool(bob.screen.query(".help-heading")), what="the rules page")
            assert "1980" in str(bob.screen.query_one(".help-heading", Static).render())
            bob.simulate_key("escape")
            await wait_until(bob_pilot, lambda: in_room(bob), what="back in the room")
            bob.simulate_key("r")
            await wait_for_condition(lambda: host.session.lobby.seats[1].ready, what="bob ready again")
            # A change after bob said ready takes his ready back, and he is told why.
            # One token each (1980 plays for tokens): a change, and a short second match.
            server.table.set_options({"rules": {"tokens": 1}})
            await wait_until(bob_pilot, lambda: any("changed the rules" in note.message
                                                    for note in bob._notifications),
                             what="bob told his ready was taken back")
            assert bob.session.lobby.seats[1].ready is False
            bob.simulate_key("r")
            await wait_for_condition(lambda: host.session.lobby.seats[1].ready, what="bob ready again")
            await wait_until(host_pilot, lambda: "everyone is ready" in
                             text_of(host, "#room-status"), what="the host sees it")
            host.simulate_key("s")
            await wait_for_condition(lambda: at_table(host) and at_table(bob), what="match 2")
            assert bob.session.view is not None and bob.session.view.rules.name == "1980"
            assert server.table.journal[-1].rules["name"] == "1980"
            log = bob.screen.query_one(EventLog)
            assert any("Match 2" in line for line in log.lines)  # match 1 is above it

            await match_over(players)
            # The room again, after the 1980 match: it must not send the room's defaults
            # (2022) back to the table as the host's own change.
            host.simulate_key("escape")
            await wait_until(host_pilot, lambda: isinstance(host.screen, TableScreen),
                             what="the table")
            assert offers(host, "open_room") is True  # `o` at the table too
            host.simulate_key("o")
            await wait_for_condition(lambda: in_room(host) and in_room(bob), what="the room")
            await host_pilot.pause(0.3)
            assert server.table.rules.name == "1980"
            assert "preset 1980" in text_of(host, "#rules-summary")
            host.simulate_key("s")  # dealt without bob's ready: the host deals
            await wait_for_condition(lambda: at_table(host) and at_table(bob), what="match 3")
            assert bob.session.view.rules.name == "1980" and server.table.journal[-1].rules["name"] == "1980"
            assert len(server.table.journal) == 3


async def test_a_spectator_goes_to_the_room_and_takes_a_seat_there(tmp_path: Path) -> None:
    async with running_table(name="den", capacity=3, host_key=HOST_KEY, seed=55) as server:
        host = host_app(server, player="ana")
        bob = joined_app(server.port, "bob", tmp_path / "bob")
        async with host.run_test(size=(80, 24)) as host_pilot, \
                bob.run_test(size=(80, 24)) as bob_pilot:
            players = [(host, host_pilot), (bob, bob_pilot)]
            await wait_for_condition(lambda: host.session.lobby is not None, what="the host's seat")
            server.table.add_bot("greedy")
            await deal_first_match(host, bob)
            eve = joined_app(server.port, "eve", tmp_path / "eve", spectate=True)
            async with eve.run_test(size=(80, 24)) as eve_pilot:
                await wait_until(eve_pilot, lambda: isinstance(eve.screen, TableScreen),
                                 what="eve watching")
                await match_over(players)
                await wait_until(eve_pilot, lambda: eve.session.view.phase == MATCH_OVER,
                                 what="eve sees the end")
                # The palette offers the room to the host alone.
                names = [command.title for command in host.get_system_commands(host.screen)]
                assert "Waiting room" in names
                assert "Waiting room" not in [
                    command.title for command in bob.get_system_commands(bob.screen)]
                host.action_open_room()
                await wait_until(eve_pilot, lambda: in_room(eve)
                                 and "Watching" in text_of(eve, "#room-status"),
                                 what="eve in the room, watching")
                assert "t takes" in text_of(eve, "#room-status")
                # A newcomer's seat: the bot gives its seat up for eve, as before a match.
                eve.simulate_key("t")
                await wait_for_condition(
                    lambda: host.session.lobby is not None
                    and [seat.name for seat in host.session.lobby.seats] == ["ana", "bob", "eve"],
                    what="eve seated")
                await wait_until(eve_pilot, lambda: in_room(eve) and eve.session.lobby is not None
                                 and eve.session.lobby.you == 2, what="eve's seat in the room")
                assert eve.session.view is None  # no view of the match that is over


async def test_a_room_opened_and_dealt_from_at_once_leaves_the_player_at_the_table(
    tmp_path: Path,
) -> None:
    # The room's lobby, then the deal's, arrive together: the room is pushed and popped
    # before it is built, and must not fail on the widgets it never had.
    async with running_table(name="den", capacity=3, host_key=HOST_KEY, seed=55) as server:
        host = host_app(server, player="ana")
        bob = joined_app(server.port, "bob", tmp_path / "bob")
        async with host.run_test(size=(80, 24)) as host_pilot, \
                bob.run_test(size=(80, 24)) as bob_pilot:
            players = [(host, host_pilot), (bob, bob_pilot)]
            await wait_for_condition(lambda: host.session.lobby is not None, what="the host's seat")
            server.table.add_bot("greedy")
            await deal_first_match(host, bob)
            await match_over(players)
            server.table.open_room()
            server.table.set_options({"preset": "1980"})
            server.table.start()
            await wait_for_condition(lambda: bob.session.view is not None and bob.session.view.rules.name == "1980"
                                     and at_table(bob), what="bob at the 1980 table")
            await bob_pilot.pause(0.3)
            assert at_table(bob)
            assert not any(isinstance(screen, WaitingRoomScreen)
                           for screen in bob.screen_stack[bob.screen_stack.index(bob.screen):])


async def test_only_a_finished_match_gives_way_to_the_room() -> None:
    # `ono99 solo` opens on the table screen and hears a waiting lobby before its first
    # deal; a host restarted without the match sends one mid-match. Neither is the room
    # opened after a match: the table stays on screen (it flashed a waiting room first).
    from dataclasses import replace

    from table_helpers import LocalMatch, RecordingApp, lobby_for, open_local

    from ono99tui.game import preset
    from ono99tui.ui.requests import TableItem

    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        app.post_message(TableItem(replace(lobby_for(3), phase="waiting")))
        await pilot.pause()
        await open_local(app, pilot, LocalMatch(preset("2022"), 3, seed=3), lobby_for(3))
        app.post_message(TableItem(replace(lobby_for(3), phase="waiting")))
        await pilot.pause(0.2)
        assert not any(isinstance(screen, WaitingRoomScreen) for screen in app.screen_stack)
        assert isinstance(app.screen, TableScreen)
