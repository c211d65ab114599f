"""Line mode's sentences: the hand, the seats, the table and the room, each as short lines.

Pure functions from what the session holds (a `PlayerView`, a `Lobby`, the story) to lists
of sentences a screen reader says and a braille display shows one by one. The match's
events are `ono99tui.words.events`' (the same words as the terminal's log, in their spoken
form); this module adds what a screen shows at a glance and a line mode must say. Every
string goes through `ono99tui.i18n` whole, with named placeholders.
"""

from __future__ import annotations

from collections.abc import Sequence

from netproto.lan.discovery import DiscoveredTable
from netproto.wire.messages import Lobby, SeatKind, TablePhase
from ono99tui.client.names import is_named_you, names_of, seat_name
from ono99tui.client.options import TableOptions
from ono99tui.client.story import EventItem, SaidItem, StandInItem, StoryItem
from ono99tui.game import (
    Card,
    Discard,
    Draw,
    MatchEnded,
    Play,
    PlayerView,
    RoundEnded,
    Rules,
    Scoring,
)
from ono99tui.game.state import MATCH_OVER
from ono99tui.i18n import _, ngettext
from ono99tui.line.commands import command_words
from ono99tui.table_protocol import EMOTES
from ono99tui.words.duplicate import progress_text
from ono99tui.words.events import (
    can_swap,
    card_effect,
    cards_owed,
    event_line,
    limit_text,
    matches_won,
    must_draw,
    obligation_card_name,
    stand_in_line,
    unplayable_reason,
    winners_text,
)
from ono99tui.words.rule_labels import (
    RULE_SWITCHES,
    card_label,
    ono99_effect,
    preset_label,
    scoring_rule,
)

# The emotes in the order `emotes` numbers them.
EMOTE_ORDER = ("hello", "nice-play", "oops", "your-turn", "good-game")


def story_line(item: StoryItem) -> str | None:
    """One story item (an event, a line of talk, what a stand-in played) as a sentence, or
    None when it is not told (a draw: the hand says what came)."""
    if isinstance(item, EventItem):
        return event_line(item.event, item.names, item.view, spoken=True)
    if isinstance(item, SaidItem):
        return _("{name} says: {text}").format(name=item.name, text=item.text)
    if isinstance(item, StandInItem):
        line = stand_in_line(item.events, item.seat, item.rules, skip_first=item.skip_first)
        return None if line is None else line + "."
    return _("The first rounds are told in short.")


def last_lines(items: Sequence[StoryItem], count: int) -> list[str]:
    """The last `count` events of the match told (talk left out), oldest first."""
    lines = [line for item in items if not isinstance(item, SaidItem)
             for line in [story_line(item)] if line is not None]
    if not lines:
        return [_("Nothing has been played yet.")]
    return lines[-count:]


def card_line(view: PlayerView, index: int, playable: bool, reason: str) -> str:
    """ "1. 7: +7, playable." / "2. ONO 99: dead card, not playable: <why>." """
    card = view.hand[index]
    if playable:
        return _("{number}. {card}: {effect}, playable.").format(
            number=index + 1,
            card=card_label(card, view.rules), effect=card_effect(card, view.rules))
    if reason:
        return _("{number}. {card}: {effect}, not playable: {reason}.").format(
            number=index + 1,
            card=card_label(card, view.rules), effect=card_effect(card, view.rules),
            reason=reason.rstrip("."))
    return _("{number}. {card}: {effect}, not playable.").format(
        number=index + 1, card=card_label(card, view.rules), effect=card_effect(card, view.rules))


def playable_cards(view: PlayerView) -> set[Card]:
    """The cards the viewer may play (or, having busted, discard) now."""
    discarding = view.discarding is not None and view.discarding == view.seat
    kind = Discard if discarding else Play
    return {move.card for move in view.legal_moves if isinstance(move, kind)}


