"""The pure ONO 99 rules engine (standard library only).

    state, events = start_match(preset("2022"), 4, random.Random(seed))
    moves = legal_moves(state, seat)
    state, events = apply(state, moves[0], rng)
    state, events = resign(state, seat, rng)  # the seat leaves the match for good
    player_view = view(state, seat)

States are immutable; all randomness comes from the caller's `random.Random`.
"""

from ono99tui.game.cards import DECK_COUNTS, Card, deck, hand_points
from ono99tui.game.engine import (
    acting_seats,
    apply,
    legal_moves,
    new_match,
    round_points,
    start_match,
)
from ono99tui.game.errors import (
    CannotResign,
    IllegalMove,
    InvalidPlayerCount,
    InvalidRules,
    MalformedMove,
    MoveError,
    UnknownPreset,
)
from ono99tui.game.events import (
    EVENT_TYPES,
    Busted,
    Discarded,
    Drew,
    Eliminated,
    Event,
    MatchEnded,
    MissedDraw,
    ObligationCleared,
    ObligationCreated,
    ObligationPassed,
    OutOfRound,
    Played,
    Reshuffled,
    Resigned,
    Reversed,
    RoundDealt,
    RoundEnded,
    SwappedFour,
    TimedOut,
    TokenLost,
)
from ono99tui.game.moves import MOVE_TYPES, Discard, Draw, Move, Play, SwapFour
from ono99tui.game.position import position
from ono99tui.game.refusals import refusal
from ono99tui.game.resign import resign
from ono99tui.game.rules import (
    DEFAULT_PRESET,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ONO99_MODES,
    PRESET_NAMES,
    PRESETS,
    SCORING_MODES,
    Ono99Card,
    Rules,
    Scoring,
    preset,
)
from ono99tui.game.state import DISCARDING, MATCH_OVER, PLAYING, Phase, State
from ono99tui.game.view import PlayerView, spectator_view, view
from ono99tui.game.view_refusals import refusal_for_view

__all__ = [
    "DECK_COUNTS",
    "DEFAULT_PRESET",
    "DISCARDING",
    "EVENT_TYPES",
    "HAND_SIZE",
    "MATCH_OVER",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MOVE_TYPES",
    "ONO99_MODES",
    "PLAYING",
    "PRESETS",
    "PRESET_NAMES",
    "SCORING_MODES",
    "Busted",
    "CannotResign",
    "Card",
    "Discard",
    "Discarded",
    "Draw",
    "Drew",
    "Eliminated",
    "Event",
    "IllegalMove",
    "InvalidPlayerCount",
    "InvalidRules",
    "MalformedMove",
    "MatchEnded",
    "MissedDraw",
    "Move",
    "MoveError",
    "ObligationCleared",
    "ObligationCreated",
    "ObligationPassed",
    "Ono99Card",
    "OutOfRound",
    "Phase",
    "Play",
    "Played",
    "PlayerView",
    "Reshuffled",
    "Resigned",
    "Reversed",
    "RoundDealt",
    "RoundEnded",
    "Rules",
    "Scoring",
    "State",
    "SwapFour",
    "SwappedFour",
    "TimedOut",
    "TokenLost",
    "UnknownPreset",
    "acting_seats",
    "apply",
    "deck",
    "hand_points",
    "legal_moves",
    "new_match",
    "position",
    "preset",
    "refusal",
    "refusal_for_view",
    "resign",
    "round_points",
    "spectator_view",
    "start_match",
    "view",
]
