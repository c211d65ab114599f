"""The plots: the total after each play of a round, its busts marked, and each player's
rating after each match of the evening, drawn with textual-plotext. Opened with `g` from
the round's and the match's dialogs and from the replay; closes with Esc, Enter or `g`.

Each plot has its sentence under it (`words/plots.py`), the same one line mode says: what
the picture shows is also there in words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Footer, Static
from textual_plotext import PlotextPlot

from ono99tui.client.plots import RatingPoint, RoundTotals
from ono99tui.i18n import _
from ono99tui.ui.screens.own_modal import OwnModal
from ono99tui.words.plots import evening_summary, round_summary


def draw_round(plot: PlotextPlot, totals: RoundTotals, names: Sequence[str],
               limit: int) -> None:
    """The round's total against the play number, from 0 at the deal; each bust an `x`
    where it came, at the total it would have made."""
    plt = plot.plt
    plt.clear_figure()
    xs = list(range(len(totals.totals) + 1))
    plt.plot(xs, [0, *totals.totals], marker="braille")
    if totals.busts:
        plt.scatter([bust.play for bust in totals.busts],
                    [bust.total for bust in totals.busts], marker="x")
    plt.hline(limit)  # the total that busts
    plt.title(_("Round {round}: the total").format(round=totals.round_no))
    plt.xlabel(_("play"))
    low = min(0, *totals.totals) if totals.totals else 0
    plt.ylim(low, max([limit, *(bust.total for bust in totals.busts)]) + 1)
    plt.yticks([float(tick) for tick in sorted({low, *range(0, limit, 25), limit})])
    plt.xticks(whole_ticks(len(totals.totals)))
    plot.refresh()


def whole_ticks(last: int, most: int = 6) -> list[float]:
    """Whole numbers from 0 (or 1) to `last` for an axis, at most about `most` of them."""
    step = max(1, -(-last // (most - 1)))
    return [float(tick) for tick in sorted({*range(0, last, step), last})]


def draw_evening(plot: PlotextPlot, series: Mapping[str, Sequence[RatingPoint]]) -> None:
    """Each player's rating after each match, one line per player, labelled by name."""
    plt = plot.plt
    plt.clear_figure()
    for name, points in series.items():
        plt.plot([p.match for p in points], [p.rating for p in points], label=name,
                 marker="braille" if len(points) > 1 else "o")
    plt.title(_("Ratings this evening"))
    plt.xlabel(_("match"))
    ratings = [p.rating for points in series.values() for p in points]
    if ratings:
        low, high = min(ratings), max(ratings)
        step = max(1, -(-(high - low) // 4))
        plt.yticks([float(low + step * i) for i in range(5) if low + step * i <= high + step])
    matches = sorted({p.match for points in series.values() for p in points})
    if matches:
        plt.xticks([float(match) for match in matches] if len(matches) <= 8
                   else whole_ticks(matches[-1])[1:])
    plot.refresh()


class PlotsScreen(OwnModal[None]):
    """The round's total and, when the table rates its players, the evening's ratings."""

    CSS_PATH = "plots.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,space,g", "dismiss", _("Close"), key_display="Esc"),
    ]

    def __init__(self, totals: RoundTotals | None, names: Sequence[str], limit: int,
                 evening: Mapping[str, Sequence[RatingPoint]] | None = None) -> None:
        super().__init__()
        self.totals = totals
        self.names = tuple(names)
        self.limit = limit
        self.evening = {name: points for name, points in (evening or {}).items() if points}

    def compose(self) -> ComposeResult:
        with Vertical(id="plots"):
            if self.totals is not None:
                yield PlotextPlot(id="round-plot")
                yield Static(round_summary(self.totals, self.names), id="round-summary",
                             classes="plot-summary", markup=False)
            if self.evening:
                yield PlotextPlot(id="evening-plot")
                yield Static(evening_summary(self.evening), id="evening-summary",
                             classes="plot-summary", markup=False)
            if self.totals is None and not self.evening:
                yield Static(_("Nothing to plot yet."), classes="plot-summary", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        if self.totals is not None:
            draw_round(self.query_one("#round-plot", PlotextPlot), self.totals, self.names,
                       self.limit)
        if self.evening:
            draw_evening(self.query_one("#evening-plot", PlotextPlot), self.evening)
