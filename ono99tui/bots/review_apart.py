"""A coach's review worked out in a child process (`review_apart`), so that it takes
nothing from a table in the asking program's own process.

A search on a thread holds the interpreter's lock for most of its time slices: where the
program also hosts the table (the host's app, `ono99 host --plain`), the table's event
loop then waits for the lock at every wake-up, and a move's round trip grew from 0.28 ms
to 5.4 ms at p50 (bench/review.py, docs/BOTS.md). A child process has its own
interpreter: with it the table's latency stays as it is alone. The child is started
fresh (`spawn`: nothing of the parent's threads or sockets is copied), at a lower
priority than the table and the screen, and each play is one task, so the caller gets
its progress after each and may stop between two. The figures are those of
`review.review_decisions` (the same generator per play). Blocking: call it from a worker
thread (the app's, line mode's), never from an event loop.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

from ono99tui.bots.review import (
    REVIEW_BUDGET_S,
    Decision,
    Review,
    ReviewedPlay,
    review_decision,
)

# How much lower than its parent the child runs (nice).
NICENESS = 10
# How often (seconds) a wait for the child's next play asks whether to stop.
POLL_S = 0.1


def _lower_priority() -> None:
    if hasattr(os, "nice"):
        os.nice(NICENESS)


def review_apart(decisions: Iterable[Decision], *, seat: int | None = None,
                 budget_s: float = REVIEW_BUDGET_S, seed: int = 0,
                 progress: Callable[[int, int], None] | None = None,
                 cancelled: Callable[[], bool] | None = None) -> Review:
    """`review.review_decisions` in a child process (see the module docstring): the same
    Review; `progress(done, of)` after each play, `cancelled()` asked while waiting (the
    plays reviewed so far are returned, and the child is let go)."""
    chosen = list(decisions)
    if seat is None:
        seat = chosen[0].view.seat if chosen and chosen[0].view.seat is not None else 0
    plays: list[ReviewedPlay] = []
    skipped = 0
    if not chosen:
        return Review(seat, (), 0)
    pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_lower_priority)
    stopped = False
    try:
        futures: list[Future[ReviewedPlay | None]] = [
            pool.submit(review_decision, decision, number, budget_s=budget_s, seed=seed)
            for number, decision in enumerate(chosen)]
        for number, future in enumerate(futures):
            reviewed = _wait(future, cancelled)
            if isinstance(reviewed, _Stopped):
                stopped = True
                break
            if reviewed is None:
                skipped += 1
            else:
                plays.append(reviewed)
            if progress is not None:
                progress(number + 1, len(chosen))
    finally:
        # Stopped: the child finishes the play it is on (one search) and exits; the
        # caller does not wait for it.
        pool.shutdown(wait=not stopped, cancel_futures=True)
    return Review(seat, tuple(plays), skipped)


class _Stopped:
    """The caller said to stop (what `_wait` returns then)."""


def _wait(future: Future[ReviewedPlay | None],
          cancelled: Callable[[], bool] | None) -> ReviewedPlay | _Stopped | None:
    """The play's result, or `_Stopped` once `cancelled()` says to stop."""
    while True:
        if cancelled is not None and cancelled():
            return _Stopped()
        try:
            return future.result(timeout=POLL_S)
        except FutureTimeout:
            continue
