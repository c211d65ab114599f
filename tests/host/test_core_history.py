"""The match so far, told again to whoever (re)joins it: `view.history`, on a fake clock.

The first view after a (re)join (a seat resumed with its token, a spectator arriving, every
seat after a restart from the journal) carries the match's public events before its own
`events`; history and events together are the whole match, the very events every seat
was sent (all public), never more. Every other view carries none. A long match is
shortened from its oldest rounds so that the frame fits (ono99tui/host/match_history.py).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from core_clock_helpers import ClockedTable, config
from test_core_journal_restore import half_played, restarted

from netproto.wire.framing import MAX_FRAME_SIZE, encode_frame
from netproto.wire.messages import Ready, View
from ono99tui.game import MATCH_OVER, acting_seats, apply, legal_moves, preset, start_match
from ono99tui.game.codec import event_to_wire
from ono99tui.host.core import PLAYING
from ono99tui.host.match_history import ABRIDGED_KINDS, MatchHistory, packed_size

Wire = dict[str, Any]


def told(views: list[View]) -> list[Wire]:
    """Every event a connection was told, in order: each view's history, then its events."""
    events: list[Wire] = []
    for view in views:
        events.extend(view.history or ())
        events.extend(view.events)
    return events


def everything(table: ClockedTable) -> list[Wire]:
    """Every event of the match a seat that never left was sent (the first human's)."""
    peer = table.core.seats[0].peer
    assert peer is not None
    return told(table.views(peer))


def test_a_resumed_seat_is_told_the_whole_match_once() -> None:
    table, peers, tokens = half_played()
    seen_before = told(table.views(peers["bo"]))
    table.drop(peers["bo"])
    table.play_until(lambda: table.moves_played() >= 20)
    peer = table.resume(tokens["bo"])
    resumed = table.views(peer)[-1]
    assert resumed.history is not None and resumed.history_abridged == 0
    # The history and the missed events are the match, as the seat that stayed saw it ...
    assert [*resumed.history, *resumed.events] == everything(table)
    # ... which the seat's first connection saw the start of.
    assert everything(table)[:len(seen_before)] == seen_before
    assert resumed.history[0]["kind"] == "round_dealt" and resumed.history[0]["round_no"] == 1
    # Only that first view: the next ones carry the new events alone.
    table.play_until(lambda: len(table.views(peer)) > 1)
    assert all(view.history is None for view in table.views(peer)[1:])
    # Nobody else was sent a history.
    assert all(view.history is None for view in table.views(peers["ana"]))


def test_a_spectator_arriving_mid_match_is_told_the_match_so_far() -> None:
    table, _, _ = half_played()
    watcher = table.connect("zed", spectate=True)
    first = table.views(watcher)[0]
    assert first.events == ()
    assert first.history is not None and list(first.history) == everything(table)
    table.play_until(lambda: len(table.views(watcher)) > 2)
    assert all(view.history is None for view in table.views(watcher)[1:])
    assert told(table.views(watcher)) == everything(table)


def test_after_a_restart_every_resumed_seat_is_told_the_match() -> None:
    before, _, tokens = half_played()
    match = everything(before)
    after = restarted(before.records)
    for name in ("ana", "bo"):
        resumed = after.views(after.resume(tokens[name]))[-1]
        assert resumed.history is not None
        assert [*resumed.history, *resumed.events] == match


def test_a_rematch_starts_a_new_history() -> None:
    table = ClockedTable(config(capacity=2, start_when=2, bot_delay=0.5))
    ana = table.connect("ana")
    table.run(table.core.add_bot("greedy", table.now))
    table.play_until(lambda: table.core.phase != PLAYING)
    first_match = told(table.views(ana))
    table.send(ana, Ready())
    assert table.core.phase == PLAYING
    table.play_until(lambda: len(told(table.views(ana))) > len(first_match) + 6)
    watcher = table.connect("zed", spectate=True)
    history = table.views(watcher)[0].history
    assert history is not None
    assert list(history) == told(table.views(ana))[len(first_match):]
    assert history[0]["kind"] == "round_dealt" and history[0]["round_no"] == 1


def long_match(seats: int = 8, seed: int = 3) -> list[Wire]:
    """The public events of a whole 1980 match of `seats` seats (tokens: many rounds)."""
    rng = random.Random(seed)
    state, dealt = start_match(preset("1980"), seats, rng)
    events = [event_to_wire(event) for event in dealt]
    while state.phase != MATCH_OVER:
        seat = acting_seats(state)[0]
        state, more = apply(state, rng.choice(legal_moves(state, seat)), rng)
        events.extend(event_to_wire(event) for event in more)
    return events


def rounds_of(events: list[Wire] | tuple[Wire, ...]) -> list[list[Wire]]:
    """The events split at each round's deal."""
    rounds: list[list[Wire]] = []
    for event in events:
        if event["kind"] == "round_dealt":
            rounds.append([])
        rounds[-1].append(event)
    return rounds


def test_a_long_match_is_shortened_from_its_oldest_rounds_to_fit() -> None:
    events = long_match()
    history = MatchHistory()
    history.extend(events)
    size = packed_size(events)
    whole = history.catch_up(0, size + 8)
    assert list(whole.events) == events and whole.abridged == 0
    budget = size // 2
    short = history.catch_up(0, budget)
    assert packed_size(list(short.events)) <= budget
    assert short.abridged > 0
    full, kept = rounds_of(events), rounds_of(short.events)
    assert len(kept) == len(full)  # every round is still there, from its deal to its end
    for number, (round_events, kept_events) in enumerate(zip(full, kept, strict=True)):
        if number < short.abridged:
            assert kept_events == [e for e in round_events if e["kind"] in ABRIDGED_KINDS]
        else:
            assert kept_events == round_events
    # The newest events a view carries itself are left out of its history.
    newest = history.catch_up(5, size + 8)
    assert list(newest.events) == events[:-5]


def test_a_budget_too_small_for_any_round_keeps_the_newest_events() -> None:
    events = long_match(seats=4)
    history = MatchHistory()
    history.extend(events)
    tiny = history.catch_up(0, 600)
    assert len(tiny.events) > 0 and packed_size(list(tiny.events)) <= 600
    assert list(tiny.events) == events[-len(tiny.events):]
    assert tiny.abridged == 0


@pytest.mark.parametrize(("seats", "abridged"), [(2, False), (8, True)])
def test_a_spectator_of_a_long_match_gets_a_frame_that_fits(seats: int, abridged: bool) -> None:
    # Random bots play the 1980 rules' longest matches: eight seats, 31 rounds, 67 KB of
    # events with this seed, more than a frame holds.
    table = ClockedTable(config(capacity=seats, start_when=seats, bot_delay=0.1,
                                rules="1980", seed=4))
    for _ in range(seats):
        table.run(table.core.add_bot("random", table.now))
    table.play_until(lambda: table.core.phase != PLAYING)
    state = table.core.state
    assert state is not None and state.phase == MATCH_OVER
    watcher = table.connect("zed", spectate=True)
    first = table.views(watcher)[0]
    assert first.history is not None
    assert len(encode_frame(first.to_wire())) <= MAX_FRAME_SIZE
    assert (first.history_abridged > 0) == abridged
    # Every round is there, from its deal to its end (the results dialogs need them all).
    assert [e["round_no"] for e in first.history if e["kind"] == "round_dealt"] == list(
        range(1, state.round_no + 1))
    assert [e["round_no"] for e in first.history if e["kind"] == "round_ended"] == list(
        range(1, state.round_no + 1))
