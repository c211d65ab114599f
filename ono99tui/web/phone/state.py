"""What the phone page shows, from one `TableSession`: plain JSON-able maps, pure.

The page (`static/phone/phone.js`) draws only what these maps hold; it decides nothing of
the game. Everything here comes from the session's own view of the table, the view of
*this* seat: the hand is the seat's own, other seats are counts and public marks, and a
revealed hand is one the table revealed to everyone (an eliminated seat's). The hidden-card
scan (tests/web/test_phone_state.py) checks that over whole matches of every preset.

Words: the page's own strings (buttons, headings, prompts, card effects) are keys into its
message table (`static/phone/messages.json`); what this module sends in words is what the
game and the table say (a log line, an engine's refusal), through `ono99tui.i18n._`.
The map's keys are short: a phone on a slow network reads them on every move.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from netproto.wire.messages import Lobby, SeatKind, TablePhase
from ono99tui.client.dealing import players_here
from ono99tui.client.names import seat_name
from ono99tui.client.places import place_numbers, standings
from ono99tui.client.plots import round_totals
from ono99tui.client.session import TableSession
from ono99tui.client.story import EventItem
from ono99tui.game import (
    Card,
    Discard,
    Draw,
    Event,
    MatchEnded,
    Play,
    PlayerView,
    RoundDealt,
    RoundEnded,
    Scoring,
    SwapFour,
)
from ono99tui.game.state import DISCARDING, MATCH_OVER
from ono99tui.i18n import _
from ono99tui.web.phone.words import unplayable_reason
from ono99tui.words.duplicate import progress_text
from ono99tui.words.plots import evening_summary
from ono99tui.words.rule_labels import (
    ONO99_WORDS,
    RULE_SWITCHES,
    SCORING_WORDS,
    card_label,
)

# The page's word for a card's effect (its message key "fx.<this>"), by card.
_EFFECTS: dict[Card, str] = {Card.MINUS_TEN: "minus10", Card.REVERSE: "reverse",
                             Card.HOLD: "hold", Card.TEN: "number"}


def card_effect(card: Card, view: PlayerView) -> str:
    """The key of `card`'s effect in the page's messages ("fx.<key>"), for its
    accessible name: the edition decides what Play 2 and ONO 99 do."""
    if card is Card.PLAY2:
        return "double" if view.rules.deck == "1980" else "play2"
    if card is Card.ONO99:
        return f"ono99.{view.rules.ono99_card.value}"
    if card is Card.REVERSE and view.seats == 2:
        return "reverse2"
    return _EFFECTS.get(card, "number")


def hand_state(view: PlayerView) -> list[dict[str, Any]]:
    """The seat's hand: per card its token, label, effect key, whether it can be played (or,
    after a points-mode bust, discarded) now, and why not."""
    discarding = view.discarding is not None and view.discarding == view.seat
    allowed = {move.card for move in view.legal_moves
               if isinstance(move, Discard if discarding else Play)}
    reasons: dict[Card, str] = {}
    hand = []
    for card in view.hand:
        playable = card in allowed
        if not playable and card not in reasons:
            reasons[card] = unplayable_reason(view, card) or _("It cannot be played now.")
        hand.append({"tok": card.token, "label": card_label(card, view.rules),
                     "fx": card_effect(card, view), "n": int(card) if card.is_number else None,
                     "ok": playable, "why": "" if playable else reasons[card]})
    return hand


def seats_state(view: PlayerView, lobby: Lobby | None,
                clock: tuple[int, int] | None) -> list[dict[str, Any]]:
    """Every seat of the match: name, cards held, the marks the TUI shows."""
    by_seat = {info.seat: info for info in (lobby.seats if lobby else ())}
    acting = view.discarding if view.discarding is not None else view.turn
    seats = []
    for seat in range(view.seats):
        info = by_seat.get(seat)
        revealed = view.revealed[seat] if seat < len(view.revealed) else None
        seats.append({
            "name": info.name if info else f"seat {seat + 1}",
            "cards": view.hand_sizes[seat],
            "you": seat == view.seat,
            "turn": acting == seat and view.phase != MATCH_OVER,
            "bot": info is not None and info.kind == SeatKind.BOT,
            "away": info is not None and not info.connected and info.kind != SeatKind.BOT,
            "out": view.eliminated[seat],
            "sitting_out": view.out_of_round[seat],
            "owes": view.obligation_owed if view.obligation_seat == seat else 0,
            "tokens": view.tokens[seat] if view.rules.scoring == Scoring.TOKENS else None,
            "score": view.scores[seat] if view.rules.scoring.counts_points else None,
            "clock": clock[1] if clock is not None and clock[0] == seat else None,
            "shown": [card.token for card in revealed] if revealed is not None else None,
        })
    return seats


def game_state(session: TableSession, now: float) -> dict[str, Any] | None:
    """The match as this seat sees it, or None before the first deal."""
    view = session.view
    if view is None:
        return None
    lobby = session.match_lobby
    seats = lobby.seats if lobby else ()
    clock = None
    if session.clock_deadline is not None:
        seat, due = session.clock_deadline
        clock = (seat, max(0, int(due - now + 0.999)))
    moves = view.legal_moves
    me = view.seat
    places = standings(view, session.story.out_order) if view.phase == MATCH_OVER else None
    return {
        "total": view.total,
        "limit": view.bust_at,
        # 99 exactly is legal when the limit is 100 (1980-set99): the page says "up to 99".
        "last": card_label(view.discard_top, view.rules) if view.discard_top is not None else None,
        "dir": view.direction,
        "turn": _name(view.turn, view, seats),
        "acting": view.discarding if view.discarding is not None else view.turn,
        "mine": me is not None and bool(moves) and not all(type(m) is Draw for m in moves),
        "owe": view.obligation_owed if view.obligation_seat == me and me is not None else 0,
        "owes": (_name(view.obligation_seat, view, seats), view.obligation_owed)
                if view.obligation_seat is not None and view.obligation_seat != me else None,
        "ob_card": "double" if view.rules.deck == "1980" else "play2",
        "draw": any(type(m) is Draw for m in moves),
        "swap": any(type(m) is SwapFour for m in moves),
        "swap_only": any(type(m) is SwapFour for m in moves)
                     and not any(type(m) is Play for m in moves),
        "discard": view.discarding is not None and view.discarding == me,
        "discarder": _name(view.discarding, view, seats) if view.phase == DISCARDING else None,
        "hand": hand_state(view),
        "seats": seats_state(view, lobby, clock),
        "round": view.round_no,
        "scoring": view.rules.scoring.value,
        "preset": view.rules.name,
        "over": view.phase == MATCH_OVER,
        # The seats from first to last place once it is over (the terminal's order), and
        # each one's place number (equals share one: "1, 2, 2, 4").
        "places": places,
        "place_numbers": place_numbers(view, places) if places is not None else None,
        "winners": [_name(seat, view, seats) for seat in view.winners],
        "you_won": me is not None and me in view.winners,
        "draw_pile": view.draw_pile_size,
        "clock": clock[1] if clock is not None and clock[0] == me else None,
    }


def _name(seat: int | None, view: PlayerView, seats: Sequence[Any]) -> str | None:
    if seat is None:
        return None
    if seat == view.seat:
        return ""  # the page says "you" in its own words
    return seat_name(seat, seats)


def plot_state(session: TableSession) -> dict[str, Any] | None:
    """The last finished round's total after each play, for the page's plot: `r` the
    round, `t` the totals (from 0 at the deal, which is not sent), `b` the busts as [after
    how many plays, who ("" the viewer), at what total], `l` the total that busts. The
    same until the next round ends, so a move sends none of it (None before a round ends)."""
    view = session.view
    if view is None:
        return None
    # From the end of the story back to the last round's deal: a round's events, not the
    # whole match's, on every state the page is sent.
    events: list[Event] = []
    ended = False
    for item in reversed(session.story.items):
        if not isinstance(item, EventItem):
            continue
        ended = ended or isinstance(item.event, RoundEnded | MatchEnded)
        if ended:
            events.append(item.event)
            if isinstance(item.event, RoundDealt):
                break
    totals = round_totals(reversed(events), finished=True)
    if totals is None:
        return None
    lobby = session.match_lobby
    seats = lobby.seats if lobby else ()
    return {"r": totals.round_no, "t": list(totals.totals), "l": view.bust_at,
            "b": [[bust.play, _name(bust.seat, view, seats), bust.total]
                  for bust in totals.busts]}


def evening_state(session: TableSession) -> dict[str, Any] | None:
    """Each player's rating after each rated match of the evening at this table, for the
    page's ratings plot: `m` the matches (their numbers at this table, in order), `p` per
    player [name, [rating after each of `m`, or None where they did not play it]], `s`
    the same in a sentence (the plot's text alternative). None until a rated match has
    finished. It changes only when a match's ratings come, so a move sends none of it."""
    series = session.evening.series()
    if not series:
        return None
    matches = sorted({point.match for points in series.values() for point in points})
    players = []
    for name, points in series.items():
        by_match = {point.match: point.rating for point in points}
        players.append([name, [by_match.get(match) for match in matches]])
    return {"m": matches, "p": players, "s": evening_summary(series)}


def room_state(session: TableSession) -> dict[str, Any] | None:
    """The waiting room (or the table between matches): seats and their ready marks."""
    lobby = session.lobby
    if lobby is None:
        return None
    options = session.options
    return {
        "phase": lobby.phase.value,
        "seats": [{"seat": s.seat, "name": s.name, "bot": s.kind == SeatKind.BOT,
                   "ready": s.ready, "away": not s.connected and s.kind != SeatKind.BOT,
                   "you": s.seat == lobby.you, "host": s.seat == lobby.host_seat,
                   "rating": s.rating, "unrated": s.unrated}
                  for s in lobby.seats],
        "capacity": lobby.capacity,
        # The seats a deal now would go to (the host's Deal now needs two: client/dealing.py).
        "here": players_here(lobby),
        "watching": lobby.spectators,
        "preset": options.preset,
        "start_when": options.start_when,
        "turn_seconds": options.turn_seconds,
        "hints": options.hints,
        "duplicate": options.duplicate,
        # Where a duplicate set stands, in the door's words ("Duplicate set: deal 1 of 3
        # played."); None at a table that deals none.
        "duplicate_set": (None if options.duplicate_set is None
                          else progress_text(options.duplicate_set, playing=False)),
        "spectator_chat": options.spectator_chat,
        "bot_level": options.bot_level,
        # The scoring in words, for everyone (the host's phone also has `rules`).
        "scoring": (None if options.rules is None
                    else _(SCORING_WORDS[options.rules.scoring].label)),
        "ready": next((s.ready for s in lobby.seats if s.seat == lobby.you), False),
        "rules": host_rules(session),
    }


def rated_state(session: TableSession) -> bool | None:
    """The player's "Rate my play" switch: on, off, or None where the page offers none (a
    spectator, a table that rates nobody, before the table answered)."""
    return session.rated


def host_rules(session: TableSession) -> dict[str, Any] | None:
    """The rule options the host's phone may set (as the terminal's waiting room), with
    their words in the page's language: None for anyone else, or rules not known."""
    rules = session.options.rules
    if not session.is_host or session.spectating or rules is None:
        return None
    return {
        "scoring": str(rules.scoring),
        "scorings": [[str(mode), _(words.label)] for mode, words in SCORING_WORDS.items()],
        "target": rules.target,
        "tokens": rules.tokens,
        # Which of the two the scoring uses (RULES.md §3): the page shows only those.
        "uses_target": rules.scoring.counts_points,
        "uses_tokens": rules.scoring == Scoring.TOKENS,
        "ono99_card": str(rules.ono99_card),
        "ono99_cards": [[str(mode), _(words.label)] for mode, words in ONO99_WORDS.items()],
        "switches": [[switch.option, _(switch.label), bool(getattr(rules, switch.option))]
                     for switch in RULE_SWITCHES],
    }


def page_state(session: TableSession, now: float) -> dict[str, Any]:
    """Everything the page draws, as one map of parts (the page is sent the parts that
    changed: `PhoneSeat`)."""
    welcome = session.welcome
    table_name = welcome.table.get("name") if welcome is not None else None
    lobby = session.lobby
    return {
        "conn": session.connection_state,
        "table": table_name if isinstance(table_name, str) else None,
        "watching": session.spectating,
        "host": session.is_host and not session.spectating,
        "phase": lobby.phase.value if lobby is not None else None,
        "room": room_state(session),
        "game": game_state(session, now),
        "plot": plot_state(session),
        "evening": evening_state(session),
        "rated": rated_state(session),
        "may": {
            "chat": session.may_chat,
            "seat": session.may_take_seat,
            "want_seat": session.may_want_seat,
            "seat_wanted": session.seat_wanted,
            "rematch": (lobby is not None and lobby.phase == TablePhase.FINISHED
                        and not session.spectating),
            "open_room": session.may_open_room,
            "hints": session.hints_allowed and not session.spectating,
            # A coach's review of this seat's plays: only once its match is over.
            "review": session.may_review and not session.spectating,
        },
    }


# --- what the page is sent: the parts of the state that changed -------------------------
#
# A `state` frame is {"t": "state", "p": {part: value}, "d": [op, ...]}: "p" holds parts
# the page takes whole (all of them when a page attaches), "d" the changes inside parts it
# has: each op is a path into the page's state and the value put there, as one list
# (["game", "seats", 5, "cards", 3]). A move changes a few fields of the match (the total,
# the last card, whose turn, one seat's count), so a move costs its few fields, not every
# seat and card again. The page script applies frames as `apply_state_frame` does.


def state_patch(old: Any, new: Any, path: list[str | int]) -> list[list[Any]]:
    """The ops that turn `old` into `new` at `path`: maps with the same keys and lists of
    the same length are followed into, unless replacing one whole is shorter (a hand
    whose cards all moved up one place); anything else that differs is replaced whole."""
    if old == new:
        return []
    ops: list[list[Any]] = []
    if isinstance(old, dict) and isinstance(new, dict) and old.keys() == new.keys():
        for key, value in new.items():
            ops += state_patch(old[key], value, [*path, key])
    elif (isinstance(old, list | tuple) and isinstance(new, list | tuple)
            and len(old) == len(new)):
        for index, (was, value) in enumerate(zip(old, new, strict=True)):
            ops += state_patch(was, value, [*path, index])
    else:
        return [[*path, new]]
    whole = [[*path, new]]
    return whole if len(ops) > 1 and _size(whole) <= _size(ops) else ops


def _size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False))


