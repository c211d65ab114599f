"""Seats' names as every front end says them: the name in a seat, "you", and the verb that
agrees with a name ("ana starts", "you start")."""

from __future__ import annotations

from collections.abc import Sequence

from netproto.wire.messages import SeatInfo
from ono99tui.game import PlayerView
from ono99tui.i18n import _

YOU = "you"  # the solo player's default name, and the word for the viewer


def seat_name(seat: int, seats: Sequence[SeatInfo]) -> str:
    """The name sitting in `seat`, or "seat N" before the lobby has told us."""
    for info in seats:
        if info.seat == seat:
            return info.name
    return _("seat {number}").format(number=seat + 1)


def names_of(view: PlayerView, seats: Sequence[SeatInfo]) -> list[str]:
    """Every seat's name, in seat order (the log says "ana played 7", even to ana)."""
    return [seat_name(seat, seats) for seat in range(view.seats)]


def is_named_you(name: str) -> bool:
    """Does this name read as "you"? (`ono99 solo`'s default name, in English or in the
    language in use: a seat line must not say "you (you)", nor a log line "you starts".)"""
    said = name.strip().casefold()
    return said == YOU or said == _("you").casefold()


def agreeing(subject: str, third_person: str, second_person: str) -> str:
    """The form of a verb that agrees with a seat's name: "starts" for ana, "start" for you."""
    return second_person if is_named_you(subject) else third_person


def verb(subject: str, third_person: str, second_person: str) -> str:
    """ "ana starts" / "you start": a seat's name with the verb that agrees with it."""
    return f"{subject} {agreeing(subject, third_person, second_person)}"
