"""Table talk at the keyboard: real apps on one real table on loopback.

`c` opens the one-line prompt, 5-9 send the quick emotes, `m` the mute list; lines show
in the waiting room's talk pane and the table's log, marked apart from game events.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lobby_helpers import running_table, wait_for_condition
from table_helpers import LocalMatch, lobby_for, open_local, record_notices
from table_items import chat_received
from test_chat_snapshots import talking_app
from test_match_over_loopback import joined_app
from testkit.waiting import pilot_wait_until as wait_until
from textual.widgets import OptionList
from textual.widgets._toast import Toast

from netproto.wire.messages import Chat
from ono99tui.game import preset
from ono99tui.host.chat import CHAT_BURST, EMOTES
from ono99tui.ui.app import Ono99App
from ono99tui.ui.host_app import host_app
from ono99tui.ui.log_lines import log_entries
from ono99tui.ui.requests import ChatRequested
from ono99tui.ui.screens.chat_prompt import ChatPrompt
from ono99tui.ui.screens.mute import MuteScreen
from ono99tui.ui.screens.table import TableScreen
from ono99tui.ui.screens.waiting_room import WaitingRoomScreen
from ono99tui.ui.widgets.log import EventLog

HOST_KEY = "host-key-of-the-chat-test"


def talk_lines(app: Ono99App) -> list[str]:
    """The lines of talk the app's current screen shows (the log's chat rows, joined)."""
    found = app.screen.query("#room-chat" if isinstance(app.screen, WaitingRoomScreen)
                             else "#log").results(EventLog)
    log = next(iter(found), None)
    if log is None:
        return []  # the screen is still being built
    return [entry.text(False) for entry in log._entries if entry.chat]


async def say(app: Ono99App, pilot: Any, text: str) -> None:
    """Open the prompt with c, type `text`, Enter."""
    await pilot.press("c")
    await wait_until(pilot, lambda: isinstance(app.screen, ChatPrompt), what="the prompt")
    await pilot.press(*text)
    await pilot.press("enter")
    await wait_until(pilot, lambda: not isinstance(app.screen, ChatPrompt),
                     what="the prompt closed")


async def test_two_players_talk_in_the_waiting_room_and_at_the_table(tmp_path: Path) -> None:
    async with running_table(name="den", capacity=2, host_key=HOST_KEY) as server:
        ana = host_app(server, player="ana")
        bob = joined_app(server.port, "bob", tmp_path / "bob")
        async with ana.run_test(size=(80, 24)), \
                bob.run_test(size=(80, 24)) as bob_pilot:
            await wait_for_condition(
                lambda: ana.session.lobby is not None and len(ana.session.lobby.seats) == 2, what="two seats")
            await wait_until(bob_pilot, lambda: isinstance(bob.screen, WaitingRoomScreen)
                             and bob.session.may_chat, what="bob in the waiting room")
            await say(bob, bob_pilot, "hi [b]ana[/b]")
            await wait_for_condition(lambda: talk_lines(ana) == ["» bob: hi [b]ana[/b]"],
                                     what="bob's line in ana's waiting room")
            assert talk_lines(bob) == ["» bob: hi [b]ana[/b]"]

            ana.simulate_key("s")
            await wait_for_condition(
                lambda: all(isinstance(app.screen, TableScreen) for app in (ana, bob)),
                what="both at the table")
            # The waiting room's talk opens the match's log, before the deal's line.
            await wait_for_condition(lambda: talk_lines(bob) == ["» bob: hi [b]ana[/b]"],
                                     what="the waiting room's line in bob's log")
            log = bob.screen.query_one("#log", EventLog)
            assert log._entries[0].chat and not log._entries[1].chat
            ana.simulate_key("9")  # Good game!
            await wait_for_condition(
                lambda: talk_lines(bob)[1:] == [f"» ana: {EMOTES['good-game']}"],
                what="ana's emote in bob's log")
            await say(bob, bob_pilot, "thanks")
            await wait_for_condition(lambda: talk_lines(ana)[-1:] == ["» bob: thanks"],
                                     what="bob's line in ana's log")
            # Game events stay events: only talk is marked as talk.
            log = ana.screen.query_one("#log", EventLog)
            assert any(not entry.chat for entry in log._entries)
            assert all(entry.text(False).startswith("» ") for entry in log._entries
                       if entry.chat)


async def test_a_muted_player_is_not_heard_by_who_muted_them(tmp_path: Path) -> None:
    async with running_table(name="den", capacity=3, host_key=HOST_KEY) as server:
        ana = host_app(server, player="ana")
        bob = joined_app(server.port, "bob", tmp_path / "bob")
        cy = joined_app(server.port, "cy", tmp_path / "cy")
        async with ana.run_test(size=(80, 24)), bob.run_test(size=(80, 24)) as bob_pilot, \
                cy.run_test(size=(80, 24)):
            await wait_for_condition(
                lambda: ana.session.lobby is not None and len(ana.session.lobby.seats) == 3, what="three seats")
            await wait_for_condition(lambda: bob.session.lobby is not None and len(bob.session.lobby.seats) == 3
                                     and all(app.session.may_chat for app in (ana, bob, cy)),
                                     what="bob sees three seats; everyone may talk")
            await bob_pilot.press("m")
            await wait_until(bob_pilot, lambda: isinstance(bob.screen, MuteScreen),
                             what="the mute list")
            assert bob.screen.names == ["ana", "cy"]
            await bob_pilot.press("space")  # ana, the first on the list
            # The mark says it in characters, not only in colour.
            marks = [str(option.prompt) for option in bob.screen.query_one(OptionList).options]
            assert marks == ["[x] ana  muted", "[ ] cy"]
            await bob_pilot.press("escape")
            assert bob.session.talk.muted == {"ana"}
            ana.post_message(ChatRequested(text="bob cannot hear this"))
            cy.post_message(ChatRequested(text="but everyone hears cy"))
            await wait_for_condition(lambda: talk_lines(bob) == ["» cy: but everyone hears cy"],
                                     what="cy heard by bob")
            await wait_for_condition(lambda: len(talk_lines(ana)) == 2, what="ana hears both")
            assert talk_lines(bob) == ["» cy: but everyone hears cy"]
            # Unmuted, ana is heard again.
            await bob_pilot.press("m")
            await wait_until(bob_pilot, lambda: isinstance(bob.screen, MuteScreen),
                             what="the mute list again")
            await bob_pilot.press("space")
            await bob_pilot.press("escape")
            assert bob.session.talk.muted == set()
            ana.post_message(ChatRequested(text="hello again"))
            await wait_for_condition(lambda: talk_lines(bob)[-1:] == ["» ana: hello again"],
                                     what="ana heard again")


async def test_too_fast_is_told_to_slow_down_and_the_table_goes_on(tmp_path: Path) -> None:
    async with running_table(name="den", capacity=2, host_key=HOST_KEY) as server:
        ana = host_app(server, player="ana")
        bob = joined_app(server.port, "bob", tmp_path / "bob")
        async with ana.run_test(size=(80, 24)), bob.run_test(size=(80, 24)) as bob_pilot:
            await wait_for_condition(
                lambda: ana.session.lobby is not None and len(ana.session.lobby.seats) == 2, what="two seats")
            await wait_until(bob_pilot, lambda: bob.session.may_chat, what="bob may chat")
            ana.simulate_key("s")
            await wait_for_condition(
                lambda: all(isinstance(app.screen, TableScreen) for app in (ana, bob)),
                what="both at the table")
            notices = record_notices(bob)
            for _ in range(CHAT_BURST + 1):
                await bob_pilot.press("7")  # Oops!
            await wait_until(bob_pilot, lambda: any("slow down" in n for n in notices),
                             what="slow down")
            await wait_for_condition(lambda: len(talk_lines(ana)) == CHAT_BURST,
                                     what="the burst reached ana")
            assert bob.session.connection_state == "connected"
            assert isinstance(bob.screen, TableScreen)


async def test_spectators_talk_unless_the_host_turns_it_off(tmp_path: Path) -> None:
    async with running_table(name="den", capacity=2, host_key=HOST_KEY) as server:
        ana = host_app(server, player="ana")
        eve = joined_app(server.port, "eve", tmp_path / "eve", spectate=True)
        async with ana.run_test(size=(80, 24)) as ana_pilot, \
                eve.run_test(size=(80, 24)) as eve_pilot:
            await wait_for_condition(lambda: eve.session.lobby is not None and ana.session.lobby is not None
                                     and ana.session.lobby.spectators == 1, what="eve watching")
            await wait_until(eve_pilot, lambda: eve.session.may_chat, what="eve may chat")
            await say(eve, eve_pilot, "go ana")
            await wait_for_condition(lambda: talk_lines(ana) == ["» eve: go ana"],
                                     what="eve heard")
            box = ana.screen.query_one("#spectator-chat")
            box.focus()
            await ana_pilot.press("space")
            await wait_until(eve_pilot, lambda: not eve.session.may_chat, what="eve's chat off")
            await eve_pilot.press("c")
            assert not isinstance(eve.screen, ChatPrompt)
            # eve still reads the players.
            await say(ana, ana_pilot, "quiet please")
            await wait_for_condition(lambda: talk_lines(eve)[-1:] == ["» ana: quiet please"],
                                     what="eve reads ana")


async def test_talk_in_a_waiting_room_too_small_for_its_pane_comes_as_a_notice(
        tmp_path: Path) -> None:
    # At 61x19 with five seats the seats fill their half of the screen and the Chat pane
    # is laid out below, clipped out of sight: its line must come as a notification.
    async with running_table(name="den", capacity=5, host_key=HOST_KEY) as server:
        ana = host_app(server, player="ana")
        bob = joined_app(server.port, "bob", tmp_path / "bob")
        async with ana.run_test(size=(80, 24)), bob.run_test(size=(61, 19)) as bob_pilot:
            await wait_until(bob_pilot, lambda: isinstance(bob.screen, WaitingRoomScreen)
                             and bob.session.may_chat, what="bob in the waiting room")
            # Laid out with its seats: the pane is clipped away (before that, it was not).
            await wait_until(bob_pilot, lambda: isinstance(bob.screen, WaitingRoomScreen)
                             and not bob.screen.talk_in_sight(), what="the pane out of sight")
            notices = record_notices(bob)
            ana.post_message(ChatRequested(text="can you read me"))
            await wait_for_condition(lambda: talk_lines(bob) == ["» ana: can you read me"],
                                     what="ana's line in bob's (hidden) pane")
            await wait_until(bob_pilot, lambda: "» ana: can you read me" in notices,
                             what="the line as a notice")


@pytest.mark.parametrize(("size", "lines"), [((61, 19), 2), ((40, 12), 2), ((79, 24), 2)])
async def test_a_long_line_of_talk_makes_a_short_toast_over_a_narrow_table(
        size: tuple[int, int], lines: int) -> None:
    # Played at 61x19: a 200-character line stood as a toast nine rows tall over the seats
    # (the log, which has the whole line, is hidden under 80 columns).
    text = ("so that was a close one, I really thought the ninety nine would land on me "
            "but then the reverse came round and saved the day for everyone at this table "
            "except poor cy who had nothing left to play with")
    assert len(text) == 200
    app = talking_app()
    async with app.run_test(size=size, notifications=True) as pilot:
        await open_local(app, pilot, LocalMatch(preset("2022"), 3, seed=21),
                         lobby_for(3, bots=(2,)))
        app.session.connection_state = "connected"
        notices = record_notices(app)
        app.post_message(chat_received(Chat(name="bob", text=text, seat=1)))
        await wait_until(pilot, lambda: len(app.screen.query(Toast)) == 1, what="the toast")
        await pilot.pause()
        toast = app.screen.query_one(Toast)
        assert toast.region.height <= 1 + lines, toast.region  # the title and the lines
        assert notices[-1].endswith("…") and f"» bob: {text}".startswith(notices[-1][:-1])
        assert log_entries(app.session.story.items)[-1].text(False) == f"» bob: {text}"  # the log has it all
