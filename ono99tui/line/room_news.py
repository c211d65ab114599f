"""What changed at the table between two lobbies, in sentences (pure: no I/O).

A screen shows the waiting room's seats and marks and lets the eye find what changed; a line
mode must say it: who sat down, left, said ready, went away or came back, a change of the
rules, the standings once a match is over (and a duplicate set's comparison). Mid-match
the seats stay as they are, so only their people going away and coming back are told (and
which deal of a duplicate set is dealt).
"""

from __future__ import annotations

from netproto.wire.messages import Lobby, SeatKind, TablePhase
from ono99tui.client.dealing import may_deal
from ono99tui.client.duplicate import results_from_wire
from ono99tui.client.options import TableOptions, options_from_wire
from ono99tui.i18n import _
from ono99tui.line.sentences import ratings_line, room_lines, standings_line
from ono99tui.words.duplicate import comparison_sentences, progress_text


def how_to_start(*, spectating: bool, host: bool, dealable: bool = True) -> str:
    """What the player types in the waiting room (`dealable`: the table has players enough
    for the host's g, `client/dealing.py`)."""
    if spectating:
        return _("You are watching. Type j to take a seat.")
    if host and not dealable:
        return _("You host: g deals once someone is here to play against; b adds a bot, "
                 "o changes the rules.")
    if host:
        return _("You host: g deals, b adds a bot, o changes the rules.")
    return _("Type y when you are ready.")


def dealing_news(before: Lobby, after: Lobby) -> list[str]:
    """The host's: someone to play against came (g deals now), or the last one went."""
    if may_deal(after) and not may_deal(before):
        return [_("Someone to play against is here: type g to deal.")]
    if may_deal(before) and not may_deal(after):
        return [_("Nobody is left to play against: g deals once someone is here (b adds a "
                  "bot).")]
    return []


def away_and_back(before: Lobby, after: Lobby) -> list[str]:
    """Mid-match: the seats whose people went away or came back (not the viewer's own)."""
    lines = []
    was = {seat.seat: seat for seat in before.seats}
    for seat in after.seats:
        old = was.get(seat.seat)
        if (old is not None and old.name == seat.name and old.connected != seat.connected
                and seat.seat != after.you):
            lines.append(_("{name} is back.").format(name=seat.name) if seat.connected
                         else _("{name} is away.").format(name=seat.name))
    return lines


def lobby_news(said: Lobby | None, after: Lobby, options: TableOptions, *, solo: bool,
               spectating: bool, host: bool) -> list[str]:
    """What `after` tells that the lobby last told (`said`, None: nothing yet) did not.
    `options`: `after`'s, decoded; `solo`: a solo table, which seats its bots and deals by
    itself (nothing to tell before the deal)."""
    if solo and after.phase == TablePhase.WAITING:
        return []
    if after.phase == TablePhase.PLAYING:
        if said is not None and said.phase == TablePhase.PLAYING:
            return away_and_back(said, after)
        if options.duplicate_set is not None:  # a new deal of a set: which one
            return [progress_text(options.duplicate_set, playing=True)]
        return []
    if said is None or said.phase != after.phase:
        lines = []
        standings = standings_line(after)
        if after.phase == TablePhase.FINISHED and standings is not None:
            lines.append(standings)
        ratings = ratings_line(after) if after.phase == TablePhase.FINISHED else None
        if ratings is not None:
            lines.append(ratings)
        duplicate = results_from_wire(after.results)
        if after.phase == TablePhase.FINISHED and duplicate is not None:
            lines += comparison_sentences(duplicate)
        if after.phase == TablePhase.WAITING:
            lines += room_lines(after, options)
            lines.append(how_to_start(spectating=spectating, host=host,
                                      dealable=may_deal(after)))
        return lines
    lines = []
    old = {seat.name: seat for seat in said.seats}
    new = {seat.name: seat for seat in after.seats}
    for name, seat in new.items():
        was = old.get(name)
        if was is None:
            kind = _("A bot") if seat.kind == SeatKind.BOT else _("A player")
            lines.append(_("{kind}, {name}, sat down in seat {number}.").format(
                kind=kind, name=name, number=seat.seat + 1))
        elif seat.ready != was.ready and seat.kind != SeatKind.BOT and seat.seat == after.you:
            # The viewer's own `y`, confirmed as theirs ("bo is ready." read like news of
            # someone else).
            lines.append(_("You are ready.") if seat.ready else _("You are not ready."))
        elif seat.ready != was.ready and seat.kind != SeatKind.BOT:
            lines.append(_("{name} is ready.").format(name=name) if seat.ready
                         else _("{name} is not ready.").format(name=name))
        elif seat.connected != was.connected:
            lines.append(_("{name} is back.").format(name=name) if seat.connected
                         else _("{name} is away.").format(name=name))
        if was is not None and seat.unrated != was.unrated:
            lines.append(rated_news(name, mine=seat.seat == after.you, rated=not seat.unrated))
    lines += [_("{name} left the table.").format(name=name) for name in old if name not in new]
    if host and not spectating and after.phase == TablePhase.WAITING:
        lines += dealing_news(said, after)
    if said.options != after.options:
        lines += option_news(options_from_wire(said.options), options)
    return lines


def rated_news(name: str, *, mine: bool, rated: bool) -> str:
    """A player switched their rating on or off (`rated`): the sentence that says so."""
    if mine:
        return (_("Your play is rated again from the next match on.") if rated
                else _("Your play is not rated from the next match on: your rating stays "
                       "as it is."))
    return (_("{name} is rated again from the next match on.") if rated
            else _("{name} plays unrated from the next match on.")).format(name=name)


def option_news(before: TableOptions, after: TableOptions) -> list[str]:
    """What the host changed among the table's options, one sentence each (a screen shows
    the new value in its place; a line mode names what changed)."""
    lines = []
    if after.rules is not None and after.rules != before.rules:
        lines.append(_("The rules are now preset {preset}: type r to hear them.").format(
            preset=after.rules.name))
    if after.turn_seconds != before.turn_seconds:
        lines.append(_("The turn clock is now off.") if after.turn_seconds is None
                     else _("The turn clock now gives {seconds} seconds a move.").format(
                         seconds=f"{after.turn_seconds:g}"))
    if after.hints != before.hints:
        lines.append(_("Hints are now allowed: type h on your turn.") if after.hints
                     else _("Hints are now off."))
    if after.spectator_chat != before.spectator_chat:
        lines.append(_("Spectators may now talk.") if after.spectator_chat
                     else _("Spectators may no longer talk."))
    if after.duplicate != before.duplicate:
        lines.append(_("The table now deals duplicate sets: each deal once per seat "
                       "rotation.") if after.duplicate else _("Duplicate sets are now off."))
    return lines
