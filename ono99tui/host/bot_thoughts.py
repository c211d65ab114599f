"""The table's bots think on one worker thread; each move is taken back when it is needed.

The host adapter (`ono99tui.host.server`) hands each `BotMoveWanted` here. The bot is
made from the request's values and chooses on the table's own worker thread (nothing it
touches is shared with the loop), within the request's budget: past it, or if the bot
raises, the greedy choice (`BotMoveWanted.fallback`) is its move, as
`ono99tui.bots.thinking.decide_off_loop` decides for a network bot.

What differs from awaiting the thread's future: a finished thought does not wake the event
loop. A paced bot's move plays when its pace timer (`BotTurn`) fires, whether it was chosen
long before or not; so the adapter takes the move back at that moment (`wanted`), and only a
move still being thought then, or a move wanted at once (the stand-in of a timed-out turn,
which has no pace timer), is handed back the moment the thread has it. Waking the loop from
the thread after every bot move (a write to the loop's self-pipe, and the GIL handed back
and forth between the two threads) cost the host about 150 µs of CPU per bot move on a
2-core VM, and a player's next view about 30 µs (bench/latency.py, docs/PROTOCOL.md §11).

Whatever happens, each thought is handed back exactly once, at the latest when its budget
runs out (`_budget_spent`): a move nobody waits for any more is then dropped by the core,
as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

from ono99tui.game import Move
from ono99tui.host.outputs import BotMoveWanted, BotTurn

log = logging.getLogger(__name__)


def _timed_choice(request: BotMoveWanted, clock: Callable[[], float]) -> tuple[Move, float]:
    """On the worker thread: the bot's move and when it was chosen (`clock`: the loop's,
    which reads the monotonic clock and may be read from any thread)."""
    move = request.choose()
    return move, clock()


@dataclass(slots=True)
class _Thought:
    """A bot move being thought (or thought and not yet handed back)."""

    request: BotMoveWanted
    future: Future[tuple[Move, float]]
    deadline: float  # the loop's clock: past it, the fallback
    budget: asyncio.TimerHandle
    # Handed back the moment the thread has it (it is wanted now, or its budget matters).
    waking: bool = False


class BotThoughts:
    """The thoughts asked for and not yet handed back (see the module docstring).

    `deliver(key, move)` hands a move back to the core; it is called on the loop, once per
    thought.
    """

    def __init__(self, deliver: Callable[[BotTurn, Move], None]) -> None:
        self._deliver = deliver
        self._thread: ThreadPoolExecutor | None = None
        self._thoughts: dict[BotTurn, _Thought] = {}
        self._closed = False

    def think(self, request: BotMoveWanted, *, paced: bool) -> None:
        """Start thinking `request`'s move; `paced`: a pace timer of its key is armed, and
        `wanted` is called when it fires (else the move is wanted as soon as it is chosen)."""
        if self._closed:
            return
        if self._thread is None:
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ono99-bot")
        loop = asyncio.get_running_loop()
        key = request.key
        deadline = loop.time() + request.budget
        future = self._thread.submit(_timed_choice, request, loop.time)
        thought = _Thought(request, future, deadline,
                           loop.call_at(deadline, self._budget_spent, key))
        earlier = self._thoughts.get(key)
        if earlier is not None:  # asked again for the same view: the newer request counts
            earlier.budget.cancel()
        self._thoughts[key] = thought
        if not paced:
            self._wake_when_chosen(thought, loop)

    def wanted(self, key: BotTurn) -> None:
        """The pace timer of `key` fired: hand its move back now if it was chosen, else the
        moment it is (at the latest when its budget runs out)."""
        thought = self._thoughts.get(key)
        if thought is None:
            return
        if thought.future.done():
            self._hand_back(key)
        else:
            self._wake_when_chosen(thought, asyncio.get_running_loop())

    def close(self) -> None:
        """Forget every thought: a bot thinking now finishes in the background, and its
        move is dropped."""
        self._closed = True
        for thought in self._thoughts.values():
            thought.budget.cancel()
        self._thoughts.clear()
        if self._thread is not None:
            self._thread.shutdown(wait=False, cancel_futures=True)

    def _wake_when_chosen(self, thought: _Thought, loop: asyncio.AbstractEventLoop) -> None:
        if thought.waking:
            return
        thought.waking = True
        key = thought.request.key

        def chosen(_: Future[tuple[Move, float]]) -> None:  # on the worker thread
            # A loop closed meanwhile (the table stopped) has nobody to hand it to.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._chosen, key, thought)

        thought.future.add_done_callback(chosen)

    def _chosen(self, key: BotTurn, thought: _Thought) -> None:
        if self._thoughts.get(key) is thought:
            self._hand_back(key)

    def _budget_spent(self, key: BotTurn) -> None:
        if key in self._thoughts:
            self._hand_back(key)

    def _hand_back(self, key: BotTurn) -> None:
        """Hand the thought's move back (the fallback if it was not chosen in time, or the
        bot failed), once."""
        thought = self._thoughts.pop(key)
        thought.budget.cancel()
        request = thought.request
        future = thought.future
        if not future.done() or future.cancelled():
            move = request.fallback()
            log.warning("%s bot took longer than %g s; the fallback %r plays", request.kind,
                        request.budget, move)
        elif (error := future.exception()) is not None:
            move = request.fallback()
            log.error("%s bot failed to choose; the fallback %r plays", request.kind, move,
                      exc_info=error)
        else:
            move, chosen_at = future.result()
            if chosen_at > thought.deadline:
                move = request.fallback()
                log.warning("%s bot took longer than %g s; the fallback %r plays",
                            request.kind, request.budget, move)
        if not self._closed:
            self._deliver(key, move)