def hand_lines(view: PlayerView, lobby: Lobby | None, *, owed_told: bool = False) -> list[str]:
    """The viewer's hand, numbered, each card with its effect and whether it can be played
    now (and why not), after the total, the limit and what is owed (unless `owed_told`: the
    turn's own sentence just said it, and a screen reader would read it twice)."""
    lines = [total_line(view)]
    if (not owed_told and view.obligation_seat == view.seat and view.seat is not None
            and view.obligation_owed):
        lines.append(_("{card}: you owe {cards}.").format(
            card=obligation_card_name(view), cards=cards_owed(view.obligation_owed)))
    if not view.hand:
        lines.append(_("Your hand is empty."))
        return lines
    allowed = playable_cards(view)
    discarding = view.discarding is not None and view.discarding == view.seat
    for index, card in enumerate(view.hand):
        playable = card in allowed
        if discarding:
            lines.append(_("{number}. {card}: {effect}, may be discarded.").format(
                number=index + 1, card=card_label(card, view.rules),
                effect=card_effect(card, view.rules)))
            continue
        reason = "" if playable else unplayable_reason(view, card)
        lines.append(card_line(view, index, playable, reason))
    if can_swap(view):
        lines.append(_("s: swap your four ONO 99 cards."))
    if must_draw(view):
        lines.append(_("d: draw your card before the next player plays!"))
    return lines


def total_line(view: PlayerView) -> str:
    """ "Total 84; you may go up to 98." """
    return _("Total {total}; {limit}.").format(total=view.total, limit=limit_text(view))


def turn_line(view: PlayerView, lobby: Lobby | None) -> str:
    """Whose turn it is, or who must act, in one sentence."""
    seats = lobby.seats if lobby is not None else ()
    if view.phase == MATCH_OVER:
        return _("Match over: {winners}.").format(winners=winners_text(view, seats))
    if view.discarding is not None:
        if view.discarding == view.seat:
            return _("You busted: choose a card to discard.")
        return _("{name} busted and chooses a discard.").format(
            name=seat_name(view.discarding, seats))
    if view.turn is None:
        return ""
    if view.turn == view.seat:
        if turn_tells_owed(view):
            return _("Your turn: you owe {cards}.").format(cards=cards_owed(view.obligation_owed))
        return _("Your turn.")
    return _("{name} to play.").format(name=seat_name(view.turn, seats))


def turn_tells_owed(view: PlayerView) -> bool:
    """Does `turn_line` say what the viewer owes (their turn, under a Play 2)?"""
    return (view.phase != MATCH_OVER and view.discarding is None and view.turn is not None
            and view.turn == view.seat and view.obligation_seat == view.seat)


def clock_line(seconds: int) -> str:
    """The turn clock on the viewer's move."""
    return ngettext("You have {count} second to play.", "You have {count} seconds to play.",
                    seconds).format(count=seconds)


def acting(view: PlayerView) -> bool:
    """Must the viewer act now (play, swap, discard, or draw under the late-draw rule)?"""
    return any(not isinstance(move, Draw) for move in view.legal_moves) or must_draw(view)


def table_lines(view: PlayerView, lobby: Lobby | None) -> list[str]:
    """`total`: the total, the limit, the last card, whose turn, the direction."""
    lines = [total_line(view)]
    if view.discard_top is not None:
        lines.append(_("Last card: {card}.").format(card=card_label(view.discard_top, view.rules)))
    if view.obligation_seat is not None and view.phase != MATCH_OVER:
        seats = lobby.seats if lobby is not None else ()
        lines.append(_("{name} owes {cards} ({card}).").format(
            name=("you" if view.obligation_seat == view.seat
                  else seat_name(view.obligation_seat, seats)),
            cards=cards_owed(view.obligation_owed), card=obligation_card_name(view)))
    lines.append(_("Play goes in seat order.") if view.direction > 0
                 else _("Play goes against seat order."))
    turn = turn_line(view, lobby)
    if turn:
        lines.append(turn)
    lines.append(ngettext("{count} card to draw.", "{count} cards to draw.",
                          view.draw_pile_size).format(count=view.draw_pile_size))
    return lines


