"""Waiting for what a test expects to see, with generous limits and never a fixed delay.

Three kinds of waiting, one rule: poll the condition, return as soon as it holds, and fail
after *timeout* seconds with *what* was awaited.
- `wait_until`: plain code (a process, a socket, a browser page).
- `wait_for_condition`: code on an event loop (several apps at once, a server).
- `pilot_wait_until`: a Textual app under Pilot, which must be let run between polls.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, TypeVar

from textual.pilot import Pilot

T = TypeVar("T")


def _description(what: str, condition: object) -> str:
    return what or getattr(condition, "__name__", repr(condition))


def wait_until(condition: Callable[[], T], timeout: float = 20.0, what: str = "",
               *, interval: float = 0.05) -> T:
    """Poll *condition* until it returns something true, and return that; fail after *timeout* s."""
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for "
                                 f"{_description(what, condition)}")
        time.sleep(interval)


async def wait_for_condition(predicate: Callable[[], object], *, timeout: float = 15.0,
                             what: str = "") -> None:
    """Let the event loop run until *predicate()* holds; fail after *timeout* seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for "
                                 f"{_description(what, predicate)}")
        await asyncio.sleep(0.02)


async def pilot_wait_until(pilot: Pilot[Any], predicate: Callable[[], object],
                           timeout: float = 15.0, *, what: str = "") -> None:
    """Let the app under *pilot* run until *predicate()* holds; fail after *timeout* seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for "
                                 f"{_description(what, predicate)}")
        await pilot.pause(0.01)
