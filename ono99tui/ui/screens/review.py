"""A coach's review of a finished match: the player's costliest choices first, each with
the position as it was (the round, the total and the limit, the hand, the card played, the
better card) and every card's chance (`bots/review.py`, in words by `words/review.py`).

Opened from the match-over dialog (`v`, for a player who had a seat, once the match is
over) and by `ono99 replay --review`. The review is worked out off the event loop (where a
hosting app runs its table): a worker thread waits on a child process that searches
(`bots/review_apart.py`), with a progress bar meanwhile; leaving the screen stops it. It
reads only the player's own decisions: views and public events.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, ProgressBar, Static
from textual.worker import Worker, WorkerState, get_current_worker

from ono99tui.bots.review import Decision, Review
from ono99tui.game import MATCH_OVER, PlayerView
from ono99tui.i18n import _
from ono99tui.ui.glyphs import current_glyphs
from ono99tui.ui.session_app import SessionApp, watch_session
from ono99tui.words.review import (
    chances_sentence,
    listed,
    measure_note,
    play_sentence,
    position_sentence,
    progress_sentence,
    summary_sentence,
)


def entry_text(number: int, sentence: str, position: str, chances: str) -> str:
    """One costly choice as the list shows it: the sentence, then the position and every
    card's chance, indented under it."""
    return f"{number}. {sentence}\n   {position}\n   {chances}"


class ReviewScreen(Screen[None]):
    """The review of one seat's plays (see the module docstring)."""

    CSS_PATH = "review.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,v", "close", _("Back")),
        Binding("q", "quit", _("Quit")),
    ]

    def __init__(self, decisions: Sequence[Decision], name: str, *,
                 budget_s: float | None = None, seed: int = 0,
                 quits: bool = False,
                 closing_with: Callable[[], object] | None = None) -> None:
        """`decisions`: the seat's plays of a finished match; `name`: whose they are;
        `budget_s`: the search's per play (None: `bots.review.REVIEW_BUDGET_S`); `quits`:
        leaving the screen ends the app (it is what `ono99 replay` opened); `closing_with`:
        what else to close when a new match is dealt meanwhile (the match's dialog)."""
        super().__init__()
        self.decisions = list(decisions)
        self.player = name
        self.budget_s = budget_s
        self.seed = seed
        self.quits = quits
        self.closing_with = closing_with
        self.review: Review | None = None

    def compose(self) -> ComposeResult:
        yield Static(_("Review of the plays of {name}").format(name=self.player),
                     id="review-title", markup=False)
        yield Static(progress_sentence(0, len(self.decisions)), id="review-status",
                     markup=False)
        yield ProgressBar(total=max(1, len(self.decisions)), show_eta=False,
                          id="review-progress")
        yield VerticalScroll(id="review-list")
        yield Static("", id="review-note", markup=False)
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self.set_class(current_glyphs(self).ascii, "-ascii")
        if not self.quits and isinstance(self.app, SessionApp):
            # At a table: a rematch dealt while the review is read closes it (and the
            # match's dialog under it), so the new match's table is in sight.
            watch_session(self, lambda session: session.view, self._view_changed, init=False)
        self.run_worker(self._work_out, name="review", group="review", thread=True,
                        exclusive=True, exit_on_error=False)

    def _work_out(self) -> Review:
        """On the worker thread: the review, telling the screen how far it is."""
        worker = get_current_worker()
        app = self.app

        def progress(done: int, of: int) -> None:
            if not worker.is_cancelled:
                app.call_from_thread(self._progress, done, of)

        from ono99tui.bots import review
        from ono99tui.bots.review_apart import review_apart

        budget = review.REVIEW_BUDGET_S if self.budget_s is None else self.budget_s
        # In a child process: this app may host the table (bots/review_apart.py).
        return review_apart(self.decisions, budget_s=budget, seed=self.seed,
                            progress=progress, cancelled=lambda: worker.is_cancelled)

    def _progress(self, done: int, of: int) -> None:
        if self.review is not None or not self.is_attached:
            return
        self.query_one("#review-status", Static).update(progress_sentence(done, of))
        self.query_one(ProgressBar).update(progress=done)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The review is done (or failed): show it."""
        worker = event.worker
        if worker.name != "review":
            return
        if event.state == WorkerState.SUCCESS and isinstance(worker.result, Review):
            self.show_review(worker.result)
        elif event.state == WorkerState.ERROR:
            self.query_one("#review-status", Static).update(
                _("The review could not be worked out ({problem}).").format(
                    problem=worker.error))

    def show_review(self, review: Review) -> None:
        """Draw the finished review: the summary, then the costly choices, costliest first."""
        self.review = review
        self.query_one(ProgressBar).display = False
        self.query_one("#review-status", Static).update(summary_sentence(review))
        entries = [Static(entry_text(number, play_sentence(play), position_sentence(play),
                                     chances_sentence(play)),
                          classes="review-entry", markup=False)
                   for number, play in enumerate(listed(review), start=1)]
        board = self.query_one("#review-list", VerticalScroll)
        board.remove_children()
        board.mount_all(entries)
        if review.plays:
            self.query_one("#review-note", Static).update(
                measure_note([play.measures for play in review.plays]))
        board.focus()

    def _view_changed(self, view: PlayerView | None) -> None:
        if view is None or view.phase == MATCH_OVER or not self.is_current:
            return
        self.workers.cancel_group(self, "review")
        self.app.notify(_("A new match is dealt: the review is closed."))
        self.dismiss()
        if self.closing_with is not None:  # the match's dialog under it goes too
            self.app.call_later(self.closing_with)

    def action_close(self) -> None:
        """Back to where the review was opened from (the app ends with `ono99 replay`)."""
        self.workers.cancel_group(self, "review")
        if self.quits:
            self.app.exit()
        else:
            self.dismiss()

    def action_quit(self) -> None:
        """Quit the app: at a table, the app's own quit (which asks where it must)."""
        self.workers.cancel_group(self, "review")
        if self.quits:
            self.app.exit()
        else:
            self.dismiss()
            self.app.call_later(self.app.run_action, "quit")
