"""The waiting room with Pilot, against a real table on loopback: the host's controls and a
player's read-only view of the same table."""

from __future__ import annotations

import time
from pathlib import Path

from lobby_helpers import running_table
from testkit.screens import screen_lines
from testkit.waiting import pilot_wait_until as wait_until
from textual.widgets import Checkbox, DataTable, Input, Select, Static

from netproto.addresses import Address
from netproto.wire.messages import Lobby, SeatInfo, SeatKind, TablePhase
from ono99tui.ui.app import Ono99App
from ono99tui.ui.host_app import host_app
from ono99tui.ui.screens.lobby import LobbyScreen
from ono99tui.ui.screens.waiting_room import WaitingRoomScreen, table_deals_when

HOST_KEY = "the-host-key-for-tests"


def seat_names(app: Ono99App) -> list[str]:
    return [seat.name for seat in app.session.lobby.seats] if app.session.lobby else []


def room(app: Ono99App) -> WaitingRoomScreen:
    screen = app.screen
    assert isinstance(screen, WaitingRoomScreen)
    return screen


def rules(app: Ono99App) -> dict[str, object]:
    assert app.session.lobby is not None
    return app.session.lobby.options["rules"]


async def test_host_adds_and_removes_bots_changes_rules_and_starts(tmp_path: Path) -> None:
    async with running_table(name="den", capacity=4, host_key=HOST_KEY) as server:
        app = host_app(server, player="ana", invite="Others join with: ono99 join")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: seat_names(app) == ["ana"], what="the host's seat")
            screen = room(app)
            assert screen.is_host and "(host)" in str(screen.query_one("#room-title", Static).render())
            assert "ono99 join" in str(screen.query_one("#invite", Static).render())

            await pilot.press("b")
            await wait_until(pilot, lambda: len(seat_names(app)) == 2, what="the bot")
            assert app.session.lobby.seats[1].kind == "bot"
            await pilot.press("down", "x")  # remove the highlighted bot
            await wait_until(pilot, lambda: seat_names(app) == ["ana"], what="the removal")
            await pilot.press("x")  # on the host's own seat: refused locally, in words
            assert "Highlight a bot" in str(screen.query_one("#room-status", Static).render())

            screen.query_one("#opt-preset", Select).value = "1980"
            await wait_until(pilot, lambda: app.session.lobby.options["preset"] == "1980", what="preset")
            assert rules(app)["scoring"] == "tokens"
            screen.query_one("#opt-scoring", Select).value = "points-lowest"
            await wait_until(pilot, lambda: rules(app)["scoring"] == "points-lowest",
                             what="the scoring")
            target = screen.query_one("#opt-target", Input)
            target.focus()
            target.value = "150"
            await pilot.press("enter")
            await wait_until(pilot, lambda: rules(app)["target"] == 150, what="the target")
            turn_time = screen.query_one("#opt-turn_seconds", Input)
            assert turn_time.value == "" and app.session.lobby.options["turn_seconds"] is None
            turn_time.focus()
            turn_time.value = "45"
            await pilot.press("enter")
            await wait_until(pilot, lambda: app.session.lobby.options["turn_seconds"] == 45.0,
                             what="the turn time")
            turn_time.value = ""  # empty: no clock
            await pilot.press("enter")
            await wait_until(pilot, lambda: app.session.lobby.options["turn_seconds"] is None,
                             what="no turn clock")
            turn_time.value = "20"
            await pilot.press("enter")
            await wait_until(pilot, lambda: app.session.lobby.options["turn_seconds"] == 20.0,
                             what="the turn time again")
            late_draw = screen.query_one("#opt-late_draw_penalty", Checkbox)
            late_draw.focus()
            await pilot.press("space")
            await wait_until(pilot, lambda: rules(app)["late_draw_penalty"] is True,
                             what="the late-draw rule")
            assert "target 150" in str(screen.query_one("#rules-summary", Static).render())

            await pilot.press("escape", "s")  # one player only: the table refuses, in words
            await pilot.pause(0.2)
            assert app.session.lobby.phase == "waiting"
            await pilot.press("b", "s")
            await wait_until(pilot, lambda: app.session.view is not None, what="the deal")
            assert app.session.view.rules.scoring == "points-lowest" and app.session.view.rules.target == 150
            await wait_until(pilot, lambda: app.session.clock_deadline is not None
                             or app.session.view.turn != app.session.view.seat, what="the clock or the bot")
            if app.session.view.turn == app.session.view.seat:  # the host's own turn is timed: 20 s
                seat, due = app.session.clock_deadline
                assert seat == app.session.view.seat and 0 < due - time.monotonic() <= 20.0


