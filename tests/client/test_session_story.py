"""The client session's story of the match: the table shown at the first view, dialogs at
the end of a round and of the match, the viewer's own bust held, the catch-up after a
rejoin (nothing twice; the table's account wins), talk before the deal and muted names,
who may talk, and the table's options read strictly."""

from __future__ import annotations

import subprocess
import sys

from scripted_table import ScriptedTable, seated_session

from netproto.wire.messages import Chat, TablePhase
from ono99tui.client.options import TableOptions, options_from_wire
from ono99tui.client.outputs import (
    ClearNotices,
    CloseDialogs,
    Dialog,
    EventsTaken,
    Heard,
    Log,
    ShowBust,
    ShowMatchEnd,
    ShowRoundEnd,
    ShowTable,
    TurnSignal,
)
from ono99tui.client.session import TableSession
from ono99tui.client.story import EventItem, LogForgotten, MatchPageOpened, SaidItem
from ono99tui.game import Busted, MatchEnded, RoundEnded


def taken(outputs: list) -> list:
    return [event for output in outputs if isinstance(output, EventsTaken)
            for event in output.events]


def test_the_first_view_shows_the_table_and_opens_the_matchs_page() -> None:
    table = ScriptedTable()
    session = TableSession()
    session.connect()
    session.receive(table.welcome(0), 0.0)
    session.receive(table.lobby(0), 0.0)

    outputs = session.receive(table.view(0), 0.0)

    assert ShowTable() in outputs
    assert Log(MatchPageOpened(1)) in outputs
    assert session.story.matches_started == 1
    assert isinstance(outputs[-1], TurnSignal)
    # Every view asks for the table (it comes back over a waiting room opened after a
    # match); the match's page opened once.
    table.play()
    again = session.receive(table.view(0), 1.0)
    assert ShowTable() in again and Log(MatchPageOpened(1)) not in again


def test_the_end_of_the_match_closes_a_rounds_dialog_and_opens_the_matchs() -> None:
    table = ScriptedTable()
    session = seated_session(table, 0)
    table.play_until(lambda t: t.over)

    outputs = session.receive(table.view(0), 1.0)

    end = outputs.index(ShowMatchEnd())
    assert outputs[end - 2:end] == [CloseDialogs(frozenset({Dialog.ROUND_END})), ClearNotices()]
    assert any(isinstance(event, MatchEnded) for event in taken(outputs))


def test_each_round_of_a_tokens_match_has_its_dialog() -> None:
    table = ScriptedTable(rules="1980", seed=3)
    session = seated_session(table, 0)
    table.play_until(lambda t: any(isinstance(e, RoundEnded) for e in t.history))

    outputs = session.receive(table.view(0), 1.0)

    [shown] = [output for output in outputs if isinstance(output, ShowRoundEnd)]
    assert shown.result == session.story.round_results[-1]
    assert shown.result.round_no == 1


def test_the_viewers_own_bust_is_held_unless_its_rounds_dialog_tells_it() -> None:
    for seed in range(1, 40):
        table = ScriptedTable(rules="2022", seed=seed)
        session = seated_session(table, 0)
        table.play_until(lambda t: t.over or any(
            isinstance(e, Busted) and e.seat == 0 for e in t.history))
        if table.over and not any(isinstance(e, Busted) and e.seat == 0 for e in table.history):
            continue
        outputs = session.receive(table.view(0), 1.0)
        busts = [output for output in outputs if isinstance(output, ShowBust)]
        if table.over:  # the bust ended the match: the match's dialog says it
            assert busts == [] and ShowMatchEnd() in outputs
        else:
            assert len(busts) == 1 and busts[0].bust.after.seat == 0
        return
    raise AssertionError("no seed busted seat 0")


