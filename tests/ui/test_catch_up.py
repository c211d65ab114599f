"""The app taking in a (re)joined view's history (`ono99tui.client.catch_up`), with matches the
engine plays in the test (no network: every view exactly repeatable).

What it must do: show what it missed as if it had watched (log, round results, busts),
quietly (no dialog, toast or bell for the past), never an event twice; let the table's
account replace its own when the two differ, keeping what was said at the table; say
when the table shortened the oldest rounds; and refuse a history it cannot read with a
notice, showing the view without it and leaving the log as it was.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from table_helpers import (
    LocalMatch,
    RecordingApp,
    lobby_for,
    open_local,
    record_notices,
    wait_until,
)
from table_items import chat_received, lobby_updated, view_updated
from textual.pilot import Pilot

from netproto.wire.messages import Chat
from ono99tui.client.catch_up import BadHistory, History, history_from_wire, unseen_from
from ono99tui.client.names import names_of
from ono99tui.game import (
    MATCH_OVER,
    Event,
    MatchEnded,
    RoundDealt,
    RoundEnded,
    TimedOut,
    legal_moves,
    preset,
)
from ono99tui.game.codec import event_to_wire
from ono99tui.ui.glyphs import glyphs_for
from ono99tui.ui.present import event_line
from ono99tui.ui.screens.table import TableScreen
from ono99tui.ui.widgets.log import EventLog

LOBBY = lobby_for(3, bots=(1, 2))


def played_1980(seed: int, steps: int) -> LocalMatch:
    """A 1980 match (tokens: a bust ends a round) of three, `steps` random moves in; all
    its events are still `pending` (nobody was shown them)."""
    match = LocalMatch(preset("1980"), 3, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if match.state.phase == MATCH_OVER:
            break
        match.step(lambda state, seat: rng.choice(legal_moves(state, seat)))
    return match


def lines_of(events: tuple[Event, ...] | list[Event], match: LocalMatch) -> list[str]:
    """The log lines `events` make for the viewer of `match`."""
    view = match.view()
    names = names_of(view, LOBBY.seats)
    made = (event_line(event, names, view, glyphs_for(False)) for event in events)
    return [line for line in made if line is not None]


async def rejoin(app: RecordingApp, pilot: Pilot[Any], match: LocalMatch,
                 history: tuple[Event, ...], events: tuple[Event, ...] = (),
                 abridged: int = 0) -> None:
    """Post the first view after a (re)join: its `history`, then its own `events`."""
    match.seq += 1
    app.post_message(view_updated(match.seq, match.view(), events,
                                 history=History(history, abridged)))
    await pilot.pause()


def log_rows(app: RecordingApp) -> list[str]:
    """The table screen's log, row by row (whatever dialog is over it)."""
    table = app._table_screen()
    assert table is not None
    return [row.strip() for row in table.query_one(EventLog).lines]


def log_widget_text(app: RecordingApp) -> str:
    return " ".join(log_rows(app))


async def test_a_rejoined_view_fills_the_log_and_results_quietly() -> None:
    match = played_1980(seed=2, steps=100)
    story = match.pending
    assert sum(isinstance(e, RoundEnded) for e in story) >= 2  # rounds over, busts with them
    app = RecordingApp()
    notices = record_notices(app)
    async with app.run_test(size=(100, 30)) as pilot:
        app.post_message(lobby_updated(LOBBY))
        app.post_message(view_updated(0, match.view(), (), history=History(story)))
        match.pending = ()
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.pause()
        assert app.log_lines == lines_of(story, match)
        assert app.session.story.round_results == [e for e in story if isinstance(e, RoundEnded)]
        assert app.session.story.busts is not None and len(app.session.story.busts.chunks) >= 2
        assert app.session.story.matches_started == 1
        assert notices == [] and isinstance(app.screen, TableScreen)  # no dialog, no toast
        assert all(line in log_widget_text(app) for line in app.log_lines)
        # What a hint may know: the events of the round in progress, from its deal.
        deals = [i for i, e in enumerate(story) if isinstance(e, RoundDealt)]
        assert app.session.story.seen.events == list(story[deals[-1]:])


async def test_what_the_app_already_showed_is_not_shown_again() -> None:
    match = played_1980(seed=2, steps=0)
    app = RecordingApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_local(app, pilot, match, LOBBY)
        for _ in range(25):
            match.step()
            await match.show(app, pilot)
        shown = list(app.log_lines)
        # Lost on the way: these events never reached the app.
        for _ in range(6):
            match.step()
        lost = match.pending
        match.pending = ()
        # Then the resumed view: the table counts the lost ones as sent (history).
        everything = _all_events(app, lost)
        await rejoin(app, pilot, match, everything)
        assert app.log_lines == shown + lines_of(lost, match)
        # The same view again (a second rejoin) adds nothing.
        await rejoin(app, pilot, match, everything)
        assert app.log_lines == shown + lines_of(lost, match)