async def test_the_host_s_status_says_whether_s_can_deal_and_to_whom(tmp_path: Path) -> None:
    """It said "s starts the game; everyone is ready." over empty seats, and (after a
    match) with nobody here to play against, where the table refuses the deal."""
    async with running_table(name="den", capacity=3, host_key=HOST_KEY) as server:
        app = host_app(server, player="ana")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: seat_names(app) == ["ana"], what="the host's seat")

            def status() -> str:
                return str(room(app).query_one("#room-status", Static).render())

            await wait_until(pilot, lambda: status() == "Waiting for someone to play against: "
                             "b adds a bot, then s starts.", what="alone")
            await pilot.press("b")
            await wait_until(pilot, lambda: status() == "s starts the game for the 2 here, all "
                             "ready; 1 seat stays empty.", what="a seat empty")
            await pilot.press("b")
            await wait_until(pilot, lambda: status() == "s starts the game; everyone is ready.",
                             what="a full table")


def test_players_gone_do_not_count_for_the_deal() -> None:
    """After a match a seat whose player went is still listed, but freed at the deal: with
    only the host here the table refuses it, and the one away is no one to wait for."""
    def lobby(*seats: SeatInfo, capacity: int = 3, phase: str = "waiting") -> Lobby:
        return Lobby(phase=phase, seats=seats, host_seat=0, you=0, capacity=capacity,
                     results={"matches_won": [1, 0], "matches_played": [1, 1]})

    host = SeatInfo(0, "ana", SeatKind.HUMAN, False, True)
    away = SeatInfo(1, "bob", SeatKind.HUMAN, False, False)
    here = SeatInfo(1, "bob", SeatKind.HUMAN, True, True)
    status = WaitingRoomScreen._host_status
    assert status(lobby(host, away), [], next_match=True).startswith(
        "Waiting for someone to play against")
    assert status(lobby(host, here), [], next_match=True) == (
        "s starts the next match for the 2 here, all ready; 1 seat stays empty.")
    assert status(lobby(host, here, SeatInfo(2, "cy", SeatKind.HUMAN, True, False)), [],
                  next_match=False) == (
        "s starts the game for the 2 here, all ready; 1 seat stays empty.")
    assert status(lobby(host, here, capacity=2), [], next_match=True) == (
        "s starts the next match; everyone is ready.")


async def test_the_rules_show_only_the_options_the_scoring_uses(tmp_path: Path) -> None:
    """RULES.md §3: a single round has neither target nor tokens; tokens scoring has the
    tokens, the points modes the target. Switching the scoring shows what the new one uses."""
    async with running_table(name="den", capacity=4, host_key=HOST_KEY) as server:
        app = host_app(server, player="ana")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: seat_names(app) == ["ana"], what="the host's seat")
            screen = room(app)

            def shown() -> tuple[bool, bool]:
                # What is on screen: the labels of the two fields ("target 100" and "3 tokens
                # each" of the summary are lower case).
                lines = screen_lines(app)
                return (any(" Target " in line for line in lines),
                        any(" Tokens " in line for line in lines))

            await wait_until(pilot, lambda: rules(app)["scoring"] == "single"
                             and shown() == (False, False), what="a single round's options")
            for scoring, wanted in (("tokens", (False, True)),
                                    ("points-elimination", (True, False)),
                                    ("points-lowest", (True, False)), ("single", (False, False))):
                screen.query_one("#opt-scoring", Select).value = scoring
                await wait_until(pilot, lambda scoring=scoring, wanted=wanted:  # type: ignore[misc]
                                 rules(app)["scoring"] == scoring and shown() == wanted,
                                 what=f"the options of {scoring}")
            # A preset brings its own scoring, and with it its options.
            screen.query_one("#opt-preset", Select).value = "1980"
            await wait_until(pilot, lambda: shown() == (False, True), what="1980's tokens")


async def test_players_see_the_room_read_only_and_say_ready(tmp_path: Path) -> None:
    async with running_table(name="den", capacity=3, host_key=HOST_KEY) as server:
        host = host_app(server, player="ana")
        guest = Ono99App(start_screen=LobbyScreen(
            None, config_directory=tmp_path, name="bob",
            join_address=Address("127.0.0.1", server.port)))
        async with host.run_test() as host_pilot, guest.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: seat_names(guest) == ["ana", "bob"], what="seats")
            screen = room(guest)
            assert not screen.is_host and screen.my_seat_number == 1
            assert all(field.disabled for field in screen.query("#rules-panel Select"))
            assert guest.screen.check_action("start", ()) is False
            await pilot.press("s", "b")  # host-only keys do nothing for a player
            await pilot.press("r")
            await wait_until(pilot, lambda: guest.session.lobby.seats[1].ready, what="ready")
            assert host.session.lobby is not None
            await wait_until(host_pilot, lambda: host.session.lobby.seats[1].ready, what="host sees it")
            table = screen.query_one("#seats", DataTable)
            assert "you" in str(table.get_row_at(1)[1])
            # The host's status says who deals, not "not ready": the host has no ready key.
            assert str(table.get_row_at(0)[2]) == "host"
            assert guest.session.lobby.phase == "waiting" and len(guest.session.lobby.seats) == 2
            await pilot.press("r")
            await wait_until(pilot, lambda: not guest.session.lobby.seats[1].ready, what="not ready")


