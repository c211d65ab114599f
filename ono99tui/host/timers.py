"""The table core's timers as a small book: which are armed, until when, and the
`ArmTimer` / `CancelTimer` outputs that tell the adapter.

The core, its turn clock and its bot pacing all arm and cancel through one `TimerBook`,
so a key is armed once at a time wherever it was asked for, and a closed table arms none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ono99tui.host.outputs import ArmTimer, CancelTimer, Output, TimerKey


class TimerBook:
    """Every timer armed and not yet fired or cancelled, with its deadline.

    `emit` receives the outputs; `now` is the time of the input being handled (the core
    sets it at the start of each input).
    """

    __slots__ = ("_deadlines", "_emit", "closed", "now")

    def __init__(self, emit: Callable[[Output], None]) -> None:
        self._deadlines: dict[TimerKey, float] = {}
        self._emit = emit
        self.now = 0.0
        # A closed table arms nothing more (its adapter has stopped).
        self.closed = False

    @property
    def deadlines(self) -> dict[TimerKey, float]:
        """Each armed key and its deadline (the core's read-only `timers` view)."""
        return self._deadlines

    def __contains__(self, key: object) -> bool:
        return key in self._deadlines

    def __bool__(self) -> bool:
        return bool(self._deadlines)

    def __iter__(self) -> Iterator[TimerKey]:
        return iter(self._deadlines)

    def arm(self, key: TimerKey, delay: float) -> None:
        """Arm (or re-arm) `key` to fire `delay` seconds from now."""
        if self.closed:
            return
        deadline = self.now + delay
        self._deadlines[key] = deadline
        self._emit(ArmTimer(key, deadline))

    def cancel(self, key: TimerKey) -> None:
        """Cancel `key` if it is armed."""
        if self._deadlines.pop(key, None) is not None:
            self._emit(CancelTimer(key))

    def cancel_of_type(self, kind: type[TimerKey]) -> None:
        """Cancel every armed key of type `kind` (e.g. every bot's pace timer)."""
        deadlines = self._deadlines
        for key in [key for key in deadlines if type(key) is kind]:
            del deadlines[key]
            self._emit(CancelTimer(key))

    def cancel_all(self) -> None:
        """Cancel every timer (the table is closing)."""
        for key in self._deadlines:
            self._emit(CancelTimer(key))
        self._deadlines.clear()

    def fired(self, key: TimerKey) -> bool:
        """`key` came due: True (and it is no longer armed) if it was armed."""
        return self._deadlines.pop(key, None) is not None

    def deadline(self, key: TimerKey) -> float | None:
        """When `key` fires, if it is armed."""
        return self._deadlines.get(key)

    def left(self, key: TimerKey) -> float:
        """Seconds until `key` fires (0 if it is not armed or past due)."""
        return max(0.0, self._deadlines.get(key, self.now) - self.now)
