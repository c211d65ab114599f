"""Bot moves are asked for, not made, by the table core: `BotMoveWanted` out, `bot_decided`
in, on a fake clock. The move plays once both the decision and the bot's pace timer are in;
a decision nobody waits for any more is dropped, one that breaks the rules is replaced by
the greedy choice, and nothing is ever played twice. The stand-in of a timed-out human is
asked for the same way.

No sockets, no event loop, no sleeping: `ClockedTable.advance` says how much time passes,
and `auto_decide=False` lets the test answer for the bot whenever it likes.
"""

from __future__ import annotations

import logging

import pytest
from core_clock_helpers import ClockedTable, config

from ono99tui.bots import GreedyBot
from ono99tui.game import Draw, Play, legal_moves, preset, view
from ono99tui.game.codec import move_to_wire
from ono99tui.host.core import PLAYING
from ono99tui.host.outputs import BotMoveWanted, BotTurn, TurnTimeout


def human_and_bot(**options: object) -> tuple[ClockedTable, int]:
    """Ann (seat 0) and a normal bot (seat 1) at a two-seat table; bots answer only when
    the test says. Ann's peer id."""
    options.setdefault("bot_delay", 0.5)
    table = ClockedTable(config(capacity=2, start_when=2, **options), auto_decide=False)
    ann = table.connect("Ann")
    table.run(table.core.add_bot("normal", table.now))
    assert table.core.phase == PLAYING
    return table, ann


def to_the_bot(table: ClockedTable, ann: int) -> BotMoveWanted:
    """Play Ann's first legal moves until the bot is asked for a move; that request."""
    for _ in range(50):
        if table.wanted:
            return table.wanted[-1]
        state = table.core.state
        assert state is not None
        table.play(ann, legal_moves(state, 0)[0])
    raise AssertionError("the bot was never asked")


def test_the_move_is_asked_for_at_once_with_what_the_bot_may_know() -> None:
    table, ann = human_and_bot(bot_think_seconds=1.5)
    request = to_the_bot(table, ann)
    state = table.core.state
    assert state is not None
    assert request.key == BotTurn(request.key.version, 1)
    assert request.view == view(state, 1)  # its own seat's view, nothing more
    assert request.budget == 1.5
    assert request.fallback() == GreedyBot().choose(view(state, 1), request.rng())
    # Values only, no live bot: its kind, what it has seen, its generator's seed.
    assert request.kind == "greedy" and isinstance(request.seed, int)
    assert isinstance(request.seen, tuple) and request.seen
    # The pace timer runs meanwhile: the thinking and the pause overlap.
    assert table.deadline(request.key) == pytest.approx(table.now + 0.5)


def test_a_decision_in_early_waits_for_the_bot_s_pace() -> None:
    table, ann = human_and_bot()
    request = to_the_bot(table, ann)
    before = table.moves_played()
    table.decide(request)
    assert table.moves_played() == before  # the pause is not over
    table.advance(0.5)
    assert table.moves_played() == before + 1


def test_a_bot_still_thinking_when_its_time_comes_plays_once_it_has_chosen() -> None:
    table, ann = human_and_bot()
    request = to_the_bot(table, ann)
    before = table.moves_played()
    table.advance(5.0)  # the pause is long over; the bot thinks on; nothing is played
    assert table.moves_played() == before and table.core.phase == PLAYING
    table.decide(request)
    assert table.moves_played() == before + 1
    assert table.journal[-1].moves[before]["seat"] == 1


def test_a_decision_is_never_played_twice_and_unknown_ones_are_dropped(
        caplog: pytest.LogCaptureFixture) -> None:
    table, ann = human_and_bot()
    request = to_the_bot(table, ann)
    table.advance(0.5)
    table.decide(request)
    played = table.moves_played()
    with caplog.at_level(logging.INFO, logger="ono99tui.host.core"):
        assert table.decide(request) == []  # the same answer again
        assert table.run(table.core.bot_decided(BotTurn(10_000, 1), request.fallback(),
                                                table.now)) == []
    assert table.moves_played() == played
    assert caplog.text.count("came after it was needed") == 2