def _all_events(app: RecordingApp, lost: tuple[Event, ...]) -> tuple[Event, ...]:
    """The match so far as the table tells it: what it sent the app (the app's `seen`
    holds the round in progress; earlier rounds are not needed here) then `lost`."""
    return (*app.session.story.seen.events, *lost)


async def test_a_missing_timed_out_after_a_restart_is_no_difference() -> None:
    match = played_1980(seed=4, steps=0)
    app = RecordingApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_local(app, pilot, match, LOBBY)
        match.step()
        match.pending = (TimedOut(seat=0, in_a_row=1), *match.pending)
        await match.show(app, pilot)
        shown = list(app.log_lines)
        assert any("ran out of time" in line for line in shown)
        for _ in range(3):  # lost with the host
            match.step()
        lost = match.pending
        match.pending = ()
        # A restarted table's account lacks the table's own timed_out events.
        story = (*(e for e in app.session.story.seen.events if not isinstance(e, TimedOut)), *lost)
        await rejoin(app, pilot, match, story)
        assert app.log_lines == shown + lines_of(lost, match)


async def test_the_tables_account_replaces_one_that_differs_and_talk_stays() -> None:
    # The app saw one continuation; the table (its journal's last writes lost to a power
    # cut, say) tells another from the same deal.
    base = played_1980(seed=6, steps=0)
    app = RecordingApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_local(app, pilot, base, LOBBY)
        app.post_message(chat_received(Chat(name="bob", text="good luck all", seat=1)))
        for _ in range(10):
            base.step()
            await base.show(app, pilot)
        assert any("good luck all" in line for line in app.log_lines)
        other = played_1980(seed=6, steps=0)
        deal = other.pending
        rng = random.Random(99)
        for _ in range(12):
            other.step(lambda state, seat: rng.choice(legal_moves(state, seat)))
        story = other.pending
        assert story[:len(deal)] == deal and story != tuple(app.session.story.seen.events)
        other.pending, other.seq = (), app.session.view_seq
        await rejoin(app, pilot, other, story)
        talk = [line for line in app.log_lines if "good luck all" in line]
        assert len(talk) == 1 and app.log_lines[0] == talk[0]  # kept, at the top
        assert app.log_lines[1:] == lines_of(story, other)
        assert app.session.story.matches_started == 1
        assert [row for row in log_rows(app) if row.startswith("──")] == []
        assert log_widget_text(app) == " ".join(app.log_lines)


async def test_an_account_from_a_later_round_replaces_the_lines_and_keeps_the_page() -> None:
    # Beyond any real match the table would leave the oldest events out: its account then
    # starts at a later deal. The app's differing lines go; its page and talk stay.
    first = played_1980(seed=3, steps=2000)
    app = RecordingApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_local(app, pilot, first, LOBBY)
        second = played_1980(seed=8, steps=0)
        second.seq = first.seq
        await second.show(app, pilot)  # the rematch: "Match 2"
        app.post_message(chat_received(Chat(name="bob", text="again!", seat=1)))
        for _ in range(5):
            second.step()
            await second.show(app, pilot)
        other = played_1980(seed=11, steps=120)
        deals = [i for i, e in enumerate(other.pending) if isinstance(e, RoundDealt)]
        story = other.pending[deals[1]:]  # from the second round's deal on
        other.pending, other.seq = (), second.seq
        await rejoin(app, pilot, other, story)
        assert app.session.story.matches_started == 2
        assert app.log_lines == ["» bob: again!", *lines_of(story, other)]
        rows = log_rows(app)
        assert rows.count("── Match 2 ──") == 1
        assert " ".join(rows).endswith(" ".join(app.log_lines))


async def test_a_replaced_second_match_keeps_the_first_on_the_page_before() -> None:
    first = played_1980(seed=3, steps=2000)
    assert first.state.phase == MATCH_OVER
    app = RecordingApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_local(app, pilot, first, LOBBY)
        first_lines = list(app.log_lines)
        second = played_1980(seed=8, steps=0)
        second.seq = first.seq
        await second.show(app, pilot)  # the rematch is dealt: a new page
        for _ in range(8):
            second.step()
            await second.show(app, pilot)
        assert app.session.story.matches_started == 2
        other = played_1980(seed=8, steps=0)
        rng = random.Random(5)
        for _ in range(10):
            other.step(lambda state, seat: rng.choice(legal_moves(state, seat)))
        story = other.pending
        other.pending, other.seq = (), second.seq
        await rejoin(app, pilot, other, story)
        assert app.session.story.matches_started == 2
        assert app.log_lines == lines_of(story, other)
        rows = log_rows(app)
        assert rows.count("── Match 2 ──") == 1
        text = " ".join(rows)
        assert first_lines[-1] in text  # the first match is still there, above its separator
        assert text.index(first_lines[-1]) < text.index("── Match 2 ──")


