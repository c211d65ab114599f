"""What the phone page is sent, without a browser: the hidden-card scan over whole matches
of every preset and scoring (the page's frames hold the seat's own hand and the hands the
table revealed, nothing else), and the page's requests read strictly (typed errors)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from netproto.wire.messages import Lobby, SeatInfo, SeatKind, TablePhase, View, Welcome
from ono99tui.client.session import TableSession
from ono99tui.game import MATCH_OVER, PRESET_NAMES, apply, preset, start_match, view
from ono99tui.game.codec import event_to_wire, view_to_wire
from ono99tui.web.phone.intents import Intent, PageError, read_intent
from ono99tui.web.phone.state import apply_state_frame, page_state, state_frame, state_patch

TOKENS = {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "-10", "reverse", "play2",
          "hold", "ono99"}


def card_lists(value: Any, path: str = "") -> list[tuple[str, list[str]]]:
    """Every list of cards anywhere in a frame: lists of tokens, and lists of card maps."""
    found: list[tuple[str, list[str]]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            found += card_lists(item, f"{path}.{key}")
    elif isinstance(value, list):
        if value and all(isinstance(item, str) and item in TOKENS for item in value):
            found.append((path, value))
        elif value and all(isinstance(item, dict) and "tok" in item for item in value):
            found.append((path, [item["tok"] for item in value]))
        for index, item in enumerate(value):
            found += card_lists(item, f"{path}[{index}]")
    return found


def seated_session(seats: int) -> TableSession:
    session = TableSession()
    session.connect()
    session.receive(Welcome(proto=1, role="player", seat=0, token="t",
                            table={"name": "T", "chat": True}), 0.0)
    session.receive(Lobby(phase=TablePhase.PLAYING, you=0, capacity=seats, seats=tuple(
        SeatInfo(seat, f"p{seat}", SeatKind.HUMAN, True, True) for seat in range(seats))), 0.0)
    return session


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
@pytest.mark.parametrize("scoring", ["single", "tokens", "points-elimination"])
def test_frames_never_hold_another_seats_cards(preset_name: str, scoring: str) -> None:
    rules = preset(preset_name).replace(scoring=scoring, tokens=1, target=60,
                                        late_draw_penalty=scoring == "tokens")
    rng, choices = random.Random(7), random.Random(8)
    state, events = start_match(rules, 3, rng)
    session = seated_session(3)
    seq = 0
    sent: dict[str, Any] = {}  # what the door believes the page has
    page: dict[str, Any] = {}  # what the page has, from the frames as sent
    while True:
        seq += 1
        mine = view(state, 0)
        session.receive(View(seq=seq, view=view_to_wire(mine),
                             events=tuple(event_to_wire(e) for e in events)), 0.0)
        whole = json.loads(json.dumps(page_state(session, 0.0)))
        frame = state_frame(sent, page_state(session, 0.0))
        allowed = [[card.token for card in mine.hand]] + [
            [card.token for card in hand] for hand in mine.revealed if hand is not None]
        if frame is not None:
            frame = json.loads(json.dumps(frame))  # as the page reads it
            # The frame itself: no list of cards but the seat's own and revealed hands,
            # and no single card put anywhere but in those.
            for path, cards in card_lists(frame):
                assert cards in allowed, (path, cards)
            for op in frame.get("d", ()):
                *path, value = op
                if path[-1] == "tok" or (len(path) > 1 and path[-2] == "shown"):
                    assert any(value in cards for cards in allowed), op
            apply_state_frame(page, frame)
        assert page == whole  # the page holds what the door means, frame by frame
        for state_of in (whole, page):
            for path, cards in card_lists(state_of):
                assert cards in allowed, (path, cards)
        assert [card["tok"] for card in page["game"]["hand"]] == allowed[0]
        for seat, shown in enumerate(page["game"]["seats"]):
            assert shown["shown"] is None or mine.eliminated[seat]
        if state.phase == MATCH_OVER:
            # The standings go first place first (the page numbers them as places).
            places = page["game"]["places"]
            assert sorted(places) == [0, 1, 2]
            assert set(places[:len(mine.winners)]) == set(mine.winners)
            numbers = page["game"]["place_numbers"]  # the winners share the first place
            assert numbers[:len(mine.winners)] == [1] * len(mine.winners)
            assert len(numbers) == 3 and numbers == sorted(numbers)
            break
        assert page["game"]["places"] is None and page["game"]["place_numbers"] is None
        acting = [seat for seat in range(3) if view(state, seat).legal_moves]
        seat = acting[0]
        state, events = apply(state, choices.choice(view(state, seat).legal_moves), rng)


def test_a_move_sends_only_what_it_changed_and_an_attaching_page_everything() -> None:
    rules = preset("2022")
    rng = random.Random(3)
    state, events = start_match(rules, 4, rng)
    session = seated_session(4)
    session.receive(View(seq=1, view=view_to_wire(view(state, 0)),
                         events=tuple(event_to_wire(e) for e in events)), 0.0)
    sent: dict[str, Any] = {}
    first = state_frame(sent, page_state(session, 0.0))
    assert first is not None and "d" not in first
    assert set(first["p"]) == set(page_state(session, 0.0))
    assert state_frame(sent, page_state(session, 0.0)) is None  # nothing new: no frame
    # Another seat plays (and draws): the last card, whose turn, the draw pile change.
    seat = next(s for s in range(1, 4) if view(state, s).legal_moves)
    move = next(m for m in view(state, seat).legal_moves if type(m).__name__ == "Play")
    state, events = apply(state, move, rng)
    session.receive(View(seq=2, view=view_to_wire(view(state, 0)),
                         events=tuple(event_to_wire(e) for e in events)), 0.0)
    frame = state_frame(sent, page_state(session, 0.0))
    assert frame is not None and "p" not in frame
    paths = {tuple(op[:-1]) for op in frame["d"]}
    assert {("game", "last"), ("game", "draw_pile"), ("game", "seats", seat, "turn")} <= paths
    assert not any("hand" in path for path in paths)  # our hand did not change
    assert len(json.dumps(frame)) < len(json.dumps(first["p"]["game"])) / 4
    # A page that attaches again (a reload) is sent everything again.
    again = state_frame({}, page_state(session, 0.0))
    assert again is not None and again["p"] == page_state(session, 0.0)


def test_a_patch_follows_maps_and_lists_and_replaces_the_rest() -> None:
    kept = "an unchanged field " * 4
    old = {"a": kept, "b": [kept, 2], "c": {"x": None, "y": kept}, "d": [1]}
    new = {"a": kept, "b": [kept, 3], "c": {"x": [5], "y": kept}, "d": [1, 2]}
    assert state_patch(old, new, ["k"]) == [["k", "b", 1, 3], ["k", "c", "x", [5]],
                                            ["k", "d", [1, 2]]]
    assert state_patch({"a": 1}, {"b": 1}, ["k"]) == [["k", {"b": 1}]]  # other keys: whole
    # Every card of a hand moved up one place: the hand whole is shorter than its changes.
    hand = [{"tok": str(n), "label": str(n), "ok": False} for n in range(1, 5)]
    moved = [*hand[1:], {"tok": "9", "label": "9", "ok": False}]
    assert state_patch({"hand": hand, "a": kept}, {"hand": moved, "a": kept}, ["g"]) == [
        ["g", "hand", moved]]
    page = {"k": json.loads(json.dumps(old))}
    apply_state_frame(page, {"t": "state", "d": state_patch(old, new, ["k"])})
    assert page == {"k": new}


def test_a_card_that_cannot_be_played_says_why() -> None:
    rules = preset("2022")
    state, _events = start_match(rules, 3, random.Random(1))
    session = seated_session(3)
    waiting = next(seat for seat in range(3) if not view(state, seat).legal_moves)
    session = TableSession()
    session.connect()
    session.receive(Welcome(proto=1, role="player", seat=waiting, token="t", table={}), 0.0)
    session.receive(View(seq=1, view=view_to_wire(view(state, waiting))), 0.0)
    hand = page_state(session, 0.0)["game"]["hand"]
    assert hand and all(not card["ok"] and card["why"] == "It is not your turn." for card in hand)


@pytest.mark.parametrize(("raw", "code"), [
    ("not json", "malformed"),
    ("[1, 2]", "malformed"),
    ('{"t": 5}', "malformed"),
    ('{"t": "fly"}', "unknown"),
    ('{"t": "play"}', "malformed"),
    ('{"t": "play", "i": -1}', "malformed"),
    ('{"t": "play", "i": true}', "malformed"),
    ('{"t": "ready", "on": "yes"}', "malformed"),
    ('{"t": "say", "text": "   "}', "bad-text"),
    ('{"t": "say", "text": "' + "x" * 201 + '"}', "bad-text"),
    ('{"t": "emote", "name": "<script>"}', "malformed"),
    ('{"t": "preset", "name": "1999"}', "malformed"),
    ('{"t": "lang", "code": "fr"}', "malformed"),
    ('{"t": "lang", "code": 5}', "malformed"),
    ('{"t": "lang"}', "malformed"),
    ('{"t": "say", "text": "' + "x" * 5000 + '"}', "too-large"),
])
def test_bad_requests_are_typed_errors(raw: str, code: str) -> None:
    with pytest.raises(PageError) as caught:
        read_intent(raw)
    assert caught.value.code == code
    assert caught.value.frame()["t"] == "error"


def test_good_requests_are_read() -> None:
    assert read_intent('{"t": "play", "i": 2}') == Intent("play", index=2)
    assert read_intent('{"t": "ready", "on": true}') == Intent("ready", flag=True)
    assert read_intent('{"t": "say", "text": "<b>hi</b>"}') == Intent("say", text="<b>hi</b>")
    assert read_intent('{"t": "swap"}') == Intent("swap")
    assert read_intent('{"t": "lang", "code": "ps"}') == Intent("lang", text="ps")
