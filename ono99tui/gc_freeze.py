"""Keep Python's cyclic garbage collector off the objects a host or the app keeps for its
whole life.

A running host holds tens of thousands of objects made at start-up (modules, classes,
functions; with the app, Textual's widgets and styles too) that will never be garbage.
Every full collection walks all of them again: ≈ 10 ms in the latency bench's table
process, 16-35 ms in a running app (measured on the 2-core machine the figures in the docs
come from), a pause that lands on whichever move's views are being sent or drawn at that
moment. Frozen (`gc.freeze`), they are skipped, and a full collection only looks at what
the game made since.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


def freeze_startup_objects() -> None:
    """Collect the garbage of the start-up, then exempt everything alive from collection."""
    gc.collect()
    gc.freeze()


@contextlib.contextmanager
def startup_objects_frozen() -> Iterator[None]:
    """Freeze now; hand the objects back to the collector on exit (the process may go on,
    as in a test run, and what died meanwhile should be reclaimed)."""
    freeze_startup_objects()
    try:
        yield
    finally:
        gc.unfreeze()
