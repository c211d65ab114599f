"""A finished match replayed move by move, every hand face up (`ono99 replay`).

It draws each step of the match (`ono99tui.host.journal.history.replay_match`) with the table's own
widgets — the seats, the total, the log of what happened so far — and, below them, every
seat's hand as it stood after that step. Arrows step back and forth, up and down jump to the
previous or next round's deal, Home and End to the deal and the last move.

Showing every hand is why only a finished match is replayed: the replay command refuses one
still being played, so nothing here can help anyone at a table in progress.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from netproto.wire.messages import SeatInfo as LobbySeat
from netproto.wire.messages import SeatKind
from ono99tui.client.plots import round_totals
from ono99tui.game import DISCARDING, MATCH_OVER, RoundDealt, spectator_view
from ono99tui.host.journal.history import RecordedMatch, ReplayStep
from ono99tui.i18n import _
from ono99tui.ui.glyphs import Glyphs, current_glyphs, glyphs_for
from ono99tui.ui.present import (
    event_line,
    last_card_text,
    limit_text,
    near_limit,
    obligation_line,
    seat_infos,
    winners_text,
)
from ono99tui.ui.widgets.log import EventLog, LogEntry
from ono99tui.ui.widgets.seats import SeatList
from ono99tui.ui.widgets.static_text import update_if_changed
from ono99tui.ui.widgets.total import TotalPanel
from ono99tui.words.rule_labels import card_label

# The narrowest screen whose Footer shows every key with its usual spacing.
SPACED_FOOTER_WIDTH = 60


def table_name(match: RecordedMatch) -> str:
    """The table's name as its journal file's name keeps it ("Kitchen" of
    "Kitchen-d98e82ae3ccb.journal"; the journal itself does not record it)."""
    stem = match.path.name.removesuffix(".journal")
    return re.sub(r"-[0-9a-f]{12}$", "", stem) or stem


def lobby_seats(match: RecordedMatch) -> tuple[LobbySeat, ...]:
    """The match's seats as the table's widgets take them: names, bot or human."""
    return tuple(
        LobbySeat(seat=seat, name=name, kind=SeatKind.HUMAN if kind == "human" else SeatKind.BOT,
                  ready=True, connected=True)
        for seat, (name, kind) in enumerate(zip(match.names, match.kinds, strict=True)))


def step_entries(match: RecordedMatch, step: ReplayStep) -> list[LogEntry]:
    """The log lines of one step, in both glyph sets."""
    view = spectator_view(step.state)
    unicode, ascii = glyphs_for(False), glyphs_for(True)
    entries = []
    for event in step.events:
        line = event_line(event, match.names, view, unicode)
        if line is not None:
            entries.append(LogEntry(line, event_line(event, match.names, view, ascii) or line))
    return entries


def hand_lines(match: RecordedMatch, step: ReplayStep, glyphs: Glyphs) -> str:
    """Every seat's hand after `step`, one line each, the seat to play marked."""
    state = step.state
    width = max(cell_len(name) for name in match.names)
    # Who acts next: the buster choosing a discard (points scoring), else the turn.
    acting = state.discarding if state.phase == DISCARDING else state.turn
    lines = []
    for seat, name in enumerate(match.names):
        hand = state.hands[seat]
        if not state.alive[seat]:
            cards = (_("out of the match (held {cards})").format(
                cards=_(", ").join(card_label(card, state.rules) for card in hand))
                if hand else _("out of the match"))
        else:
            cards = "  ".join(card_label(card, state.rules) for card in hand) or _("no cards")
        marker = glyphs.turn_marker if seat == acting and state.phase != MATCH_OVER else " "
        lines.append(f"{marker} {name}{' ' * (width - cell_len(name))}  {cards}")
    return "\n".join(lines)


def round_starts(steps: Sequence[ReplayStep]) -> list[int]:
    """The steps that deal a round (the first is always step 0)."""
    return [index for index, step in enumerate(steps)
            if any(type(event) is RoundDealt for event in step.events)]