def test_a_decision_for_an_older_view_is_dropped_and_the_newer_one_plays() -> None:
    # Late-draw rule: the bot is asked while Ann still owes her draw; her draw makes a new
    # view, the question is asked again, and the first answer counts for nothing.
    rules = preset("2022").replace(late_draw_penalty=True)
    table, ann = human_and_bot(rules=rules, late_draw_bot_wait=2.0)
    for _ in range(200):
        state = table.core.state
        assert state is not None
        if table.wanted and state.pending_draw == 0:
            break
        for request in list(table.wanted):
            table.decide(request)
        table.advance(2.0)
        state = table.core.state
        assert state is not None
        moves = legal_moves(state, 0)
        plays = [move for move in moves if isinstance(move, Play)]
        if plays:
            table.play(ann, plays[0])
    else:
        pytest.fail("Ann never played a card while owing her draw")
    old = table.wanted[-1]
    before = table.moves_played()
    state = table.core.state
    assert state is not None
    table.play(ann, next(m for m in legal_moves(state, 0) if isinstance(m, Draw)))
    new = table.wanted[-1]
    assert new.key.version > old.key.version and new.key.seat == old.key.seat == 1
    table.advance(5.0)
    table.decide(old)
    assert table.moves_played() == before + 1  # Ann's draw only
    table.decide(new)
    assert table.moves_played() == before + 2


def test_an_illegal_decision_plays_the_greedy_choice(caplog: pytest.LogCaptureFixture) -> None:
    table, ann = human_and_bot()
    request = to_the_bot(table, ann)
    before = table.moves_played()
    table.advance(0.5)
    with caplog.at_level(logging.ERROR, logger="ono99tui.host.core"):
        table.decide(request, Draw(0))  # not even its own seat
    assert "forbid" in caplog.text
    assert table.moves_played() == before + 1
    assert table.journal[-1].moves[before] == move_to_wire(request.fallback())


# --- the stand-in of a timed-out human ----------------------------------------------------


def clocked_pair() -> tuple[ClockedTable, int, int]:
    """Ann and Bob with a 30 s turn clock, decisions answered by the test."""
    table = ClockedTable(config(capacity=2, start_when=2, bot_delay=0.5, turn_seconds=30.0),
                         auto_decide=False)
    ann, bob = table.connect("Ann"), table.connect("Bob")
    assert table.core.phase == PLAYING
    return table, ann, bob


def clocks(table: ClockedTable) -> list[TurnTimeout]:
    return [key for key in table.timers if isinstance(key, TurnTimeout)]


def test_the_stand_in_is_asked_when_the_clock_runs_out_and_plays_as_soon_as_it_chose() -> None:
    table, _, _ = clocked_pair()
    index = table.human_to_act()
    assert index is not None
    table.advance(30.0)
    (request,) = table.wanted
    assert request.key.seat == index and not clocks(table)  # nobody is timed meanwhile
    assert request.key not in table.timers  # no pause: the turn's time is up
    table.advance(3.0)
    assert table.moves_played() == 0
    table.decide(request)
    assert table.moves_played() >= 1 and table.journal[-1].moves[0]["seat"] == index
    assert clocks(table)  # the next turn is timed again


def test_a_player_back_while_the_stand_in_thinks_plays_and_the_stand_in_is_dropped() -> None:
    table, ann, bob = clocked_pair()
    index = table.human_to_act()
    assert index is not None
    table.advance(30.0)
    (request,) = table.wanted
    state = table.core.state
    assert state is not None
    own = legal_moves(state, index)[-1]
    table.play((ann, bob)[index], own)
    assert table.journal[-1].moves[0]["seat"] == index
    table.decide(request)
    assert table.moves_played() == 1  # only the player's own move
