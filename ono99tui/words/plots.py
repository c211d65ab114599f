"""The plots in words: what a screen reader (line mode) is told instead of a picture, and
the accessible name of the phone's and the terminal's plots.

"In round 2 the total went from 0 to 97 in 23 plays; bob busted at 98."
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ono99tui.client.plots import RatingPoint, RoundTotals
from ono99tui.i18n import _, ngettext


def round_summary(totals: RoundTotals, names: Sequence[str]) -> str:
    """The round's total in one sentence, with its busts."""
    plays = len(totals.totals)
    last = totals.totals[-1] if totals.totals else 0
    text = ngettext("In round {round} the total went from 0 to {total} in {plays} play",
                    "In round {round} the total went from 0 to {total} in {plays} plays",
                    plays).format(round=totals.round_no, total=last, plays=plays)
    busts = [_("{name} busted at {total}").format(name=_name(names, bust.seat), total=bust.total)
             for bust in totals.busts]
    return text + "".join("; " + bust for bust in busts) + "."


def evening_summary(series: Mapping[str, Sequence[RatingPoint]]) -> str:
    """Each player's rating over the evening in one sentence ("" when nobody was rated)."""
    parts = []
    for name, points in series.items():
        if not points:
            continue
        first, last = points[0].rating, points[-1].rating
        if len(points) == 1:  # "1130 to 1130 over 1 match" said nothing about a change
            parts.append(_("{name} {rating} after one match").format(name=name, rating=last))
            continue
        parts.append(ngettext("{name} {first} to {last} over {matches} match",
                              "{name} {first} to {last} over {matches} matches",
                              len(points)).format(name=name, first=first, last=last,
                                                  matches=len(points)))
    if not parts:
        return ""
    return _("Ratings this evening: {players}.").format(players="; ".join(parts))


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else "?"