class ReplayScreen(Screen[None]):
    """One finished match, step by step (see the module docstring)."""

    CSS_PATH = "replay.tcss"
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [  # type: ignore[misc]
        (0, "-narrow"), (80, "-wide"),
    ]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space,l", "step(1)", _("Next"), key_display="→"),
        Binding("left,backspace,h", "step(-1)", _("Back"), key_display="←"),
        Binding("down,pagedown,j", "round(1)", _("Next round"), key_display="↓"),
        Binding("up,pageup,k", "round(-1)", _("Round back"), key_display="↑"),
        # Shown in the hands pane's title: the Footer has room for five keys at 80 columns.
        Binding("home", "jump(0)", _("Deal"), show=False),
        Binding("end", "jump(-1)", _("End"), show=False),
        # The replayed match's rules (the app's own F1 would show a table's).
        Binding("question_mark,f1", "rules", _("Rules"), show=False),
        # The total of the round shown so far, as a plot (ui/screens/plots.py): in the
        # Footer, which has room for these six keys down to 60 columns (narrower, it packs
        # them closer: `on_resize`).
        Binding("g", "plots", _("Plot")),
        Binding("q,escape", "app.quit", _("Quit")),
    ]

    def __init__(self, match: RecordedMatch, steps: Sequence[ReplayStep]) -> None:
        super().__init__()
        self.match = match
        self.steps = list(steps)
        self.seats = lobby_seats(match)
        self.entries = [step_entries(match, step) for step in self.steps]
        self.rounds = round_starts(self.steps)
        # The step shown; a new replay opens on the deal.
        self.position = 0
        # The last step whose lines the log holds (-1: none yet).
        self._log_upto = -1

    def compose(self) -> ComposeResult:
        # markup=False: the title holds the table's name and the rules' name.
        yield Static("", id="replay-title", markup=False)
        with Horizontal(id="middle"):
            with Vertical(id="seats-pane") as seats_pane:
                seats_pane.border_title = _("Seats")
                yield SeatList()
            yield TotalPanel(id="center")
            with Vertical(id="log-pane") as log_pane:
                log_pane.border_title = _("Log")
                yield EventLog(id="log")
        with Vertical(id="hands-pane") as hands_pane:
            hands_pane.border_title = _("Every hand, face up")
            hands_pane.border_subtitle = _("Home: the deal  End: the last move  ?: rules")
            yield Static("", id="hands", markup=False)
        yield Static("", id="step-line", markup=False)
        # No palette entry: the six keys then fit down to 60 columns.
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        # The widgets compose their own children once this screen is mounted.
        self.call_after_refresh(self.show_step)
        self._fit_footer(self.app.size.width)

    def on_resize(self, event: events.Resize) -> None:
        self._fit_footer(event.size.width)

    def _fit_footer(self, width: int) -> None:
        # Under 60 columns the spaced keys would lose the last ones (q Quit, g Plot) off
        # the edge: packed closer they fit down to 53.
        self.query_one(Footer).compact = width < SPACED_FOOTER_WIDTH

    # --- drawing --------------------------------------------------------------------------

    def show_step(self) -> None:
        """Draw the step at `self.position`."""
        if not self.is_attached:
            return
        step = self.steps[self.position]
        state = step.state
        view = spectator_view(state)
        last = len(self.steps) - 1
        title = _("Replay: {table}, match {match}  Rules {rules}  Round {round}  "
                  "Move {move}/{moves}").format(
            table=table_name(self.match), match=self.match.index, rules=state.rules.name,
            round=state.round_no, move=step.number, moves=last)
        update_if_changed(self.query_one("#replay-title", Static), title)
        self.query_one(SeatList).show(seat_infos(view, self.seats))
        obligation, _mine = obligation_line(view, self.seats)
        self.query_one(TotalPanel).show(
            total=state.total, limit_text=limit_text(view), last_card=last_card_text(view),
            near_limit=near_limit(view), direction=state.direction, obligation=obligation,
            obligation_mine=False)
        glyphs = current_glyphs(self)
        update_if_changed(self.query_one("#hands", Static),
                          hand_lines(self.match, step, glyphs))
        update_if_changed(self.query_one("#step-line", Static), self._step_text(step, glyphs))
        log = self.query_one(EventLog)
        if self._log_upto == self.position - 1:  # one step on: its lines under the others
            shown = self.entries[self.position: self.position + 1]
        else:  # back, or a jump: the story from the deal again
            log.clear()
            shown = self.entries[: self.position + 1]
        for entries in shown:
            for entry in entries:
                log.add(entry)
        self._log_upto = self.position
        log.show_ascii(glyphs.ascii)

    def _step_text(self, step: ReplayStep, glyphs: Glyphs) -> str:
        if step.state.phase == MATCH_OVER:
            return _("Match over: {winners}.").format(
                winners=winners_text(spectator_view(step.state), self.seats))
        lines = [entry.text(glyphs.ascii) for entry in self.entries[self.position]]
        if step.number == 0:
            return _("The deal. {first}").format(first=lines[0]) if lines else _("The deal.")
        return lines[0] if lines else ""

    # --- keys ---------------------------------------------------------------------------

    def _go(self, position: int) -> None:
        position = max(0, min(position, len(self.steps) - 1))
        if position == self.position:
            self.app.bell()  # already at the deal or the end
            return
        self.position = position
        self.show_step()

    def action_step(self, delta: int) -> None:
        """One move forward (1) or back (-1)."""
        self._go(self.position + delta)

    def action_round(self, delta: int) -> None:
        """To the next round's deal (1), or back to this round's deal, or the one before if
        already there (-1)."""
        if delta > 0:
            later = [start for start in self.rounds if start > self.position]
            self._go(later[0] if later else len(self.steps) - 1)
        else:
            earlier = [start for start in self.rounds if start < self.position]
            self._go(earlier[-1] if earlier else 0)

    def action_rules(self) -> None:
        """The rules the replayed match was played by."""
        from ono99tui.ui.screens.help import HelpScreen

        if not isinstance(self.app.screen, HelpScreen):
            self.app.push_screen(HelpScreen(self.match.rules))

    def action_plots(self) -> None:
        """The total after each play of the round shown, up to the step shown."""
        from ono99tui.ui.screens.plots import PlotsScreen

        if isinstance(self.app.screen, PlotsScreen):
            return
        events = [event for step in self.steps[: self.position + 1] for event in step.events]
        view = spectator_view(self.steps[self.position].state)
        self.app.push_screen(PlotsScreen(round_totals(events), [seat.name for seat in self.seats],
                                         view.bust_at))

    def action_jump(self, position: int) -> None:
        """To the deal (0) or the last move (-1)."""
        self._go(position if position >= 0 else len(self.steps) - 1)