def test_a_rejoin_takes_in_only_what_was_missed() -> None:
    table = ScriptedTable()
    session = seated_session(table, 0)
    for _ in range(3):
        table.play()
        session.receive(table.view(0), 1.0)
    seen = len(session.story.items)
    # The link dropped for a while; a new connection resumed the seat with the history.
    for _ in range(4):
        table.play()
    session.receive(table.welcome(0, token="token-1"), 2.0)
    outputs = session.receive(table.view(0, history=True), 2.0)

    events = [item.event for item in session.story.items if isinstance(item, EventItem)]
    assert events == table.history
    assert len(taken(outputs)) == len(session.story.items) - seen
    assert not any(isinstance(output, Log) and isinstance(output.change, LogForgotten)
                   for output in outputs)


def test_the_tables_account_replaces_one_that_differs() -> None:
    table = ScriptedTable(seed=1)
    session = seated_session(table, 0)
    table.play()
    session.receive(table.view(0), 0.5)
    other = ScriptedTable(seed=2)  # the host's journal lost our match: another one is told
    other.view(0)
    other.play()
    assert other.history[:2] != table.history[:2]

    outputs = session.receive(other.view(0, history=True, seq=5), 1.0)

    assert any(isinstance(output, Log) and isinstance(output.change, LogForgotten)
               for output in outputs)
    events = [item.event for item in session.story.items if isinstance(item, EventItem)]
    assert events == other.history


def test_talk_before_the_table_is_shown_opens_the_first_matchs_log() -> None:
    table = ScriptedTable()
    session = TableSession()
    session.connect()
    session.receive(table.welcome(0), 0.0)
    session.receive(table.lobby(0, phase=TablePhase.WAITING), 0.0)

    outputs = session.receive(Chat(name="bob", text="hi \x1b[31mall"), 0.0)

    assert outputs == [Heard(SaidItem("bob", "hi all"))]
    session.receive(table.view(0), 1.0)
    assert session.story.items[0] == SaidItem("bob", "hi all")


def test_a_muted_name_is_not_heard() -> None:
    table = ScriptedTable()
    session = seated_session(table, 0)
    session.talk.set_muted({"bob"})

    assert session.receive(Chat(name="bob", text="psst"), 1.0) == []
    assert "bob" in session.talk.heard


def test_who_may_talk() -> None:
    table = ScriptedTable()
    player = seated_session(table, 0)
    assert player.may_chat
    assert not seated_session(table, 0, hosting="solo").may_chat
    old_table = TableSession()
    old_table.connect()
    old_table.receive(table.welcome(0, chat=False), 0.0)
    assert not old_table.may_chat

    spectator = TableSession()
    spectator.connect()
    spectator.receive(table.welcome(None), 0.0)
    spectator.receive(table.lobby(None), 0.0)
    assert spectator.may_chat
    spectator.receive(table.lobby(None, options={"spectator_chat": False}), 0.0)
    assert not spectator.may_chat


def test_the_tables_options_are_read_strictly() -> None:
    table = ScriptedTable()
    good = options_from_wire(table.lobby(0, options={"hints": True, "turn_seconds": 30,
                                                     "bot_level": "hard"}).options)
    assert good.hints and good.turn_seconds == 30.0 and good.bot_level == "hard"
    assert good.rules is not None and good.rules.name == "2022"

    hostile = options_from_wire({"rules": {"deck": "all of them"}, "hints": "yes",
                                 "turn_seconds": float("nan"), "grace_seconds": -5,
                                 "abandon_policy": "explode", "start_when": True,
                                 "spectator_chat": 0, "bot_level": 7})
    assert hostile == TableOptions(spectator_chat=True)


def test_nothing_in_the_client_package_imports_textual_or_aiohttp() -> None:
    code = ("import pkgutil, importlib, sys, ono99tui.client as c\n"
            "for m in pkgutil.walk_packages(c.__path__, 'ono99tui.client.'):\n"
            "    importlib.import_module(m.name)\n"
            "bad = sorted(n for n in sys.modules if n.split('.')[0] in ('textual', 'aiohttp'))\n"
            "print(bad)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "[]", result.stdout
