"""Lockstep runs of the engine and the play-out model (`ono99tui.bots.playout.World`).

Shared by tests/bots/test_playout_lockstep.py (a few hundred matches per case) and
bench/bots.py (thousands): both play the same random matches through `game.apply` and
`World`, move for move, and compare every field after every move.
"""

from __future__ import annotations

import random

from ono99tui.bots import GreedyBot
from ono99tui.bots.playout import DISCARDING, OVER, PLAYING, SWAP, World
from ono99tui.game import DISCARDING as ENGINE_DISCARDING
from ono99tui.game import (
    MATCH_OVER,
    Discard,
    Play,
    Rules,
    State,
    SwapFour,
    apply,
    legal_moves,
    start_match,
    view,
)
from ono99tui.game import PLAYING as ENGINE_PLAYING

_PHASES = {ENGINE_PLAYING: PLAYING, ENGINE_DISCARDING: DISCARDING, MATCH_OVER: OVER}


def _move_code(move: object) -> int:
    if type(move) is SwapFour:
        return SWAP
    assert type(move) is Play or type(move) is Discard
    return int(move.card)


def assert_same(state: State, world: World, where: str) -> None:
    """Every field of the engine's state equals the world's (cards as ints)."""
    engine = {
        "hands": [list(map(int, hand)) for hand in state.hands],
        "draw_pile": list(map(int, state.draw_pile[state.draw_index :])),
        "discard": list(map(int, state.discard_pile)),
        "total": state.total,
        "direction": state.direction,
        "turn": state.turn,
        "owed": state.owed,
        "obligated": state.obligated,
        "obligation_next": state.obligation_next,
        "ono_turn": state.ono99_this_turn,
        "discarding": state.discarding if state.phase == ENGINE_DISCARDING else -1,
        "alive": list(state.alive),
        "in_round": list(state.in_round),
        "busted": list(state.busted),
        "tokens": list(state.tokens),
        "scores": list(state.scores),
        "revealed": [None if h is None else tuple(map(int, h)) for h in state.revealed],
        "dealer": state.dealer,
        "round_no": state.round_no,
        "phase": _PHASES[state.phase],
        "winners": tuple(state.winners),
        "plays": state.plays,
        "legal": [_move_code(m) for m in state.legal],
    }
    model = {
        "hands": world.hands,
        "draw_pile": world.pile[world.index :],
        "discard": world.discard,
        "total": world.total,
        "direction": world.direction,
        "turn": world.turn,
        "owed": world.owed,
        "obligated": world.obligated,
        "obligation_next": world.obligation_next,
        "ono_turn": world.ono_turn,
        "discarding": world.discarding,
        "alive": world.alive,
        "in_round": world.in_round,
        "busted": world.busted,
        "tokens": world.tokens,
        "scores": world.scores,
        "revealed": world.revealed,
        "dealer": world.dealer,
        "round_no": world.round_no,
        "phase": world.phase,
        "winners": world.winners,
        "plays": world.plays,
        "legal": world.moves,
    }
    for name, value in engine.items():
        assert model[name] == value, f"{where}: {name} engine {value!r} model {model[name]!r}"


def lockstep_match(rules: Rules, players: int, seed: int) -> int:
    """Play one match through both, comparing after every move; returns the moves made.

    Moves are greedy's or random (half each), so both common and odd lines are covered;
    at every greedy turn the model's greedy choice must equal `GreedyBot`'s.
    """
    engine_rng = random.Random(seed)
    state, _ = start_match(rules, players, engine_rng)
    world = World.start(rules, players, random.Random(seed))
    chooser = random.Random(seed ^ 0x5EED)
    greedy = GreedyBot()
    moves = 0
    assert_same(state, world, f"seed {seed} start")
    while state.phase != MATCH_OVER:
        seat = state.turn if state.phase == ENGINE_PLAYING else state.discarding
        legal = legal_moves(state, seat)
        wanted = greedy.choose(view(state, seat), chooser)
        assert world.greedy() == _move_code(wanted), f"seed {seed} move {moves}: greedy"
        if chooser.random() < 0.5:
            move = wanted
            world.step()  # the play-out loop's greedy step
        else:
            move = legal[chooser.randrange(len(legal))]
            world.act(_move_code(move))
        state, _ = apply(state, move, engine_rng)
        moves += 1
        assert_same(state, world, f"seed {seed} move {moves}")
    return moves