async def test_a_player_leaves_for_the_lobby_and_joins_again(tmp_path: Path) -> None:
    async with running_table(name="den", capacity=3, host_key=HOST_KEY) as server:
        host = host_app(server, player="ana")
        lobby = LobbyScreen(None, config_directory=tmp_path, name="bob",
                            join_address=Address("127.0.0.1", server.port))
        guest = Ono99App(start_screen=lobby)
        async with host.run_test() as host_pilot, guest.run_test() as pilot:
            await wait_until(pilot, lambda: seat_names(guest) == ["ana", "bob"], what="seats")
            assert host.screen.check_action("leave", ()) is False  # the host's own table
            await pilot.press("l")
            await wait_until(pilot, lambda: guest.screen is lobby, what="the lobby")
            await wait_until(host_pilot, lambda: seat_names(host) == ["ana"], what="seat freed")
            assert "You left the table" in str(lobby.query_one("#lobby-status", Static).render())
            await pilot.press("a", "enter")  # the address is still there: join again
            await wait_until(pilot, lambda: isinstance(guest.screen, WaitingRoomScreen)
                             and seat_names(guest) == ["ana", "bob"], what="back at the table")


async def test_a_guest_at_a_headless_table_is_offered_no_host_controls(tmp_path: Path) -> None:
    # A headless table has an operator key nobody seated holds: no host at all. The guest
    # is told the table deals by itself, not that "the host starts the game".
    async with running_table(name="den", capacity=4, start_when=3, host_key=HOST_KEY) as server:
        server.table.add_bot("greedy")
        guest = Ono99App(start_screen=LobbyScreen(
            None, config_directory=tmp_path, name="bob",
            join_address=Address("127.0.0.1", server.port)))
        async with guest.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: seat_names(guest) == ["Greedy bot", "bob"],
                             what="seats")
            screen = room(guest)
            assert guest.session.lobby is not None and guest.session.lobby.host_seat is None
            assert not screen.is_host and "(player)" in str(
                screen.query_one("#room-title", Static).render())
            for action in ("start", "add_bot", "remove_bot"):
                assert screen.check_action(action, ()) is False
            assert all(field.disabled for field in screen.query("#rules-panel Select"))
            status = str(screen.query_one("#room-status", Static).render())
            assert status == "The game starts by itself when 3 seats are taken (2 now)."


async def test_join_with_the_operator_key_gets_the_host_controls(tmp_path: Path) -> None:
    # `ono99 join --host-key KEY`: the lobby offers the key, the table gives host rights.
    async with running_table(name="den", capacity=4, start_when=3, host_key=HOST_KEY) as server:
        wrong = Ono99App(start_screen=LobbyScreen(
            None, config_directory=tmp_path, name="eve", host_key="not-the-key",
            join_address=Address("127.0.0.1", server.port)))
        async with wrong.run_test(size=(80, 24)) as pilot:
            lobby = wrong.screen
            assert isinstance(lobby, LobbyScreen)
            await wait_until(pilot, lambda: "host key" in str(
                lobby.query_one("#lobby-status", Static).render()), what="the refusal")
            assert server.table.seats == []
        operator = Ono99App(start_screen=LobbyScreen(
            None, config_directory=tmp_path, name="op", host_key=HOST_KEY,
            join_address=Address("127.0.0.1", server.port)))
        async with operator.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: seat_names(operator) == ["op"], what="the seat")
            screen = room(operator)
            assert screen.is_host and screen.check_action("start", ()) is True
            await pilot.press("b")
            await wait_until(pilot, lambda: len(seat_names(operator)) == 2, what="the bot")


def test_a_table_with_no_host_says_how_it_deals_in_each_phase() -> None:
    def lobby(phase: TablePhase, host_seat: int | None = None,
              start_when: int | None = 3) -> Lobby:
        seats = tuple(SeatInfo(seat=index, name=name, kind=SeatKind.HUMAN, ready=False,
                               connected=True) for index, name in enumerate(("ann", "bob")))
        return Lobby(phase=phase, seats=seats, host_seat=host_seat, you=1, capacity=4,
                     spectators=0, options={"start_when": start_when}, results={})

    assert table_deals_when(lobby(TablePhase.WAITING)) == (
        "The game starts by itself when 3 seats are taken (2 now).")
    assert table_deals_when(lobby(TablePhase.FINISHED)) == (
        "The next game starts with 3 seats, all ready (2 now).")
    assert table_deals_when(lobby(TablePhase.FINISHED), ask_ready=True) == (
        "Press r when ready: the next game starts with 3 seats, all ready (2 now).")
    assert table_deals_when(lobby(TablePhase.WAITING, host_seat=0)) is None  # the host starts it
    assert table_deals_when(lobby(TablePhase.WAITING, start_when=None)) is None
    # The room its operator opened again after a match (and left): a rematch's rule.
    from dataclasses import replace
    reopened = replace(lobby(TablePhase.WAITING), results={"matches_won": [0, 1],
                                                           "matches_played": [1, 1]})
    assert table_deals_when(reopened, ask_ready=True) == (
        "Press r when ready: the next game starts with 3 seats, all ready (2 now).")