async def test_a_finished_match_then_a_new_ones_history_opens_a_new_page() -> None:
    first = played_1980(seed=3, steps=2000)
    app = RecordingApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_local(app, pilot, first, LOBBY)
        assert any(isinstance(e, MatchEnded) for e in app.session.story.seen.events)
        second = played_1980(seed=8, steps=15)
        story = second.pending
        second.pending, second.seq = (), first.seq
        await rejoin(app, pilot, second, story)  # back (a spectator, say) in the rematch
        assert app.session.story.matches_started == 2
        assert app.log_lines == lines_of(story, second)
        rows = log_rows(app)
        assert rows.count("── Match 2 ──") == 1
        assert " ".join(rows).endswith(" ".join(app.log_lines))


async def test_shortened_rounds_are_said_once_at_the_top() -> None:
    match = played_1980(seed=2, steps=100)
    story = match.pending
    deals = [i for i, e in enumerate(story) if isinstance(e, RoundDealt)]
    # As the table shortens a round: its deal, busts and result only.
    kept = {"round_dealt", "busted", "token_lost", "out_of_round", "eliminated", "resigned",
            "round_ended"}
    short = tuple(e for e in story[:deals[2]] if e.kind in kept) + story[deals[2]:]
    match.pending = ()
    app = RecordingApp()
    async with app.run_test(size=(100, 30)) as pilot:
        app.post_message(lobby_updated(LOBBY))
        app.post_message(view_updated(0, match.view(), (), history=History(short, 2)))
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.pause()
        assert app.log_lines[0] == "Rounds 1\u20132 in short: their deals, busts and results only"
        assert app.log_lines[1:] == lines_of(short, match)
        assert len(app.session.story.round_results) >= 2


async def test_a_history_that_cannot_be_read_is_said_and_changes_nothing_else() -> None:
    match = played_1980(seed=2, steps=0)
    app = RecordingApp()
    notices = record_notices(app)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_local(app, pilot, match, LOBBY)
        shown = list(app.log_lines)
        match.step()
        events = match.pending
        match.pending = ()
        match.seq += 1
        app.post_message(view_updated(match.seq, match.view(), events,
                                     bad_history="no-such-event"))
        await pilot.pause()
        assert app.session.view == match.view()  # the view is shown
        assert app.log_lines == shown + lines_of(events, match)  # its events, nothing more
        assert any("could not be read" in notice and "unknown event kind" in notice
                   for notice in notices)


# --- reading a history, and finding what is new (no app) ---------------------------------


def test_history_from_wire_decodes_every_event_or_says_which_is_bad() -> None:
    match = played_1980(seed=2, steps=10)
    wire = [event_to_wire(event) for event in match.pending]
    assert history_from_wire(wire, 0) == History(match.pending, 0)
    bad = [*wire[:3], {"kind": "played", "seat": 0, "card": "7\x1b[2J", "total": 1}]
    with pytest.raises(BadHistory) as refused:
        history_from_wire(bad, 0)
    assert "event 4" in str(refused.value) and "\x1b" not in str(refused.value)
    with pytest.raises(BadHistory, match="shortened"):
        history_from_wire(wire, 5)  # more rounds shortened than it holds
    huge = [{"kind": "x" * 5000}]
    with pytest.raises(BadHistory) as refused:
        history_from_wire(huge, 0)
    assert len(str(refused.value)) <= 160


def test_unseen_from_finds_the_first_new_event_or_none() -> None:
    match = played_1980(seed=2, steps=40)
    story = match.pending
    deals = [i for i, e in enumerate(story) if isinstance(e, RoundDealt)]
    last = deals[-1]
    assert unseen_from([], story) == 0
    assert unseen_from(list(story[last:last + 3]), story) == last + 3
    assert unseen_from(list(story[last:]), story) == len(story)
    assert unseen_from(list(story[last + 1:last + 3]), story) is None  # not from a deal
    assert unseen_from([*story[last:last + 2], TimedOut(0, 1)], story) == last + 2
    other = played_1980(seed=9, steps=40).pending
    assert unseen_from(list(story[last:last + 3]), other) is None