def seat_lines(view: PlayerView, lobby: Lobby | None) -> list[str]:
    """`who` during a match: one line per seat (cards, tokens or points, marks)."""
    seats = lobby.seats if lobby is not None else ()
    by_seat = {info.seat: info for info in seats}
    names = names_of(view, seats)
    lines = []
    for seat, name in enumerate(names):
        facts = [ngettext("{count} card", "{count} cards", view.hand_sizes[seat]).format(
            count=view.hand_sizes[seat])]
        if view.rules.scoring == Scoring.TOKENS:
            facts.append(ngettext("{count} token", "{count} tokens", view.tokens[seat]).format(
                count=view.tokens[seat]))
        if view.rules.scoring.counts_points:
            facts.append(ngettext("{count} point", "{count} points", view.scores[seat]).format(
                count=view.scores[seat]))
        info = by_seat.get(seat)
        if info is not None and info.kind == SeatKind.BOT:
            facts.append(_("bot"))
        if info is not None and not info.connected:
            facts.append(_("away"))
        if view.eliminated[seat]:
            facts.append(_("out"))
        elif view.out_of_round[seat]:
            facts.append(_("out this round"))
        if seat == view.turn and view.phase != MATCH_OVER:
            facts.append(_("to play"))
        # "(you)" marks the viewer, unless the name says it already (solo's default).
        mine = seat == view.seat and not is_named_you(name)
        who = _("{name} (you)").format(name=name) if mine else name
        lines.append(_("Seat {number}, {name}: {facts}.").format(
            number=seat + 1, name=who, facts=", ".join(facts)))
    return lines


def room_lines(lobby: Lobby, options: TableOptions) -> list[str]:
    """`who` in the waiting room (or between matches): the seats, ready marks, the rules."""
    lines = [_("Waiting room: {taken} of {capacity} seats taken.").format(
        taken=len(lobby.seats), capacity=lobby.capacity)]
    for info in lobby.seats:
        marks = []
        if info.seat == lobby.host_seat:
            marks.append(_("host"))
        if info.kind == SeatKind.BOT:
            marks.append(_("bot"))
        elif info.seat == lobby.host_seat and lobby.phase == TablePhase.WAITING:
            pass  # the host deals: ready is not asked of them
        elif info.ready:
            marks.append(_("ready"))
        else:
            marks.append(_("not ready"))
        if not info.connected:
            marks.append(_("away"))
        if info.rating is not None:
            # TRANSLATORS: a player's rating in the waiting room's list of seats (a number).
            marks.append(_("rating {rating}").format(rating=info.rating))
        elif info.unrated:
            # TRANSLATORS: a seat in the waiting room whose player asked not to be rated.
            marks.append(_("not rated"))
        mine = info.seat == lobby.you and not is_named_you(info.name)
        name = _("{name} (you)").format(name=info.name) if mine else info.name
        lines.append(_("Seat {number}, {name}: {marks}.").format(
            number=info.seat + 1, name=name, marks=", ".join(marks)))
    if lobby.spectators:
        lines.append(ngettext("{count} person watching.", "{count} people watching.",
                              lobby.spectators).format(count=lobby.spectators))
    rules = options.rules
    if rules is not None:
        lines.append(_("Rules: preset {preset}.").format(preset=preset_label(rules)))
    if options.duplicate_set is not None:
        lines.append(progress_text(options.duplicate_set, playing=False))
    elif options.duplicate:
        lines.append(_("Duplicate sets: each deal once per seat rotation."))
    return lines


def rules_lines(options: TableOptions) -> list[str]:
    """`rules`: this table's preset and options, in sentences (whether totals go below 0
    is one of the switches: said once, with them)."""
    rules = options.rules
    if rules is None:
        return [_("The table has not said its rules yet.")]
    lines = [
        _("Preset {preset}.").format(preset=preset_label(rules)),
        _("The total must stay at {highest} or under.").format(highest=rules.bust_at - 1),
        _("ONO 99 card: {effect}.").format(effect=ono99_effect(rules.ono99_card)),
        scoring_rule(rules),
    ]
    for switch in RULE_SWITCHES:
        lines.append(_("{setting}: {value}.").format(
            setting=switch.setting, value=switch.on if getattr(rules, switch.option)
            else switch.off))
    if options.turn_seconds is not None:
        lines.append(_("Each turn has {seconds:g} seconds.").format(seconds=options.turn_seconds))
    lines.append(_("Hints are allowed.") if options.hints else _("Hints are off."))
    return lines


def help_lines(*, host: bool) -> list[str]:
    """`help`: every command, how it is typed and what it does (host commands for the
    host only)."""
    lines = [_("Commands (short form first):")]
    for command in command_words():
        if command.word in ("start", "bot", "remove", "set", "room") and not host:
            continue
        lines.append(_("{usage}: {does}").format(usage=command.usage, does=command.does))
    lines.append(_("Ctrl-D quits like q."))
    return lines


