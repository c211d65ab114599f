"""A coach's review of the phone's own plays, once its match is over (`bots/review.py`'s
figures, `words/review.py`'s sentences), as the page is sent it.

The decisions are the seat's own (`client/review_plays.py`: only the views this seat was
sent, handed out only after a `MatchEnded`). The search runs in a child process
(`bots/review_apart.py`): the door usually runs in the host's own process, and a search on
one of its threads would slow the table's loop for everyone. `PhoneReview` runs one review
at a time per phone, tells the page its progress play by play, and stops (the child
killed) when told to: a page closed, a new match dealt, the seat gone.

The frames, all `{"t": "review", "phase": …}`:

- "working": `done` of `of` plays looked at, and `text` ("Reviewing your plays: 3 of 17...");
- "ready": `summary`, `note` (what the chances are of) and `plays`, the costliest choices
  first (see `review_frame`);
- "failed": `text`, why there is none; "stopped": the review was given up (a new match).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Coroutine
from typing import Any

from ono99tui.bots.hints import shown_percent
from ono99tui.bots.review import REVIEW_BUDGET_S, Decision, Review
from ono99tui.i18n import _
from ono99tui.words.review import (
    cost_points,
    listed,
    measure_note,
    move_label,
    play_sentence,
    position_sentence,
    progress_sentence,
    summary_sentence,
)
from ono99tui.words.rule_labels import card_label

log = logging.getLogger("ono99tui.web.phone")

# The choices the page lists, costliest first (line mode tells five; a phone scrolls).
REVIEW_LISTED = 10


def progress_frame(done: int, of: int) -> dict[str, Any]:
    """The page's progress frame: `done` of `of` plays looked at."""
    return {"t": "review", "phase": "working", "done": done, "of": of,
            "text": progress_sentence(done, of)}


def review_frame(review: Review, limit: int = REVIEW_LISTED) -> dict[str, Any]:
    """The finished review as the page is sent it, in the current task's language: the
    summary, and per costly choice (costliest first) its sentence, the position in a
    sentence and as values — the round, the total and its limit, the hand as card labels
    with each card's chance in whole points where it could be played (`None`: it could
    not), the card played and the best one — and the cost in points."""
    plays = []
    for play in listed(review)[:limit]:
        seen = play.view
        chance = {move_label(card.move, seen): shown_percent(card.win) for card in play.cards}
        hand = [card_label(card, seen.rules) for card in seen.hand]
        # A choice that is not a card of the hand (the swap of four ONO 99) is a chip too.
        extra = [[label, percent] for label, percent in chance.items() if label not in hand]
        plays.append({
            "round": seen.round_no, "total": seen.total, "limit": seen.bust_at,
            "hand": [[label, chance.get(label)] for label in hand] + extra,
            "played": move_label(play.move, seen), "best": move_label(play.best, seen),
            "cost": cost_points(play),
            "text": play_sentence(play), "position": position_sentence(play),
        })
    measures = sorted({play.measures for play in review.plays})
    return {"t": "review", "phase": "ready", "summary": summary_sentence(review),
            "note": measure_note(measures) if plays else "", "plays": plays}


class PhoneReview:
    """One phone's review (see the module docstring): `start` it with the decisions of the
    finished match `match`, `stop` it; `send` is how a frame reaches the page."""

    def __init__(self, send: Callable[[dict[str, Any]], Coroutine[Any, Any, None]], *,
                 budget_s: float = REVIEW_BUDGET_S) -> None:
        self._send = send
        self.budget_s = budget_s
        self._task: asyncio.Task[None] | None = None
        self._stop = threading.Event()
        self.match: int | None = None  # the match the review (running or done) is of
        self.last: dict[str, Any] | None = None  # the last frame sent (progress or ready)
        self.review: Review | None = None  # the finished review, once there is one

    @property
    def working(self) -> bool:
        """Is a review being worked out now?"""
        return self._task is not None and not self._task.done()

    def ready_for(self, match: int) -> dict[str, Any] | None:
        """The finished review of `match` as the page is sent it, when there is one (in
        the language spoken now: the page's menu may have changed it since)."""
        if self.match == match and self.review is not None:
            return review_frame(self.review)
        return None

    def start(self, match: int, decisions: list[Decision]) -> None:
        """Work the review of `decisions` out in the background (a review already running
        is left to go on: call `stop` first for another)."""
        if self.working:
            return
        self._stop = threading.Event()
        self.match = match
        self.review = None
        self.last = progress_frame(0, len(decisions))
        self._task = asyncio.get_running_loop().create_task(
            self._run(decisions, self._stop), name="phone-review")

    async def _run(self, decisions: list[Decision], stop: threading.Event) -> None:
        from ono99tui.bots.review_apart import ReviewFailed, review_apart

        loop = asyncio.get_running_loop()
        await self._send(progress_frame(0, len(decisions)))

        def progress(done: int, of: int) -> None:
            # On the worker thread: the frame is made and sent on the loop, in this task's
            # language (the callback runs in a copy of the thread's context, which is the
            # task's).
            loop.call_soon_threadsafe(self._progress, done, of, stop)

        try:
            review = await asyncio.to_thread(review_apart, decisions,
                                             budget_s=self.budget_s, progress=progress,
                                             cancelled=stop.is_set)
        except ReviewFailed as error:
            log.warning("a phone's review failed: %s", error)
            if not stop.is_set():
                self.last = {"t": "review", "phase": "failed",
                             "text": _("The review could not be worked out.")}
                await self._send(self.last)
            return
        if stop.is_set():
            return
        self.review = review
        self.last = review_frame(review)
        await self._send(self.last)

    def _progress(self, done: int, of: int, stop: threading.Event) -> None:
        if stop.is_set() or self.last is None or self.last["phase"] != "working":
            return
        self.last = progress_frame(done, of)
        asyncio.get_running_loop().create_task(self._send(self.last))

    async def stop(self, *, tell: bool = False) -> None:
        """Give the review up (the child is killed within `review_apart.POLL_S`) and
        forget it; `tell`: send the page a "stopped" frame when one was running."""
        was_working = self.working
        self._stop.set()
        task, self._task = self._task, None
        self.match = None
        self.last = None
        self.review = None
        if task is not None:
            # The worker thread sees the stop at its next poll and kills the child.
            await asyncio.wait({task}, timeout=5.0)
        if was_working and tell:
            await self._send({"t": "review", "phase": "stopped"})
