"""Each seat's view of one state, packed for the wire, with the shared parts packed once.

The codec converts the parts of a state's views (`ono99tui.game.codec`: the rules, a
view's own head, the public fields, its own tail); here they are packed to msgpack and
each seat's view map is spliced from them (`netproto.wire.packing.pack_map`):

- the public fields: once per state, for every seat and spectator;
- the rules: once per rules value (a table's rules change only between matches);
- a seat's own head (its number and hand): again only when its hand changed (usually one
  seat's per move), found by the hand's identity: a state shares the unchanged hands of
  the state before it;
- a seat's own tail (its legal moves): one fixed value for the seats with no move; for
  the others, spliced from each move packed once (the engine keeps one object per
  possible move, so they are found by identity too).

The result is byte for byte `msgpack.packb(view_to_wire(view(state, seat)))`
(tests/table/test_view_wire.py), and netproto writes it into the `view` frame as it is.
"""

from __future__ import annotations

from netproto.wire.packing import (
    PackedEntries,
    Prepacked,
    pack_array_of,
    pack_entries,
    pack_entries_of,
    pack_entry,
    pack_map,
    prepack,
)
from ono99tui.game import Card, Move, Rules, legal_moves
from ono99tui.game import State as GameState
from ono99tui.game.codec import (
    OWN_TAIL_FIELDS,
    PUBLIC_VIEW_FIELDS,
    move_to_wire,
    own_head_to_wire,
    own_tail_to_wire,
    public_view_packables,
    rules_to_wire,
)

_NO_MOVES = pack_entries(own_tail_to_wire(()))
_SPECTATOR_HEAD = pack_entries(own_head_to_wire(None, ()))
# The last packing of each seat's head, with the hand it was packed from. Keyed by seat
# number alone: another table's seat of that number has other hand objects, so an entry
# is only ever reused for the very hand it was made from.
_own_heads: dict[int, tuple[tuple[Card, ...], PackedEntries]] = {}
# Each move's packing, by the move object's id (with the move, so the id stays its own).
_packed_moves: dict[int, tuple[Move, Prepacked]] = {}
_MAX_PACKED_MOVES = 4096  # a table's moves are a few hundred; tables come and go
(_TAIL_FIELD,) = OWN_TAIL_FIELDS
_rules_packed: tuple[Rules | None, PackedEntries] = (None, PackedEntries(b"", 0))


def _packed_rules(rules: Rules) -> PackedEntries:
    global _rules_packed
    # Compared by identity: hashing a Rules value (every option) costs more than packing
    # the entry does once a match.
    last_rules, packed = _rules_packed
    if last_rules is not rules:
        packed = pack_entries({"rules": rules_to_wire(rules)})
        _rules_packed = (rules, packed)
    return packed


def _own_head(seat: int, hand: tuple[Card, ...]) -> PackedEntries:
    cached = _own_heads.get(seat)
    if cached is not None and cached[0] is hand:
        return cached[1]
    packed = pack_entries(own_head_to_wire(seat, hand))
    _own_heads[seat] = (hand, packed)
    return packed


def _packed_move(move: Move) -> Prepacked:
    cached = _packed_moves.get(id(move))
    if cached is not None and cached[0] is move:
        return cached[1]
    if len(_packed_moves) >= _MAX_PACKED_MOVES:
        _packed_moves.clear()
    packed = prepack(move_to_wire(move))
    _packed_moves[id(move)] = (move, packed)
    return packed


def _own_tail(moves: tuple[Move, ...]) -> PackedEntries:
    # own_tail_to_wire(moves) packed: {"legal_moves": [each move's wire map]}.
    if not moves:
        return _NO_MOVES
    return pack_entry(_TAIL_FIELD, pack_array_of([_packed_move(move) for move in moves]))


class StateViews:
    """Every seat's (and a spectator's) view of one state, packed; the table builds one per
    move and sends `seat(i)` / `spectator()` as a `View`'s `view`."""

    def __init__(self, state: GameState) -> None:
        self._state = state
        self._rules = _packed_rules(state.rules)
        self._public = pack_entries_of(PUBLIC_VIEW_FIELDS, public_view_packables(state))
        self._spectator: Prepacked | None = None

    def seat(self, index: int) -> Prepacked:
        """Seat `index`'s view: its own hand and legal moves, the shared public facts."""
        state = self._state
        return pack_map(self._rules, _own_head(index, state.hands[index]), self._public,
                        _own_tail(legal_moves(state, index)))

    def spectator(self) -> Prepacked:
        """The spectators' view (no hand, no moves), packed once and shared."""
        if self._spectator is None:
            self._spectator = pack_map(self._rules, _SPECTATOR_HEAD, self._public, _NO_MOVES)
        return self._spectator