def state_frame(sent: dict[str, Any], state: dict[str, Any]) -> dict[str, Any] | None:
    """The `state` frame that brings a page holding `sent` to `state` (None: nothing
    changed), and `sent` brought up to date. A page holding nothing (`sent` empty: it has
    just attached) is sent every part whole; a part is sent whole, too, where that is
    shorter than its changes."""
    whole: dict[str, Any] = {}
    ops: list[list[Any]] = []
    for key, value in state.items():
        if key not in sent:
            whole[key] = value
            continue
        if sent[key] == value:
            continue
        changes = state_patch(sent[key], value, [key])
        if _size(changes) < _size(value):
            ops += changes
        else:
            whole[key] = value
    first = not sent
    sent.update(state)
    if not whole and not ops and not first:
        return None
    frame: dict[str, Any] = {"t": "state"}
    if whole or first:
        frame["p"] = whole
    if ops:
        frame["d"] = ops
    return frame


def apply_state_frame(page: dict[str, Any], frame: dict[str, Any]) -> None:
    """What the page script does with a `state` frame: take its parts whole, then put
    each op's value at its path."""
    page.update(frame.get("p", {}))
    for op in frame.get("d", ()):
        node: Any = page
        for step in op[:-2]:
            node = node[step]
        node[op[-2]] = op[-1]
