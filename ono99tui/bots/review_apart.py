"""A coach's review worked out in a child process (`review_apart`), so that it takes
nothing from a table in the asking program's own process.

A search on a thread holds the interpreter's lock for most of its time slices: where the
program also hosts the table (the host's app, `ono99 host --plain`), the table's event
loop then waits for the lock at every wake-up, and a move's round trip grew from 0.28 ms
to 5.4 ms at p50 (bench/review.py, docs/BOTS.md). A child process has its own
interpreter: with it the table's latency stays as it is alone.

The child is `python -m ono99tui.bots.review_apart`, started with `subprocess` (not
`multiprocessing`, whose start-up hands the child the parent's `sys.stderr` by its file
number, and a Textual app's stand-in for it has none: "bad value(s) in fds_to_keep").
It lowers its own priority, reads the decisions (pickled) on its stdin, and writes each
play's result as a length-prefixed pickle on its stdout as soon as it has it, so the
caller gets its progress play by play and may stop between two (the child is then
killed: one search at most is lost). The figures are those of `review.review_decisions`
(the same generator per play). Blocking: call it from a worker thread (the app's, line
mode's), never from an event loop.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import struct
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import BinaryIO

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
_LENGTH = struct.Struct(">I")


class ReviewFailed(RuntimeError):
    """The child process ended without the review; the message has the end of what it
    wrote on stderr."""


def review_apart(decisions: Iterable[Decision], *, seat: int | None = None,
                 budget_s: float = REVIEW_BUDGET_S, seed: int = 0,
                 progress: Callable[[int, int], None] | None = None,
                 cancelled: Callable[[], bool] | None = None) -> Review:
    """`review.review_decisions` in a child process (see the module docstring): the same
    Review; `progress(done, of)` after each play, `cancelled()` asked while waiting (the
    plays reviewed so far are returned, and the child is stopped). Raises ReviewFailed."""
    chosen = list(decisions)
    if seat is None:
        seat = chosen[0].view.seat if chosen and chosen[0].view.seat is not None else 0
    plays: list[ReviewedPlay] = []
    skipped = 0
    if not chosen or (cancelled is not None and cancelled()):
        return Review(seat, (), 0)
    with tempfile.TemporaryFile() as errors:
        child = subprocess.Popen(
            [sys.executable, "-m", "ono99tui.bots.review_apart"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=errors, env=_child_environment())
        try:
            assert child.stdin is not None and child.stdout is not None
            try:
                child.stdin.write(pickle.dumps((chosen, budget_s, seed)))
                child.stdin.close()
            except BrokenPipeError:
                pass  # the child is gone already: reading its answer says why
            out = child.stdout.fileno()
            for done in range(1, len(chosen) + 1):
                if not _ready(out, cancelled):
                    break
                reviewed = _frame(out, child, errors)
                if reviewed is None:
                    skipped += 1
                else:
                    plays.append(reviewed)
                if progress is not None:
                    progress(done, len(chosen))
        finally:
            if child.poll() is None:
                child.kill()  # stopped early, or something failed: the child this started
            child.wait()
            for pipe in (child.stdin, child.stdout):
                if pipe is not None and not pipe.closed:
                    with contextlib.suppress(BrokenPipeError):
                        pipe.close()
    return Review(seat, tuple(plays), skipped)


def _child_environment() -> dict[str, str]:
    """This environment, with the folder this package was imported from first on the
    child's path (a checkout run without installing it finds itself too)."""
    import ono99tui

    root = str(Path(ono99tui.__file__).resolve().parent.parent)
    environment = dict(os.environ)
    path = environment.get("PYTHONPATH")
    environment["PYTHONPATH"] = root if not path else os.pathsep.join((root, path))
    return environment


def _ready(fd: int, cancelled: Callable[[], bool] | None) -> bool:
    """Wait until the child has written something on `fd`: False once `cancelled()`."""
    while True:
        if cancelled is not None and cancelled():
            return False
        readable, _, _ = select.select([fd], [], [], POLL_S)
        if readable:
            return True


def _exactly(fd: int, size: int) -> bytes | None:
    chunks: list[bytes] = []
    left = size
    while left:
        chunk = os.read(fd, left)
        if not chunk:
            return None  # the child's stdout closed
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _frame(fd: int, child: subprocess.Popen[bytes], errors: BinaryIO) -> ReviewedPlay | None:
    """The next play's result from the child; ReviewFailed if it ended without one."""
    header = _exactly(fd, _LENGTH.size)
    body = None if header is None else _exactly(fd, _LENGTH.unpack(header)[0])
    if body is None:
        child.wait()
        errors.seek(0)
        said = errors.read().decode("utf-8", "replace").strip().splitlines()
        raise ReviewFailed(f"the review's process ended (status {child.returncode})"
                           + (f": {said[-1]}" if said else ""))
    reviewed = pickle.loads(body)  # from the child this started, of our own values
    if reviewed is not None and not isinstance(reviewed, ReviewedPlay):
        raise ReviewFailed("the review's process sent something that is not a play")
    return reviewed


def _child(stdin: BinaryIO, stdout: BinaryIO) -> None:
    """The child's side: the decisions in, each play's result out as soon as it is done."""
    if hasattr(os, "nice"):
        os.nice(NICENESS)
    decisions, budget_s, seed = pickle.load(stdin)
    for number, decision in enumerate(decisions):
        body = pickle.dumps(review_decision(decision, number, budget_s=budget_s, seed=seed))
        stdout.write(_LENGTH.pack(len(body)) + body)
        stdout.flush()


if __name__ == "__main__":
    _child(sys.stdin.buffer, sys.stdout.buffer)
