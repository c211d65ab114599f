"""Plain-data forms of views, moves and events for the wire (msgpack-safe values only).

Wire values are str, int, bool, None, list and dict. Cards travel as their tokens ("7",
"-10", "play2", …). Every `*_from_wire` checks types strictly: a move that is wrong in any
way raises MalformedMove; a bad view or event raises ValueError.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable
from typing import Any, Union

from ono99tui.game.cards import Card
from ono99tui.game.engine import legal_moves
from ono99tui.game.errors import InvalidRules, MalformedMove
from ono99tui.game.events import EVENTS_BY_KIND, Event
from ono99tui.game.moves import Discard, Draw, Move, Play, SwapFour
from ono99tui.game.rules import Rules
from ono99tui.game.state import State
from ono99tui.game.view import PUBLIC_FIELDS, PlayerView, public_view_fields

Wire = dict[str, Any]

_MOVE_KINDS: dict[type, str] = {
    Play: "play", SwapFour: "swap_four", Draw: "draw", Discard: "discard"
}
# Each kind's constructor: (seat) or (seat, card) -> Move.
_MOVES_BY_KIND: dict[str, Callable[..., Move]] = {kind: cls for cls, kind in _MOVE_KINDS.items()}
_MAX_SEAT = 64


# ---------------------------------------------------------------------------------------
# Moves


def move_to_wire(move: Move) -> Wire:
    """{"kind": "play", "seat": 1, "card": "7"} and the like."""
    wire: Wire = {"kind": _MOVE_KINDS[type(move)], "seat": move.seat}
    if isinstance(move, (Play, Discard)):
        wire["card"] = move.card.token
    return wire


def move_from_wire(wire: object) -> Move:
    """The move a wire dict describes; anything wrong raises MalformedMove."""
    if not isinstance(wire, dict):
        raise MalformedMove("not_a_move", f"a move must be a map, not {type(wire).__name__}")
    kind = wire.get("kind")
    cls = _MOVES_BY_KIND.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise MalformedMove("unknown_kind", f"unknown move kind {kind!r}")
    expected = {"kind", "seat", "card"} if cls in (Play, Discard) else {"kind", "seat"}
    if set(wire) != expected:
        raise MalformedMove("bad_fields", f"a {kind} move has the fields {sorted(expected)}")
    seat = wire["seat"]
    if type(seat) is not int or not 0 <= seat < _MAX_SEAT:
        raise MalformedMove("bad_seat", f"seat {seat!r} is not a seat number")
    move: Move = cls(seat, _card_for_move(wire["card"])) if cls in (Play, Discard) else cls(seat)
    return move


def _card_for_move(token: object) -> Card:
    if type(token) is not str:
        raise MalformedMove("bad_card", f"a card is a string, not {type(token).__name__}")
    try:
        return Card.from_token(token)
    except KeyError:
        raise MalformedMove("bad_card", f"{token!r} is not a card") from None


# ---------------------------------------------------------------------------------------
# Type-directed conversion for views and events


def _encode(value: Any) -> Any:
    """Any engine value to its wire form (the slow, general path)."""
    if isinstance(value, Card):
        return value.token
    if isinstance(value, enum.StrEnum):
        return value.value  # a plain str: the same bytes in msgpack, and plain in JSON
    if isinstance(value, tuple):
        return [_encode(item) for item in value]
    if isinstance(value, Rules):
        return rules_to_wire(value)
    if type(value) in _MOVE_KINDS:
        return move_to_wire(value)
    return value


_TOKENS: dict[Card, str] = {card: card.token for card in Card}


def _same(value: Any) -> Any:
    return value


def _is_vocabulary(hint: Any) -> bool:
    """Is `hint` a closed vocabulary (a StrEnum such as the match's `Phase`)?"""
    return isinstance(hint, type) and issubclass(hint, enum.StrEnum)


def _encoder(hint: Any) -> Any:
    """A converter for values of type `hint`, chosen once per field (views and events are
    converted often: one view per seat after every move)."""
    if hint in (int, bool, str, type(None)):
        return _same
    if _is_vocabulary(hint):
        return str  # a StrEnum member's plain string (wire values are plain types)
    if hint is Card:
        return _TOKENS.__getitem__
    if hint is Rules:
        return rules_to_wire
    if hint is Move:
        return move_to_wire
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        options = [option for option in typing.get_args(hint) if option is not type(None)]
        if len(options) == 1:
            inner = _encoder(options[0])
            if inner is _same:
                return _same
            return lambda value: None if value is None else inner(value)
        return _encode
    if origin is tuple:
        inner = _encoder(typing.get_args(hint)[0])
        if inner is _same:
            return list
        if inner is _TOKENS.__getitem__:
            return lambda values: [_TOKENS[card] for card in values]
        return lambda values: [inner(item) for item in values]
    return _encode


Decoder = typing.Callable[[Any, str], Any]
# One decoder per type hint, built on first use: working the hint out with typing's
# reflection on every field of every view cost a client ~120 µs a view.
_DECODERS: dict[Any, Decoder] = {}


def _decode(value: Any, hint: Any, where: str) -> Any:
    """`value` checked and converted to `hint`; `where` names the field in errors."""
    decoder = _DECODERS.get(hint)
    if decoder is None:
        decoder = _DECODERS[hint] = _decoder(hint)
    return decoder(value, where)


def _decode_card(value: Any, where: str) -> Card:
    if type(value) is not str:
        raise ValueError(f"{where}: a card token must be a string")
    try:
        return Card.from_token(value)
    except KeyError:
        raise ValueError(f"{where}: {value!r} is not a card") from None


def _decode_none(value: Any, where: str) -> None:
    if value is not None:
        raise ValueError(f"{where}: expected null")
    return None


def _decode_move(value: Any, where: str) -> Move:
    try:
        return move_from_wire(value)
    except MalformedMove as error:
        raise ValueError(f"{where}: {error.reason}") from None


def _member_decoder(vocabulary: type[enum.StrEnum]) -> Decoder:
    members = {member.value: member for member in vocabulary}
    names = ", ".join(members)

    def decode_member(value: Any, where: str) -> Any:
        member = members.get(value) if type(value) is str else None
        if member is None:
            raise ValueError(f"{where}: {value!r} is not one of {names}")
        return member
    return decode_member


def _decoder(hint: Any) -> Decoder:
    if hint is Card:
        return _decode_card
    if _is_vocabulary(hint):
        return _member_decoder(hint)
    if hint is int or hint is bool or hint is str:
        def decode_scalar(value: Any, where: str) -> Any:
            if type(value) is not hint:
                raise ValueError(f"{where}: expected {hint.__name__}, got {type(value).__name__}")
            return value
        return decode_scalar
    if hint is type(None):
        return _decode_none
    if hint is Rules:
        return lambda value, where: rules_from_wire(value)
    if hint is Move:
        return _decode_move
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        options = [option for option in typing.get_args(hint) if option is not type(None)]
        optional = type(None) in typing.get_args(hint)

        def decode_union(value: Any, where: str) -> Any:
            if value is None and optional:
                return None
            errors = []
            for option in options:
                try:
                    return _decode(value, option, where)
                except ValueError as error:
                    errors.append(str(error))
            raise ValueError("; ".join(errors) or f"{where}: bad value")
        return decode_union
    if origin is tuple:
        item_hint = typing.get_args(hint)[0]

        def decode_tuple(value: Any, where: str) -> tuple[Any, ...]:
            if type(value) is not list:
                raise ValueError(f"{where}: expected a list")
            item_decoder = _DECODERS.get(item_hint) or _DECODERS.setdefault(
                item_hint, _decoder(item_hint))
            return tuple([item_decoder(item, where) for item in value])
        return decode_tuple
    raise TypeError(f"no wire form for {hint!r}")


def _hints(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


# ---------------------------------------------------------------------------------------
# Rules


_RULES_WIRE: dict[Rules, Wire] = {}


def rules_to_wire(rules: Rules) -> Wire:
    """Every option by name; the answers as card tokens. (A fresh map each call.)"""
    wire = _RULES_WIRE.get(rules)
    if wire is None:
        if len(_RULES_WIRE) > 64:  # a handful of rule sets in practice: never grow unbounded
            _RULES_WIRE.clear()
        wire = _RULES_WIRE[rules] = {
            name: _encode(value) for name, value in rules.options().items()
        }
    # Copied so that a caller changing its map cannot change the next one.
    return {**wire, "obligation_answers": list(wire["obligation_answers"])}


# Every view carries the table's rules, and they seldom change: validating them again for
# each view was half of a client's cost of decoding one. Only valid rules are remembered.
_RULES_FROM_WIRE: dict[tuple[tuple[str, Any], ...], Rules] = {}


def _typed(value: Any) -> Any:
    """A hashable key that tells 1 from True and "7" from 7, so strictness is kept."""
    if type(value) is list:
        return (list, tuple(_typed(item) for item in value))
    return (type(value), value)


def rules_from_wire(wire: object) -> Rules:
    """Rules from their wire form; bad options raise InvalidRules (a ValueError)."""
    if not isinstance(wire, dict):
        raise ValueError("rules must be a map")
    try:
        key = tuple((name, _typed(value)) for name, value in wire.items())
        rules = _RULES_FROM_WIRE.get(key)
    except TypeError:  # an unhashable option value: invalid, and validation says why
        key, rules = None, None
    if rules is not None:
        return rules
    answers = wire.get("obligation_answers")
    options = dict(wire)
    if answers is not None:
        if type(answers) is not list:
            raise InvalidRules("obligation_answers", "must be a list of card tokens")
        options["obligation_answers"] = answers
    rules = Rules().replace(**options)
    if key is not None and len(_RULES_FROM_WIRE) < 64:
        _RULES_FROM_WIRE[key] = rules
    return rules


# ---------------------------------------------------------------------------------------
# Views and events

_VIEW_HINTS = _hints(PlayerView)
_EVENT_HINTS = {kind: _hints(cls) for kind, cls in EVENTS_BY_KIND.items()}


_VIEW_ENCODERS = tuple((name, _encoder(hint)) for name, hint in _VIEW_HINTS.items())
_EVENT_ENCODERS = {
    kind: tuple((name, _encoder(hint)) for name, hint in hints.items())
    for kind, hints in _EVENT_HINTS.items()
}


def view_to_wire(view: PlayerView) -> Wire:
    """A view as a plain map, one key per field."""
    fields = view.__dict__
    return {name: encode(fields[name]) for name, encode in _VIEW_ENCODERS}


# What differs between the views of one state: the seat's number and hand, which PlayerView
# lists right after the rules (the "own head"), and its legal moves, which it lists last (the
# "own tail"). Every field between them is the same in each seat's view and the spectators'
# (tests/game/test_game_codec.py checks the order and the sameness). So every view map of a
# state is: rules, own head, public fields, own tail; and a sender can convert (and pack) the
# shared parts once per state, not once per view.
OWN_HEAD_FIELDS = ("seat", "hand")
OWN_TAIL_FIELDS = ("legal_moves",)
_ENCODER_OF = dict(_VIEW_ENCODERS)
_encode_hand = _ENCODER_OF["hand"]
_encode_moves = _ENCODER_OF["legal_moves"]
PUBLIC_VIEW_FIELDS: tuple[str, ...] = tuple(_VIEW_HINTS)[
    1 + len(OWN_HEAD_FIELDS):len(_VIEW_HINTS) - len(OWN_TAIL_FIELDS)]
if PUBLIC_VIEW_FIELDS != PUBLIC_FIELDS:  # pragma: no cover - a PlayerView out of step
    raise AssertionError("the view's public fields are not the codec's")
# Most public fields go on the wire as they are: only these (position, encoder) convert.
_PUBLIC_CONVERSIONS = tuple(
    (position, _ENCODER_OF[name]) for position, name in enumerate(PUBLIC_VIEW_FIELDS)
    if _ENCODER_OF[name] is not _same)
# For packing, fewer still: msgpack packs a tuple as the array its list would be, and a
# StrEnum member as its string.
_PACKING_CONVERSIONS = tuple(
    (position, encode) for position, encode in _PUBLIC_CONVERSIONS
    if encode is not list and encode is not str)


def public_view_values(state: State) -> list[Any]:
    """The wire values of the fields every view of `state` shares (all but the rules and
    each view's own head and tail), in the order of PUBLIC_VIEW_FIELDS: converted once,
    they serve every seat."""
    values = list(public_view_fields(state))
    for position, encode in _PUBLIC_CONVERSIONS:
        values[position] = encode(values[position])
    return values


def public_view_packables(state: State) -> list[Any]:
    """`public_view_values(state)` for msgpack: the same bytes once packed, with only the
    cards converted (tuples stay tuples, the phase its StrEnum member)."""
    values = list(public_view_fields(state))
    for position, encode in _PACKING_CONVERSIONS:
        values[position] = encode(values[position])
    return values


def public_view_to_wire(state: State) -> Wire:
    """`public_view_values` as a map, in the view map's order."""
    return dict(zip(PUBLIC_VIEW_FIELDS, public_view_values(state), strict=True))


def own_head_to_wire(seat: int | None, hand: tuple[Card, ...]) -> Wire:
    """The fields of a view before the public ones: its seat and hand (a spectator's: None
    and no cards). They depend on nothing else."""
    return {"seat": seat, "hand": _encode_hand(hand)}


def own_tail_to_wire(moves: tuple[Move, ...]) -> Wire:
    """The fields of a view after the public ones: its legal moves. They depend on nothing
    else."""
    return {"legal_moves": _encode_moves(moves)}


class WireViews:
    """Every view of one state in wire form, the public fields converted once.

    `seat(i)` equals `view_to_wire(view(state, i))` and `spectator()` equals
    `view_to_wire(spectator_view(state))`, key for key and in the same order (so their
    msgpack bytes are the same too). The maps share the converted public values: treat
    them as read-only.
    """

    __slots__ = ("public", "state")

    def __init__(self, state: State) -> None:
        self.state = state
        self.public = public_view_to_wire(state)

    def seat(self, index: int) -> Wire:
        """Seat `index`'s view map."""
        state = self.state
        return {"rules": rules_to_wire(state.rules),
                **own_head_to_wire(index, state.hands[index]), **self.public,
                **own_tail_to_wire(legal_moves(state, index))}

    def spectator(self) -> Wire:
        """The spectators' view map: no hand, no moves."""
        return {"rules": rules_to_wire(self.state.rules), **own_head_to_wire(None, ()),
                **self.public, **own_tail_to_wire(())}


def view_from_wire(wire: object) -> PlayerView:
    """The view a wire map describes; a missing, unknown or mistyped field raises ValueError."""
    if not isinstance(wire, dict) or set(wire) != set(_VIEW_HINTS):
        raise ValueError("a view must be a map with exactly the PlayerView fields")
    return PlayerView(
        **{name: _decode(wire[name], hint, name) for name, hint in _VIEW_HINTS.items()}
    )


def event_to_wire(event: Event) -> Wire:
    """{"kind": "played", "seat": 0, "card": "7", "total": 17} and the like."""
    wire: Wire = {"kind": event.kind}
    for name, encode in _EVENT_ENCODERS[event.kind]:
        wire[name] = encode(getattr(event, name))
    return wire


def event_from_wire(wire: object) -> Event:
    """The event a wire map describes; anything wrong raises ValueError."""
    if not isinstance(wire, dict):
        raise ValueError("an event must be a map")
    kind = wire.get("kind")
    hints = _EVENT_HINTS.get(kind) if isinstance(kind, str) else None
    if hints is None or not isinstance(kind, str):
        raise ValueError(f"unknown event kind {kind!r}")
    hints = _EVENT_HINTS[kind]
    if set(wire) != set(hints) | {"kind"}:
        raise ValueError(f"a {kind} event has the fields {sorted(hints)}")
    event: Event = EVENTS_BY_KIND[kind](
        **{name: _decode(wire[name], hint, f"{kind}.{name}") for name, hint in hints.items()})
    return event
