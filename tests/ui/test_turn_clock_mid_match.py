"""The host starts a turn clock in the middle of a match (`k` at the table), for a player
who walked away mid-turn; the reminder that it can (`TurnWait`, on a fake clock)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from lobby_helpers import running_table
from testkit.waiting import pilot_wait_until as wait_until
from textual.widgets import Input

from netproto.addresses import Address
from netproto.wire.messages import SeatInfo, SeatKind
from ono99tui.game import preset, start_match, view
from ono99tui.ui.app import Ono99App
from ono99tui.ui.host_app import host_app
from ono99tui.ui.screens.lobby import LobbyScreen
from ono99tui.ui.screens.table import TableScreen
from ono99tui.ui.screens.turn_time_prompt import BadTurnTime, TurnTimePrompt, parse_turn_time
from ono99tui.ui.turn_wait import WAIT_NOTICE_SECONDS, TurnWait

HOST_KEY = "the-host-key-for-tests"


async def test_the_host_starts_a_clock_for_a_player_who_walked_away(tmp_path: Path) -> None:
    async with running_table(name="den", capacity=2, host_key=HOST_KEY) as server:
        host = host_app(server, player="ana")
        guest = Ono99App(start_screen=LobbyScreen(
            None, config_directory=tmp_path, name="bob",
            join_address=Address("127.0.0.1", server.port)))
        async with host.run_test(size=(80, 24)) as pilot, guest.run_test(size=(80, 24)) as gp:
            await wait_until(pilot, lambda: host.session.lobby is not None
                             and len(host.session.lobby.seats) == 2, what="both seats")
            await pilot.press("s")
            await wait_until(pilot, lambda: isinstance(host.screen, TableScreen)
                             and host.session.view is not None, what="the deal")
            # Bob never plays: when it is Ana's turn she plays, until the table waits on Bob.
            for _ in range(8):
                table_view = host.session.view
                assert table_view is not None
                if table_view.turn != table_view.seat:
                    break
                seq = host.session.view_seq
                await pilot.press("1", "2", "3", "4")
                await wait_until(pilot, lambda seq=seq: host.session.view_seq > seq, what="Ana's move")
            assert host.session.view is not None and host.session.view.turn == 1
            assert host.session.clock_deadline is None  # no clock: the table would wait for good
            await pilot.press("k")
            await wait_until(pilot, lambda: isinstance(host.screen, TurnTimePrompt),
                             what="the prompt")
            field = host.screen.query_one(Input)
            field.value = "soon"
            await pilot.press("enter")  # not a number: said in the prompt, which stays
            assert isinstance(host.screen, TurnTimePrompt)
            field.value = "20"
            await pilot.press("enter")
            await wait_until(pilot, lambda: host.session.clock_deadline is not None, what="the clock")
            assert host.session.clock_deadline is not None and host.session.clock_deadline[0] == 1
            assert server.table.core.turn_seconds == 20.0
            await wait_until(gp, lambda: guest.session.clock_deadline is not None,
                             what="Bob's app showing his clock")
            # Off again: Escape changes nothing, an empty line stops the clock.
            await pilot.press("k")
            await wait_until(pilot, lambda: isinstance(host.screen, TurnTimePrompt),
                             what="the prompt again")
            await pilot.press("escape")
            assert server.table.core.turn_seconds == 20.0
            await pilot.press("k")
            await wait_until(pilot, lambda: isinstance(host.screen, TurnTimePrompt),
                             what="the prompt a third time")
            host.screen.query_one(Input).value = ""
            await pilot.press("enter")
            await wait_until(pilot, lambda: host.session.clock_deadline is None, what="no clock")
            assert server.table.core.turn_seconds is None


async def test_only_the_host_gets_the_clock_key(tmp_path: Path) -> None:
    async with running_table(name="den", capacity=2, host_key=HOST_KEY, start_when=2) as server:
        host = host_app(server, player="ana")
        guest = Ono99App(start_screen=LobbyScreen(
            None, config_directory=tmp_path, name="bob",
            join_address=Address("127.0.0.1", server.port)))
        async with host.run_test(size=(80, 24)) as pilot, guest.run_test(size=(80, 24)) as gp:
            await wait_until(gp, lambda: isinstance(guest.screen, TableScreen)
                             and guest.session.view is not None, what="the deal")
            await wait_until(pilot, lambda: isinstance(host.screen, TableScreen)
                             and host.session.view is not None, what="the host's table")
            # (check_action is asked through each app's own pilot: with two apps in one
            # test, `screen.app` is whichever app ran last.)
            await gp.press("k")
            await gp.pause(0.2)
            assert isinstance(guest.screen, TableScreen)  # a player has no clock key
            await pilot.press("k")
            await wait_until(pilot, lambda: isinstance(host.screen, TurnTimePrompt),
                             what="the host's prompt")


def test_what_the_host_may_type() -> None:
    assert parse_turn_time("45") == 45.0
    assert parse_turn_time(" 90s ") == 90.0
    assert parse_turn_time("") is None and parse_turn_time("off") is None
    for bad in ("0", "-5", "nan", "inf", "1e9", "soon", "1:00"):
        with pytest.raises(BadTurnTime):
            parse_turn_time(bad)


def _seats(kind_of_bob: SeatKind = SeatKind.HUMAN, connected: bool = True) -> list[SeatInfo]:
    return [SeatInfo(0, "ana", SeatKind.HUMAN, False, True),
            SeatInfo(1, "bob", kind_of_bob, False, connected)]


def test_the_host_is_reminded_once_a_move_after_a_minute_without_a_clock() -> None:
    state, _ = start_match(preset("2022"), 2, random.Random(3))
    state = state._replace(turn=1)  # the table waits on Bob
    waiting_on_bob = view(state, 0)
    wait = TurnWait()
    assert wait.check(waiting_on_bob, _seats(), False, 100.0) is None
    assert wait.check(waiting_on_bob, _seats(), False, 100.0 + WAIT_NOTICE_SECONDS - 1) is None
    assert wait.check(waiting_on_bob, _seats(), False, 100.0 + WAIT_NOTICE_SECONDS) == "bob"
    assert wait.check(waiting_on_bob, _seats(), False, 100.0 + 5 * WAIT_NOTICE_SECONDS) is None
    for seats, clock in ((_seats(), True), (_seats(SeatKind.BOT), False),
                         (_seats(connected=False), False)):
        fresh = TurnWait()
        fresh.check(waiting_on_bob, seats, clock, 0.0)
        assert fresh.check(waiting_on_bob, seats, clock, 10 * WAIT_NOTICE_SECONDS) is None
    own_turn = view(state, 1)  # Bob's own app: his own move is nobody else's business
    mine = TurnWait()
    mine.check(own_turn, _seats(), False, 0.0)
    assert mine.check(own_turn, _seats(), False, 10 * WAIT_NOTICE_SECONDS) is None