def emote_lines() -> list[str]:
    """`emotes`: the emotes by number and name."""
    lines = [_("Emotes: e NUMBER or e NAME sends one.")]
    for number, name in enumerate(EMOTE_ORDER, start=1):
        lines.append(_("{number}. {name}: {text}").format(number=number, name=name,
                                                          text=_(EMOTES[name])))
    return lines


def match_end_lines(*, host: bool, spectating: bool, room: bool = False) -> list[str]:
    """The match is over: what to type next (`room`: the host may open the waiting room).
    Who won is not said again: the match's last event said it, just before."""
    lines = []
    if spectating:
        lines.append(_("Type j to take a seat for the next match, or q to quit."))
    elif host and room:
        lines.append(_("Type m for a rematch, k for the waiting room, q to quit."))
    elif host:
        lines.append(_("Type m for a rematch, or q to quit."))
    else:
        lines.append(_("Type m when you are ready for a rematch, or q to quit."))
    return lines


def standings_line(lobby: Lobby) -> str | None:
    """The matches each player has won at this table, once more than one was played."""
    counts = matches_won(lobby.results, len(lobby.seats))
    if counts is None or sum(counts) < 2:
        return None
    return _("Matches won here: {standings}.").format(standings=", ".join(
        f"{seat.name} {counts[seat.seat]}" for seat in lobby.seats
        if 0 <= seat.seat < len(counts)))


def ratings_line(lobby: Lobby) -> str | None:
    """Each rated player's new rating and the match's change, from a table that rates
    its players (None: it does not, or rated nobody)."""
    entries = lobby.results.get("ratings")
    if not isinstance(entries, list):
        return None
    told = []
    for seat in lobby.seats:
        entry = entries[seat.seat] if 0 <= seat.seat < len(entries) else None
        if isinstance(entry, dict) and type(entry.get("rating")) is int \
                and type(entry.get("change")) is int:
            told.append(f"{seat.name} {entry['rating']} ({entry['change']:+d})")
    if not told:
        return None
    # TRANSLATORS: after a match: each player's new rating and its change, e.g.
    # "Ann 1043 (+23), Bob 977 (-23)".
    return _("Ratings now: {ratings}.").format(ratings=", ".join(told))


def round_end_lines(result: RoundEnded, rules: Rules, names: Sequence[str],
                    eliminated: Sequence[bool] = ()) -> list[str]:
    """A round of a tokens or points match is over: each seat's tokens or points. A seat
    out of the match (`eliminated`) is said to be out: "0 tokens left" is also what a seat
    on its last life has, and it plays on."""
    lines = []
    for seat, name in enumerate(names):
        if rules.scoring == Scoring.TOKENS and seat < len(eliminated) and eliminated[seat]:
            lines.append(_("{name}: out of the match.").format(name=name))
        elif rules.scoring == Scoring.TOKENS and seat < len(result.tokens):
            lines.append(ngettext("{name}: {count} token left.", "{name}: {count} tokens left.",
                                  result.tokens[seat]).format(name=name,
                                                              count=result.tokens[seat]))
        elif rules.scoring.counts_points and seat < len(result.scores):
            lines.append(_("{name}: {points} this round, {score} in all.").format(
                name=name, points=result.points[seat], score=result.scores[seat]))
    return lines


def table_list_lines(tables: Sequence[DiscoveredTable]) -> list[str]:
    """The tables found on the LAN, numbered."""
    if not tables:
        return [_("No table found on the network yet.")]
    lines = [ngettext("{count} table found:", "{count} tables found:", len(tables)).format(
        count=len(tables))]
    for number, table in enumerate(tables, start=1):
        info = table.info
        text = (_("{number}. {name}, rules {rules}: {players} of {seats} seated, {state}, "
                  "password.") if info.password_required
                else _("{number}. {name}, rules {rules}: {players} of {seats} seated, {state}."))
        lines.append(text.format(number=number, name=info.name, rules=info.rules,
                                 players=info.seats_taken, seats=info.seats_total,
                                 state=info.state))
    return lines


def phase_name(lobby: Lobby | None) -> str:
    """The table's phase in a word, for the prompt."""
    if lobby is None:
        return _("Joining")
    return {TablePhase.WAITING: _("Waiting room"), TablePhase.PLAYING: _("Table"),
            TablePhase.FINISHED: _("Match over")}.get(lobby.phase, _("Table"))


def ended_with(events: Sequence[object]) -> bool:
    """Do these events end the match?"""
    return any(isinstance(event, MatchEnded) for event in events)
